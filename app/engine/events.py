"""What a move caused, as the table saw it. A private part (a card drawn) is shown to its owner only."""
from __future__ import annotations


class Event:
    __slots__ = ("kind", "data", "secret", "owner")  # plain slots: events are made on every move

    def __init__(self, kind: str, data: dict, secret: dict | None = None, owner: str | None = None):
        self.kind, self.data, self.secret, self.owner = kind, data, secret, owner

    def public(self) -> dict:
        return {"type": self.kind, **self.data}

    def seen_by(self, player: str | None) -> dict:
        if self.secret and player is not None and player == self.owner:
            return {"type": self.kind, **self.data, **self.secret}
        return self.public()

    def __repr__(self) -> str:
        return f"Event({self.kind!r}, {self.data!r})"
