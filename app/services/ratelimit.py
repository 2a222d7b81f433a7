"""Rate limits that hold across processes and hosts: fixed-window counters in the database.

    wait = ratelimit.blocked(key, limit, window)   # seconds until `key` may try again, 0 when it may
    ratelimit.hit(key, window)                     # count one attempt (a failed log-in, a wrong code ...)
    ratelimit.reset(key)                           # forget the key (a successful log-in)

A key is any text (it is stored as its SHA-256). Every change is one UPDATE or INSERT that the database
serializes, so two processes counting the same key at the same moment both count.
"""
from __future__ import annotations

import hashlib
import time

from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError

from ..db import db
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


def reset(key: str) -> None:
    db.session.execute(delete(RateLimit).where(RateLimit.key == _digest(key))
                       .execution_options(synchronize_session=False))
    db.session.commit()
