"""The deck studio in the browser: make, edit, duplicate, delete, upload and download decks, paste them
from a spreadsheet, give sets and cards images, preview each card as it will print, print and play.
Teachers only; the checks are the deck validator's (app.services.studio)."""
from __future__ import annotations

import hashlib
import re
import threading
from collections import OrderedDict
from collections.abc import Mapping
from pathlib import PurePath
from typing import Any

from flask import Blueprint, Response, abort, redirect, render_template, request, send_file, url_for
from flask.typing import ResponseReturnValue
from flask_babel import get_translations
from flask_babel import gettext as _
from flask_login import current_user
from werkzeug.wrappers import Response as BaseResponse

from ..decks import builtin_decks, spreadsheet
from ..decks.errors import Problem
from ..decks.loader import MAX_CARDS, MAX_SETS
from ..decks.look import set_colors
from ..decks.yamlsafe import MAX_BYTES
from ..i18n import translated
from ..printing.errors import PrintError
from ..services import studio
from ..services.errors import ServiceError
from .asking import teachers_only
from .printing import pdf_response

bp = Blueprint("studio", __name__, url_prefix="/studio")

BLANK_SETS = 2          # empty set blocks at the end of the form editor
PREVIEW_CACHE = 256     # card previews kept per process
_previews: OrderedDict[tuple[str, str], bytes] = OrderedDict()
_previews_lock = threading.Lock()
teachers_only(bp)


def _me() -> int:
    return current_user.id  # type: ignore[no-any-return]  # flask_login's proxy is untyped: a teacher's id


# ----------------------------------------------------------------------------------------------------
# The list
# ----------------------------------------------------------------------------------------------------
@bp.get("/")
def index() -> str:
    rows = studio.visible(_me())
    return render_template("studio/index.html", own=[r for r in rows if r.owner_id == _me()],
                           shared=[r for r in rows if r.owner_id != _me()],
                           builtin=sorted(builtin_decks().values(), key=lambda d: d.title.casefold()))


def ink_on(color: str) -> str:
    """The ink that reads best on a set's colour (#rrggbb): white or near-black, whichever has the higher
    WCAG contrast with it, as static/js/cards.js chooses for the cards drawn in play."""
    found = re.fullmatch(r"#?([0-9a-fA-F]{2})([0-9a-fA-F]{2})([0-9a-fA-F]{2})", color or "")
    if not found:
        return "#fff"
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
              for c in (int(h, 16) / 255 for h in found.groups())]
    luminance = 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    ink = 0.0103  # #1a1a1a
    return "#fff" if 1.05 / (luminance + 0.05) >= (luminance + 0.05) / (ink + 0.05) else "#1a1a1a"


@bp.get("/decks/<int:number>")
def deck(number: int) -> tuple[str, int]:
    """A deck's page: what it is, what to do with it, and each card as it will print. Until a card's
    picture arrives its box shows the card in words (its set, in the set's colour, and its title), at the
    printed card's proportions, so no preview is ever a blank box."""
    row = studio.get_visible(_me(), number)
    deck = studio.deck_of(row)
    colors = set_colors(deck)
    return render_template("studio/deck.html", row=row, deck=deck, mine=row.owner_id == _me(), error=None,
                           colors=colors, inks={key: ink_on(color) for key, color in colors.items()}), 200


# ----------------------------------------------------------------------------------------------------
# The form editor
# ----------------------------------------------------------------------------------------------------
def _set_blocks(values: Mapping[str, str]) -> int:
    used = [int(m.group(1)) for key in values for m in [re.match(r"s(\d+)_", key)] if m and values.get(key)]
    return min(MAX_SETS + BLANK_SETS, (max(used) + 1 if used else 2) + BLANK_SETS)


def _editor(values: Mapping[str, str], row: Any = None, problems: list[str] | None = None,
            status: int = 200) -> tuple[str, int]:
    return render_template("studio/edit.html", values=values, row=row, problems=problems or [],
                           set_blocks=_set_blocks(values), card_rows=MAX_CARDS), status


@bp.route("/new", methods=["GET", "POST"])
def new() -> ResponseReturnValue:
    if request.method == "GET":
        return _editor(studio.form_values(None))
    try:
        row = studio.save_form(_me(), request.form, None)
    except studio.DeckInvalid as exc:
        return _editor(request.form, None, [translated(p) for p in exc.problems], 400)
    return redirect(url_for("studio.deck", number=row.id), 303)


@bp.route("/decks/<int:number>/edit", methods=["GET", "POST"])
def edit(number: int) -> ResponseReturnValue:
    row = studio.get_own(_me(), number)
    if request.method == "GET":
        values = studio.form_values(studio.deck_of(row))
        values["shared"] = "1" if row.shared else ""
        return _editor(values, row)
    try:
        studio.save_form(_me(), request.form, row)
    except studio.DeckInvalid as exc:
        return _editor(request.form, row, [translated(p) for p in exc.problems], 400)
    return redirect(url_for("studio.deck", number=row.id), 303)


# ----------------------------------------------------------------------------------------------------
# YAML: upload a file, edit the text; problems beside their lines
# ----------------------------------------------------------------------------------------------------
def _uploaded() -> tuple[str | bytes, str]:
    """The deck sent: a file (its bytes, checked by the validator as a file is) or the text field."""
    upload = request.files.get("file")
    if upload is not None and upload.filename:
        name = PurePath(upload.filename.replace("\\", "/")).name[:100] or studio.SOURCE
        return upload.read(MAX_BYTES + 1), name  # one byte more than a deck may be: the validator says so
    text = request.form.get("text", "")
    return text, studio.SOURCE


def _yaml_page(row: Any, text: str, problems: list[Problem] | None = None, status: int = 200,
               source: str = studio.SOURCE) -> tuple[str, int]:
    lines = text.splitlines() if text else []
    by_line: dict[int, list[str]] = {}
    general = []
    for problem in problems or []:
        if lines and 1 <= problem.line <= len(lines):
            by_line.setdefault(problem.line, []).append(_("Line %(line)d, column %(column)d: %(problem)s",
                                                          line=problem.line, column=problem.column,
                                                          problem=translated(problem)))
        else:
            general.append(translated(problem))
    return render_template("studio/yaml.html", row=row, text=text, lines=_lines_shown(lines, by_line),
                           by_line=by_line, general=general, problem_count=len(problems or []),
                           source=source), status


WHOLE_FILE_LINES = 200  # a longer file shows only its lines with problems and a few around each
CONTEXT_LINES = 2


def _lines_shown(lines: list[str], by_line: dict[int, list[str]]) -> list[tuple[int, str] | None]:
    """(number, text) of each line to show beside the problems; None where lines are left out."""
    if len(lines) <= WHOLE_FILE_LINES:
        return list(enumerate(lines, 1))
    wanted = sorted({n for line in by_line for n in range(line - CONTEXT_LINES, line + CONTEXT_LINES + 1)
                     if 1 <= n <= len(lines)})
    shown: list[tuple[int, str] | None] = []
    last = 0
    for number in wanted:
        if number != last + 1:
            shown.append(None)
        shown.append((number, lines[number - 1]))
        last = number
    if last < len(lines):
        shown.append(None)
    return shown


def _yaml_save(row: Any) -> ResponseReturnValue:
    data, source = _uploaded()
    try:
        if row is None:
            saved = studio.create_from_text(_me(), data, source, shared=bool(request.form.get("shared")))
        else:
            saved = studio.save_text(row, data, source)
    except studio.DeckInvalid as exc:
        return _yaml_page(row, exc.yaml or "", exc.problems, 400, source)
    return redirect(url_for("studio.deck", number=saved.id), 303)


@bp.route("/upload", methods=["GET", "POST"])
def upload() -> ResponseReturnValue:
    if request.method == "GET":
        return _yaml_page(None, "")
    return _yaml_save(None)


@bp.route("/decks/<int:number>/yaml", methods=["GET", "POST"])
def yaml_text(number: int) -> ResponseReturnValue:
    row = studio.get_own(_me(), number)
    if request.method == "GET":
        return _yaml_page(row, row.yaml_text)
    return _yaml_save(row)


@bp.get("/decks/<int:number>/deck.yaml")
def download(number: int) -> Response:
    row = studio.get_visible(_me(), number)
    found = studio.deck_of(row)
    response = Response(studio.canonical_yaml(found), mimetype="application/yaml")
    response.headers["Content-Disposition"] = f'attachment; filename="{found.id}.yaml"'
    return response


# ----------------------------------------------------------------------------------------------------
# Pasting from a spreadsheet
# ----------------------------------------------------------------------------------------------------
HEAD_FIELDS = ("title", "language", "set_label", "card_label")


@bp.route("/paste", methods=["GET", "POST"])
def paste() -> ResponseReturnValue:
    form = request.form
    head = {key: form.get(key, "") for key in HEAD_FIELDS}
    if request.method == "GET":
        return render_template("studio/paste.html", head={"language": "en"}, rows="", sheet=None, shared=False)
    text = form.get("rows", "")
    if form.get("action") == "create":
        sheet, row = studio.create_from_sheet(_me(), text, head, shared=bool(form.get("shared")))
        if row is not None:
            return redirect(url_for("studio.deck", number=row.id), 303)
        status = 400
    else:
        sheet = studio.read_sheet(text, (head["set_label"], head["card_label"]))
        status = 200
    return render_template("studio/paste.html", head=head, rows=text, sheet=spreadsheet.say(sheet, get_translations()),
                           shared=bool(form.get("shared"))), status


# ----------------------------------------------------------------------------------------------------
# Copies, sharing, deleting
# ----------------------------------------------------------------------------------------------------
@bp.post("/duplicate")
def duplicate() -> BaseResponse:
    row = studio.duplicate(_me(), request.form.get("source", ""), get_translations())
    return redirect(url_for("studio.deck", number=row.id), 303)


@bp.post("/decks/<int:number>/share")
def share(number: int) -> BaseResponse:
    row = studio.get_own(_me(), number)
    studio.set_shared(row, request.form.get("shared") == "1")
    return redirect(url_for("studio.deck", number=row.id), 303)


@bp.post("/decks/<int:number>/delete")
def delete(number: int) -> BaseResponse:
    studio.delete(studio.get_own(_me(), number))
    return redirect(url_for("studio.index"), 303)


# ----------------------------------------------------------------------------------------------------
# Images
# ----------------------------------------------------------------------------------------------------
@bp.get("/decks/<int:number>/images")
def images(number: int) -> str:
    row = studio.get_own(_me(), number)
    return render_template("studio/images.html", row=row, deck=studio.deck_of(row), error=None)


@bp.post("/decks/<int:number>/images")
def add_image(number: int) -> ResponseReturnValue:
    row = studio.get_own(_me(), number)
    upload = request.files.get("file")
    data = upload.read(studio.IMAGE_MAX_BYTES + 1) if upload is not None else b""
    try:
        studio.set_image(row, request.form.get("target", ""), data)
    except ServiceError as exc:
        return render_template("studio/images.html", row=row, deck=studio.deck_of(row),
                               error=translated(exc)), exc.status
    return redirect(url_for("studio.images", number=row.id), 303)


@bp.post("/decks/<int:number>/images/remove")
def remove_image(number: int) -> BaseResponse:
    row = studio.get_own(_me(), number)
    studio.remove_image(row, request.form.get("target", ""))
    return redirect(url_for("studio.images", number=row.id), 303)


@bp.get("/decks/<int:number>/images/<name>")
def image(number: int, name: str) -> Response:
    row = studio.get_visible(_me(), number)
    response = send_file(studio.image_path(row, name), mimetype="image/png" if name.endswith(".png") else "image/jpeg",
                         max_age=3600, conditional=True)
    response.headers["Cache-Control"] = "private, max-age=3600"
    return response


# ----------------------------------------------------------------------------------------------------
# Printing, previews, play
# ----------------------------------------------------------------------------------------------------
@bp.get("/decks/<int:number>/print.pdf")
def print_pdf(number: int) -> Response:
    row = studio.get_visible(_me(), number)
    return pdf_response(studio.deck_for_print(row), studio.deck_of(row).id, unprintable=422)


@bp.get("/decks/<int:number>/cards/<card_id>.png")
def card_preview(number: int, card_id: str) -> Response:
    """One card's front as it will print (poker size), drawn by the printing code and rasterized."""
    from ..printing.preview import card_png

    row = studio.get_visible(_me(), number)
    digest = hashlib.sha256(row.yaml_text.encode()).hexdigest()[:24]
    etag = f"{digest}-{hashlib.sha256(card_id.encode()).hexdigest()[:12]}"
    if request.if_none_match.contains(etag):
        response = Response(status=304)
    else:
        key = (digest + str(row.id), card_id)
        with _previews_lock:
            data = _previews.get(key)
        if data is None:
            deck = studio.deck_for_print(row)
            if not deck.has_card(card_id):
                abort(404, description=_('This deck has no card "%(card)s".', card=card_id[:64]))
            try:
                data = card_png(deck, card_id)
            except PrintError as exc:
                abort(422, description=_("This card cannot be printed on this server: %(error)s",
                                               error=translated(exc)))
            with _previews_lock:
                _previews[key] = data
                while len(_previews) > PREVIEW_CACHE:
                    _previews.popitem(last=False)
        response = Response(data, mimetype="image/png")
    response.set_etag(etag)
    response.headers["Cache-Control"] = "private, no-cache"
    return response
