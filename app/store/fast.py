"""The hot statements of play, run on the DBAPI cursor of the session's own connection.

A move and a screen's state run a handful of small Core statements each; SQLAlchemy's execution of one
(its compiled-cache lookup, execution context, result object) costs about 110 microseconds of CPU, the
statement itself on SQLite 20. So these few are compiled once per dialect and sent to the driver
directly, in the session's transaction, as plain tuples back. Anyone listening to the engine's cursor
events (a test counting statements, a tracer) gets the ordinary path: the same SQL, observed.
"""
from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Iterator, Union

from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError
from sqlalchemy import CompoundSelect, Delete, Insert, Select, Update
from sqlalchemy.sql.compiler import SQLCompiler

from ..db import AUTOCOMMIT, db, driver, statements_watched

Statement = Union[Select[Any], CompoundSelect[Any], Insert, Update, Delete]
Compiled = tuple[str, tuple[str, ...] | None, dict[str, Any]]  # the SQL, its parameters' order (positional), defaults
# Keyed by the statement object itself (kept alive here, so no other statement can take its id): these
# are module constants, a few dozen at most.
_compiled: dict[tuple[str, Statement, tuple[str, ...]], Compiled] = {}


def _sql(connection: Connection, statement: Statement, keys: tuple[str, ...]) -> Compiled:
    dialect = connection.dialect
    cache_key = (dialect.name, statement, keys)
    found = _compiled.get(cache_key)
    if found is None:
        if len(_compiled) > 256:
            raise RuntimeError("fast statements are module constants; one is being built per call")
        compiled = statement.compile(dialect=dialect, column_keys=list(keys))
        if not isinstance(compiled, SQLCompiler):  # (a dialect compiles a statement with its SQLCompiler)
            raise TypeError(f"not a SQL statement: {statement!r}")
        names = tuple(compiled.positiontup) if compiled.positional and compiled.positiontup else None
        found = (compiled.string, names, dict(compiled.params))
        _compiled[cache_key] = found
    return found


def _cursor(connection: Connection, statement: Statement, params: dict[str, Any]) -> Any:
    sql, names, defaults = _sql(connection, statement, tuple(sorted(params)))
    values = {**defaults, **params}
    args = tuple(values[name] for name in names) if names is not None else values
    cursor = driver(connection).cursor()
    try:
        cursor.execute(sql, args)
    except connection.dialect.loaded_dbapi.Error as error:
        # As SQLAlchemy itself would: its exception class (IntegrityError, OperationalError ...), and a
        # connection that died is dropped from the pool.
        dialect = connection.dialect
        lost = dialect.is_disconnect(error, connection.connection.dbapi_connection, cursor)
        cursor.close()
        if lost:
            connection.invalidate(error)
        raise DBAPIError.instance(sql, args, error, dialect.loaded_dbapi.Error, connection_invalidated=lost,
                                  dialect=dialect) from error
    return cursor


def rows(connection: Connection, statement: Statement, params: dict[str, Any]) -> list[tuple[Any, ...]]:
    if statements_watched(connection.engine):
        return [tuple(row) for row in connection.execute(statement, params)]
    cursor = _cursor(connection, statement, params)
    try:
        found: list[tuple[Any, ...]] = cursor.fetchall()
        return found
    finally:
        cursor.close()


def scalar(connection: Connection, statement: Statement, params: dict[str, Any]) -> Any:
    found = rows(connection, statement, params)
    return found[0][0] if found else None


def write(connection: Connection, statement: Statement, params: dict[str, Any]) -> int:
    """An INSERT, UPDATE or DELETE; returns how many rows it changed."""
    if statements_watched(connection.engine):
        return connection.execute(statement, params).rowcount
    cursor = _cursor(connection, statement, params)
    try:
        changed: int = cursor.rowcount
        return changed
    finally:
        cursor.close()


@contextmanager
def autocommit(engine: Engine) -> Iterator[Connection]:
    """A connection of the engine's pool on which each statement is its own transaction: no BEGIN and no
    ROLLBACK around a read (on PostgreSQL two round trips of three). SQLite's driver is told to emit no
    BEGIN (app/db.py), and the statements here go to it directly."""
    with engine.connect() as connection:
        if engine.dialect.name == "sqlite":
            yield connection.execution_options(**{AUTOCOMMIT: True})  # (seen by a listener counting statements)
        else:
            yield connection.execution_options(isolation_level="AUTOCOMMIT")


_reading: ContextVar[Connection | None] = ContextVar("authors_reading", default=None)


@contextmanager
def reading() -> Iterator[Connection]:
    """The connection for the reads of play (a table, a deal's moves and header): the session's when it
    has a transaction (a write in progress, or what the request has read through the ORM), else one of
    the pool's in autocommit, held for the block. A table is read in one statement, which sees one moment
    of the database on its own, so a transaction around it buys nothing. A block nested in this one gets
    the same connection; nothing in the block writes (a write takes the session's connection, and this
    thread would hold two)."""
    held = _reading.get()
    if held is not None:
        yield held
        return
    session = db.session()
    if session.in_transaction():
        yield session.connection()
        return
    with autocommit(db.engine) as connection:
        token = _reading.set(connection)
        try:
            yield connection
        finally:
            _reading.reset(token)
