"""The JSON API: everything the pages do, for scripts too. Described at /api/openapi.json."""
from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

import orjson
from flask import Blueprint, Response, jsonify, request, send_file, url_for
from flask_login import current_user

from ..decks.errors import N_, say
from ..i18n import current_language, preset_title, translated

from ..services import deals, moves, reading, recall, schemas, state, tables
from ..services.catalog import catalog
from ..services.errors import BadRequest, Conflict, NotFound
from ..services.reading import name_key
from . import asking, guard, seating
from . import tables as table_pages
from .table_code import clean, valid
from .asking import teacher_required
from .links import table_links
from .openapi import openapi_document

bp = Blueprint("api", __name__, url_prefix="/api")


def json_body(required: bool = True) -> dict:
    """The request's JSON object; a clear 400 when it is missing or malformed."""
    raw = request.get_data(cache=True)
    if not raw.strip():
        if required:
            raise BadRequest(N_('send a JSON object in the body, with "Content-Type: application/json"'),
                             code="malformed-json")
        return {}
    if not request.is_json:
        raise BadRequest(N_('send JSON with "Content-Type: application/json"'), code="malformed-json")
    try:
        data = orjson.loads(raw)  # nesting deeper than 1,024 is refused here, not by a RecursionError
    except orjson.JSONDecodeError as exc:
        raise BadRequest(say(N_("the body is not valid JSON: %(error)s"), error=str(exc)),
                         code="malformed-json") from None
    if not isinstance(data, dict):
        raise BadRequest(N_("the body should be a JSON object ({...})"), code="malformed-json")
    return data


def state_answer(table, seat, held: dict, teacher: bool, script_root: str) -> dict:
    """The state this browser is sent (for `seat`, holding the seats `held`), with the table's links:
    the state's view and its stream alike (app/web/events.py builds each later event with this). A seat
    the browser lost is the view's alone to tell (`seat_lost`: a stream whose reader lost one asks the
    view for every state)."""
    data = state.table_state(table, seat=seat, held=set(held), teacher=teacher)
    data["join_url"], links = table_links(table.code, script_root)
    data["links"] = dict(links)
    data["seat_lost"] = None
    return data


def _state(table, seat=None) -> dict:
    return state_answer(table, seat, seating.held_seats(table), asking.is_teacher(table), request.script_root)


@bp.get("/openapi.json")
def openapi():
    return jsonify(openapi_document())


@bp.get("/catalog")
def get_catalog():
    """Decks (built-in; for a teacher also their studio decks and the shared ones), rules, options."""
    return jsonify(catalog(asking.teacher_id()))


@bp.get("/tables")
@teacher_required
def list_tables():
    """The teacher's overview: each open table of theirs with its players and scores."""
    rows = tables.open_tables(current_user.id)
    now = time.time()  # (each table's seats' presence too: the overview flags a turn that waits on an away student)
    etag = f"o{current_user.id}-{current_language()}-" + "-".join(
        f"{t.id}.{t.version}.{reading.presence.teacher_stamp(map(reading.presence.seat_tuple, t.seats), now)}"
        for t in rows)
    if request.if_none_match.contains(etag):
        return _not_modified(etag)
    data = state.overview(rows)
    for row, table in zip(data, rows):
        row["links"] = {"projector": url_for("tables.projector", code=table.code),
                        "manage": url_for("tables.manage", code=table.code)}
        row["teacher"] = asking.is_teacher(table)
        row["rules_title"] = preset_title(table.rules)  # the rules by their name in the reader's language
    return _fresh(jsonify(tables=data), etag)


@bp.post("/tables")
@teacher_required
def create_table():
    table, here = tables.create(json_body(), current_user.id, default_language=current_language())
    for position, token in here.items():
        seating.remember_seat(table.code, position, token)
    response = jsonify(_state(table))
    response.status_code = 201
    response.headers["Location"] = url_for("api.table_state", code=table.code)
    return response


def _not_modified(etag: str) -> Response:
    response = Response(status=304)
    return _fresh(response, etag)


def _fresh(response: Response, etag: str) -> Response:
    response.set_etag(etag)
    response.headers["Cache-Control"] = "no-cache, private"
    response.headers["Vary"] = "Cookie"
    return response


def state_etag(table, seat, held: dict, teacher: bool) -> str:
    """The ETag of the state this browser is shown of the table for `seat` (the fast poll builds the same
    from the version's rows; the teacher's also carries the seats' presence)."""
    stamp = reading.presence.teacher_stamp(map(reading.presence.seat_tuple, table.seats), time.time()) if teacher else ""
    return reading.etag(table.id, table.version, seat.position if seat else None, teacher, sorted(held), stamp)


def _etag(table, seat) -> str:
    return state_etag(table, seat, seating.held_seats(table), asking.is_teacher(table))


def _unchanged_etag(code: str) -> str | None:
    """The ETag the full answer would carry, when the request's If-None-Match already names it, from one
    small query (the version's rows) rather than the table, its deals and its game: nearly every poll, and
    every rebuild of a stream's state after a change that is not this browser's, is answered 304 from it.
    Writes nothing: the browser's seats' presence is noted for the clock."""
    if not request.if_none_match:
        return None
    code = clean(code)
    if not valid(code):
        return None
    rows = reading.version_rows(code)
    tokens = seating.tokens_held(code)
    if tokens:
        now = time.time()
        reading.presence.mark_seen(reading.seen_due(rows, tokens, now), now)
    tag = reading.unchanged_etag(rows, tokens, request.args.get("seat"), asking.is_owner_id)
    return tag if tag and request.if_none_match.contains(tag) else None


@bp.get("/tables/<code>")
def table_state(code: str):
    """The table as this browser may see it: a seat's view, or the public view. ETag: the version."""
    unchanged = _unchanged_etag(code)
    if unchanged:
        return _not_modified(unchanged)
    table = tables.read(code)
    held = seating.held_seats(table)
    now = time.time()  # the seats' presence, noted for the clock to write down (and to hand a stood-in seat back)
    reading.presence.mark_seen(reading.presence.due(held.values(), now), now)
    seat = asking.requested_seat(table, request.args.get("seat"))
    etag = _etag(table, seat)
    if request.if_none_match.contains(etag):
        return _not_modified(etag)
    data = _state(table, seat)
    # A seat this browser held and no longer opens: told why when the teacher gave it away (issue #33).
    data["seat_lost"] = seat_lost(table)
    return _fresh(jsonify(data), etag)


def seat_lost(table) -> str | None:
    """Why this browser's cookie names a seat of the table that it no longer opens, when the teacher gave
    it away (in the reader's language), else None."""
    lost = [tables.seat_lost_sentence(table, position) for position in seating.seats_lost(table)]
    return next((translated(sentence) for sentence in lost if sentence is not None), None)


@bp.get("/tables/<code>/deck")
def deck(code: str):
    table = tables.read(code)
    data = state.deck_dict(table)
    data["images_url"] = url_for("api.deck_image", code=table.code, name="")  # + a set's or card's `image`
    response = jsonify(data)
    response.headers["Cache-Control"] = "public, max-age=3600"
    return response


@bp.get("/tables/<code>/images/<name>")
def deck_image(code: str, name: str):
    """An image of the table's deck (a studio deck's set or card picture), for the cards on screen."""
    path = state.deck_image(tables.read(code), name)
    response = send_file(path, mimetype="image/png" if name.endswith(".png") else "image/jpeg", max_age=3600,
                         conditional=True)
    response.headers["Cache-Control"] = "public, max-age=3600"
    return response


@bp.post("/tables/<code>/join")
def join(code: str):
    table = tables.read(code)
    body = json_body()
    held = seating.held_seats(table)
    if held:
        seat = next(iter(held.values()))
        data = _state(table, seat)
        data["rejoined"] = True
        return jsonify(data)
    sent = schemas.parse(schemas.JoinRequest, body)
    try:
        # A class's table: the name picked from its roster, or typed as it is there (the same path).
        student = sent.student if sent.student is not None else tables.roster_student_named(table, sent.name)
        if student is not None:
            seat, token = guard.join_from_roster(table, student, sent.word)
        else:
            seat, token = tables.join(table, sent.name, **guard.joining())
    except tables.WaitForTeacher as asked:
        seating.remember_ask(table.code, asked.token)
        response = jsonify(asking=table_pages.asking_answer(table, "waiting", asked.position))
        response.status_code = 202
        return response
    seating.remember_seat(table.code, seat.position, token)
    table = tables.read(code)
    response = jsonify(_state(table, next(s for s in table.seats if s.position == seat.position)))
    response.status_code = 201
    return response


@bp.get("/tables/<code>/ask")
def ask_status(code: str):
    """This device's request to have its seat back: waiting, let-in (the seat is now this browser's),
    refused or expired."""
    table = tables.read(code)
    settled = table_pages.settled_ask(table)
    if settled is None:
        raise NotFound(N_("This device has not asked for a seat at this table: join it with your name."),
                       code="no-request")
    response = jsonify(asking=table_pages.asking_answer(table, *settled))
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/tables/<code>/start")
def start(code: str):
    table = asking.managed(code)
    tables.start(table)
    table = tables.read(code)
    if deals.advance(table):
        table = tables.read(code)
    return jsonify(_state(table))


@bp.post("/tables/pause")
@teacher_required
def pause_all():
    """Pause (or resume) every open table of this teacher: {"paused": true}."""
    asked = schemas.parse(schemas.PauseRequest, json_body())
    return jsonify(paused=asked.paused, changed=tables.pause_all(current_user.id, asked.paused))


@bp.post("/tables/<code>/pause")
def pause(code: str):
    """Pause the table, or let play go on: {"paused": true|false} (teacher)."""
    table = asking.managed(code)
    tables.set_paused(table, schemas.parse(schemas.PauseRequest, json_body()).paused)
    return jsonify(_state(tables.read(code)))


@bp.post("/tables/<code>/timer")
def timer(code: str):
    """Set, change or switch off the time a student has to make a move: {"seconds": 60} (10 to 600) or
    {"seconds": null} (teacher). Whoever is to move gets the new time in full, from now."""
    table = asking.managed(code)
    tables.set_turn_seconds(table, schemas.parse(schemas.TimerRequest, json_body()).seconds)
    return jsonify(_state(tables.read(code)))


@bp.post("/tables/<code>/lock")
def lock(code: str):
    """Lock the table against new joins, or open it again: {"locked": true|false} (teacher)."""
    table = asking.managed(code)
    tables.set_locked(table, schemas.parse(schemas.LockRequest, json_body()).locked)
    return jsonify(_state(tables.read(code)))


@bp.post("/tables/<code>/close")
def close(code: str):
    table = asking.managed(code)
    tables.close(table)
    return jsonify(_state(tables.read(code)))


@bp.patch("/tables/<code>/seats/<position>")
def change_seat(code: str, position: str):
    """Rename the player ({"name": ...}) or change who sits there ({"kind": "computer", "bot": ...})."""
    table = asking.managed(code)
    change = schemas.parse(schemas.SeatChange, json_body())
    if change.kind is not None:
        tables.set_kind(table, position, change.kind, change.bot)
    if change.name is not None:
        tables.rename(tables.read(code), position, change.name)
    table = tables.read(code)
    if deals.advance(table):
        table = tables.read(code)
    return jsonify(_state(table))


@bp.post("/tables/<code>/seats/<position>/let-in")
def let_in(code: str, position: str):
    """Let a device waiting for this seat in (teacher): {"ask": id} names it among the state's `asks`
    (no body: the only one). It gets the seat, the old device loses it, the others are told no."""
    table = asking.managed(code)
    tables.let_in(table, position, schemas.parse(schemas.AskAnswer, json_body(required=False)).ask)
    return jsonify(_state(tables.read(code)))


@bp.post("/tables/<code>/seats/<position>/refuse")
def refuse(code: str, position: str):
    """Refuse a device waiting for this seat (teacher): {"ask": id}, or no body for the only one."""
    table = asking.managed(code)
    tables.refuse(table, position, schemas.parse(schemas.AskAnswer, json_body(required=False)).ask)
    return jsonify(_state(tables.read(code)))


@bp.post("/tables/<code>/seats/<position>/let-back")
def let_back(code: str, position: str):
    """Let a student taken off for the match back (teacher): her device may ask for the seat again."""
    tables.let_back(asking.managed(code), position)
    return jsonify(_state(tables.read(code)))


@bp.get("/network")
@teacher_required
def network():
    """Whether new joins from this browser's network are refused just now (many wrong join codes or class
    words from it), for the teacher's page: {"limited": bool, "retry_after": seconds, "message": ...}."""
    wait = guard.network_limited()
    response = jsonify(limited=bool(wait), retry_after=math.ceil(wait),
                       message=guard.network_sentence(wait) if wait else None)
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/tables/<code>/seats/<position>/stand-in")
def stand_in(code: str, position: str):
    """A computer plays this away student's seat until she is back (teacher): {"bot": ...} or no body."""
    table = asking.managed(code)
    body = json_body(required=False)
    change = schemas.parse(schemas.SeatChange, {**body, "kind": "computer"})  # (the bot's check)
    tables.stand_in(table, position, change.bot)
    table = tables.read(code)
    if deals.advance(table):
        table = tables.read(code)
    return jsonify(_state(table))


@bp.delete("/tables/<code>/seats/<position>")
def remove_player(code: str, position: str):
    table = asking.managed(code)
    tables.remove_player(table, position, for_good=request.args.get("for_good") in ("1", "true"))
    return jsonify(_state(tables.read(code)))


@bp.post("/tables/<code>/moves")
def move(code: str):
    """Play a move from this browser's seat: {"seat": 0, "version": 12, "move": {"ask": "Boris", "set": "9"}}."""
    table = tables.read(code)
    body = json_body()
    sent = schemas.parse(schemas.MoveRequest, body)
    seat = asking.seat_required(table, sent.seat)
    return move_answer(*moves.play(table, seat, sent, body, request.headers.get("Idempotency-Key")))


def move_answer(result: list, replayed: bool, table, seat) -> Response:
    """A played move's answer: its events as the mover may read them, and the state it left."""
    response = jsonify(result=result, state=_state(table, seat), state_etag=f'"{_etag(table, seat)}"')
    if replayed:
        response.headers["Idempotent-Replayed"] = "true"
    return response


@bp.post("/tables/<code>/hint")
def hint(code: str):
    """A hint for this seat's naming, only when asked for: {"seat": 0, "level": 1} (a prompt), or with
    "set" for the works of that author (typing a named ask). Each level shows more letters."""
    table = tables.read(code)
    sent = schemas.parse(schemas.HintRequest, json_body())
    seat = asking.seat_required(table, sent.seat, several_say_which=False)
    if not state.table_options(table).hints:
        raise Conflict(N_("The teacher has not turned hints on at this table."), code="no-hints")
    return jsonify(recall.hint_for(table, seat.name, sent.level, sent.set))


@bp.get("/tables/<code>/hands")
def list_deals(code: str):
    """The match's hands with their results (what the projector shows), and a link to a finished hand's
    record for those who may read it."""
    table = tables.read(code)
    readable = _record_reader(table)
    return jsonify(hands=[{"number": deal.number, "finished": bool(deal.result_json), "result": deal.result,
                           "record": url_for("api.record", code=table.code, number=deal.number)
                           if deal.result_json and readable is not None and readable(deal) else None}
                          for deal in table.deals])


def _record_reader(table) -> Callable[[Any], bool] | None:
    """Which hands' records this request may read: the table's teacher every hand, a browser holding
    seats the hands their students played; None for anyone else. A record holds every card of the deal,
    the children's names and their typed answers, and the deck may be a teacher's own."""
    if asking.is_teacher(table):
        return lambda deal: True
    held = list(seating.held_seats(table).values())
    if not held:
        return None
    return lambda deal: any(_played(seat, deal) for seat in held)


def _played(seat, deal) -> bool:
    """Whether the seat's student played the deal: its players are in seat order, under the names they
    played with (a finished deal is never renamed), so a student who took the seat later did not."""
    players = (deal.result or deal.header)["players"]
    return (bool(seat.name) and seat.position < len(players)
            and name_key(players[seat.position]) == name_key(seat.name))


NOT_YOUR_RECORD = N_("A hand's record is for the table's teacher and for the students who played that hand.")


def finished_deal(table, number: str):
    try:
        number = int(number)
    except ValueError:
        raise BadRequest(say(N_('a hand is numbered 1, 2, ..., not "%(number)s"'), number=number)) from None
    deal = next((h for h in table.deals if h.number == number), None)
    if deal is None:
        raise NotFound(say(N_("This table has no hand %(number)d."), number=number), code="unknown-hand")
    if not deal.result_json and table.status not in ("finished", "closed"):
        raise Conflict(say(N_("Hand %(number)d is still being played; its record (which shows every hand) "
                              "can be downloaded when it ends."), number=number), code="hand-in-play")
    return deal


@bp.get("/tables/<code>/hands/<number>/record")
def record(code: str, number: str):
    """The deal as a game record: YAML, or JSON with ?format=json. For the table's teacher, and for a
    browser holding a seat whose student played it; anyone else is told there is none for them (404)."""
    table = tables.read(code)
    readable = _record_reader(table)
    if readable is None:
        raise NotFound(NOT_YOUR_RECORD, code="not-your-record")
    deal = finished_deal(table, number)
    if not readable(deal):
        raise NotFound(NOT_YOUR_RECORD, code="not-your-record")
    fmt = request.args.get("format", "yaml")
    if fmt == "json":
        response = jsonify(deals.record_for(deal).to_dict())
    elif fmt != "yaml":
        raise BadRequest(say(N_('format is "yaml" or "json", not "%(format)s"'), format=fmt))
    else:
        response = Response(deals.record_yaml(deal), mimetype="application/yaml")
        response.headers["Content-Disposition"] = f'attachment; filename="{table.code}-hand-{deal.number}.yaml"'
    response.headers["Cache-Control"] = "private, no-store"  # (one reader's: no shared cache keeps it)
    return response
