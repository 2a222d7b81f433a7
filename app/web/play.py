"""The play screen of a seat (or of several seats passed around one device)."""
from __future__ import annotations

from flask import Blueprint, redirect, render_template, url_for

from ..services import homework, recall, tables as table_service
from . import asking, seating
from .tables import kept_language

bp = Blueprint("play", __name__)


@bp.get("/t/<code>/play")
def play(code: str):
    """A shell: play.js draws the screen from /api/tables/<code>, built from this seat's engine view."""
    table = table_service.read(code)
    if not seating.held_seats(table):
        if asking.is_teacher(table):
            return redirect(url_for("tables.manage", code=table.code))
        return redirect(url_for("tables.join_link", code=table.code, **kept_language()))
    # A recall table's screen links nowhere that lists the works (the library, a deck's cards).
    return render_template("play/play.html", table=table, recall=recall.active(table.options),
                           homework_url=_homework_url(table))


def _homework_url(table) -> str | None:
    """A homework game's way back to its link's page (what she named, and when each work comes back)."""
    code = homework.code_of(table.assignment_id) if table.assignment_id else None
    return url_for("homework.student_page", code=code, **kept_language()) if code else None
