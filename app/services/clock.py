"""The game's time, kept by the server: nothing waits for a screen to ask.

A computer player's move at its pace, a turn's time running out (`turn_seconds`), a computer standing in
for a student away for `stand_in_after` minutes, the next deal after the pause between hands: each table
keeps the next such moment in `next_bot_at` (app/services/deals.py; NO_COMPUTER when a person is to move
and nothing else can happen before she does). `tick` finds the tables whose moment has come, in one
query (app/store/timing.py), and plays each on (`deals.advance`). A request that reads changes nothing.

Every process of the server runs a `Clock`: a daemon thread that ticks every TICK_SECONDS. Any number of
processes may tick at once: a move is a write that takes the table's lock and looks again
(store.moving), so of two processes that find one computer due, the second finds the move made and the
pace started again, and does nothing. The due tables are taken in a random order of each process's own,
so that processes ticking together mostly start on different tables instead of queueing on one lock.
(No claim with FOR UPDATE SKIP LOCKED on PostgreSQL: a claim holds only until the first commit, which
every move makes, and the lock the move takes anyway already makes a second player wait and look again.)

Each tick first writes down the presence the screens' polls noted in this process (app/store/presence.py)
and hands a seat back to a student whose screen is back while a computer stood in for her, so that the
stand-in's decision reads presence as fresh as the polls.
"""
from __future__ import annotations

import logging
import random
import threading
import time

from flask import Flask, current_app

from .. import store
from ..store import presence, timing
from . import deals, tables
from .errors import ServiceError

TICK_SECONDS = 0.2     # between two ticks of a process's clock
RETRY_SECONDS = 30.0   # a due table where nothing could be done (a refusal, an error) is looked at again then
FAILING_SECONDS = 5.0  # the longest wait between two ticks while they fail (a database that does not answer)
CLOCK = "authors.clock"  # app.extensions: the app's running Clock, when it has one

log = logging.getLogger("authors.clock")


def flush_presence() -> int:
    """Write down the presence this process's polls noted (one statement), then hand back the seats whose
    student's screen is back while a computer stood in for her. Returns how many seats' times were
    written. In an app context."""
    written, back = presence.flush(current_app)
    by_table: dict[int, dict[int, str]] = {}
    for table_id, seat_id, token_hash in back:
        by_table.setdefault(table_id, {})[seat_id] = token_hash
    for table_id, seats in by_table.items():
        try:
            tables.hand_back(table_id, seats)
        except ServiceError:
            pass  # gone, or changed at the same moment: her screen's next poll notes her again
    return written


def tick(now: float | None = None) -> int:
    """One beat of the game's clock: presence written down (flush_presence), then every table in play
    whose next moment is `now` (default: the time now) or earlier played on. Returns how many moves
    computer players made (as deals.advance counts them). In an app context."""
    flush_presence()
    moment = time.time() if now is None else now
    due = timing.due(moment)
    random.shuffle(due)
    moved = 0
    for table_id in due:
        moved += _play_on(table_id, moment, now)
    return moved


def _play_on(table_id: int, moment: float, now: float | None) -> int:
    table = store.by_id(table_id)
    if table is None or table.status != "playing" or table.paused or table.next_bot_at > moment:
        return 0  # played on by another process since the query
    try:
        moved = deals.advance(table, now)
    except store.DATABASE_ERRORS:
        raise  # the database does not answer: the tick ends here, the Clock waits and tries again
    except Exception:  # noqa: BLE001 - one table that cannot go on must not stop the others
        log.exception("table %s could not be played on; it is looked at again in %g s", table_id, RETRY_SECONDS)
        store.rollback()
        timing.put_off_idle(table.id, table.version, moment, moment + RETRY_SECONDS)
        return 0
    if moved == 0:
        # Nothing was done, or a person was looked at (a stand-in, her time run out: the version moved;
        # her next look put off: next_bot_at moved). Otherwise no one can move now: not every tick again.
        timing.put_off_idle(table.id, table.version, moment, moment + RETRY_SECONDS)
    return moved


class Clock:
    """A process's clock: a daemon thread that ticks every `interval` seconds, each tick in an app context
    of its own (its end gives the database session back). A tick that fails is logged and the clock goes
    on, waiting longer (up to FAILING_SECONDS) while the failures last: a database that does not answer
    must not stop the game's time for good, nor fill the log five times a second."""

    def __init__(self, interval: float = TICK_SECONDS) -> None:
        self.interval = interval
        self.ticks = self.failures = 0
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self, app: Flask) -> Clock:
        if self._thread is not None:
            raise RuntimeError("this clock is already running")
        self._thread = threading.Thread(target=self._run, args=(app,), name="authors-clock", daemon=True)
        app.extensions[CLOCK] = self
        self._thread.start()
        return self

    def stop(self, timeout: float = 10.0) -> None:
        """Stop ticking; returns once the tick under way (if any) has ended."""
        self._stopping.set()
        if self._thread is not None:
            self._thread.join(timeout)

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def _run(self, app: Flask) -> None:
        failing = 0
        while not self._stopping.is_set():
            try:
                with app.app_context():
                    tick()
                failing = 0
            except Exception:  # noqa: BLE001 - logged; the next tick tries again
                failing += 1
                self.failures += 1
                log.exception("the clock's tick failed (%d in a row); it tries again", failing)
            self.ticks += 1
            wait = self.interval if not failing else min(FAILING_SECONDS, self.interval * 2.0 ** failing)
            self._stopping.wait(wait)


def running_clock(app: Flask) -> Clock | None:
    """The app's Clock, once one was started for it (create_served_app starts one)."""
    found: Clock | None = app.extensions.get(CLOCK)
    return found
