"""The deck library: a home page listing every deck and a page per deck."""
from __future__ import annotations

from flask import Blueprint, abort, render_template
from flask_babel import gettext as _
from flask_login import current_user

from ..decks import builtin_decks
from ..services import studio

bp = Blueprint("library", __name__)


@bp.get("/")
def index():
    """The built-in decks; for a teacher also their studio decks and those the other teachers share."""
    decks = sorted(builtin_decks().values(), key=lambda deck: deck.title.casefold())
    studio_decks = studio.visible(current_user.id) if current_user.is_authenticated else []
    return render_template("library/index.html", decks=decks, studio_decks=studio_decks)


@bp.get("/decks/<deck_id>")
def deck(deck_id: str):
    found = builtin_decks().get(deck_id)
    if found is None:
        abort(404, description=_('There is no deck "%(id)s".', id=deck_id))
    return render_template("library/deck.html", deck=found)
