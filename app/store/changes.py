"""Which tables just changed, told to whoever listens in this process: the state streams of the worker
(app/streaming.py) look again at once instead of at their next look at the database.

`publish(code)` is called by writes.py after each commit that changed a table, in the thread that
committed; `subscribe(callback)` adds a listener, called in that thread with the table's code (a listener
on an event loop hands the code over with loop.call_soon_threadsafe). Other processes' commits are not
told here: the streams' watcher finds them in the database (polls.py `watch_reader`).
"""
from __future__ import annotations

import logging
import threading
from typing import Callable

Listener = Callable[[str], None]

log = logging.getLogger("authors.changes")
_listeners: list[Listener] = []
_lock = threading.Lock()


def subscribe(listener: Listener) -> Callable[[], None]:
    """Call `listener(code)` after every commit that changes a table; returns what unsubscribes it."""
    with _lock:
        _listeners.append(listener)

    def unsubscribe() -> None:
        with _lock:
            if listener in _listeners:
                _listeners.remove(listener)

    return unsubscribe


def publish(code: str) -> None:
    """The table with this code changed (its commit is done)."""
    with _lock:
        listeners = list(_listeners)
    for listener in listeners:
        try:
            listener(code)
        except Exception:  # noqa: BLE001 - a listener's failure must not fail the write that is already done
            log.exception("a listener of table changes failed")
