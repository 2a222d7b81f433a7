"""Moves: small frozen values. Players are named as at the table; sets and cards by their deck ids."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Ask:
    """Ask `target` for every card of a set (`set`) or for one card (`card`): exactly one is given.
    With `named_asks`, `named` is what the asker typed to name the card's work from memory."""
    player: str
    target: str
    set: str | None = None
    card: str | None = None
    named: str | None = None


@dataclass(frozen=True)
class Answer:
    """Name the work of the oldest card still waiting for a name; text None passes."""
    player: str
    text: str | None = None


@dataclass(frozen=True)
class Claim:
    """Literature: lay a set down for the team, saying which teammate holds which cards."""
    player: str
    set: str
    holders: tuple[tuple[str, tuple[str, ...]], ...]

    @classmethod
    def of(cls, player: str, set_id: str, holders: dict[str, list[str] | tuple[str, ...]]) -> "Claim":
        return cls(player, set_id, tuple((name, tuple(cards)) for name, cards in holders.items()))

    def holders_dict(self) -> dict[str, tuple[str, ...]]:
        return dict(self.holders)


@dataclass(frozen=True)
class PassTurn:
    """Hand the turn to `to`: a teammate after emptying one's hand by a claim (and a few house rules)."""
    player: str
    to: str


Move = Ask | Answer | Claim | PassTurn


def N_(text: str) -> str:
    """Marks an English sentence for the translation catalogs (the web app translates it, not the engine)."""
    return text


class IllegalMove(Exception):
    """A refused move: a stable code (see the record spec) and a sentence that explains the rule.

    The sentence is an English template with named fields (`template`, `params`), so the web app can
    translate the template and fill in the names; `message` is the English sentence."""

    def __init__(self, code: str, template: str, move: Move | None = None, **params: str):
        self.code = code
        self.template = template
        self.params = params
        self.message = template.format(**params) if params else template
        self.move = move
        super().__init__(f"{code}: {self.message}")
