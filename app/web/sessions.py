"""The session cookie, read once a request.

Flask's own interface builds a new signing serializer for every request. Here it is built once per secret
key.

A student's browser sends the same cookie with every poll and move (it changes only when the session does),
so a cookie whose signature held is remembered with its contents and the moment it was signed: the next
request with it checks only its age (HMAC-SHA1 twice, base64, zlib and JSON were a tenth of a poll's CPU).
A remembered contents is shared, so it is read only: Flask's session gets a copy of its own.
"""
from __future__ import annotations

import copy
import threading
import time
from typing import Any

from flask import Flask, Request
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface
from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer

VERIFIED_KEPT = 8192  # cookies remembered per process (a few hundred bytes each): many classes' browsers


class Verified:
    """Signed values whose signature held, remembered with their contents and the moment they were signed:
    `loads` of one seen before checks only its age. What it returns is shared: read only."""

    def __init__(self, kept: int = VERIFIED_KEPT) -> None:
        self.kept = kept
        # (serializer, signed value) -> (signed at, contents)
        self._seen: dict[tuple[URLSafeTimedSerializer, str], tuple[int, Any]] = {}
        self._lock = threading.Lock()

    def loads(self, serializer: URLSafeTimedSerializer, value: str, max_age: int | None) -> Any:
        """As `serializer.loads(value, max_age=max_age)`: the contents, or BadSignature (SignatureExpired
        for one too old; None: no age limit)."""
        key = (serializer, value)
        seen = self._seen.get(key)
        if seen is None:
            data, signed_at = serializer.loads(value, max_age=max_age, return_timestamp=True)
            seen = (int(signed_at.timestamp()), data)
            with self._lock:
                self._seen[key] = seen
                while len(self._seen) > self.kept:
                    self._seen.pop(next(iter(self._seen)))
        age = int(time.time()) - seen[0]  # as itsdangerous counts it: whole seconds, never negative
        if max_age is not None and not 0 <= age <= max_age:
            raise SignatureExpired(f"signed {age} seconds ago, kept {max_age}")
        return seen[1]

    def forget(self) -> None:
        with self._lock:
            self._seen.clear()


class CookieSessions(SecureCookieSessionInterface):
    def __init__(self) -> None:
        self._serializers: dict[tuple[str | bytes, ...], URLSafeTimedSerializer] = {}
        self._verified = Verified()

    def get_signing_serializer(self, app: Flask) -> URLSafeTimedSerializer | None:
        if not app.secret_key:
            return None
        keys = (*(app.config["SECRET_KEY_FALLBACKS"] or ()), app.secret_key)
        found = self._serializers.get(keys)
        if found is None:
            found = self._serializers[keys] = super().get_signing_serializer(app)  # type: ignore[assignment]
        return found

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession | None:
        if not app.secret_key:
            return None
        cookie = request.cookies.get(self.get_cookie_name(app))
        if not cookie:
            return self.session_class()
        data = self.decode(app, cookie)
        # a copy: the session's values are changed in place (seating.py), the remembered ones never are
        return self.session_class(copy.deepcopy(data) if data is not None else {})

    def decode(self, app: Flask, cookie: str) -> Any:
        """The cookie's contents if its signature holds and it is not too old, else None. Read only: the
        contents of a cookie seen before are the ones remembered then."""
        serializer = self.get_signing_serializer(app)
        if serializer is None:
            return None
        try:
            return self._verified.loads(serializer, cookie, int(app.permanent_session_lifetime.total_seconds()))
        except BadSignature:  # (an expired one too)
            return None
