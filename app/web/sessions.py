"""The session cookie, read once a request.

Flask's own interface builds a new signing serializer for every request and the play door (play_door.py),
which reads the cookie before Flask, would otherwise leave it to be verified a second time when the
poll goes on to the full answer. Here the serializer is built once per secret key, and a cookie the play door
already verified is taken as it decoded it (`DECODED` in the WSGI environ, with the cookie it read).
"""
from __future__ import annotations

from flask import Flask, Request
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface
from itsdangerous import BadSignature, URLSafeTimedSerializer

DECODED = "authors.session_decoded"  # environ: (the cookie's value, its verified contents)


class CookieSessions(SecureCookieSessionInterface):
    def __init__(self) -> None:
        self._serializers: dict[tuple, URLSafeTimedSerializer] = {}

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
        decoded = request.environ.get(DECODED)
        data = decoded[1] if decoded is not None and decoded[0] == cookie else self.decode(app, cookie)
        return self.session_class(data if data is not None else {})

    def decode(self, app: Flask, cookie: str):
        """The cookie's contents if its signature holds and it is not too old, else None."""
        serializer = self.get_signing_serializer(app)
        if serializer is None:
            return None
        try:
            return serializer.loads(cookie, max_age=int(app.permanent_session_lifetime.total_seconds()))
        except BadSignature:
            return None
