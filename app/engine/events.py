"""What a move caused, as the table saw it. A private part (a card drawn) is shown to its owner only."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Event:
    kind: str
    data: dict
    secret: dict | None = None  # only the owner may see this part
    owner: str | None = None

    def public(self) -> dict:
        return {"type": self.kind, **self.data}

    def seen_by(self, player: str | None) -> dict:
        if self.secret and player is not None and player == self.owner:
            return {"type": self.kind, **self.data, **self.secret}
        return self.public()
