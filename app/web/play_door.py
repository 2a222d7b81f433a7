"""The play door: a student's two hot requests answered before Flask builds a request.

A classroom's load is its students' screens: each asks for its table's state every second (GET
/api/tables/<code>) and sends its moves (POST /api/tables/<code>/moves). For these two, Flask's request
handling around the work (the request object and its context, the session object, the hooks before and
after, the response object) cost as much as the work itself (bench/move_instructions.py). The door
answers them in an app context only, calling what the views in api.py call (`moves.play`,
`api.state_answer`, `api.state_etag`), for the plain case: a browser that holds seats of this table
(a valid session cookie, every token still good, no teacher logged in), a JSON body with a valid CSRF
token, an answer with nothing to translate.

Anything else goes on to Flask, which answers it as it answers every request, so there is one error
format and one language edge:
- before the move is played, or for a state, the door has changed nothing (a state notes its seats'
  presence for the clock, as the view does), and the request simply goes on to the view;
- once `moves.play` has run, the request is never played twice: its answer, a refusal or an error is
  made by Flask in a request context of this request (`_in_flask`: the app's error handlers
  and after-request hooks, as the view's own would be).

An unchanged poll is answered 304 from one small query (the version's rows), before anything else.
"""
from __future__ import annotations

import io
import time
from urllib.parse import parse_qs

import orjson
from flask import Flask
from werkzeug.exceptions import HTTPException
from werkzeug.http import parse_cookie, parse_etags, parse_options_header
from werkzeug.routing import RequestRedirect

from ..services import moves, reading, schemas
from ..services.errors import ServiceError
from . import api, asking, csrf, seating
from .errors import BODY_TIMED_OUT
from .json_provider import OPTIONS
from .polling import CHECKED, SEEN
from .sessions import DECODED, CookieSessions
from .table_code import clean, valid

STATE, MOVE = "api.table_state", "api.move"
ANSWERED = "authors.door_answered"  # in the environ: which of the door's answers this request got
PLAYED = "authors.door_played"      # in the environ: the door has begun to play this request's move


class Declined(Exception):
    """The door leaves this request to Flask (nothing was played)."""


def _plain(value):
    """orjson's default for the door: a sentence (to be said in the reader's language) or anything else
    JSON has no type for is Flask's to encode."""
    raise TypeError(type(value).__name__)


class PlayDoor:
    """WSGI middleware in front of Flask: a student's state and move, and the unchanged poll's 304."""

    def __init__(self, app: Flask):
        self.app, self.wsgi_app = app, app.wsgi_app
        # The app's own session interface verifies the cookie (the same serializer, key and salt); what it
        # decoded is handed on to Flask's session in the environ, not verified twice.
        self.sessions: CookieSessions = app.session_interface  # type: ignore[assignment]
        self.rows = reading.poll_reader(app)
        self.mark_seen = reading.presence.recorder(app)
        # Bound once: binding the URL map to each request's environ costs more than the poll's query.
        self.routes = app.url_map.bind("localhost")

    def __call__(self, environ, start_response):
        method = environ.get("REQUEST_METHOD")
        if method in ("GET", "POST") and not environ.get(BODY_TIMED_OUT):
            endpoint, code = self._route(environ, method)
            if endpoint == STATE or endpoint == MOVE:
                try:
                    student = self._student(environ, code)
                    if student is not None:
                        if endpoint == STATE:
                            return self._state(environ, start_response, *student)
                        return self._move(environ, start_response, *student)
                except Declined:
                    pass
                except Exception:  # noqa: BLE001 - Flask answers it (a 503 when the database is down)
                    if environ.get(PLAYED):
                        raise  # never played twice: the server's own 500
                    self.app.logger.warning("the play door could not answer %s %s; the view does", method,
                                            environ.get("PATH_INFO"), exc_info=True)
        return self.wsgi_app(environ, start_response)

    # ------------------------------------------------------------------------------------------------
    # Who asks
    # ------------------------------------------------------------------------------------------------
    def _route(self, environ, method: str) -> tuple[str | None, str]:
        """The endpoint and table code of the request (the app's own URL map decides)."""
        try:
            endpoint, args = self.routes.match(environ.get("PATH_INFO", ""), method)
        except (HTTPException, RequestRedirect):
            return None, ""
        return endpoint, args.get("code", "")

    def _student(self, environ, code: str):
        """(the clean code, the session's contents, the seat tokens it holds for the table), for a student's
        browser; None for anyone else (no cookie, a forged one, no seat here, a teacher logged in)."""
        code = clean(code)
        if not valid(code):
            return None
        cookie = parse_cookie(environ.get("HTTP_COOKIE", "")).get(self.app.config["SESSION_COOKIE_NAME"])
        if not cookie:
            return None
        data = self.sessions.decode(self.app, cookie)
        if not isinstance(data, dict):
            return None
        environ[DECODED] = (cookie, data)
        tokens = seating.tokens_held(code, data)
        if not tokens or asking.names_login(data):
            return None  # no seat here, or a teacher: the view answers (and counts guesses, checks log-ins)
        return code, data, tokens

    # ------------------------------------------------------------------------------------------------
    # The state
    # ------------------------------------------------------------------------------------------------
    def _state(self, environ, start_response, code: str, data: dict, tokens: dict):
        query = parse_qs(environ.get("QUERY_STRING", ""), keep_blank_values=True)
        if query.keys() - {"seat"}:
            raise Declined  # ?lang= and the like: the view (it remembers the language in a cookie)
        asked = query.get("seat", [None])[0]
        if environ.get("HTTP_IF_NONE_MATCH"):
            tag = self._unchanged(environ, code, tokens, asked)
            if tag:
                return self._not_modified(environ, start_response, tag)
        with self.app.app_context():  # (its end closes the database session: app/db.py)
            table = reading.read(code)
            held = self._held(table, tokens)
            if not environ.get(SEEN):
                now = time.time()
                self.mark_seen(reading.presence.due(held.values(), now), now)
                environ[SEEN] = True
            seat = self._asked_seat(held, asked)
            tag = api.state_etag(table, seat, held, teacher=False)
            if environ.get("HTTP_IF_NONE_MATCH") and parse_etags(environ["HTTP_IF_NONE_MATCH"]).contains(tag):
                body = b""
            else:
                body = self._json(api.state_answer(table, seat, held, False, self._script_root(environ)))
        if not body:
            return self._not_modified(environ, start_response, tag)
        start_response("200 OK", [("Content-Type", "application/json"), ("Content-Length", str(len(body))),
                                  *self._fresh(tag)])
        environ[ANSWERED] = "state"
        return [body]

    @staticmethod
    def _fresh(tag: str) -> list[tuple[str, str]]:
        """A state's caching headers, as the view's `_fresh` sets them (the security headers are added by
        security.SecurityHeaders, which wraps the door)."""
        return [("ETag", f'"{tag}"'), ("Cache-Control", "no-cache, private"), ("Vary", "Cookie")]

    def _not_modified(self, environ, start_response, tag: str):
        start_response("304 NOT MODIFIED", self._fresh(tag))
        environ[ANSWERED] = "not-modified"
        return [b""]

    def _unchanged(self, environ, code: str, tokens: dict, asked) -> str | None:
        """The ETag of the full answer when the request's If-None-Match names it: one small query."""
        rows = self.rows(code)
        environ[CHECKED] = True  # the view need not run the same query again to find the same answer
        now = time.time()
        due = reading.seen_due(rows, tokens, now)  # presence, noted for the clock to write down
        if due:
            self.mark_seen(due, now)
        environ[SEEN] = True
        tag = reading.unchanged_etag(rows, tokens, asked, lambda owner: False)
        return tag if tag and parse_etags(environ["HTTP_IF_NONE_MATCH"]).contains(tag) else None

    @staticmethod
    def _held(table, tokens: dict) -> dict:
        """The seats the browser holds: every token it sends must still open one (else the view drops the
        stale ones from its cookie)."""
        if table is None:
            raise Declined
        held = seating.seats_of(table, tokens)
        if not held or len(held) != len(tokens):
            raise Declined
        return held

    @staticmethod
    def _asked_seat(held: dict, asked):
        """The seat the request speaks for, as asking.requested_seat finds it; Declined where that refuses."""
        if asked in (None, ""):
            return next(iter(held.values())) if len(held) == 1 else None
        try:
            return held[int(asked)]
        except (ValueError, KeyError):
            raise Declined from None

    @staticmethod
    def _script_root(environ) -> str:
        return environ.get("SCRIPT_NAME", "").rstrip("/")

    @staticmethod
    def _json(value) -> bytes:
        """The answer as Flask's JSON provider writes it (app/web/json_provider.py); Declined when it
        holds a sentence to translate, or anything orjson leaves to Flask's encoder."""
        try:
            return orjson.dumps(value, default=_plain, option=OPTIONS) + b"\n"
        except (orjson.JSONEncodeError, TypeError):
            raise Declined from None

    # ------------------------------------------------------------------------------------------------
    # A move
    # ------------------------------------------------------------------------------------------------
    def _move(self, environ, start_response, code: str, data: dict, tokens: dict):
        if environ.get("QUERY_STRING"):
            raise Declined
        raw = self._body(environ)
        if not csrf.door_check(self.app, data, environ):
            raise Declined  # Flask's own check refuses it, with its sentence
        try:
            body = orjson.loads(raw)
        except orjson.JSONDecodeError:
            raise Declined from None
        if not isinstance(body, dict):
            raise Declined
        with self.app.app_context():
            table = reading.read(code)
            held = self._held(table, tokens)
            try:
                sent = schemas.parse(schemas.MoveRequest, body)
            except ServiceError:
                raise Declined from None
            seat = self._asked_seat(held, sent.seat)
            if seat is None:
                raise Declined  # several seats and none named: the view says which to name
            # From here on the move is played once: whatever happens, this request is answered here.
            played = answer = failure = None
            environ[PLAYED] = True
            try:
                played = moves.play(table, seat, sent, body, environ.get("HTTP_IDEMPOTENCY_KEY"))
                result, replayed, table, seat = played
                held = self._held(table, tokens)
                answer = self._json({
                    "result": result, "state": api.state_answer(table, seat, held, False, self._script_root(environ)),
                    "state_etag": f'"{api.state_etag(table, seat, held, teacher=False)}"'})
            except Exception as exc:  # noqa: BLE001 - answered by Flask's handlers, as the view's would be
                failure = exc
        if failure is not None:
            if played is None:  # refused, or it failed: as if the view had raised it
                return self._in_flask(environ, start_response, failure)
            return self._in_flask(environ, start_response, lambda: api.move_answer(*played))
        headers = [("Content-Type", "application/json"), ("Content-Length", str(len(answer))), ("Vary", "Cookie")]
        if played[1]:
            headers.append(("Idempotent-Replayed", "true"))
        start_response("200 OK", headers)
        environ[ANSWERED] = "move"
        return [answer]

    def _in_flask(self, environ, start_response, answer):
        """Flask's answer to this request, in a request context of its own: `answer` makes the view's
        response, or is the exception the view would have raised. The app's error handlers and its
        after-request hooks (the session's cookie among them) run as they do for any view."""
        app = self.app
        with app.request_context(environ):
            try:
                try:
                    if isinstance(answer, Exception):
                        raise answer
                    response = app.make_response(answer())
                except Exception as exc:  # noqa: BLE001 - as Flask's full_dispatch_request
                    response = app.make_response(app.handle_user_exception(exc))
                response = app.process_response(response)
            except Exception as exc:  # noqa: BLE001 - as Flask's wsgi_app: a 500, logged
                response = app.make_response(app.handle_exception(exc))
            environ[ANSWERED] = "move-by-flask"
            return response(environ, start_response)

    def _body(self, environ) -> bytes:
        """The request's JSON body, read once and put back for Flask; Declined for anything but a plain
        JSON body of a stated length within MAX_CONTENT_LENGTH."""
        mimetype, _ = parse_options_header(environ.get("CONTENT_TYPE", ""))
        if mimetype != "application/json":
            raise Declined
        try:
            length = int(environ.get("CONTENT_LENGTH") or "")
        except ValueError:
            raise Declined from None
        limit = self.app.config.get("MAX_CONTENT_LENGTH")
        if length <= 0 or (limit and length > limit):
            raise Declined
        raw = environ["wsgi.input"].read(length)
        environ["wsgi.input"] = io.BytesIO(raw)
        return raw
