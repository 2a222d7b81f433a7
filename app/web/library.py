"""The deck library: a home page listing every deck and a page per deck."""
from __future__ import annotations

from flask import Blueprint, abort, render_template

from ..decks import builtin_decks

bp = Blueprint("library", __name__)


@bp.get("/")
def index():
    decks = sorted(builtin_decks().values(), key=lambda deck: deck.title.casefold())
    return render_template("library/index.html", decks=decks)


@bp.get("/decks/<deck_id>")
def deck(deck_id: str):
    found = builtin_decks().get(deck_id)
    if found is None:
        abort(404, description=f'There is no deck "{deck_id}".')
    return render_template("library/deck.html", deck=found)
