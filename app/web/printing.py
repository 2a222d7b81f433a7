"""Printable card sheets of a library deck, as a PDF download (printed in the deck's language); a score
pad and the duplex alignment page in the reader's language."""
from __future__ import annotations

from collections.abc import Collection

from flask import Blueprint, Response, abort, request
from flask_babel import gettext as _

from ..decks import builtin_decks
from ..decks.model import Deck
from ..i18n import current_language, first_language_tag, translated
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
    abort(400, description=_('"%(name)s" must be 1 or 0, not "%(value)s".', name=name, value=value))


def _choice(name: str, choices: Collection[str], default: str) -> str:
    value = request.args.get(name, "").strip().lower() or default
    if value not in choices:
        abort(400, description=_('"%(name)s" must be one of %(choices)s, not "%(value)s".', name=name,
                                 choices=", ".join(choices), value=value))
    return value


def _millimetres(name: str) -> float:
    value = request.args.get(name, "").strip()
    try:
        return float(value) if value else 0.0
    except ValueError:
        abort(400, description=_('"%(name)s" must be a number of millimetres, not "%(value)s".',
                                 name=name, value=value))


def _whole(name: str, default: int, least: int, most: int) -> int:
    value = request.args.get(name, "").strip()
    if not value:
        return default
    # isascii: "²".isdigit() is true, but int("²") fails
    if not (value.isascii() and value.isdigit()) or not least <= int(value) <= most:
        abort(400, description=_('"%(name)s" must be a whole number from %(least)d to %(most)d, not "%(value)s".',
                                 name=name, least=least, most=most, value=value[:20]))
    return int(value)


def reader_paper() -> str:
    """The paper the reader's printer holds, by the region of the browser's first language (en-US, fr-CA:
    US Letter; en-GB, en-AU: A4); A4 when that language names no region. Not the deck's language: an
    English deck printed in Britain goes on A4."""
    first = first_language_tag()
    return geometry.default_paper(first) if "-" in first.replace("_", "-") else "a4"


@bp.app_context_processor
def _paper_words() -> dict[str, object]:
    return {"reader_paper": reader_paper}  # the print options form preselects it


def _pdf(data: bytes, name: str) -> Response:
    response = Response(data, mimetype="application/pdf")
    response.headers["Content-Disposition"] = f'inline; filename="{name}"'
    response.headers["Vary"] = "Accept-Language, Cookie"  # in the reader's language
    return response


@bp.get("/print/scorepad.pdf")
def scorepad_pdf() -> Response:
    """A score pad in the reader's language. Query: players (2 to 12, default 4), hands (1 to 30, default
    5), paper (a4, letter; default the reader's, `reader_paper`)."""
    from ..printing import scorepad

    language = current_language()
    paper = _choice("paper", tuple(geometry.PAPERS), reader_paper())
    players = _whole("players", 4, scorepad.MIN_PLAYERS, scorepad.MAX_PLAYERS)
    deals = _whole("hands", 5, scorepad.MIN_DEALS, scorepad.MAX_DEALS)
    try:
        data = scorepad.render_scorepad(players, deals, paper, language)
    except PrintError as exc:  # the server lacks a font with these glyphs
        abort(503, description=_("This page cannot be printed on this server: %(error)s", error=translated(exc)))
    return _pdf(data, f"scorepad-{language}-{paper}.pdf")


@bp.get("/print/alignment.pdf")
def alignment_pdf() -> Response:
    """The duplex alignment test page in the reader's language. Query: paper, duplex (long, short),
    back_offset_x and back_offset_y (mm, as the cards will be printed with)."""
    from ..printing.alignment import render_alignment
    from ..printing.sheets import MAX_OFFSET, PrintOptions

    language = current_language()
    paper = _choice("paper", tuple(geometry.PAPERS), reader_paper())
    offset = (_millimetres("back_offset_x"), _millimetres("back_offset_y"))
    if not all(-MAX_OFFSET <= value <= MAX_OFFSET for value in offset):  # NaN too
        abort(400, description=_("A back offset is between -%(most)g and %(most)g mm.", most=MAX_OFFSET))
    options = PrintOptions(paper=paper, duplex=_choice("duplex", geometry.DUPLEX, "long"), back_offset=offset)
    try:
        data = render_alignment(options, language)
    except PrintError as exc:
        abort(503, description=_("This page cannot be printed on this server: %(error)s", error=translated(exc)))
    return _pdf(data, f"alignment-{language}-{paper}.pdf")


@bp.get("/decks/<deck_id>/print.pdf")
def deck_pdf(deck_id: str) -> Response:
    """Query: paper (a4, letter; default the reader's, `reader_paper`), card (poker, bridge, tarot, mini,
    quartet), backs, bleed and index (1 or 0), duplex (long, short), back_offset_x and back_offset_y (mm)."""
    deck = builtin_decks().get(deck_id)
    if deck is None:
        abort(404, description=_('There is no deck "%(id)s".', id=deck_id))
    return pdf_response(deck, deck.id)


def pdf_response(deck: Deck, name: str, unprintable: int = 503) -> Response:
    """The deck's card sheets as the query asks (also used by the deck studio, where a deck the font
    cannot print is the deck's problem: `unprintable` is then a 4xx)."""
    from ..printing.sheets import PrintOptions, render_deck

    paper = _choice("paper", tuple(geometry.PAPERS), reader_paper())
    try:
        options = PrintOptions(paper=paper, card=_choice("card", tuple(geometry.CARDS), "poker"),
                               bleed=_flag("bleed"), backs=_flag("backs"), index=_flag("index"),
                               duplex=_choice("duplex", geometry.DUPLEX, "long"),
                               back_offset=(_millimetres("back_offset_x"), _millimetres("back_offset_y")))
    except PrintError as exc:
        abort(400, description=translated(exc))
    try:
        data = render_deck(deck, options)
    except PrintError as exc:  # the server lacks a font with these glyphs: a server problem, not a bad request
        abort(unprintable, description=_("This deck cannot be printed on this server: %(error)s",
                                                   error=translated(exc)))
    response = Response(data, mimetype="application/pdf")
    response.headers["Content-Disposition"] = f'inline; filename="{name}-{paper}.pdf"'
    response.headers["Vary"] = "Accept-Language"  # the paper, unless asked, is the reader's
    return response
