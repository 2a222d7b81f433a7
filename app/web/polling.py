"""The version poll, fast. Every screen asks GET /api/tables/<code> every second or so with the ETag of
what it shows; nearly always nothing has changed, and the answer is a 304. That answer needs one small
query (the table's version and its seats' token hashes), not the table, its hands or its game.

Two doors lead to it:
- `FastPoll`, a WSGI middleware in front of Flask, answers a student's poll (a browser that holds a
  seat at the table and is no teacher) before Flask builds a request at all: it reads the signed session
  cookie with Flask's own serializer, runs the query and answers 304 with the usual headers;
- `not_modified_etag`, inside the view, does the same for everyone else (teachers, projectors).
Anything else (a change, a computer player due, a stale token, a seat that is not the browser's, a
database error) goes on to the full answer of api.table_state, which builds the same ETag.
"""
from __future__ import annotations

import os
import re
import time
from urllib.parse import parse_qs

from flask import Flask, request, session
from flask.sessions import SecureCookieSessionInterface
from flask_login import current_user
from sqlalchemy import bindparam, create_engine, select
from werkzeug.http import parse_cookie, parse_etags

from ..db import db
from ..models import Seat, Table
from ..services.codes import is_valid_code, normalize_code, token_matches

VERSION_AND_SEATS = (select(Table.id, Table.version, Table.status, Table.next_bot_at, Table.teacher_id,
                            Seat.position, Seat.token_hash)
                     .join(Seat, Seat.table_id == Table.id).where(Table.code == bindparam("code")))
CHECKED = "authors.poll_checked"  # set in the WSGI environ by FastPoll when its check found a change
POLL_PATH = re.compile(r"^/api/tables/([A-Za-z0-9 -]{1,20})$")


def etag(table_id: int, version: int, seat: int | None, teacher: bool, held) -> str:
    return f"t{table_id}-v{version}-s{'p' if seat is None else seat}-{int(teacher)}-{'.'.join(map(str, held))}"


def _unchanged(rows, tokens, asked, is_owner) -> str | None:
    """The ETag of the full answer, from the query's rows, when no computer player is due and every
    token the browser holds is good; None when only the full answer will do."""
    if not rows:
        return None
    table_id, version, status, next_bot_at, owner = rows[0][:5]
    if status == "playing" and time.time() >= next_bot_at:
        return None  # a computer player may be due: the full answer lets it move
    tokens = tokens if isinstance(tokens, dict) else {}
    held = sorted(row[5] for row in rows if token_matches(tokens.get(str(row[5])), row[6]))
    if len(held) != len(tokens):
        return None  # a stale token: the full answer forgets it
    if asked not in (None, ""):
        try:
            seat = int(asked)
        except ValueError:
            return None
        if seat not in held:
            return None
    else:
        seat = held[0] if len(held) == 1 else None
    return etag(table_id, version, seat, owner is not None and is_owner(owner), held)


def not_modified_etag(code: str) -> str | None:
    """The ETag the full answer would carry, when the request's If-None-Match already names it."""
    if not request.if_none_match or request.environ.get(CHECKED):
        return None
    clean = normalize_code(code)
    if not is_valid_code(clean):
        return None
    rows = db.session.connection().execute(VERSION_AND_SEATS, {"code": clean}).all()
    seats = session.get("seats")
    tokens = seats.get(clean) if isinstance(seats, dict) else None
    tag = _unchanged(rows, tokens, request.args.get("seat"),
                     lambda owner: current_user.is_authenticated and current_user.id == owner)
    return tag if tag and request.if_none_match.contains(tag) else None


class FastPoll:
    """WSGI middleware: a student's unchanged poll answered 304 without entering Flask."""

    def __init__(self, app: Flask):
        self.app, self.wsgi_app = app, app.wsgi_app
        self.serializer = SecureCookieSessionInterface().get_signing_serializer(app)
        self.max_age = int(app.permanent_session_lifetime.total_seconds())
        with app.app_context():
            self.engine = db.engine
        if self.engine.dialect.name != "sqlite":
            # One statement, no transaction around it: one round trip to the server per poll. (A dead
            # connection fails the poll over to the view, and the pool drops it.)
            options = app.config.get("SQLALCHEMY_ENGINE_OPTIONS") or {}
            self.engine = create_engine(self.engine.url, isolation_level="AUTOCOMMIT", pool_size=2, max_overflow=8,
                                        connect_args=options.get("connect_args") or {})
            if hasattr(os, "register_at_fork"):
                os.register_at_fork(after_in_child=lambda: self.engine.dispose(close=False))

    def __call__(self, environ, start_response):
        if environ.get("REQUEST_METHOD") == "GET" and environ.get("HTTP_IF_NONE_MATCH"):
            match = POLL_PATH.match(environ.get("PATH_INFO", ""))
            if match:
                try:
                    tag = self._unchanged(environ, match.group(1))
                except Exception:  # noqa: BLE001 - Flask answers it, with a 503 if the database is down
                    tag = None
                if tag:
                    # (the security headers are added by security.SecurityHeaders, which wraps this)
                    start_response("304 NOT MODIFIED", [
                        ("ETag", f'"{tag}"'), ("Cache-Control", "no-cache, private"), ("Vary", "Cookie")])
                    return [b""]
        return self.wsgi_app(environ, start_response)

    def _unchanged(self, environ, code: str) -> str | None:
        clean = normalize_code(code)
        if not is_valid_code(clean):
            return None
        cookie = parse_cookie(environ.get("HTTP_COOKIE", "")).get(self.app.config["SESSION_COOKIE_NAME"])
        if not cookie or self.serializer is None:
            return None
        data = self.serializer.loads(cookie, max_age=self.max_age)
        seats = data.get("seats") if isinstance(data, dict) else None
        tokens = seats.get(clean) if isinstance(seats, dict) else None
        if not tokens or data.get("_user_id"):
            return None  # no seat here, or a teacher: the view answers (and counts guesses, checks log-ins)
        asked = parse_qs(environ.get("QUERY_STRING", "")).get("seat", [None])[0]
        with self.engine.connect() as connection:
            rows = connection.execute(VERSION_AND_SEATS, {"code": clean}).all()
        environ[CHECKED] = True  # the view need not run the same query again to find the same answer
        tag = _unchanged(rows, tokens, asked, lambda owner: False)
        return tag if tag and parse_etags(environ["HTTP_IF_NONE_MATCH"]).contains(tag) else None
