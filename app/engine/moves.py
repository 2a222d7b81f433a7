"""Moves: small frozen values. Players are named as at the table; sets and cards by their deck ids.

Each move type is also its own codec: `to_dict()` writes the shape of the record spec
({"player": "Ann", "ask": "Boris", "set": "9"}), `move_from_dict` reads it back, and `renamed` gives the
move with a player called by another name. Records, the API, the stored log and renames all use these.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ..decks.errors import N_, Sentence, Text

__all__ = ["Ask", "Answer", "Claim", "PassTurn", "Challenge", "Defend", "Move", "MOVE_FIELDS", "move_from_dict", "N_", "IllegalMove"]


@dataclass(frozen=True)
class Ask:
    """Ask `target` for every card of a set (`set`) or for one card (`card`): exactly one is given.
    With `named_asks`, `named` is what the asker typed to name the card's work from memory."""
    player: str
    target: str
    set: str | None = None
    card: str | None = None
    named: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"player": self.player, "ask": self.target}
        if self.set is not None:
            out["set"] = self.set
        if self.card is not None:
            out["card"] = self.card
        if self.named is not None:
            out["named"] = self.named
        return out

    def renamed(self, old: str, new: str) -> "Ask":
        return replace(self, player=_swap(self.player, old, new), target=_swap(self.target, old, new))


@dataclass(frozen=True)
class Answer:
    """Name the work of the oldest card still waiting for a name; text None passes."""
    player: str
    text: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"player": self.player, "answer": self.text}

    def renamed(self, old: str, new: str) -> "Answer":
        return replace(self, player=_swap(self.player, old, new))


@dataclass(frozen=True)
class Claim:
    """Literature: lay a set down for the team, saying which teammate holds which cards."""
    player: str
    set: str
    holders: tuple[tuple[str, tuple[str, ...]], ...]

    @classmethod
    def of(cls, player: str, set_id: str, holders: dict[str, list[str] | tuple[str, ...]]) -> "Claim":
        return cls(player, set_id, tuple((name, tuple(cards)) for name, cards in holders.items()))

    def to_dict(self) -> dict[str, Any]:
        return {"player": self.player, "claim": self.set, "holders": {name: list(cards) for name, cards in self.holders}}

    def renamed(self, old: str, new: str) -> "Claim":
        return replace(self, player=_swap(self.player, old, new),
                       holders=tuple((_swap(name, old, new), cards) for name, cards in self.holders))


@dataclass(frozen=True)
class PassTurn:
    """Hand the turn to `to`: a teammate after emptying one's hand by a claim (and a few house rules)."""
    player: str
    to: str

    def to_dict(self) -> dict[str, Any]:
        return {"player": self.player, "pass_to": self.to}

    def renamed(self, old: str, new: str) -> "PassTurn":
        return replace(self, player=_swap(self.player, old, new), to=_swap(self.to, old, new))


@dataclass(frozen=True)
class Challenge:
    """`challenge_sets`: the player who gave up a laid-down set's last card challenges it (`set`), or lets it
    go (None)."""
    player: str
    set: str | None

    def to_dict(self) -> dict[str, Any]:
        return {"player": self.player, "challenge": self.set}

    def renamed(self, old: str, new: str) -> "Challenge":
        return replace(self, player=_swap(self.player, old, new))


@dataclass(frozen=True)
class Defend:
    """`challenge_sets`: the challenged player names the works of the set from memory, one text each."""
    player: str
    set: str
    names: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"player": self.player, "defend": self.set, "names": list(self.names)}

    def renamed(self, old: str, new: str) -> "Defend":
        return replace(self, player=_swap(self.player, old, new))


Move = Ask | Answer | Claim | PassTurn | Challenge | Defend

# Each kind of move by the key that names it in a record, with the keys it may carry.
MOVE_FIELDS: dict[str, tuple[str, ...]] = {
    "ask": ("player", "ask", "set", "card", "named"),
    "answer": ("player", "answer"),
    "claim": ("player", "claim", "holders"),
    "pass_to": ("player", "pass_to"),
    "challenge": ("player", "challenge"),
    "defend": ("player", "defend", "names"),
}


def move_from_dict(data: dict[str, Any]) -> Move:
    """The move a dict of `to_dict()`'s shape describes (keys beside the move's own are ignored: the
    stored log keeps a hint taken there). The values are taken as they are: a record's reader and the
    API's schemas check them first."""
    player = data["player"]
    if "ask" in data:
        return Ask(player, data["ask"], set=data.get("set"), card=data.get("card"), named=data.get("named"))
    if "answer" in data:
        return Answer(player, data["answer"])
    if "claim" in data:
        return Claim.of(player, data["claim"], data["holders"])
    if "challenge" in data:
        return Challenge(player, data["challenge"])
    if "defend" in data:
        names = data.get("names")
        # (a list as read; anything else is kept as it came, for the engine to refuse with a sentence)
        return Defend(player, data["defend"], tuple(names) if isinstance(names, (list, tuple)) else names)  # type: ignore[arg-type]
    return PassTurn(player, data["pass_to"])


def _swap(name: str, old: str, new: str) -> str:
    return new if name == old else name


class IllegalMove(Sentence):
    """A refused move: a stable code (see the record spec) and a sentence that explains the rule.

    The sentence is an English template with named fields (`template`, `params`), so the web app can
    say it in the reader's language like any other Sentence (`render(translations)`); `message` is the
    English sentence. The templates are marked like every other (`%(name)s` fields)."""

    def __init__(self, code: str, template: str, move: Move | None = None, **params: str):
        self.code = code
        self.move = move
        super().__init__(Text(template, params))
        self.args = (f"{code}: {self.message}",)
