"""The table store: the one home of a table in play, between the services and the database.

- reading: `read(code)` gives a table as a frozen snapshot (the one read model for play);
  `exists(code)`, `language_of(code)` answer the two small questions other layers ask by code;
- writing: `changing(table)` (the ORM: the teacher's changes, joins) and `moving(table)` with
  `append_move`, `row_of` and `commit_move` (a move, the hot path): each one transaction that begins
  by locking the table, rolls back and forgets the table's cached games when it fails;
- games: `playing(deal)` gives the deal's game caught up with its log, held for the block: the only
  way to reach a game; `turn(table)` whose turn it is; `bot_for` a computer seat's player;
- polls: `version_rows` and `etag`, shared by the fast poll and the state's view; `watch_reader`, the
  state streams' one query for the tables they watch, and `changes`, each commit's table told to them;
- presence: a seat's last poll, written at most once per `presence.WRITE_EVERY` seconds (`presence.mark_seen`).

May import the models, the database, the engine and the decks; nothing of Flask's requests or of the
services.
"""
from __future__ import annotations

from sqlalchemy import exc as sa_exc
from sqlalchemy.exc import SQLAlchemyError

from ..db import db
from ..models import Table
from .codes import is_valid_code, normalize_code
from .decks import SNAPSHOT_PREFIX, deck_by_ref, header_deck
from .games import bot_for, evict, game_from_header, playing, record, turn
from . import changes, presence
from .polls import Look, etag, seen_due, unchanged_etag, version_rows, watch_reader
from .snapshots import DealLike, DealSnapshot, SeatLike, SeatSnapshot, TableLike, TableSnapshot, by_code, by_id
from .writes import Gone, Stale, append_move, changing, commit_move, flush, moving, row_of

__all__ = ["DATABASE_ERRORS", "rollback", "Gone", "Look", "DealLike", "DealSnapshot", "SNAPSHOT_PREFIX", "SeatLike", "SeatSnapshot",
           "Stale", "TableLike", "TableSnapshot", "append_move",
           "bot_for", "by_id", "changes", "changing", "commit_move", "deck_by_ref", "etag", "evict", "exists", "flush",
           "game_from_header", "header_deck", "language_of", "moving", "playing", "read", "record", "row_of",
           "presence", "seen_due", "turn", "unchanged_etag", "version_rows", "watch_reader"]


# The database is not answering (the web app answers 503 and tries again), as SQLAlchemy says it.
DATABASE_ERRORS = (sa_exc.OperationalError, sa_exc.InterfaceError, sa_exc.TimeoutError,
                   sa_exc.DisconnectionError, sa_exc.PendingRollbackError)


def rollback() -> None:
    """End the request's transaction, whatever state its connection is in (a dead one is replaced)."""
    try:
        db.session.rollback()
    except Exception:  # noqa: BLE001 - the connection is gone; the pool replaces it
        pass


def read(code: str) -> TableSnapshot | None:
    """The table with this join code (as typed: normalized here), as it is now, or None."""
    clean = normalize_code(code)
    return by_code(clean) if is_valid_code(clean) else None


def exists(code: str) -> bool:
    clean = normalize_code(code)
    return is_valid_code(clean) and db.session.query(Table.id).filter_by(code=clean).first() is not None


def language_of(code: str) -> str | None:
    """The language the table with this code plays in; None when there is none, or the database does not
    answer (the page is then in the browser's language)."""
    clean = normalize_code(code)
    if not is_valid_code(clean):
        return None
    try:
        with db.session.no_autoflush:  # asked in the middle of a change too: it must not flush it early
            language: str | None = db.session.query(Table.language).filter_by(code=clean).scalar()
            return language
    except SQLAlchemyError:
        db.session.rollback()
        return None
