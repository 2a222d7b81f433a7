"""Computer players. Each is a function of one seat's view and a seeded generator, nothing else.

A bot has `choose(view) -> Move` and `observe(events)`: the events of each move as its seat saw them
(`Event.seen_by`), which is how a player remembers the table where the rules keep no public log.
"""
from __future__ import annotations

from .expert import ExpertBot
from .memory import MemoryBot
from .random_bot import RandomBot

BOTS = {"random": RandomBot, "memory": MemoryBot, "expert": ExpertBot}


def make_bot(name: str, seed: int):
    if name not in BOTS:
        raise KeyError(f'unknown computer player "{name}"; choose one of {", ".join(BOTS)}')
    return BOTS[name](seed)
