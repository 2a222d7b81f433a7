"""Who is asking: a teacher (logged in with Flask-Login; the teacher who opened a table is its owner and
alone manages it), a browser seated at a table (its session cookie holds a seat's secret token, kept by
seating.py), or a stranger; and the guards the views use:

- `teacher_required` (a view) and `teachers_only` (a whole blueprint): a stranger is asked to log in
  (401 for the API, else the log-in page: errors.login_first);
- `managed(code)`: the table, for a change only its owner may make (403 for anyone else);
- `seat_required(table, position)`: the seat a move or a hint is played from, this browser's (403 for a
  browser with no seat there).

Nothing else asks Flask-Login or the session who is asking.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Callable, TypeVar

from flask import Blueprint, session
from flask.typing import ResponseReturnValue
from flask_login import LoginManager, current_user, login_required

from ..decks.errors import N_, say
from ..services import reading
from ..services import tables as table_service
from ..services.errors import BadRequest, Forbidden
from . import errors, seating
from .table_code import clean

login_manager = LoginManager()
LOGIN_KEY = "_user_id"  # Flask-Login's key in the session: a log-in of this browser
View = TypeVar("View", bound=Callable[..., Any])

# ----------------------------------------------------------------------------------------------------
# A teacher, or a stranger
# ----------------------------------------------------------------------------------------------------
login_manager.unauthorized_handler(errors.login_first)


def teacher() -> Any | None:
    """The teacher logged in in this browser (their account), or None."""
    return current_user._get_current_object() if current_user.is_authenticated else None


def teacher_id() -> int | None:
    """The logged-in teacher's account id, or None. A session without a log-in is answered without asking
    Flask-Login, which would look for a user to load (a student's every move asks)."""
    if not names_login(session):
        return None
    return current_user.id if current_user.is_authenticated else None


def names_login(session_data: Mapping[str, Any]) -> bool:
    """Whether a session's contents hold a log-in: asked before Flask-Login is (a student's session holds
    none, and is answered without loading anyone)."""
    return bool(session_data.get(LOGIN_KEY))


def teacher_required(view: View) -> View:
    """A view for teachers only: a stranger is asked to log in."""
    return login_required(view)  # type: ignore[no-any-return]  # flask_login is untyped; it wraps the view as is


def refuse_strangers() -> ResponseReturnValue | None:
    """A blueprint's guard, before each of its views: a stranger is asked to log in."""
    if not current_user.is_authenticated:
        return login_manager.unauthorized()  # type: ignore[no-any-return]  # flask_login is untyped: login_first
    return None


def teachers_only(bp: Blueprint) -> Blueprint:
    """Every view of the blueprint for teachers only (the deck studio, classes, reports)."""
    bp.before_request(refuse_strangers)
    return bp


# ----------------------------------------------------------------------------------------------------
# The owner of a table
# ----------------------------------------------------------------------------------------------------
def is_teacher(table: reading.TableSnapshot) -> bool:
    """Whether the logged-in teacher opened this table (only they manage it)."""
    return table_service.is_teacher(table, teacher_id())


def is_owner_id(owner_id: int | None) -> bool:
    """Whether the logged-in teacher is this account (a table's teacher_id, as the poll's rows give it)."""
    me = teacher_id()
    return me is not None and me == owner_id


def is_teacher_of(code: str) -> bool:
    """Whether the logged-in teacher opened the table with this code (False when there is none)."""
    if teacher_id() is None:
        return False
    table = reading.read(code)
    return table is not None and is_teacher(table)


def require_teacher(table: reading.TableSnapshot) -> None:
    """A 403 for anyone but the teacher who opened the table."""
    table_service.require_teacher(table, teacher_id())


def managed(code: str) -> reading.TableSnapshot:
    """The table, for a change only the teacher who opened it may make."""
    table = table_service.read(code)
    require_teacher(table)
    return table


# ----------------------------------------------------------------------------------------------------
# A seat of a table
# ----------------------------------------------------------------------------------------------------
def holds_or_awaits_seat(code: str) -> bool:
    """Whether this browser was given a seat at the table with this code, or waits to be let back into one
    (its tokens are checked by the view itself)."""
    found = clean(code)
    return bool(seating.tokens_held(found)) or bool(seating.ask_token(found))


def requested_seat(table: reading.TableSnapshot, position: Any) -> reading.SeatSnapshot | None:
    """The seat a request speaks for: the one named (it must be this browser's), or its only seat; None
    when it names none and holds several, or none."""
    held = seating.held_seats(table)
    if position not in (None, ""):
        # seat_at is hinted for the row a write holds; it reads only table.seats, so a snapshot's seat here
        seat = table_service.seat_at(table, position)  # type: ignore[arg-type]
        if seat.position not in held:
            raise Forbidden(say(N_("Seat %(position)d is not yours: join the table to get a seat of your own."),
                                position=seat.position), code="not-your-seat")
        return seat
    if len(held) == 1:
        return next(iter(held.values()))
    return None


def seat_required(table: reading.TableSnapshot, position: Any, several_say_which: bool = True) -> reading.SeatSnapshot:
    """The seat a move or a hint is played from: this browser's. A 403 for a browser with no seat at the
    table; for one that holds several and names none, a 400 that asks which (`several_say_which`)."""
    seat = requested_seat(table, position)
    if seat is None:
        if several_say_which and seating.held_seats(table):
            raise BadRequest(N_('this device holds several seats: say which one plays with "seat"'))
        raise Forbidden(N_("You have no seat at this table: join it with its code first."), code="not-your-seat")
    return seat
