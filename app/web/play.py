"""The play screen of a seat (or of several seats passed around one device)."""
from __future__ import annotations

from flask import Blueprint, redirect, render_template, url_for

from ..services import recall, tables as table_service
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
    return render_template("play/play.html", table=table, recall=recall.active(table.options))
