"""How a deal came out: one value for the web app's stored results, `authors replay` and `simulate`."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Outcome:
    finished: bool
    players: tuple[str, ...]               # in seat order
    dealer: str
    scores: dict[str, int]                 # sets (a team game: the team's) plus any bonus that counts
    bonus: dict[str, int]                  # works named, whether or not they count in the scores
    books: dict[str, tuple[str, ...]]      # the sets each player laid down
    winners: tuple[str, ...]               # empty until the deal is finished
    teams: tuple[tuple[str, ...], ...] | None
    team_scores: tuple[int, ...] | None
    team_books: tuple[tuple[str, ...], ...] | None
    cancelled: tuple[str, ...]             # sets a failed claim took out of play

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON values (the shape of a finished deal's stored result)."""
        return {"dealer": self.dealer, "players": list(self.players), "scores": dict(self.scores),
                "bonus": dict(self.bonus), "books": {name: list(sets) for name, sets in self.books.items()},
                "winners": list(self.winners), "teams": [list(t) for t in self.teams] if self.teams else None,
                "team_scores": list(self.team_scores) if self.team_scores else None,
                "team_books": [list(b) for b in self.team_books] if self.team_books else None,
                "cancelled": list(self.cancelled)}
