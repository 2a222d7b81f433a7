"""Pages around a table: open one, join one, the teacher's table page, the projector, the overview."""
from __future__ import annotations

import json

from flask import Blueprint, Response, redirect, render_template, request, url_for
from flask_babel import gettext as _, ngettext
from flask_login import current_user

from ..engine.bots import BOTS
from ..decks.look import is_playing_deck
from ..engine.options import DEFAULT_DECKS, OPTION_NAMES, PRESETS, OptionsError, make_options
from ..decks.errors import N_, say
from ..i18n import current_language, preset_title, translated
from ..languages import LANGUAGES
from ..lan import only_this_computer
from ..services import asks, classes, studio
from ..services import tables as table_service
from ..services.catalog import BOT_NAMES, catalog, choice_labels, option_kind
from ..services.errors import Conflict, ServiceError
from ..services.qr import qr_svg
from . import asking, guard, seating
from .asking import teacher_required
from .links import public_url, qr_of_link
from .table_code import clean, typed_table_code

bp = Blueprint("tables", __name__)

FORM_SEATS = 8
DEFAULT_SEATS = ("student", "student", "student", "computer:random")


def spec_from_form(form) -> dict:
    """The new-table form as the service's table description."""
    options = {}
    for name in OPTION_NAMES:
        value = form.get(f"opt_{name}", "").strip()
        if value == "":
            continue  # as the rules say
        if option_kind(name) == "bool":
            value = {"yes": True, "no": False}.get(value, value)
        options[name] = value
    seats = []
    for i in range(FORM_SEATS):
        kind = form.get(f"seat{i}", "")
        name = form.get(f"seat{i}_name", "").strip()
        if kind == "student":
            seats.append({"kind": "human"})
        elif kind == "here":
            seats.append({"kind": "human", "here": True, "name": name})
        elif kind.startswith("computer:"):
            seats.append({"kind": "computer", "bot": kind.split(":", 1)[1], "name": name or None})
    return {"name": form.get("name", ""), "language": form.get("language") or None,
            "rules": form.get("rules") or "standard",
            "deck": form.get("deck") or None, "options": options, "seats": seats,
            "match": {"format": form.get("match_format") or "hands", "value": form.get("match_value") or 1,
                      "tie_break": form.get("tie_break") == "on"},
            "pace": form.get("pace") or None, "class_id": form.get("class_id") or None}


@bp.route("/tables/new", methods=["GET", "POST"])
@teacher_required
def new():
    """The new-table form (?deck=... chooses the deck, as the deck studio's Play does; ?rules=... the rules,
    and with them the options the form shows)."""
    form = request.form if request.method == "POST" else {"deck": request.args.get("deck", ""),
                                                          "rules": request.args.get("rules", ""),
                                                          "class_id": request.args.get("class", "")}
    if request.method == "POST":
        try:
            spec = spec_from_form(request.form)
            table_service.naming_on_playing_cards(spec["deck"], spec["rules"], current_user.id, spec["options"])
            table, here = table_service.create(spec, current_user.id, default_language=current_language())
        except ServiceError as exc:
            return _new_form(form, translated(exc)), exc.status
        for position, token in here.items():
            seating.remember_seat(table.code, position, token)
        return redirect(url_for("tables.manage", code=table.code), 303)
    return _new_form(form, None)


def _choice_labels(name: str) -> str:
    """An option's choices as the reader reads them ({"set": "a whole set", ...}), for the form's script."""
    return json.dumps({value: _(label) for value, label in (choice_labels(name) or {}).items()}, ensure_ascii=False)


def _given_options(form, preset: str) -> dict:
    """The options the form sets (blank ones left to the rules), as the service takes them; one the rules
    refuse on its own ("seven" for a number) left out, as the error beside the form says."""
    given = spec_from_form(form)["options"]
    usable = {}
    for name, value in given.items():
        try:
            make_options(preset, {name: value})
        except OptionsError:
            continue
        usable[name] = value
    return usable


def _blank_value(name: str, preset: str, given: dict):
    """What an option is at this table when left "as the rules say", the form's other choices as they are:
    the preset's value, as the app changes it once the bonus is on (services/tables.py, app_defaults)."""
    others = {key: value for key, value in given.items() if key != name}
    try:
        return getattr(table_service.table_options(preset, others), name)
    except OptionsError:  # choices that do not go together: the service says so when the table opens
        return getattr(PRESETS[preset], name)


def _value_words(name: str, value) -> str:
    labels = choice_labels(name) or {}
    if isinstance(value, bool):
        key = "yes" if value else "no"
        return _(labels[key]) if key in labels else _("yes") if value else _("no")
    return _(labels[str(value)]) if str(value) in labels else str(value)


def _rules_default(name: str, preset: str, given: dict | None = None) -> str:
    """What an option is at this table when left blank, as the form says it beside the option ("(the rules:
    no)", or "(at this table: ...)" where the bonus changes the preset's value), nothing when the rules
    leave it unset; new_table.js asks for the same words (tables.new_words) when a choice changes."""
    if preset not in PRESETS:
        return ""
    value = _blank_value(name, preset, given or {})
    if value is None:
        return ""  # nothing set (the help line says what blank does: the usual deal, no rank removed)
    if value != getattr(PRESETS[preset], name):
        return _("(at this table: %(value)s)", value=_value_words(name, value))
    return _("(the rules: %(value)s)", value=_value_words(name, value))


def _naming_sentence(preset: str, given: dict) -> str:
    """How naming works at this table, under "Name the work"; empty when no work is named."""
    try:
        sentence = table_service.naming_sentence(table_service.table_options(preset, given))
    except OptionsError:
        return ""
    return translated(sentence) if sentence is not None else ""


def _playing_deck(form, preset: str) -> bool:
    """Whether the chosen deck (else the rules' usual one) is of ordinary playing cards: no works to name."""
    try:
        deck = studio.deck_for_table(form.get("deck") or DEFAULT_DECKS.get(preset, "standard-52"), current_user.id)
    except ServiceError:
        return False
    return is_playing_deck(deck)


def _form_words(form, preset: str) -> dict:
    """What the form says of its options under these choices: the value each has when left blank, the
    naming sentence, whether the deck is of playing cards (the naming options are then not offered)."""
    given = _given_options(form, preset)
    return {"defaults": {name: _rules_default(name, preset, given) for name in OPTION_NAMES},
            "naming": _naming_sentence(preset, given), "playing": _playing_deck(form, preset)}


@bp.get("/tables/new/words")
@teacher_required
def new_words():
    """The form's words for its current choices (?rules=..&deck=..&opt_...=..), for new_table.js."""
    preset = request.args.get("rules") if request.args.get("rules") in PRESETS else "standard"
    return _form_words(request.args, preset)


def _preset_titles() -> dict[str, str]:
    """Each preset by the title of its rules page in the reader's language (the form submits the ids)."""
    return {preset: preset_title(preset) for preset in PRESETS}


def _new_form(form, error: str | None) -> str:
    chosen_rules = form.get("rules") if form.get("rules") in PRESETS else "standard"  # its options are shown
    return render_template("tables/new.html", catalog=catalog(current_user.id), form=form, error=error, seats=FORM_SEATS,
                           chosen_rules=chosen_rules, form_words=_form_words(form, chosen_rules),
                           naming_options=table_service.NAMING_OPTIONS,
                           default_seats=DEFAULT_SEATS, choice_labels=_choice_labels,
                           preset_titles=_preset_titles(), classes=classes.of_teacher(current_user.id))


def bot_names() -> str:
    """The computer players as [id, name] pairs in the reader's language, for the teacher's table page."""
    return json.dumps([[bot, _(BOT_NAMES.get(bot, bot))] for bot in BOTS], ensure_ascii=False)


@bp.get("/t/<code>")
def manage(code: str):
    """The teacher's page of a table; a student who opens it is sent to their seat or to the join form."""
    table = table_service.read(code)
    if not asking.is_teacher(table):
        if seating.held_seats(table):
            return redirect(url_for("play.play", code=table.code, **kept_language()))
        return redirect(url_for("tables.join_link", code=table.code, **kept_language()))
    join_url = public_url("tables.join_link", code=table.code)
    signed = seating.move_link_token(table)  # this browser's pass-and-play seats, to move them elsewhere
    move_url = public_url("tables.take_seats", code=table.code, signed=signed) if signed else None
    move_qr = url_for("tables.take_seats_qr", code=table.code, signed=signed) if signed else None
    return render_template("tables/manage.html", table=table, bots=bot_names(), join_url=join_url, move_url=move_url,
                           move_qr=move_qr, network_notice=_network_notice(),
                           join_page=public_url("tables.join"), this_computer_only=only_this_computer(join_url))


def _network_notice() -> str | None:
    wait = guard.network_limited()
    return guard.network_sentence(wait) if wait else None


@bp.get("/t/<code>/take/<signed>/qr.svg")
def take_seats_qr(code: str, signed: str):
    """The QR code of a link that moves pass-and-play seats (for a tablet's camera)."""
    table = table_service.read(code)
    seating.moved_seats(table, signed)  # a valid link only
    response = Response(qr_svg(public_url("tables.take_seats", code=table.code, signed=signed)),
                        mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "private, no-store"
    return response


@bp.route("/t/<code>/take/<signed>", methods=["GET", "POST"])
def take_seats(code: str, signed: str):
    """Pass-and-play seats moved to this device: GET explains (a link preview moves nothing), POST takes
    them (new tokens, held here alone)."""
    table = table_service.read(code)
    hashes = seating.moved_seats(table, signed)
    names = ", ".join(s.name for s in table.seats if str(s.position) in hashes and s.name)
    page = {"code": table.code, "signed": signed, "names": names, "error": None}
    if request.method == "GET":
        return render_template("tables/take.html", **page)
    try:
        moved = table_service.move_seats(table, hashes)
    except ServiceError as exc:
        return render_template("tables/take.html", **{**page, "error": translated(exc)}), exc.status
    for position, token in moved.items():
        seating.remember_seat(table.code, position, token)
    return redirect(url_for("play.play", code=table.code), 303)


@bp.post("/t/<code>/take-here")
def take_here(code: str):
    """The table's teacher, logged in on another browser (the classroom tablet, say), moves the table's
    pass-and-play seats to it from the table's page: the same move as the link's (`move_seats`), for every
    such seat this browser does not hold. Her other browser stops playing them and is told so."""
    table = asking.managed(code)  # (a 403 with its sentence for anyone but the table's teacher)
    hashes = table_service.passed_around_seats(table, but=seating.held_seats(table))
    if not hashes:
        raise Conflict(N_("No seat of this table is played on another device passed around: there is nothing "
                          "to move here."), code="no-seats-to-move")
    for position, token in table_service.move_seats(table, hashes).items():
        seating.remember_seat(table.code, position, token)
    return redirect(url_for("play.play", code=table.code), 303)


def kept_language() -> dict[str, str]:
    """This request's ?lang=, when it names one of ours, for the next link or redirect of joining (join link,
    join page, waiting, play): a phone sent a link in Russian stays in Russian, its cookie kept or not."""
    asked = request.args.get("lang")
    return {"lang": asked} if asked in LANGUAGES else {}


@bp.route("/join", methods=["GET", "POST"])
def join():
    if request.method == "GET":
        return render_template("tables/join.html", code=request.args.get("code", ""), name="", error=None,
                               lang=kept_language())
    code, name = typed_table_code() or "", request.form.get("name", "")
    table = None
    try:
        table = table_service.read(code)
        if not seating.held_seats(table):
            # A class's table: the name tapped on its roster, or typed as it is there (the same path).
            student = request.form.get("student") or table_service.roster_student_named(table, name)
            if student:
                seat, token = guard.join_from_roster(table, student, request.form.get("word"))
            else:
                seat, token = table_service.join(table, name, **guard.joining())
            seating.remember_seat(table.code, seat.position, token)
    except table_service.WaitForTeacher as asked:  # a student's seat: she waits for the teacher
        seating.remember_ask(table.code, asked.token)
        return redirect(url_for("tables.waiting", code=table.code, **kept_language()), 303)
    except ServiceError as exc:
        roster = table_service.roster_choices(table) if table is not None else None
        return render_template("tables/join.html", code=table.code if table is not None else code, name=name,
                               error=translated(exc), roster=roster, word=_needs_word(table),
                               lang=kept_language()), exc.status
    return redirect(url_for("play.play", code=table.code, **kept_language()), 303)


def _needs_word(table) -> bool:
    school_class = classes.class_of(table) if table is not None else None
    return bool(school_class and school_class.word)


# What a device that asked for its seat back is told, at each step (the waiting page and its script).
ASK_SENTENCES = {
    "waiting": N_("Your teacher has been asked to let you back in. Your seat and your cards are kept for you."),
    "let-in": N_("Your teacher let you back in: your game opens now."),
    "refused": N_("Your teacher did not let you back in. Ask your teacher what to do."),
    "passed": N_("Your teacher let another device into this seat, so not this one. Ask your teacher what to do."),
    "expired": N_("This request has ended. Type your name again to ask once more."),
}


def waited_sentence(seconds: int) -> str:
    """How long a device has waited, for the child holding it: whole minutes, or less than one."""
    minutes = seconds // 60
    if minutes < 1:
        return _("You have waited less than a minute.")
    return ngettext("You have waited %(num)d minute.", "You have waited %(num)d minutes.", minutes)


def asking_answer(table, status: str, position: int | None, why: str | None = None) -> dict:
    """What the waiting device is told of its request: where it stands, in a sentence (why it ended, when
    the teacher let another device in), for which seat's name (its own: nothing of anyone else's), while
    it waits how long it has (`waited_seconds`, on the server's clock, and `waited` in a sentence: this
    browser's own request, found by the secret in its cookie), and once let in, the play screen's address."""
    seat = next((s for s in table.seats if s.position == position), None)
    sentence = ASK_SENTENCES["passed" if why == "passed" else status]
    waited = asks.waited_seconds(table, seating.ask_token(table.code)) if status == "waiting" else None
    if status == "waiting" and waited is None:
        waited = 0  # asked in this very request, or its cookie did not follow: it has just asked
    return {"status": status, "message": translated(say(sentence)),
            "name": seat.name if seat is not None and status != "expired" else None,
            "waited_seconds": waited, "waited": waited_sentence(waited) if waited is not None else None,
            "play": url_for("play.play", code=table.code, **kept_language()) if status == "let-in" else None}


def settled_ask(table) -> tuple[str, int | None, str | None] | None:
    """Where this browser's request to have a seat back at the table stands (tables.ask_status), None when
    it made none; its cookie follows: the seat is held once let in, a request that ended no longer kept."""
    token = seating.ask_token(table.code)
    if token is None:
        return None
    status, position, why = table_service.ask_status(table, token)
    if status == "let-in" and position is not None:
        seating.remember_seat(table.code, position, token)
        seating.forget_ask(table.code)
    elif status == "expired":
        seating.forget_ask(table.code)
    return status, position, why


@bp.get("/j/<code>/waiting")
def waiting(code: str):
    """The join page while this device waits for the teacher to let it back into its seat: what is
    happening in a sentence, and join.js asks how the request stands and opens the play screen once let in
    (a reload does as much: a device let in goes straight to play)."""
    table = table_service.read(code)
    if seating.held_seats(table):
        return redirect(url_for("play.play", code=table.code, **kept_language()))
    settled = settled_ask(table)
    if settled is None:
        return redirect(url_for("tables.join_link", code=table.code, **kept_language()))
    status, position, why = settled
    if status == "let-in":
        return redirect(url_for("play.play", code=table.code, **kept_language()))
    return render_template("tables/join.html", code=table.code, name="", error=None, waiting=True,
                           asking=asking_answer(table, status, position, why), lang=kept_language(),
                           ask_url=url_for("api.ask_status", code=table.code, **kept_language()))


@bp.get("/j/<code>")
def join_link(code: str):
    """The join link of the QR code: the join form with the code filled in."""
    table = table_service.read(code)
    if seating.held_seats(table):
        return redirect(url_for("play.play", code=table.code, **kept_language()))
    return render_template("tables/join.html", code=table.code, name="", error=None, lang=kept_language(),
                           roster=table_service.roster_choices(table), word=_needs_word(table))


@bp.get("/t/<code>/projector")
def projector(code: str):
    table = table_service.read(code)
    school_class = classes.class_of(table) if asking.is_teacher(table) else None  # the word: the teacher's screen only
    return render_template("tables/projector.html", table=table, class_word=school_class.word if school_class else None,
                           join_url=public_url("tables.join_link", code=table.code))


@bp.get("/t/<code>/qr.svg")
def qr(code: str):
    table = table_service.read(code)
    return qr_of_link(public_url("tables.join_link", code=table.code))


@bp.get("/teacher")
@teacher_required
def overview():
    return render_template("tables/overview.html")


@bp.app_template_filter("join_code")
def join_code_filter(code: str) -> str:
    code = clean(code)
    return f"{code[:3]} {code[3:]}"
