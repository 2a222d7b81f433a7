"""Printable card sheets of a library deck, as a PDF download."""
from __future__ import annotations

from flask import Blueprint, Response, abort, request

from ..decks import builtin_decks
from ..printing import geometry
from ..printing.errors import PrintError

bp = Blueprint("printing", __name__)

YES = ("1", "true", "yes", "on")
NO = ("0", "false", "no", "off", "")


def _flag(name: str) -> bool:
    value = request.args.get(name, "").strip().lower()
    if value in YES:
        return True
    if value in NO:
        return False
    abort(400, description=f'"{name}" must be 1 or 0, not "{value}"')


def _choice(name: str, choices, default: str) -> str:
    value = request.args.get(name, "").strip().lower() or default
    if value not in choices:
        abort(400, description=f'"{name}" must be one of {", ".join(choices)}, not "{value}"')
    return value


def _millimetres(name: str) -> float:
    value = request.args.get(name, "").strip()
    try:
        return float(value) if value else 0.0
    except ValueError:
        abort(400, description=f'"{name}" must be a number of millimetres, not "{value}"')


@bp.get("/decks/<deck_id>/print.pdf")
def deck_pdf(deck_id: str):
    """Query: paper (a4, letter; default by the deck's language), card (poker, bridge, tarot, mini),
    backs and bleed (1 or 0), duplex (long, short), back_offset_x and back_offset_y (mm)."""
    deck = builtin_decks().get(deck_id)
    if deck is None:
        abort(404, description=f'There is no deck "{deck_id}".')
    return pdf_response(deck, deck.id)


def pdf_response(deck, name: str, unprintable: int = 503) -> Response:
    """The deck's card sheets as the query asks (also used by the deck studio, where a deck the font
    cannot print is the deck's problem: `unprintable` is then a 4xx)."""
    from ..printing.sheets import PrintOptions, render_deck

    paper = _choice("paper", tuple(geometry.PAPERS), geometry.default_paper(deck.language))
    try:
        options = PrintOptions(paper=paper, card=_choice("card", tuple(geometry.CARDS), "poker"),
                               bleed=_flag("bleed"), backs=_flag("backs"),
                               duplex=_choice("duplex", geometry.DUPLEX, "long"),
                               back_offset=(_millimetres("back_offset_x"), _millimetres("back_offset_y")))
    except PrintError as exc:
        abort(400, description=str(exc))
    try:
        data = render_deck(deck, options)
    except PrintError as exc:  # the server lacks a font with these glyphs: a server problem, not a bad request
        abort(unprintable, description=f"This deck cannot be printed on this server: {exc}")
    response = Response(data, mimetype="application/pdf")
    response.headers["Content-Disposition"] = f'inline; filename="{name}-{paper}.pdf"'
    return response
