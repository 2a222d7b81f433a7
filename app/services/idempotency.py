"""Idempotency keys: a retried request (same Idempotency-Key header) is applied once.

The service that makes the change calls `find` first, inside its write transaction (which holds the
lock of what it changes, so two tries of one key never run side by side), and `store` in that same
transaction, so the change and its stored answer are committed together or not at all. A key sent
again with another request is refused (422). Keys are kept for a day.
"""
from __future__ import annotations

import hashlib
import json
import random
import time
from typing import Any

from sqlalchemy import bindparam, delete, insert, select

from ..db import db
from ..decks.errors import N_, say
from ..store import fast
from ..models import IdempotencyKey
from .errors import BadRequest, ServiceError

KEEP_SECONDS = 24 * 3600
MAX_KEY_LENGTH = 200


class KeyReused(ServiceError):
    status, code = 422, "idempotency-key-reused"


def check_key(text: str | None) -> str | None:
    """The header's value, or None when it is absent; a clear 400 when it cannot be a key."""
    if text is None:
        return None
    key = text.strip()
    if not key or len(key) > MAX_KEY_LENGTH or not key.isascii() or not key.isprintable():
        raise BadRequest(say(N_("an Idempotency-Key is 1 to %(max)d printable ASCII characters, such as a "
                                "random UUID"), max=MAX_KEY_LENGTH), code="bad-idempotency-key")
    return key


def fingerprint(*parts: Any) -> str:
    """A digest of who asked for what: the same key must come back with the same request."""
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()


KEYS = IdempotencyKey.__table__
# Core statements, built once: every move with a key runs them (no ORM instances to load).
FIND = select(KEYS.c.fingerprint, KEYS.c.response_json, KEYS.c.created_at) \
    .where(KEYS.c.scope == bindparam("scope"), KEYS.c.key == bindparam("key"))
FORGET = delete(KEYS).where(KEYS.c.scope == bindparam("scope"), KEYS.c.key == bindparam("key"))
STORE = insert(KEYS)
EXPIRE = delete(KEYS).where(KEYS.c.created_at < bindparam("before"))


def find(scope: str, key: str, digest: str) -> dict[str, Any] | None:
    """The stored answer of this key, or None when it has not been used (an expired one is forgotten
    here, in the caller's transaction, so that `store` may use the key again)."""
    connection = db.session.connection()
    found = fast.rows(connection, FIND, {"scope": scope, "key": key})
    if not found:
        return None
    fingerprint_, response_json, created_at = found[0]
    if created_at < time.time() - KEEP_SECONDS:
        fast.write(connection, FORGET, {"scope": scope, "key": key})
        return None
    if fingerprint_ != digest:
        raise KeyReused(N_("This Idempotency-Key was already used for another request; send a new key "
                           "with every new request."))
    response: dict[str, Any] = json.loads(response_json)
    return response


def store(scope: str, key: str, digest: str, response: dict[str, Any]) -> None:
    """Keep the answer, in the caller's transaction (committed with the change it answers), after `find`
    said the key is free."""
    now = time.time()
    connection = db.session.connection()
    fast.write(connection, STORE, {"scope": scope, "key": key, "fingerprint": digest, "created_at": now,
                                   "response_json": json.dumps(response, ensure_ascii=False)})
    if random.random() < 0.01:
        fast.write(connection, EXPIRE, {"before": now - KEEP_SECONDS})
