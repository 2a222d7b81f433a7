"""What a move caused, as the table saw it. A private part (a card drawn) is shown to its owner only."""
from __future__ import annotations

from typing import TypedDict


class EventFields(TypedDict, total=False):
    """An event as a seat sees it (`type`: its kind) or the fields of one: which fields it has depends on
    its kind, as app/engine/game.py makes them."""
    type: str
    player: str
    target: str                     # ask
    set: str                        # ask, laid-down, claim
    card: str | None                # ask (None: a set was asked for), draw (shown, or the drawer's secret), answer
                                    # (the card the prompt resolved to)
    given: list[str]                # ask: the cards handed over
    named: str | None               # ask, with named_asks: the work as the asker typed it
    verdict: str                    # ask (named_asks), answer: "right", "almost" or "wrong"
    title: str                      # ask (named_asks), answer: the work as it is spelt
    bonus: int                      # ask (named_asks)
    reason: str                     # draw: "go-fish", "empty-hand" or "no-one-to-ask"
    lucky: bool                     # draw
    stock: int                      # draw: the cards left in the stock
    dealt: bool                     # laid-down: from the deal
    cards: list[str]                # laid-down
    text: str | None                # answer: what was typed (None: a pass)
    correct: bool                   # answer: it scored
    outcome: str                    # claim: "correct", "opponents" or "cancelled"
    holders: dict[str, list[str]]   # claim: the cards each teammate was said to hold
    actual: dict[str, str]          # claim: who held each card
    to: str                         # pass
    challenged: bool                # challenge: true, or false when the set is let go
    held: bool                      # defence: every work named, the set is kept
    count: int                      # defence: the works named
    size: int                       # defence: the set's works
    names: list[str]                # defence (the layer's secret): what was typed
    verdicts: list[str]             # defence (secret): each name's verdict
    titles: list[str | None]        # defence (secret): the work each name named, or None


class Event:
    __slots__ = ("kind", "data", "secret", "owner")  # plain slots: events are made on every move

    def __init__(self, kind: str, data: EventFields, secret: EventFields | None = None, owner: str | None = None):
        self.kind, self.data, self.secret, self.owner = kind, data, secret, owner

    def public(self) -> EventFields:
        return {"type": self.kind, **self.data}

    def seen_by(self, player: str | None) -> EventFields:
        if self.secret and player is not None and player == self.owner:
            return {"type": self.kind, **self.data, **self.secret}
        return self.public()

    def __repr__(self) -> str:
        return f"Event({self.kind!r}, {self.data!r})"
