"""The database handle shared by the models (Flask-SQLAlchemy), and how writers take their turn.

Every change of a table is one write transaction that starts by locking the table: `write_lock(Table,
id)` reads the row again with SELECT ... FOR UPDATE. On PostgreSQL (READ COMMITTED) the row lock makes
a second writer of the same table wait until the first commits, then it reads the new version. SQLite
has no row locks (FOR UPDATE compiles to nothing), so there the request's read transaction is ended
and the write transaction starts with BEGIN IMMEDIATE, which takes the database's write lock at once:
writers queue up (up to the busy timeout) instead of failing half-way.

For that SQLAlchemy must emit BEGIN itself: the pysqlite driver is told not to (isolation_level None)
and a "begin" listener emits BEGIN, or BEGIN IMMEDIATE for a write transaction (the documented recipe
for serializable isolation, savepoints and transactional DDL on SQLite). The database file runs in WAL
mode, so readers never wait for the writer and the writer never waits for readers.
"""
from __future__ import annotations

import contextvars
import time
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Iterator, Protocol, TypeVar

from flask import Flask
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import event, inspect, select, text
from sqlalchemy.exc import DBAPIError, DisconnectionError, OperationalError
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.orm import Session, SessionTransaction

from .config import DEFAULTS

WRITE = "authors_write"          # the execution option that marks a write transaction
AUTOCOMMIT = "authors_autocommit"  # ... and a SQLite connection whose statements are each their own (no BEGIN)
# How long a writer waits for a lock, and when a PostgreSQL server that stops answering (no refusal, just
# silence: a dead host, a cut network) is given up on: DATABASE_LOCK_TIMEOUT_MS, DATABASE_CONNECT_SECONDS,
# DATABASE_ANSWER_SECONDS, DATABASE_SILENCE_SECONDS and DATABASE_IDLE_PING_SECONDS, whose defaults and
# reasons are in app/config.py. After the silence the next request tries again: the app recovers by itself.
CONNECT_SECONDS = DEFAULTS["DATABASE_CONNECT_SECONDS"]  # (libpq's least) a connection's deadline when none is set


class Database(SQLAlchemy):
    if TYPE_CHECKING:
        # Flask-SQLAlchemy types a relationship as its property class, which describes no value read from a
        # row: a model's relationships are Any to mypy, as its columns (db.Column) are.
        def relationship(self, *args: Any, **kwargs: Any) -> Any: ...

    def init_app(self, app: Flask) -> None:
        uri = str(app.config.get("SQLALCHEMY_DATABASE_URI") or "")
        lock_timeout = int(app.config["DATABASE_LOCK_TIMEOUT_MS"])
        if uri.startswith("postgresql"):
            # A server that does not answer is given up on after a few seconds (a 503, not a hung worker),
            # and a writer waits for a table's lock as long as a SQLite writer waits for its file.
            options = dict(app.config.get("SQLALCHEMY_ENGINE_OPTIONS") or {})
            connect_args = dict(options.get("connect_args") or {})
            connect_args.setdefault("connect_timeout", int(app.config["DATABASE_CONNECT_SECONDS"]))
            connect_args.setdefault("options", f"-c lock_timeout={lock_timeout}")
            options["connect_args"] = connect_args
            # Not a ping before every use (a round trip per request, ~8% of a poll's cost): only a
            # connection that sat idle in the pool is checked (_ping_after_idle).
            options["pool_pre_ping"] = False
            app.config["SQLALCHEMY_ENGINE_OPTIONS"] = options
        elif uri.startswith("sqlite"):  # a file on this machine: no connection goes stale, nothing to ping
            options = dict(app.config.get("SQLALCHEMY_ENGINE_OPTIONS") or {})
            options["pool_pre_ping"] = False
            app.config["SQLALCHEMY_ENGINE_OPTIONS"] = options
        super().init_app(app)
        with app.app_context():
            for engine in self.engines.values():
                if engine.dialect.name == "sqlite":
                    _serialize_sqlite(engine, lock_timeout, app.config["SQLITE_SYNCHRONOUS"])
                else:
                    silence = Silence(float(app.config["DATABASE_SILENCE_SECONDS"]))
                    _give_up_on_silence(engine, silence, float(app.config["DATABASE_ANSWER_SECONDS"]))
                    _ping_after_idle(engine, float(app.config["DATABASE_IDLE_PING_SECONDS"]), silence)


class DatabaseSilent(Exception):
    """The database server did not answer in time (the driver's error that SQLAlchemy wraps)."""


class Silence:
    """When the database last failed to answer: until `until`, nobody waits for it again."""

    def __init__(self, seconds: float) -> None:
        self.seconds, self.until = seconds, 0.0

    def begin(self) -> None:
        self.until = time.monotonic() + self.seconds

    def check(self) -> None:
        if time.monotonic() < self.until:
            raise OperationalError(None, None, DatabaseSilent("the database did not answer a moment ago"))


# Set while the schema is prepared (migrations, and waiting for another process's): those may take long.
_patient: contextvars.ContextVar[bool] = contextvars.ContextVar("authors_db_patient", default=False)


@contextmanager
def patiently() -> Iterator[None]:
    """No answer deadline for the statements inside (the schema's preparation)."""
    token = _patient.set(True)
    try:
        yield
    finally:
        _patient.reset(token)


def _give_up_on_silence(engine: Engine, silence: Silence, answer_seconds: float) -> None:
    """psycopg connections whose every wait for the server has a deadline (see DATABASE_ANSWER_SECONDS)."""
    import psycopg

    # psycopg raises its internal _WaitTimeout when a wait's deadline passes; it asks its callers to
    # handle it, which is done here (it becomes DatabaseSilent, a driver error SQLAlchemy wraps).
    wait_timeout: type[Exception] = getattr(psycopg.errors, "_WaitTimeout", psycopg.OperationalError)

    class DeadlineConnection(psycopg.Connection):
        def wait(self, gen: Any, interval: float = 0.1, timeout: float | None = None) -> Any:
            if timeout is not None or _patient.get():
                return super().wait(gen, interval, timeout)
            try:
                return super().wait(gen, interval, answer_seconds)
            except wait_timeout as exc:
                self.pgconn.finish()  # what the server did with the statement is unknown: never reuse it
                silence.begin()
                raise psycopg.OperationalError(
                    f"the database did not answer within {answer_seconds:g} s") from exc

    @event.listens_for(engine, "do_connect")
    def connect(dialect: Any, connection_record: Any, cargs: list[Any], cparams: dict[str, Any]) -> Any:
        silence.check()
        started = time.monotonic()
        try:
            return DeadlineConnection.connect(*cargs, **cparams)
        except psycopg.OperationalError:
            if time.monotonic() - started >= float(cparams.get("connect_timeout") or CONNECT_SECONDS):
                silence.begin()  # not refused: no answer at all
            raise


def _ping_after_idle(engine: Engine, idle_seconds: float, silence: Silence) -> None:
    """A pooled connection that waited longer than idle_seconds is pinged before use; one that fails is replaced (DisconnectionError: the pool connects afresh).
    Busy connections go straight to work, and a connection that died while busy fails its request with
    a 503 (app/web/errors.py), which marks the whole pool stale, so the next request connects afresh. While the
    database is silent (Silence) no connection is handed out: the request gets its 503 at once."""

    @event.listens_for(engine, "checkin")
    def on_checkin(dbapi_connection: Any, record: Any) -> None:
        record.info["idle_since"] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def on_checkout(dbapi_connection: Any, record: Any, proxy: Any) -> None:
        silence.check()
        since = record.info.get("idle_since")
        if since is None or time.monotonic() - since < idle_seconds:
            return
        try:
            cursor = dbapi_connection.cursor()
            cursor.execute("SELECT 1")
            cursor.close()
        except Exception as exc:  # noqa: BLE001 - any failure: this connection is not to be used
            raise DisconnectionError(f"an idle connection did not answer: {exc}") from exc


def statements_watched(engine: Engine) -> bool:
    """Whether anyone listens to the engine's statements (a test counting them, a tracer): then the
    statements sent straight to the driver (here and in app/store/fast.py) take SQLAlchemy's path."""
    dispatch = engine.dispatch
    return bool(dispatch.before_cursor_execute or dispatch.after_cursor_execute)


def _serialize_sqlite(engine: Engine, busy_timeout_ms: int, synchronous: str) -> None:
    if synchronous.upper() not in ("OFF", "NORMAL", "FULL", "EXTRA"):
        raise ValueError(f"SQLITE_SYNCHRONOUS is OFF, NORMAL, FULL or EXTRA, not {synchronous!r}")
    memory = engine.url.database in (None, "", ":memory:")

    @event.listens_for(engine, "connect")
    def on_connect(dbapi_connection: Any, connection_record: Any) -> None:
        dbapi_connection.isolation_level = None  # the driver emits no BEGIN of its own
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
        if not memory:
            cursor.execute("PRAGMA journal_mode = WAL")
            cursor.execute(f"PRAGMA synchronous = {synchronous}")
        cursor.close()

    @event.listens_for(engine, "begin")
    def on_begin(conn: Connection) -> None:
        options = conn.get_execution_options()
        if options.get(AUTOCOMMIT):
            return
        statement = "BEGIN IMMEDIATE" if options.get(WRITE) else "BEGIN"
        if statements_watched(engine):
            conn.exec_driver_sql(statement)  # a listener (a test counting statements) sees it
        else:
            # Straight to the driver: SQLAlchemy's execution of a statement costs ~5x the BEGIN itself,
            # and every request begins one or two transactions.
            try:
                driver(conn).execute(statement)
            except engine.dialect.loaded_dbapi.Error as error:  # as SQLAlchemy would raise it ("locked": a 503)
                raise DBAPIError.instance(statement, (), error, engine.dialect.loaded_dbapi.Error,
                                          dialect=engine.dialect) from error


ROW_ID_LIMIT = 2**31  # the databases' INTEGER: SQLite refuses a bigger int outright, PostgreSQL's column too


def row_id(value: Any) -> int | None:
    """A row's id from what a request sent (a path's number, a JSON value): None unless a whole number
    from 1 to 2**31 - 1, so a huge one is "not found", never the driver's overflow."""
    text = str(value)
    if not text.isascii() or not text.isdigit():
        return None
    number = int(text)
    return number if 0 < number < ROW_ID_LIMIT else None


def driver(connection: Connection) -> Any:
    """The driver's own connection under a SQLAlchemy connection (for the statements sent to it directly)."""
    found = connection.connection.driver_connection
    if found is None:  # (a connection in use always has one)
        raise RuntimeError("the connection has no driver connection")
    return found


db = Database()


WRITING = "authors_writing"  # session.info: the session's transaction is a write (begin_write)


def begin_write() -> None:
    """Begin the session's write transaction. On SQLite the read transaction (if any) ends first and the
    write begins with BEGIN IMMEDIATE. What was loaded stays loaded: the caller checks it is still
    current (see write_lock)."""
    session = db.session()
    if session.get_bind().dialect.name == "sqlite":
        _end_transaction(session)
        write: dict[str, Any] = {WRITE: True}
        session.connection(execution_options=write)
    # (PostgreSQL, READ COMMITTED: the FOR UPDATE that follows, in this same transaction, reads the latest row)
    session.info[WRITING] = True


def end_read() -> None:
    """End the session's read transaction, keeping what it loaded, so that its connection goes back to
    the pool: for a write on a connection of its own (presence), which must never wait for a second
    connection while the request holds one (a full pool would wait for itself). Inside a write this is
    a mistake, and raises: committing there would commit the write half-way."""
    session = db.session()
    if session.info.get(WRITING) or session.new or session.dirty or session.deleted:
        raise RuntimeError("a write of its own was asked for inside a write, or with changes not yet written")
    _end_transaction(session)


def _end_transaction(session: Session) -> None:
    if session.in_transaction():
        session.expire_on_commit = False
        try:
            session.commit()
        finally:
            session.expire_on_commit = True


@event.listens_for(db.session, "after_transaction_end")
def _write_ended(session: Session, transaction: SessionTransaction) -> None:
    if transaction.parent is None:
        session.info.pop(WRITING, None)


class _Identified(Protocol):
    id: Any  # the primary key column (a mapped class's attribute)


_Row = TypeVar("_Row", bound=_Identified)


def row_by_id(model: type[_Row], value: Any) -> _Row | None:
    """The row of `model` whose id a request sent (see row_id), or None."""
    number = row_id(value)
    return db.session.get(model, number) if number is not None else None


def write_lock(model: type[_Row], ident: int, loaded: _Row | None = None) -> _Row | None:
    """Begin a write transaction and lock one row (SELECT ... FOR UPDATE); returns the row as it is now,
    or None when it is gone.

    `loaded`, the instance as the request read it, is kept as it is when the row's version counter
    has not moved since (every change of the row's object graph bumps it): only the version is read
    again. Otherwise the row and its eager collections are read again."""
    begin_write()
    version = inspect(model).version_id_col
    if loaded is not None and version is not None:
        current = db.session.execute(select(version).where(model.id == ident).with_for_update()).scalar()
        if current is None:
            return None
        if current == getattr(loaded, inspect(model).get_property_by_column(version).key):
            return loaded
    return (db.session.query(model).filter(model.id == ident).with_for_update()
            .populate_existing().one_or_none())


SCHEMA_LOCK_KEY = 1861_0001  # the PostgreSQL advisory lock held while one process migrates the schema


@contextmanager
def schema_lock(engine: Engine, timeout: float = 300) -> Iterator[None]:
    """One process at a time prepares the schema: app servers started together on an empty database
    would otherwise all run the migrations, and all but one fail. PostgreSQL: a session advisory lock;
    SQLite: a lock file beside the database file (an in-memory database has one process anyway)."""
    if engine.dialect.name == "postgresql":
        with engine.connect() as connection:
            connection.execute(text("SELECT pg_advisory_lock(:key)"), {"key": SCHEMA_LOCK_KEY})
            try:
                yield
            finally:
                connection.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": SCHEMA_LOCK_KEY})
        return
    database = engine.url.database if engine.dialect.name == "sqlite" else None
    if not database or database == ":memory:" or database.startswith("file:"):
        yield
        return
    from filelock import FileLock

    with FileLock(f"{database}.schema-lock", timeout=timeout):
        yield
