"""The version poll's question, asked of the database in one small query, and the ETag of a table's
state: the state's own view answers an unchanged poll from them (app/web/api.py). And the
state streams' watcher's question (`watch_reader`): what every ETag of many tables depends on, in one
query for them all."""
from __future__ import annotations

import time
from typing import Any, Callable, Iterable, NamedTuple, Sequence

from flask import Flask
from sqlalchemy import bindparam, select

from ..db import db
from . import fast, presence
from ..models import Seat, Table
from .codes import token_matches

VERSION_AND_SEATS = (select(Table.id, Table.version, Table.status, Table.next_bot_at, Table.teacher_id,
                            Seat.position, Seat.token_hash,
                            # [7:] presence (presence.py): the seat's id, last poll, stand-in, request back
                            Seat.id, Seat.seen_at, Seat.stand_in, Seat.claim_hash, Seat.claim_at, Seat.claim_refused)
                     .join(Seat, Seat.table_id == Table.id).where(Table.code == bindparam("code")))


Row = tuple[Any, ...]  # a row of VERSION_AND_SEATS

# The watcher's query: for each table watched, what its states' ETags depend on (`etag`: the version, the
# seats' tokens, and for the teacher the seats' presence), and what a stream notes of its seats' presence.
WATCHED = (select(Table.code, Table.version,
                  # [2:9] a seat as presence.teacher_stamp reads it
                  Seat.position, Seat.token_hash, Seat.seen_at, Seat.stand_in, Seat.claim_hash, Seat.claim_at,
                  Seat.claim_refused, Table.id, Seat.id)
           .outerjoin(Seat, Seat.table_id == Table.id).where(Table.code.in_(bindparam("codes", expanding=True))))


class Look(NamedTuple):
    """What the watcher reads of a table: every state's ETag changes with its `version` and `tokens` (the
    seats'), the teacher's with `teacher` too (the seats' presence, presence.teacher_stamp); `seats`, each
    seat's (position, table id, seat id, token hash, seen_at, stand_in), for the presence a stream notes."""
    version: int
    tokens: str
    teacher: str
    seats: tuple[tuple[int, int, int, str | None, float | None, bool], ...]


def etag(table_id: int, version: int, seat: int | None, teacher: bool, held: Iterable[int],
         presence: str = "") -> str:
    """The ETag of the state a browser is shown: the table's version, the seat it looks from, whether it
    is the teacher's, and the seats it holds; for the teacher also the seats' presence
    (presence.teacher_stamp), which changes without the table's version."""
    seen = f"p{presence}-" if teacher else ""
    return f"t{table_id}-v{version}-{seen}s{'p' if seat is None else seat}-{int(teacher)}-{'.'.join(map(str, held))}"


def seen_due(rows: Sequence[Row], tokens: object, now: float) -> list[presence.Sighting]:
    """What a poll notes of the seats (from `version_rows`) whose tokens the browser holds, as
    presence.due: each whose stored time is stale, each a computer stands in for."""
    tokens = tokens if isinstance(tokens, dict) else {}
    return [(row[0], row[7], row[6] if row[9] else None) for row in rows
            if token_matches(tokens.get(str(row[5])), row[6]) and (row[9] or presence.stale(row[8], now))]


def version_rows(code: str) -> list[Row]:
    """The table's version, status, computer pace and teacher, one row per seat with its token hash
    (in the request's session)."""
    return fast.rows(db.session.connection(), VERSION_AND_SEATS, {"code": code})


def unchanged_etag(rows: Sequence[Row], tokens: object, asked: str | None,
                   is_owner: Callable[[int], bool]) -> str | None:
    """The ETag of the full answer, from `version_rows`, when every token the browser holds is good; None
    when only the full answer will do. (A computer player due, or a seat to hand back, is the clock's:
    app/services/clock.py. The full answer changes nothing either.)"""
    if not rows:
        return None
    table_id, version, _status, _next_bot_at, owner = rows[0][:5]
    tokens = tokens if isinstance(tokens, dict) else {}
    mine = [row for row in rows if token_matches(tokens.get(str(row[5])), row[6])]
    held = sorted(row[5] for row in mine)
    if len(held) != len(tokens):
        return None  # a stale token: the full answer forgets it
    seat: int | None
    if asked:  # (a seat asked for: not None, not "")
        try:
            seat = int(asked)
        except ValueError:
            return None
        if seat not in held:
            return None
    else:
        seat = held[0] if len(held) == 1 else None
    teacher = owner is not None and is_owner(owner)
    stamp = presence.teacher_stamp([(row[5], row[6], *row[8:13]) for row in rows], time.time()) if teacher else ""
    return etag(table_id, version, seat, teacher, held, stamp)


def looks(rows: Iterable[Row], now: float) -> dict[str, Look]:
    """For each table in `rows` (of WATCHED), what its states' ETags depend on (`Look`). (A computer
    player's move, a turn run out, changes the version: the game's clock makes them, in some process.)"""
    tables: dict[str, tuple[int, list[Row]]] = {}
    for row in rows:
        tables.setdefault(row[0], (row[1], []))[1].append(row[2:])
    found = {}
    for code, (version, seats) in tables.items():
        seated = sorted((seat for seat in seats if seat[0] is not None), key=lambda seat: seat[0])
        tokens = ".".join(f"{seat[0]}:{seat[1] or ''}" for seat in seated)
        found[code] = Look(version, tokens, presence.teacher_stamp((seat[:7] for seat in seated), now),
                           tuple((seat[0], seat[7], seat[8], seat[1], seat[2], bool(seat[3])) for seat in seated))
    return found


def watch_reader(app: Flask) -> Callable[[Sequence[str]], dict[str, Look]]:
    """`looks` at the tables with these codes, for the state streams' watcher (app/streaming.py), outside
    any request: one statement on a connection of the app's own pool, in autocommit. A code with no table
    is missing from the answer."""
    with app.app_context():
        engine = db.engine

    def read(codes: Sequence[str]) -> dict[str, Look]:
        if not codes:
            return {}
        with fast.autocommit(engine) as connection:
            rows = [tuple(row) for row in connection.execute(WATCHED, {"codes": list(codes)})]
        return looks(rows, time.time())

    return read
