"""The deck library: a home page listing every deck and a page per deck."""
from __future__ import annotations

from flask import Blueprint, abort, render_template
from flask_babel import gettext as _

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
        abort(404, description=_('There is no deck "%(id)s".', id=deck_id))
    return render_template("library/deck.html", deck=found)
