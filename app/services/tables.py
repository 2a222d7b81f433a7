"""Tables: open one, join it, let the teacher manage its seats, start and close it."""
from __future__ import annotations

import json
import time
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.exc import StaleDataError

from ..db import db, write_lock
from ..engine.bots import BOTS
from ..engine.game import Game, SetupError
from ..engine.options import DEFAULT_DECKS, PRESETS, OptionsError, make_options
from ..models import Seat, Table
from . import hands, studio
from .codes import clean_name, is_valid_code, name_key, new_code, new_token, normalize_code, token_hash, \
    token_matches
from .errors import BadRequest, Conflict, Forbidden, NotFound

MAX_SEATS = 22
MAX_MATCH_HANDS = 20
MAX_TARGET = 500
OPEN_STATUSES = ("lobby", "playing", "finished")


# ----------------------------------------------------------------------------------------------------
# Finding and committing
# ----------------------------------------------------------------------------------------------------
def find(code: str) -> Table:
    clean = normalize_code(code)
    table = Table.query.filter_by(code=clean).one_or_none() if is_valid_code(clean) else None
    if table is None:
        raise NotFound(f'There is no table with the code "{str(code)[:12]}". Check the code on the board.',
                       code="unknown-code")
    return table


def locked(table: Table) -> Table:
    """The table as it is now, locked until this transaction ends: every change of a table starts here,
    so changes from any process are made one after the other (app/db.py)."""
    current = write_lock(Table, table.id, loaded=table)
    if current is None:
        raise NotFound("This table is gone.", code="unknown-code")
    return current


def _commit(what: str = "The table changed at the same moment; try again.") -> None:
    try:
        db.session.commit()
    except (IntegrityError, StaleDataError):
        db.session.rollback()
        raise Conflict(what, code="stale-version") from None


def seat_at(table: Table, position: Any) -> Seat:
    try:
        position = int(position)
    except (TypeError, ValueError):
        raise BadRequest(f'a seat is a number from 0 to {len(table.seats) - 1}, not "{position}"') from None
    for seat in table.seats:
        if seat.position == position:
            return seat
    raise NotFound(f"This table has no seat {position}.", code="unknown-seat")


def is_teacher(table: Table, teacher_id: int | None) -> bool:
    """Whether this teacher account opened the table (only they manage it)."""
    return teacher_id is not None and table.teacher_id == teacher_id


def require_teacher(table: Table, teacher_id: int | None) -> None:
    if not is_teacher(table, teacher_id):
        raise Forbidden("Only the teacher who opened this table can do that.", code="not-teacher")


def seat_for_token(table: Table, position: Any, token: str | None) -> Seat:
    seat = seat_at(table, position)
    if not token_matches(token, seat.token_hash):
        raise Forbidden(f"Seat {seat.position} is not yours: join the table to get a seat of your own.",
                        code="not-your-seat")
    return seat


# ----------------------------------------------------------------------------------------------------
# Opening a table
# ----------------------------------------------------------------------------------------------------
def _int(value: Any, what: str, low: int, high: int) -> int:
    if isinstance(value, bool):
        raise BadRequest(f"{what} is a whole number")
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise BadRequest(f'{what} is a whole number, not "{value}"') from None
    if not low <= number <= high:
        raise BadRequest(f"{what} is between {low} and {high}")
    return number


def _computer_name(taken: set[str]) -> str:
    n = 1
    while name_key(f"Computer {n}") in taken:
        n += 1
    return f"Computer {n}"


def create(spec: Any, teacher_id: int) -> tuple[Table, dict[int, str]]:
    """Open a table for this teacher. Returns it and the tokens of the seats played on this device."""
    if not isinstance(spec, dict):
        raise BadRequest("a table is described by an object with rules, deck, options, seats and match")
    rules = spec.get("rules") or "standard"
    if rules not in PRESETS:
        raise BadRequest(f'unknown rules "{rules}"; choose one of {", ".join(PRESETS)}')
    deck_ref = spec.get("deck") or DEFAULT_DECKS.get(rules, "standard-52")
    deck = studio.deck_for_table(deck_ref, teacher_id)  # a built-in deck, or a studio deck the teacher sees
    overrides = spec.get("options") or {}
    if not isinstance(overrides, dict):
        raise BadRequest('"options" is an object of option names and values')
    try:
        options = make_options(rules, overrides)
    except OptionsError as exc:
        raise BadRequest(str(exc)) from None
    overrides = options.overrides(PRESETS[rules])

    name = spec.get("name") or ""
    if not isinstance(name, str) or len(name) > 80:
        raise BadRequest("a table's name is text of at most 80 characters")

    seat_specs = spec.get("seats")
    if not isinstance(seat_specs, list) or not seat_specs:
        raise BadRequest('"seats" is a list such as [{"kind": "human"}, {"kind": "computer", "bot": "random"}]')
    if len(seat_specs) > MAX_SEATS:
        raise BadRequest(f"a table has at most {MAX_SEATS} seats")
    seats: list[Seat] = []
    taken: set[str] = set()
    here: dict[int, str] = {}
    for position, item in enumerate(seat_specs):
        if not isinstance(item, dict):
            raise BadRequest(f"seat {position} should be an object with a kind")
        kind = item.get("kind", "human")
        if kind not in ("human", "computer"):
            raise BadRequest(f'seat {position}: kind is "human" or "computer", not "{kind}"')
        seat = Seat(position=position, kind=kind)
        if kind == "computer":
            bot = item.get("bot") or "random"
            if bot not in BOTS:
                raise BadRequest(f'seat {position}: unknown computer player "{bot}"; choose one of {", ".join(BOTS)}')
            seat.bot = bot
        if item.get("name") not in (None, ""):
            try:
                seat.name = clean_name(item["name"])
            except ValueError as exc:
                raise BadRequest(f"seat {position}: {exc}") from None
        if kind == "human" and item.get("here"):
            if not seat.name:
                raise BadRequest(f"seat {position}: a player on this device needs a name")
            token = new_token()
            seat.token_hash = token_hash(token)
            here[position] = token
        elif kind == "human":
            seat.name = None  # a student names themself when they join
        if seat.name:
            if name_key(seat.name) in taken:
                raise BadRequest(f'the name "{seat.name}" is given twice; every player needs a different name')
            taken.add(name_key(seat.name))
        seats.append(seat)
    for seat in seats:
        if seat.kind == "computer" and not seat.name:
            seat.name = _computer_name(taken)
            taken.add(name_key(seat.name))
        seat.name_key = name_key(seat.name) if seat.name else None

    try:
        Game(deck, options, [f"Seat {i}" for i in range(len(seats))], seed=0, rules=rules)
    except SetupError as exc:
        raise BadRequest(f"this table cannot be played: {exc}") from None

    match = spec.get("match") or {"format": "hands", "value": 1}
    if not isinstance(match, dict):
        raise BadRequest('"match" is an object such as {"format": "hands", "value": 3}')
    fmt = match.get("format", "hands")
    if fmt == "hands":
        value = _int(match.get("value", 1), "the number of hands", 1, MAX_MATCH_HANDS)
    elif fmt == "target":
        value = _int(match.get("value"), "the target score", 1, MAX_TARGET)
    else:
        raise BadRequest(f'the match format is "hands" or "target", not "{fmt}"')

    deck_id = studio.table_deck_id(deck_ref, teacher_id)  # a studio deck is frozen as the table opens
    for _ in range(20):
        code = new_code()
        if Table.query.filter_by(code=code).first() is None:
            break
    table = Table(code=code, name=name.strip(), deck_id=deck_id, rules=rules,
                  options_json=json.dumps(overrides), match_format=fmt, match_value=value,
                  teacher_id=teacher_id, seats=seats)
    db.session.add(table)
    _commit("Could not open the table; try again.")
    return table, here


# ----------------------------------------------------------------------------------------------------
# Joining
# ----------------------------------------------------------------------------------------------------
def _check_name_free(table: Table, name: str, except_seat: Seat | None = None) -> None:
    for seat in table.seats:
        if seat is not except_seat and seat.name and name_key(seat.name) == name_key(name):
            raise Conflict(f'Someone at this table is already called "{seat.name}"; choose another name.',
                           code="name-taken")


def join(table: Table, name: Any) -> tuple[Seat, str]:
    """A student takes a seat: a free one, or before play a computer player's. Returns the seat token."""
    table = locked(table)
    if table.status in ("finished", "closed"):
        raise Conflict("This table's match is over; ask your teacher for a new code.", code="table-closed")
    try:
        name = clean_name(name)
    except ValueError as exc:
        raise BadRequest(str(exc).capitalize() + ".") from None
    _check_name_free(table, name)
    seat = next((s for s in table.seats if s.vacant), None)
    if seat is None and table.status == "lobby":
        seat = next((s for s in table.seats if s.kind == "computer"), None)
    if seat is None:
        raise Conflict("This table is full: every seat is taken.", code="table-full")
    old = seat.name
    token = new_token()
    seat.kind, seat.bot = "human", None
    seat.name, seat.name_key, seat.token_hash = name, name_key(name), token_hash(token)
    if old and old != name:
        hands.rename_player(table, old, name)
    table.touch()
    _commit(f'Someone took that seat or the name "{name}" at the same moment; try again.')
    return seat, token


# ----------------------------------------------------------------------------------------------------
# The teacher's controls
# ----------------------------------------------------------------------------------------------------
def rename(table: Table, position: Any, new_name: Any) -> Seat:
    table = locked(table)
    seat = seat_at(table, position)
    try:
        new_name = clean_name(new_name)
    except ValueError as exc:
        raise BadRequest(str(exc).capitalize() + ".") from None
    if not seat.name:
        raise Conflict(f"Seat {seat.position} is empty: there is nobody to rename.", code="seat-empty")
    _check_name_free(table, new_name, except_seat=seat)
    old = seat.name
    seat.name, seat.name_key = new_name, name_key(new_name)
    if old != new_name:
        hands.rename_player(table, old, new_name)
    table.touch()
    _commit()
    return seat


def remove_player(table: Table, position: Any) -> Seat:
    """The student leaves the seat. Before play the seat is free again; during play it keeps the name
    for the game and waits for a student to join or for a computer player."""
    table = locked(table)
    seat = seat_at(table, position)
    if seat.kind != "human" or seat.token_hash is None:
        raise Conflict(f"Seat {seat.position} has no player to remove.", code="seat-empty")
    seat.token_hash = None
    if table.status == "lobby":
        seat.name = seat.name_key = None
    table.touch()
    _commit()
    return seat


def set_kind(table: Table, position: Any, kind: Any, bot: Any = None) -> Seat:
    """Put a computer player in a seat (any time), or before play free a computer's seat for a student."""
    table = locked(table)
    seat = seat_at(table, position)
    if kind == "computer":
        bot = bot or "random"
        if bot not in BOTS:
            raise BadRequest(f'unknown computer player "{bot}"; choose one of {", ".join(BOTS)}')
        old = seat.name
        if seat.kind != "computer":
            taken = {s.name_key for s in table.seats if s.name_key and s is not seat}
            seat.name = _computer_name(taken)
            seat.name_key = name_key(seat.name)
        seat.kind, seat.bot, seat.token_hash = "computer", bot, None
        table.next_bot_at = min(table.next_bot_at, time.time() + hands.setting("BOT_PACE_SECONDS"))
        if old and old != seat.name:
            hands.rename_player(table, old, seat.name)
    elif kind == "human":
        if table.status != "lobby":
            raise Conflict("Once play has started a seat cannot be emptied; put a computer player in it "
                           "or let a student join a free seat.", code="already-started")
        if seat.kind == "human":
            raise Conflict(f"Seat {seat.position} is already a student's seat.", code="already-human")
        seat.kind, seat.bot, seat.name, seat.name_key, seat.token_hash = "human", None, None, None, None
    else:
        raise BadRequest(f'a seat\'s kind is "human" or "computer", not "{kind}"')
    table.touch()
    _commit()
    return seat


def start(table: Table) -> None:
    table = locked(table)
    if table.status != "lobby":
        raise Conflict("This table has already started.", code="already-started")
    empty = [seat.position for seat in table.seats if not seat.name]
    if empty:
        raise Conflict(f"Seat {empty[0]} is still empty: wait for a student to join, or put a computer "
                       "player in it.", code="seat-empty")
    hands.deal(table, wait=hands.setting("BOT_PACE_SECONDS"))
    table.status = "playing"
    table.touch()
    _commit()


def close(table: Table) -> None:
    table = locked(table)
    if table.status == "closed":
        return
    table.status = "closed"
    table.touch()
    _commit()


def open_tables(teacher_id: int, limit: int = 100) -> list[Table]:
    """The teacher's open tables, the newest first."""
    return (Table.query.filter(Table.status.in_(OPEN_STATUSES), Table.teacher_id == teacher_id)
            .order_by(Table.created_at.desc(), Table.id.desc()).limit(limit).all())
