"""`authors replay`: apply a record's moves in order, stop at the first refusal, report the state."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .game import Game
from .moves import IllegalMove
from .record import Record
from .story import tell


@dataclass
class ReplayResult:
    game: Game
    applied: int
    error: IllegalMove | None
    error_move: int | None
    story: list[str]

    @property
    def exit_status(self) -> int:
        return 0 if self.error is None else 1

    def to_json(self) -> dict[str, Any]:
        game = self.game
        state = game.replay_state()
        return {
            "ok": self.error is None,
            "applied": self.applied,
            "error": None if self.error is None else {
                "move": self.error_move, "code": self.error.code, "message": self.error.message},
            **state,
        }


def replay(record: Record) -> ReplayResult:
    game = record.new_game()
    story = tell(game, None, [])
    for number, move in enumerate(record.moves, 1):
        try:
            events = game.apply(move)
        except IllegalMove as refusal:
            story.append(f"{number}. {move.player}: refused ({refusal.code}): {refusal.message}")
            return ReplayResult(game, number - 1, refusal, number, story)
        story.extend(tell(game, (number, move), events))
    return ReplayResult(game, len(record.moves), None, None, story)
