"""Which tables just changed, told to whoever listens: the state streams of a worker (app/streaming.py)
look again at once instead of waiting.

- This process: `publish(code, table)` is called by writes.py after each commit that changed a table, in
  the thread that committed; `subscribe(callback)` adds a listener, called in that thread with the
  table's code and, when the commit was a move's, the table as that commit left it (a snapshot: a stream
  builds its states from it without reading the table again), else None (a listener on an event loop
  hands them over with loop.call_soon_threadsafe).
- Other processes and hosts (`others(app)`), so that the streams' watcher reads the tables' versions
  (polls.py `watch_reader`) only when another connection wrote:
  - SQLite: `PRAGMA data_version` on a connection of the watcher's own changes whenever any other
    connection committed; asking it costs microseconds and no read of a table.
  - PostgreSQL: each process that serves sends its commits' codes with NOTIFY on CHANNEL (`Notifier`, a
    thread of its own, at most one NOTIFY per table per NOTIFY_GAP: NOTIFY takes a lock for the whole
    database at commit), and the watcher LISTENs on a connection of its own (`Listener`).
  - Any other database: every look reads.
"""
from __future__ import annotations

import logging
import select
import threading
import time
from typing import TYPE_CHECKING, Any, Callable

from flask import Flask
from sqlalchemy.engine import Engine

from ..db import db

if TYPE_CHECKING:
    from .snapshots import TableSnapshot

Listener = Callable[[str, "TableSnapshot | None"], None]
Told = Callable[[str], None]  # another process's change: only its code is known

log = logging.getLogger("authors.changes")
_listeners: list[Listener] = []
_lock = threading.Lock()

CHANNEL = "authors_tables"
NOTIFY_GAP = 0.1  # seconds: a table's commits within this are told to the other processes once, at its end


def subscribe(listener: Listener) -> Callable[[], None]:
    """Call `listener(code, table)` after every commit that changes a table; returns what unsubscribes it."""
    with _lock:
        _listeners.append(listener)

    def unsubscribe() -> None:
        with _lock:
            if listener in _listeners:
                _listeners.remove(listener)

    return unsubscribe


def publish(code: str, table: "TableSnapshot | None" = None) -> None:
    """The table with this code changed (its commit is done); `table`: the table as a move's commit left it."""
    with _lock:
        listeners = list(_listeners)
    for listener in listeners:
        try:
            listener(code, table)
        except Exception:  # noqa: BLE001 - a listener's failure must not fail the write that is already done
            log.exception("a listener of table changes failed")


# ----------------------------------------------------------------------------------------------------
# Other processes' commits
# ----------------------------------------------------------------------------------------------------
def _conninfo(engine: Engine) -> str:
    """The libpq address of a PostgreSQL engine (its URL without SQLAlchemy's driver name)."""
    return engine.url.set(drivername="postgresql").render_as_string(hide_password=False)


class Others:
    """What a process's streams learn of the other processes' commits (see the module's text)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.dialect = engine.dialect.name
        self._sqlite: Any = None  # the watcher's own connection (made and used in the watcher's thread)
        self._version: int | None = None

    def committed(self) -> bool:
        """Whether another connection may have committed since the last call (SQLite: exactly; PostgreSQL:
        False, the Listener tells; any other database: True). Called from one thread only; it never
        waits (SQLite's connection has no busy timeout: a database busy at that instant says True)."""
        if self.dialect == "postgresql":
            return False
        if self.dialect != "sqlite" or self.engine.url.database in (None, "", ":memory:"):
            return True
        try:
            if self._sqlite is None:
                arguments, options = self.engine.dialect.create_connect_args(self.engine.url)
                self._sqlite = self.engine.dialect.loaded_dbapi.connect(*arguments, **{**options, "timeout": 0})
            version: int = self._sqlite.execute("PRAGMA data_version").fetchone()[0]
        except self.engine.dialect.loaded_dbapi.OperationalError:  # busy, or not there: read the versions
            return True
        except Exception:  # noqa: BLE001 - a connection gone wrong: a new one at the next look
            self._sqlite = None
            return True
        changed = version != self._version
        self._version = version
        return changed

    def listen(self, told: Told) -> Callable[[], None]:
        """PostgreSQL: call `told(code)` (in a thread of its own) for every table another process says it
        changed; returns what stops it. Elsewhere nothing to do: `committed` tells."""
        if self.dialect != "postgresql":
            return lambda: None
        return _Listening(_conninfo(self.engine), told).stop


class _Listening:
    """LISTEN on CHANNEL on a connection of its own, in a thread, until stopped; connected again after a
    failure (a change told meanwhile is found by the watcher's regular full look)."""

    def __init__(self, conninfo: str, told: Told) -> None:
        self.conninfo, self.told = conninfo, told
        self.stopped = threading.Event()
        threading.Thread(target=self._run, name="authors-listen", daemon=True).start()

    def stop(self) -> None:
        self.stopped.set()

    def _run(self) -> None:
        import psycopg

        failing = False
        while not self.stopped.is_set():
            try:
                with psycopg.connect(self.conninfo, autocommit=True) as connection:
                    connection.execute(f"LISTEN {CHANNEL}")
                    failing = False
                    while not self.stopped.is_set():
                        if not select.select([connection.fileno()], [], [], 1.0)[0]:
                            continue
                        for notice in connection.notifies(timeout=0, stop_after=0):
                            self.told(notice.payload)
            except Exception as exc:  # noqa: BLE001 - the database may be back in a moment
                if not failing:
                    log.warning("listening for other processes' changes failed: %s", exc)
                failing = True
                self.stopped.wait(1.0)


class Notifier:
    """This process's commits told to the other processes (PostgreSQL): each code published is queued
    and sent by a thread of its own, in autocommit, on a connection of its own, each table at most once
    per NOTIFY_GAP (a change within the gap is sent at its end); several tables in one statement."""

    def __init__(self, conninfo: str) -> None:
        self.conninfo = conninfo
        self.pending: dict[str, None] = {}
        self.sent: dict[str, float] = {}
        self.condition = threading.Condition()
        self.closed = False
        threading.Thread(target=self._run, name="authors-notify", daemon=True).start()

    def __call__(self, code: str, table: "TableSnapshot | None" = None) -> None:
        with self.condition:
            self.pending[code] = None
            self.condition.notify()

    def close(self) -> None:
        with self.condition:
            self.closed = True
            self.condition.notify()

    def _ready(self) -> list[str] | None:
        """Under the condition: wait for codes whose gap has passed, and take them (None: closed)."""
        while True:
            if self.closed:
                return None
            if not self.pending:
                self.condition.wait()
                continue
            now = time.monotonic()
            ready = [code for code in self.pending if now - self.sent.get(code, 0.0) >= NOTIFY_GAP]
            if ready:
                for code in ready:
                    del self.pending[code]
                    self.sent[code] = now
                if len(self.sent) > 4096:  # old tables' times go; a gap is a tenth of a second
                    self.sent = {code: at for code, at in self.sent.items() if now - at < NOTIFY_GAP}
                return ready
            self.condition.wait(min(self.sent[code] for code in self.pending) + NOTIFY_GAP - now)

    def _run(self) -> None:
        import psycopg

        connection: Any = None
        failing = False
        while True:
            with self.condition:
                codes = self._ready()
            if codes is None:
                if connection is not None:
                    connection.close()
                return
            try:
                if connection is None or connection.closed:
                    connection = psycopg.connect(self.conninfo, autocommit=True)
                connection.execute("SELECT pg_notify(%s, code) FROM unnest(%s::text[]) AS code", (CHANNEL, codes))
                failing = False
            except Exception as exc:  # noqa: BLE001 - the others find the change at their next full look
                if not failing:
                    log.warning("telling other processes of a change failed: %s", exc)
                failing, connection = True, None


def others(app: Flask) -> Others:
    """What this process's streams learn of other processes' commits, for the app's database."""
    with app.app_context():
        return Others(db.engine)


def tell_others(app: Flask) -> None:
    """In each process that serves: on PostgreSQL, its commits told to the other processes (once per
    app). Elsewhere the others find them themselves."""
    with app.app_context():
        engine = db.engine
    if engine.dialect.name != "postgresql" or app.extensions.get("authors.notifier"):
        return
    notifier = app.extensions["authors.notifier"] = Notifier(_conninfo(engine))
    subscribe(notifier)
