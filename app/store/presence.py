"""Presence: when a seat's screen last polled, kept cheaply, and what the teacher's page makes of it.

Screens poll every second or so. A poll writes nothing: it notes the seats its browser holds in this
process's buffer (`mark_seen`: a seat whose stored time is older than WRITE_EVERY seconds, or one a
computer stands in for), and the clock (app/services/clock.py) writes the buffer down in one statement
per flush (`flush`), a fraction of a second later. A seat's `seen_at` is so written at most once per
WRITE_EVERY seconds (the UPDATE says so in its WHERE clause, so two processes never both write it), and
never as a change of the table (its version stays: no screen redraws for it). A seat is away once nothing
polled for it for AWAY_AFTER seconds. A request from another device to have a seat back lasts
CLAIM_LIFETIME seconds.
"""
from __future__ import annotations

import threading
from typing import Any, Callable, Iterable

from flask import Flask, current_app
from sqlalchemy import bindparam, or_, update

from ..db import db
from ..models import Seat
from .snapshots import SeatLike

WRITE_EVERY = 20.0       # seconds: at most one write of a seat's presence in this time
# Seconds with no poll: the seat is away. A stored time lags the screen by up to WRITE_EVERY (and a
# flush), so a seat whose screen polls every second never reads as away.
AWAY_AFTER = 45.0
CLAIM_LIFETIME = 600.0   # seconds a request to have a seat back waits for the teacher

SEATS = Seat.__table__
MARK_SEEN = (update(SEATS).where(SEATS.c.id == bindparam("seat_id"),
                                 or_(SEATS.c.seen_at.is_(None), SEATS.c.seen_at < bindparam("before")))
             .values(seen_at=bindparam("now")))

# A seat a screen polled for: (its table's id, its id, its token's hash when a computer stands in for it,
# else None). The hash is the one the browser showed: the seat is handed back only while it still opens it.
Sighting = tuple[int, int, str | None]
# A seat whose student came back while a computer stood in: (table id, seat id, token hash).
HandBack = tuple[int, int, str]


def stale(seen_at: float | None, now: float) -> bool:
    """Whether a seat seen at `seen_at` is due a new write of its presence."""
    return seen_at is None or seen_at < now - WRITE_EVERY


def due(seats: Iterable[SeatLike], now: float) -> list[Sighting]:
    """What a poll notes of these seats (the browser's own): each whose stored time is stale, and each a
    computer stands in for (her screen is back: the clock hands the seat back to her)."""
    return [(seat.table_id, seat.id, seat.token_hash if seat.stand_in else None) for seat in seats
            if seat.stand_in or stale(seat.seen_at, now)]


class Sightings:
    """The seats this process's screens polled for since the last flush: a seat's latest sighting."""

    def __init__(self) -> None:
        self._lock = threading.Lock()  # request threads note, the clock's thread takes
        self._seen: dict[int, tuple[float, int, str | None]] = {}

    def note(self, sightings: Iterable[Sighting], now: float) -> None:
        with self._lock:
            for table_id, seat_id, token_hash in sightings:
                self._seen[seat_id] = (now, table_id, token_hash)

    def take(self) -> dict[int, tuple[float, int, str | None]]:
        with self._lock:
            taken, self._seen = self._seen, {}
        return taken


BUFFER = "authors.sightings"  # app.extensions: the app's Sightings (one per app: tests build many apps)


def sightings(app: Flask) -> Sightings:
    found: Sightings = app.extensions.setdefault(BUFFER, Sightings())
    return found


def mark_seen(seen: list[Sighting], now: float) -> None:
    """Note that these seats' screens polled now (in the app's buffer: no statement, no connection)."""
    if seen:
        sightings(current_app).note(seen, now)


def recorder(app: Flask) -> Callable[[list[Sighting], float], None]:
    """`mark_seen` for the fast poll, outside any app context."""
    return sightings(app).note


def flush(app: Flask) -> tuple[int, list[HandBack]]:
    """Write down what the app's screens noted since the last flush: one statement for every seat (each
    only when its stored time is older than WRITE_EVERY before its sighting), in a transaction of its
    own. Returns how many seats' times were written, and the seats whose student came back to a stand-in
    (the caller hands them back). What a failed write took is not put back: a seat still stale, or still
    stood in, is noted again by its screen's next poll."""
    taken = sightings(app).take()
    if not taken:
        return 0, []
    rows = [{"seat_id": seat_id, "before": when - WRITE_EVERY, "now": when}
            for seat_id, (when, _table, _token) in taken.items()]
    with db.engine.begin() as connection:
        written = connection.execute(MARK_SEEN, rows).rowcount
    back = [(table_id, seat_id, token) for seat_id, (_when, table_id, token) in taken.items() if token]
    return max(written, 0), back


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
