"""Writes: every change of a table is one transaction that begins by locking the table's row.

`changing(table)` is for the teacher's changes and joins (the ORM: the table, its seats, its deals);
`moving(table)` is for moves, the hot path (Core statements against the snapshot's version:
`append_move`, then `commit_move`). Either way the lock is taken first (app/db.py: SELECT ... FOR UPDATE
on PostgreSQL, BEGIN IMMEDIATE on SQLite), so changes from every process and thread are made one after
the other; a block that raises is rolled back and the table's cached games forgotten; a write that
finds the table changed under it raises `Stale`, one that finds it gone `Gone`. After each commit the
table's code is published (changes.py), so this process's state streams look again at once.
"""
from __future__ import annotations

import json
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Iterator

from sqlalchemy import bindparam, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.exc import StaleDataError

from ..db import begin_write, db, write_lock
from ..models import MoveRow, Table
from . import changes, fast, games
from .snapshots import TableLike, TableSnapshot, by_id


class Gone(LookupError):
    """The table is no longer there."""


class Stale(RuntimeError):
    """The table changed at the same moment as this write (another process or thread wrote first)."""


TABLES, MOVES = Table.__table__, MoveRow.__table__
VERSION_FOR_UPDATE = select(TABLES.c.version).where(TABLES.c.id == bindparam("table_id")).with_for_update()
# Core statements, built once: every move runs them.
STORE_MOVE = insert(MOVES)
NEXT_VERSION = (update(TABLES).where(TABLES.c.id == bindparam("table_id"), TABLES.c.version == bindparam("read"))
                .values(version=bindparam("version"), changed_at=bindparam("changed_at"),
                        next_bot_at=bindparam("next_bot_at")))
# The code of the table a `moving` block holds: `commit_move` (which is given no table) publishes it.
_moving_code: ContextVar[str | None] = ContextVar("authors_moving_code", default=None)


def _forget(table: TableLike) -> None:
    """After a rollback: forget any cached game of the table that holds a move the log does not."""
    for deal in table.deals:
        games.forget_unstored(deal)


@contextmanager
def _undone_on_failure(table: TableLike) -> Iterator[None]:
    """A block that raises is rolled back and the table's games that ran ahead of the log forgotten; a
    write that found the table changed under it (a lost race) becomes Stale."""
    try:
        yield
    except (IntegrityError, StaleDataError):
        db.session.rollback()
        _forget(table)
        raise Stale(table.id) from None
    except BaseException:
        db.session.rollback()
        _forget(table)
        raise


@contextmanager
def changing(table: TableLike) -> Iterator[Table]:
    """The table as an ORM row, locked and as it is now, for the block; committed when the block ends.
    (The row the request loaded is kept when its version has not moved: app/db.py write_lock.)"""
    row = write_lock(Table, table.id, loaded=table if isinstance(table, Table) else None)
    if row is None:
        db.session.rollback()
        raise Gone(table.id)
    code = row.code  # (read before the commit, which may expire the row's attributes)
    with _undone_on_failure(row):
        yield row
        db.session.commit()
    changes.publish(code)


@contextmanager
def moving(table: TableLike) -> Iterator[TableSnapshot]:
    """The table as it is now, locked for the block: the snapshot given when its version has not moved
    since it was read, else read again. Whatever the block has not committed (`commit_move`) is rolled
    back when it ends."""
    begin_write()
    current = fast.scalar(db.session.connection(), VERSION_FOR_UPDATE, {"table_id": table.id})
    if current is None:
        db.session.rollback()
        raise Gone(table.id)
    locked = table if isinstance(table, TableSnapshot) and current == table.version else by_id(table.id)
    if locked is None:  # (not while its row is locked)
        db.session.rollback()
        raise Gone(table.id)
    token = _moving_code.set(locked.code)
    try:
        with _undone_on_failure(locked):
            yield locked
    finally:
        _moving_code.reset(token)
    if db.session().in_transaction():
        db.session.rollback()


def append_move(table: TableSnapshot, deal_id: int, seq: int, move: dict[str, Any], now: float,
                next_bot_at: float | None) -> int:
    """Store a deal's move number `seq` (from 0) and, unless `next_bot_at` is None (the deal ended: the
    caller changes the table through `row_of`), move the table to its next version. An INSERT and an
    UPDATE that names the version read: no ORM instances (about a third of a move's cost otherwise).
    Returns the new version."""
    connection = db.session.connection()
    fast.write(connection, STORE_MOVE, {"deal_id": deal_id, "seq": seq, "played_at": now,
                                    "data_json": json.dumps(move, ensure_ascii=False)})
    if next_bot_at is None:
        return table.version
    version = table.version + 1
    changed = fast.write(connection, NEXT_VERSION, {"table_id": table.id, "read": table.version, "version": version,
                                                    "changed_at": now, "next_bot_at": next_bot_at})
    if changed != 1:
        raise StaleDataError(f"table {table.id} is no longer at version {table.version}")
    return version


def row_of(table: TableSnapshot) -> Table:
    """Inside `moving`: the locked table as an ORM row, for the rarer changes a move makes (a deal's
    end: its result, the next deal, the match's end). Stale when another write came between."""
    row = db.session.get(Table, table.id, populate_existing=True)
    if row is None or row.version != table.version:
        raise StaleDataError(f"table {table.id} is no longer at version {table.version}")
    return row


def flush(row: Table) -> int:
    """Inside `moving`: write the ORM changes made to `row_of`'s row; returns the table's new version."""
    db.session.flush()
    version: int = row.version
    return version


def commit_move(moved: TableSnapshot | None = None) -> None:
    """Commit the move's transaction (and publish the table's change, with `moved`: the table as this
    commit leaves it, when the caller knows it)."""
    db.session.commit()
    code = _moving_code.get()
    if code is not None:
        changes.publish(code, moved)
