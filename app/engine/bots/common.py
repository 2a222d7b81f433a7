"""What every computer player shares: naming the work, and moves that are not asks."""
from __future__ import annotations

import random
from dataclasses import replace

from ..answers import grade
from ..events import EventFields
from ..moves import Answer, Ask, Challenge, Claim, Defend, Move
from ..views import PlayerView
from .knowledge import Knowledge


def recall_title(view: PlayerView, card_id: str, rng: random.Random, recall: float) -> str | None:
    """The work of a card as a player remembers it: the exact title with chance `recall`, else a miss.

    A miss is half the time a wrong title of the same set (the likely confusion), half the time
    nothing, so the class sees both kinds of mistake."""
    card = view.deck.card(card_id)
    if rng.random() < recall:
        return card.title
    if rng.random() < 0.5:
        others = [c.title for c in view.deck.set(card.set_id).cards
                  if c.id != card.id and not grade(c.title, card).scores]
        if others:
            return rng.choice(others)
    return None


def answer(view: PlayerView, rng: random.Random, recall: float) -> Answer:
    """Name the work of the oldest prompt, as remembered."""
    return Answer(view.seat, recall_title(view, view.prompts[0], rng, recall))


def challenge_move(view: PlayerView, rng: random.Random, recall: float) -> Move | None:
    """`challenge_sets`: the decision on a set laid down (challenge it, or let it stand), or the defence
    of one's own (each of its works as remembered); None when no challenge is open.

    A defended set scores its layer 1; a lost one moves a set from the layer to the challenger, 2 points
    between them. So a challenge pays when the layer names every work with a chance under 2 in 3; the
    computer takes its own memory as the layer's."""
    challenge = view.challenge
    if challenge is None:
        return None
    works = view.set_cards(challenge["set"])
    if challenge["stage"] == "offer":
        return Challenge(view.seat, challenge["set"] if recall ** len(works) < 2 / 3 else None)
    names = (recall_title(view, card, rng, recall) for card in works)
    return Defend(view.seat, challenge["set"], tuple(name for name in names if name is not None))


def named(view: PlayerView, move: Move, rng: random.Random, recall: float) -> Move:
    """With `named_asks`, a card ask carries the work as remembered; any other move as it is."""
    if isinstance(move, Ask) and move.card is not None and view.options.named_asks:
        return replace(move, named=recall_title(view, move.card, rng, recall))
    return move


def claim_of(view: PlayerView, set_id: str, holder_of: dict[str, str]) -> Claim:
    """A claim of set_id naming holder_of[card] for every card, teammates in seat order."""
    owners: dict[str, list[str]] = {}
    for card in view.set_cards(set_id):
        owners.setdefault(holder_of[card], []).append(card)
    order = sorted(owners, key=view.players.index)
    return Claim(view.seat, set_id, tuple((name, tuple(owners[name])) for name in order))


def any_legal(view: PlayerView) -> Move:
    """The first legal move, for the odd position no rule of a bot covers."""
    for move in view.legal_moves():
        return move
    raise RuntimeError(f"{view.seat} is to act but has no legal move (turn {view.turn}, "
                       f"hand counts {view.hand_counts}, stock {view.stock})")


class RememberingBot:
    """A computer player that keeps what its seat saw (Knowledge) and names works with chance `recall`.
    Subclasses decide the other moves in `decide`, from the view and that knowledge only."""

    recall = 0.5

    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self.know = Knowledge()

    def observe(self, events: list[EventFields]) -> None:
        self.know.observe(events)

    def choose(self, view: PlayerView) -> Move:
        self.know.update(view)
        contest = challenge_move(view, self.rng, self.recall)
        if contest is not None:
            return contest
        if view.prompts:
            return answer(view, self.rng, self.recall)
        return named(view, self.decide(view), self.rng, self.recall)

    def decide(self, view: PlayerView) -> Move:
        raise NotImplementedError
