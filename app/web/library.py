"""The deck library: a home page listing every deck and a page per deck."""
from __future__ import annotations

from flask import Blueprint, abort, render_template
from flask_babel import gettext as _

from ..decks import builtin_decks
from ..services import studio
from .asking import teacher_id

bp = Blueprint("library", __name__)


@bp.get("/")
def index() -> str:
    """The built-in decks; for a teacher also their studio decks and those the other teachers share."""
    decks = sorted(builtin_decks().values(), key=lambda deck: deck.title.casefold())
    teacher = teacher_id()
    studio_decks = studio.visible(teacher) if teacher is not None else []
    return render_template("library/index.html", decks=decks, studio_decks=studio_decks)


@bp.get("/decks/<deck_id>")
def deck(deck_id: str) -> str:
    found = builtin_decks().get(deck_id)
    if found is None:
        abort(404, description=_('There is no deck "%(id)s".', id=deck_id))
    return render_template("library/deck.html", deck=found)
