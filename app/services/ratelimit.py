"""Rate limits that hold across processes and hosts: fixed-window counters in the database.

    wait = ratelimit.blocked(key, limit, window)   # seconds until `key` may try again, 0 when it may
    ratelimit.hit(key, window)                     # count one attempt that went wrong (a wrong code ...)
    wait = ratelimit.take(key, limit, window)      # count an attempt before it is made, if there is room
    ratelimit.give_back(key, window)               # ... and uncount it once it went right (a log-in)

A key is any text (it is stored as its SHA-256). Every change is one UPDATE or INSERT that the database
serializes, so two processes counting the same key at the same moment both count. `blocked` then `hit`
lets a burst of parallel attempts all pass before any is counted; `take` does not: its UPDATE counts
only while the count is under the limit, so of N parallel callers at most `limit` go ahead.
"""
from __future__ import annotations

import hashlib
import time

from sqlalchemy import Update, delete, select, update
from sqlalchemy.engine import CursorResult
from sqlalchemy.exc import IntegrityError

from ..db import begin_write, db
from ..models import RateLimit

KEEP_SECONDS = 24 * 3600  # rows older than this are deleted now and then


def _digest(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def _window(digest: str) -> tuple[float, int] | None:
    """The key's row: when its window started and its count; None when it has none."""
    row = db.session.execute(select(RateLimit.window_start, RateLimit.count).where(RateLimit.key == digest)).first()
    return None if row is None else (row[0], row[1])  # (row.count is a tuple's method to mypy)


def _changed(statement: Update) -> int:
    """Run an UPDATE of the rate limits in the session; how many rows it changed."""
    result = db.session.execute(statement.execution_options(synchronize_session=False))
    if not isinstance(result, CursorResult):  # (what the session answers a DML statement with)
        raise TypeError(f"an UPDATE answered with {type(result).__name__}")
    return result.rowcount


def blocked(key: str, limit: int, window: float, now: float | None = None) -> float:
    """Seconds until `key` may try again after `limit` hits within `window` seconds; 0 when it may now."""
    now = time.time() if now is None else now
    row = _window(_digest(key))
    if row is None:
        return 0.0
    window_start, count = row
    if window_start <= now - window or count < limit:
        return 0.0
    return max(1.0, window_start + window - now)


def hit(key: str, window: float, now: float | None = None) -> None:
    """Count one attempt of `key` in its current window (a new window once the last one is over)."""
    now = time.time() if now is None else now
    digest = _digest(key)
    for _ in range(3):
        begin_write()
        if _changed(update(RateLimit).where(RateLimit.key == digest, RateLimit.window_start > now - window)
                    .values(count=RateLimit.count + 1)):
            break
        if _changed(update(RateLimit).where(RateLimit.key == digest, RateLimit.window_start <= now - window)
                    .values(window_start=now, count=1)):
            break
        try:
            db.session.add(RateLimit(key=digest, window_start=now, count=1))
            db.session.flush()
            break
        except IntegrityError:  # another process inserted the key first: count in its row
            db.session.rollback()
    if int(now) % 97 == 0:
        db.session.execute(delete(RateLimit).where(RateLimit.window_start < now - KEEP_SECONDS)
                           .execution_options(synchronize_session=False))
    db.session.commit()


def take(key: str, limit: int, window: float, now: float | None = None) -> float:
    """Count one attempt of `key` if its window holds fewer than `limit`: 0 when this attempt is counted
    (go ahead), else the seconds until the window ends (refuse it). Committed before it returns, so the
    caller's slow work (a password check) holds no lock, and every other process sees the count."""
    now = time.time() if now is None else now
    digest = _digest(key)
    for _ in range(5):
        begin_write()  # SQLite: BEGIN IMMEDIATE; PostgreSQL: the UPDATE locks the row
        counted = _changed(update(RateLimit)
                           .where(RateLimit.key == digest, RateLimit.window_start > now - window,
                                  RateLimit.count < limit)
                           .values(count=RateLimit.count + 1))
        counted = counted or _changed(update(RateLimit)
                                      .where(RateLimit.key == digest, RateLimit.window_start <= now - window)
                                      .values(window_start=now, count=1))
        if counted:
            db.session.commit()
            return 0.0
        row = _window(digest)
        if row is not None:
            db.session.rollback()
            window_start, count = row
            if window_start > now - window and count >= limit:
                return max(1.0, window_start + window - now)
            continue  # (PostgreSQL) another process made the row after this one's UPDATEs: again
        try:
            db.session.add(RateLimit(key=digest, window_start=now, count=1))
            db.session.commit()
            return 0.0
        except IntegrityError:  # another process inserted the key first: count in its row
            db.session.rollback()
    return float(window)  # (not reached in practice) when in doubt, refuse


def give_back(key: str, window: float, now: float | None = None) -> None:
    """Uncount one attempt taken in the current window (it went right: a log-in with the right password)."""
    now = time.time() if now is None else now
    begin_write()
    db.session.execute(update(RateLimit)
                       .where(RateLimit.key == _digest(key), RateLimit.window_start > now - window,
                              RateLimit.count > 0)
                       .values(count=RateLimit.count - 1)
                       .execution_options(synchronize_session=False))
    db.session.commit()
