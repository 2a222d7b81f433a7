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

from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError

from ..db import begin_write, db
from ..models import RateLimit

KEEP_SECONDS = 24 * 3600  # rows older than this are deleted now and then


def _digest(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def blocked(key: str, limit: int, window: float, now: float | None = None) -> float:
    """Seconds until `key` may try again after `limit` hits within `window` seconds; 0 when it may now."""
    now = time.time() if now is None else now
    row = db.session.execute(select(RateLimit.window_start, RateLimit.count)
                             .where(RateLimit.key == _digest(key))).first()
    if row is None or row.window_start <= now - window or row.count < limit:
        return 0.0
    return max(1.0, row.window_start + window - now)


def hit(key: str, window: float, now: float | None = None) -> None:
    """Count one attempt of `key` in its current window (a new window once the last one is over)."""
    now = time.time() if now is None else now
    digest = _digest(key)
    for _ in range(3):
        begin_write()
        same = db.session.execute(update(RateLimit)
                                  .where(RateLimit.key == digest, RateLimit.window_start > now - window)
                                  .values(count=RateLimit.count + 1)
                                  .execution_options(synchronize_session=False))
        if same.rowcount:
            break
        fresh = db.session.execute(update(RateLimit)
                                   .where(RateLimit.key == digest, RateLimit.window_start <= now - window)
                                   .values(window_start=now, count=1)
                                   .execution_options(synchronize_session=False))
        if fresh.rowcount:
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
        counted = db.session.execute(update(RateLimit)
                                     .where(RateLimit.key == digest, RateLimit.window_start > now - window,
                                            RateLimit.count < limit)
                                     .values(count=RateLimit.count + 1)
                                     .execution_options(synchronize_session=False)).rowcount
        counted = counted or db.session.execute(update(RateLimit)
                                                .where(RateLimit.key == digest, RateLimit.window_start <= now - window)
                                                .values(window_start=now, count=1)
                                                .execution_options(synchronize_session=False)).rowcount
        if counted:
            db.session.commit()
            return 0.0
        row = db.session.execute(select(RateLimit.window_start, RateLimit.count)
                                 .where(RateLimit.key == digest)).first()
        if row is not None:
            db.session.rollback()
            if row.window_start > now - window and row.count >= limit:
                return max(1.0, row.window_start + window - now)
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
