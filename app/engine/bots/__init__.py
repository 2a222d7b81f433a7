"""Computer players. Each is a function of one seat's view and a seeded generator, nothing else.

A bot (the `Bot` protocol) has `choose(view) -> Move` and `observe(events)`: the events of each move
as its seat saw them (`Game.events_seen_by`), which is how a player remembers the table where the rules
keep no public log.
"""
from __future__ import annotations

from typing import Callable, Protocol

from ..events import EventFields
from ..moves import Move
from ..views import PlayerView
from .expert import ExpertBot
from .memory import MemoryBot
from .random_bot import RandomBot


class Bot(Protocol):
    name: str

    def observe(self, events: list[EventFields]) -> None:
        """The events of a move (or of the deal) as this bot's seat saw them."""

    def choose(self, view: PlayerView) -> Move:
        """A legal move for the seat of `view`, from that view (and what was observed) alone."""


BOTS: dict[str, Callable[[int], Bot]] = {"random": RandomBot, "memory": MemoryBot, "expert": ExpertBot}


def make_bot(name: str, seed: int) -> Bot:
    if name not in BOTS:
        raise KeyError(f'unknown computer player "{name}"; choose one of {", ".join(BOTS)}')
    return BOTS[name](seed)
