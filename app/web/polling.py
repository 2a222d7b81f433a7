"""The version poll, fast. Every screen asks GET /api/tables/<code> every second or so with the ETag of
what it shows; nearly always nothing has changed, and the answer is a 304. That answer needs one small
query (the table's version and its seats' token hashes), not the table, its deals or its game.

Two doors lead to it:
- `FastPoll`, a WSGI middleware in front of Flask, answers a student's poll (a browser that holds a
  seat at the table and is no teacher) before Flask builds a request at all: it reads the signed session
  cookie with Flask's own serializer, runs the query and answers 304 with the usual headers;
- `not_modified_etag`, inside the view, does the same for everyone else (teachers, projectors).
Anything else (a change, a computer player due, a stale token, a seat that is not the browser's, a
database error) goes on to the full answer of api.table_state, which builds the same ETag.
"""
from __future__ import annotations

import time

from flask import Flask, request, session
from flask_login import current_user
from werkzeug.http import parse_cookie, parse_etags
from werkzeug.routing import RequestRedirect
from werkzeug.exceptions import HTTPException
from urllib.parse import parse_qs

from .. import store
from ..store.codes import is_valid_code, normalize_code
from .sessions import DECODED, CookieSessions

CHECKED = "authors.poll_checked"  # set in the WSGI environ by FastPoll when its check found a change
SEEN = "authors.poll_seen"        # set by FastPoll once it recorded the presence of the browser's seats
POLL_ENDPOINT = "api.table_state"


def not_modified_etag(code: str) -> str | None:
    """The ETag the full answer would carry, when the request's If-None-Match already names it."""
    if not request.if_none_match or request.environ.get(CHECKED):
        return None
    clean = normalize_code(code)
    if not is_valid_code(clean):
        return None
    rows = store.version_rows(clean)
    seats = session.get("seats")
    tokens = seats.get(clean) if isinstance(seats, dict) else None
    if tokens:
        now = time.time()
        store.presence.mark_seen(store.seen_due(rows, tokens, now), now)
        request.environ[SEEN] = True
    tag = store.unchanged_etag(rows, tokens, request.args.get("seat"),
                               lambda owner: current_user.is_authenticated and current_user.id == owner)
    return tag if tag and request.if_none_match.contains(tag) else None


def mark_seen(seats) -> None:
    """The full answer's part of presence: these seats (held by the browser) polled now. Written only
    when the stored time is old (presence.WRITE_EVERY), and not again when a poll door already did."""
    if request.environ.get(SEEN):
        return
    now = time.time()
    store.presence.mark_seen([s.id for s in seats if store.presence.stale(s.seen_at, now)], now)


class FastPoll:
    """WSGI middleware: a student's unchanged poll answered 304 without entering Flask."""

    def __init__(self, app: Flask):
        self.app, self.wsgi_app = app, app.wsgi_app
        # The app's own session interface signs the cookie (the same serializer, key and salt); what it
        # decodes here is handed on to Flask's session in the environ, not verified twice.
        self.sessions: CookieSessions = app.session_interface  # type: ignore[assignment]
        self.rows = store.poll_reader(app)
        self.mark_seen = store.presence.writer(app)
        # Bound once: binding the URL map to each request's environ costs more than the poll's query.
        self.routes = app.url_map.bind("localhost")

    def __call__(self, environ, start_response):
        if environ.get("REQUEST_METHOD") == "GET" and environ.get("HTTP_IF_NONE_MATCH"):
            code = self._polled_code(environ)
            if code is not None:
                try:
                    tag = self._unchanged(environ, code)
                except Exception:  # noqa: BLE001 - Flask answers it, with a 503 if the database is down
                    self.app.logger.warning("the fast poll of %s failed; the view answers it",
                                            environ.get("PATH_INFO"), exc_info=True)
                    tag = None
                if tag:
                    # (the security headers are added by security.SecurityHeaders, which wraps this)
                    start_response("304 NOT MODIFIED", [
                        ("ETag", f'"{tag}"'), ("Cache-Control", "no-cache, private"), ("Vary", "Cookie")])
                    return [b""]
        return self.wsgi_app(environ, start_response)

    def _polled_code(self, environ) -> str | None:
        """The table code when the request is the state poll (the app's own URL map decides)."""
        try:
            endpoint, args = self.routes.match(environ.get("PATH_INFO", ""), "GET")
        except (HTTPException, RequestRedirect):
            return None
        return args.get("code") if endpoint == POLL_ENDPOINT else None

    def _unchanged(self, environ, code: str) -> str | None:
        clean = normalize_code(code)
        if not is_valid_code(clean):
            return None
        cookie = parse_cookie(environ.get("HTTP_COOKIE", "")).get(self.app.config["SESSION_COOKIE_NAME"])
        if not cookie:
            return None
        data = self.sessions.decode(self.app, cookie)
        if data is None:
            return None
        environ[DECODED] = (cookie, data)
        seats = data.get("seats") if isinstance(data, dict) else None
        tokens = seats.get(clean) if isinstance(seats, dict) else None
        if not tokens or data.get("_user_id"):
            return None  # no seat here, or a teacher: the view answers (and counts guesses, checks log-ins)
        asked = parse_qs(environ.get("QUERY_STRING", "")).get("seat", [None])[0]
        rows = self.rows(clean)
        environ[CHECKED] = True  # the view need not run the same query again to find the same answer
        now = time.time()
        due = store.seen_due(rows, tokens, now)  # presence: a write at most every WRITE_EVERY s a seat
        if due:
            self.mark_seen(due, now)
        environ[SEEN] = True
        tag = store.unchanged_etag(rows, tokens, asked, lambda owner: False)
        return tag if tag and parse_etags(environ["HTTP_IF_NONE_MATCH"]).contains(tag) else None
