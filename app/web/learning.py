"""What the class remembers (issue #34): the teacher's grid of a class's students × a deck's works, each
work recalled, due, missed or never seen (app/services/learning.py); its CSV and its JSON. Teachers only,
their own classes."""
from __future__ import annotations

import time
from datetime import date
from typing import Any

from flask import Blueprint, Response, g, jsonify, render_template, request
from flask.typing import ResponseReturnValue
from flask_login import current_user

from ..i18n import format_day, iso_time
from ..services import classes, learning
from .asking import teachers_only

bp = Blueprint("learning", __name__)
teachers_only(bp)


def _grid(number: int) -> learning.Grid:
    """The class's grid (one of the teacher's own) for ?deck=KEY, at this moment, on her calendar."""
    school_class = classes.get_own(current_user.id, number)
    deck = " ".join(request.args.get("deck", "").split())[:80] or None
    return learning.build(school_class, current_user.id, deck, time.time(), g.get("time_zone"))


@bp.get("/classes/<int:number>/learning")
def page(number: int) -> str:
    grid = _grid(number)
    days: dict[date, str] = {}

    def due_day(moment: float) -> str:
        """The day a work is due again, in the reader's words (each day formatted once a page)."""
        day = grid.day(moment)
        if day not in days:
            days[day] = format_day(day)
        return days[day]

    return render_template("classes/learning.html", grid=grid, works=grid.works, due_day=due_day,
                           choices=learning.choices(current_user.id, grid.decks), time_zone=g.get("time_zone"))


@bp.get("/classes/<int:number>/learning.csv")
def csv(number: int) -> Response:
    grid = _grid(number)
    response = Response(learning.grid_csv(grid), mimetype="text/csv")
    name = f"learning-{grid.class_id}-{grid.deck.key.replace(':', '-')}-{grid.day(grid.now).isoformat()}.csv"
    response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    response.headers["Cache-Control"] = "private, no-store"
    return response


def described(grid: learning.Grid) -> dict[str, Any]:
    """The grid as the API says it: each student's cells in the order of `works`."""
    return {
        "class": {"id": grid.class_id, "name": grid.class_name},
        "deck": {"key": grid.deck.key, "title": grid.deck.title},
        "decks": [{"key": d.key, "title": d.title, "reviews": d.reviews} for d in grid.decks],
        "now": iso_time(grid.now), "time_zone": grid.zone or "UTC",
        "works": [{"card": w.card_id, "title": w.title, "set": w.set_id, "set_name": w.set_name} for w in grid.works],
        "students": [{
            "id": row.student_id, "name": row.name, "removed": row.removed, "days_practised": row.days_practised,
            "counts": row.counts, "due_now": [w.card_id for w in row.due_now],
            "cells": [{"card": work.card_id, "state": cell.state,
                       "due": iso_time(cell.due) if cell.due is not None else None,
                       "due_day": grid.day(cell.due).isoformat() if cell.due is not None else None,
                       "reviews": cell.reviews} for work, cell in zip(grid.works, row.cells)],
        } for row in grid.rows],
    }


@bp.get("/api/classes/<int:number>/learning")
def api(number: int) -> ResponseReturnValue:
    return jsonify(described(_grid(number)))
