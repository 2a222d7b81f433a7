"""Computer players. Each is a function of one seat's view and a seeded generator, nothing else."""
from __future__ import annotations

from .random_bot import RandomBot

BOTS = {"random": RandomBot}


def make_bot(name: str, seed: int):
    if name not in BOTS:
        raise KeyError(f'unknown computer player "{name}"; choose one of {", ".join(BOTS)}')
    return BOTS[name](seed)
