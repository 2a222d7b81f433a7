"""Presence: when a seat's screen last polled, kept cheaply, and what the teacher's page makes of it.

Screens poll every second or so; a seat's `seen_at` is written only when the stored value is older than
WRITE_EVERY seconds (the UPDATE says so in its WHERE clause, so two workers never both write it), never
once per poll, and never as a change of the table (its version stays: no screen redraws for it). A seat
is away once nothing polled for it for AWAY_AFTER seconds. A request from another device to have a seat
back lasts CLAIM_LIFETIME seconds.
"""
from __future__ import annotations

from typing import Any, Callable, Iterable

from flask import Flask
from sqlalchemy import bindparam, or_, update
from sqlalchemy.engine import Connection

from ..db import db, end_read
from ..models import Seat, Table
from . import fast
from .snapshots import SeatLike

WRITE_EVERY = 20.0       # seconds: at most one write of a seat's presence in this time
AWAY_AFTER = 30.0        # seconds with no poll: the seat is away
CLAIM_LIFETIME = 600.0   # seconds a request to have a seat back waits for the teacher

SEATS, TABLES = Seat.__table__, Table.__table__
PUT_OFF = (update(TABLES).where(TABLES.c.id == bindparam("table_id"), TABLES.c.version == bindparam("read"))
           .values(next_bot_at=bindparam("when")))
MARK_SEEN = (update(SEATS).where(SEATS.c.id == bindparam("seat_id"),
                                 or_(SEATS.c.seen_at.is_(None), SEATS.c.seen_at < bindparam("before")))
             .values(seen_at=bindparam("now")))


def stale(seen_at: float | None, now: float) -> bool:
    """Whether a seat seen at `seen_at` is due a new write of its presence."""
    return seen_at is None or seen_at < now - WRITE_EVERY


def away_for(seen_at: float | None, now: float) -> float | None:
    """Seconds the seat has been away (no poll for more than AWAY_AFTER), or None while it is here. A seat
    never seen (since its presence was first kept) counts as away from the start."""
    if seen_at is None:
        return float("inf")
    gone = now - seen_at
    return gone if gone > AWAY_AFTER else None


def claim_pending(claim_hash: str | None, claim_at: float | None, claim_refused: bool, now: float) -> bool:
    """Whether a request to have the seat back waits for the teacher (not refused, not expired)."""
    return bool(claim_hash) and not claim_refused and claim_at is not None and now - claim_at <= CLAIM_LIFETIME


def _mark(connection: Connection, seat_ids: Iterable[int], now: float) -> int:
    changed = 0
    for seat_id in seat_ids:
        changed += fast.write(connection, MARK_SEEN, {"seat_id": seat_id, "before": now - WRITE_EVERY, "now": now})
    return changed


def mark_seen(seat_ids: list[int], now: float) -> int:
    """Record that these seats' screens polled now (each only when its stored time is older than
    WRITE_EVERY), in a transaction of its own, outside a write: the request's read transaction ends first
    (its connection is the one this takes, db.end_read)."""
    if not seat_ids:
        return 0
    end_read()
    with db.engine.begin() as connection:
        return _mark(connection, seat_ids, now)


def put_off(table_id: int, version: int, when: float) -> int:
    """Move the table's next look (next_bot_at) to `when`, at the version read, without changing the
    version (nothing a screen shows changes): a person to move is looked at again then (stand_in_after).
    Like mark_seen, in a transaction of its own, outside a write."""
    end_read()
    with db.engine.begin() as connection:
        return fast.write(connection, PUT_OFF, {"table_id": table_id, "read": version, "when": when})


def writer(app: Flask) -> Callable[[list[int], float], int]:
    """`mark_seen` for the fast poll, outside any request (the app's own pool)."""
    with app.app_context():
        engine = db.engine

    def mark(seat_ids: list[int], now: float) -> int:
        if not seat_ids:
            return 0
        with engine.begin() as connection:
            return _mark(connection, seat_ids, now)

    return mark


# What teacher_stamp reads of a seat: (position, token_hash, seen_at, stand_in, claim_hash, claim_at, claim_refused)
SeatPresence = tuple[int, str | None, float | None, bool, str | None, float | None, bool]


def teacher_stamp(seats: Iterable[tuple[Any, ...]], now: float) -> str:
    """What the teacher's page shows of presence, as a short text for its ETag: for each seat with a
    student's device or a stand-in, here or the whole minutes away, and whether a request waits. It
    changes at most once a minute a seat, so the teacher's screen redraws only then. `seats`: tuples
    (position, token_hash, seen_at, stand_in, claim_hash, claim_at, claim_refused)."""
    parts = []
    for position, token, seen_at, stand_in, claim_hash, claim_at, refused in sorted(seats, key=lambda s: s[0]):
        mark = ""
        if token or stand_in:
            away = away_for(seen_at, now)
            mark = "h" if away is None else ("a" if away == float("inf") else f"a{int(away // 60)}")
        if claim_pending(claim_hash, claim_at, refused, now):
            mark += "c"
        if mark:
            parts.append(f"{position}{mark}")
    return ".".join(parts)


def seat_tuple(seat: SeatLike) -> SeatPresence:
    """A seat (a snapshot or a row) as teacher_stamp reads it."""
    return (seat.position, seat.token_hash, seat.seen_at, bool(seat.stand_in), seat.claim_hash, seat.claim_at,
            bool(seat.claim_refused))
