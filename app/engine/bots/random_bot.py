"""`random`: any legal move, each kind of move equally likely, then any move of that kind."""
from __future__ import annotations

import random

from ..events import EventFields
from ..moves import Answer, Move, PassTurn
from ..views import PlayerView, attribution
from .common import any_legal, challenge_move, named

RECALL = 0.5  # a random player still names the work half of the time, so the class sees both outcomes


class RandomBot:
    name = "random"

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def observe(self, events: list[EventFields]) -> None:
        """A random player remembers nothing."""

    def choose(self, view: PlayerView) -> Move:
        rng = self.rng
        if view.challenge is not None:  # a coin decides; the defence is remembered as the others do
            return rng.choice(list(view.legal_moves())) if view.challenge["stage"] == "offer" else \
                challenge_move(view, rng, RECALL) or any_legal(view)
        if view.prompts:
            card = view.deck.card(view.prompts[0])
            return Answer(view.seat, card.title if rng.random() < RECALL else None)
        kinds = []
        if view.asks:
            kinds.append("ask")
        if view.claimable:
            kinds.append("claim")
        if view.pass_targets:
            kinds.append("pass")
        kind = rng.choice(kinds)
        if kind == "ask":
            asks = view.asks
            assert asks is not None  # "ask" is among the kinds only when there are asks
            return named(view, asks[rng.randrange(len(asks))], rng, RECALL)
        if kind == "pass":
            return PassTurn(view.seat, rng.choice(view.pass_targets))
        set_id = rng.choice(view.claimable)
        team = tuple(sorted(view.own_team(), key=view.players.index))
        cards = view.set_cards(set_id)
        # A uniformly random attribution of the set's cards to the team, without listing them all.
        return attribution(view.seat, set_id, cards, team, rng.randrange(len(team) ** len(cards)))
