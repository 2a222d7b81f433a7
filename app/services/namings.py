"""A naming: a student recalling a work from memory (an answer to a prompt, or a named ask), graded. Read
from a move's events by the reports (app/services/reports.py) and by the review schedule
(app/services/reviews.py), so both count the same namings with the same verdicts."""
from __future__ import annotations

from typing import Any, Mapping, NamedTuple

from ..engine.game import Game
from ..models import DeckSnapshot
from ..store import SNAPSHOT_PREFIX


class Naming(NamedTuple):
    player: str
    card: str            # the work's card id
    typed: str | None    # what was typed; None when passed
    verdict: str         # right, almost, hinted (right with a hint), wrong or passed
    kind: str            # "answer" (a prompt) or "ask" (a named ask)


def naming_of(game: Game, event: Mapping[str, Any], stored: Mapping[str, Any]) -> Naming | None:
    """The naming an event of a move is, or None. `game`: the deal after the move; `stored`: the move's
    row (it keeps `hint` and what was typed after it, `hinted`, when the student took a hint, and `named`
    when the ask carried a name)."""
    data = event
    hint = stored.get("hint")
    if event["type"] == "answer":
        kind, typed = "answer", data["text"]
    elif event["type"] == "ask" and "verdict" in data and data.get("card") and ("named" in stored or hint):
        kind, typed = "ask", data["named"]
    else:
        return None
    if hint:
        typed = stored.get("hinted")
        if typed is None:
            verdict = "passed"
        else:
            verdict = "hinted" if game.grade(typed, data["card"]).scores else "wrong"
    elif typed is None:
        verdict = "passed"
    else:
        verdict = data["verdict"] if data.get("verdict") in ("right", "almost", "wrong") else (
            "right" if data.get("correct") else "wrong")
    return Naming(data["player"], data["card"], typed, verdict, kind)


def studio_deck_of(deck_id: str, snapshot: DeckSnapshot | None) -> int | None:
    """The studio deck a table's deck (its snapshot) is a version of, if any: its works are then one
    deck's across its versions."""
    if not deck_id.startswith(SNAPSHOT_PREFIX) or snapshot is None:
        return None
    found: int | None = snapshot.studio_deck_id
    return found
