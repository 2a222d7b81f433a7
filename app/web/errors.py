"""Every error answer of the web edge, made here and nowhere else: its status and a plain message, JSON
for the API (and for a client that asks for JSON), a page for people, in the reader's language. The
JSON's code is stable for programs: a service's own code, else the English name of the status.

- a werkzeug HTTPException (abort(404), a 405, the 408 of a body that did not arrive, ...);
- a service's refusal (a ServiceError: its status, code and sentence);
- a CSRF token missing or not valid (400, code csrf-token);
- the database not answering (503, Retry-After, code database-unavailable);
- a body over MAX_CONTENT_LENGTH (413, code too-large);
- a stranger where a teacher must be logged in (401 for the API, else the log-in page);
- before Flask: a request for a host the server does not answer to (400, plain text), and the served
  front's last resort when Flask itself failed (500, plain text: app/serving.py).
"""
from __future__ import annotations

import math

from collections.abc import Callable

from flask import Flask, Response, current_app, jsonify, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _, lazy_gettext as _l
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge, RequestTimeout

from ..decks.errors import N_
from ..i18n import translated, without_table_language
from ..services import reading
from ..services.errors import ServiceError

TITLES = {
    400: N_("Bad request"), 401: N_("Log in first"), 403: N_("Forbidden"), 404: N_("Not found"),
    405: N_("Method not allowed"), 408: N_("Too slow"), 409: N_("Conflict"), 413: N_("Too large"), 415: N_("Unsupported file type"),
    422: N_("Cannot be processed"), 429: N_("Too many requests"), 500: N_("Server error"),
    503: N_("Service unavailable"),
}
# A service's refusal is titled by what it means to the reader (not allowed, not now).
SERVICE_TITLES = {400: N_("Bad request"), 403: N_("Not allowed"), 404: N_("Not found"), 409: N_("Not now")}
SERVICE_TITLE = N_("Error")  # any other status
# Werkzeug's own sentences, used when a route gave none, replaced by plain ones a reader can act on.
PLAIN = {
    400: N_("The server could not understand this request."),
    404: N_("There is nothing at this address; check it, or start again from the deck library."),
    405: N_("This address does not answer this kind of request."),
    408: N_("What was sent did not arrive in time (the network may be slow): nothing was changed. Try again."),
    413: N_("What was sent is too large."),
    429: N_("Too many requests in a short time: wait a little and try again."),
    500: N_("Something went wrong on the server. Try again; if it happens again, tell whoever runs this server."),
    503: N_("The server cannot answer just now: try again in a moment."),
}
# Flask-WTF's reasons (flask_wtf/csrf.py), in the reader's language.
CSRF_REASONS = {
    "The CSRF token is missing.": N_("the CSRF token is missing"),
    "The CSRF session token is missing.": N_("the session holds no CSRF token: cookies may be blocked"),
    "The CSRF token has expired.": N_("the CSRF token has expired"),
    "The CSRF token is invalid.": N_("the CSRF token is not valid"),
    "The CSRF tokens do not match.": N_("the CSRF tokens do not match"),
    "The referrer header is missing.": N_("the Referer header is missing"),
    "The referrer does not match the host.": N_("the Referer header names another site"),
}
RETRY_AFTER_SECONDS = 5  # a 503's Retry-After: the database is asked again this soon
UNAVAILABLE = _l("The database is not answering just now, so nothing was changed. "
                 "This page tries again by itself; if it goes on, tell the person who runs the server.")
# The served front's answer when Flask itself failed (no request context, no language: plain text).
SERVER_FAILED = (b"Server error\n", [(b"content-type", b"text/plain; charset=utf-8")])

# The server's mark, in the environ, of a request whose body did not arrive in time (app/serving.py): it
# reaches the app with no body, to be refused before anything reads one.
BODY_TIMED_OUT = "authors.body_timed_out"


def wants_json() -> bool:
    """Whether this request is answered in JSON: the API, or a client that asks for JSON first."""
    return request.path.startswith("/api/") or request.accept_mimetypes.best == "application/json"


def error_answer(status: int, code: str, message: str, title: Callable[[], str]) -> tuple[Response | str, int]:
    """The one shape of an error: {"error": {"code", "message"}} for JSON, else the error page under its
    title (said only for the page: JSON has none to translate)."""
    if wants_json():
        return jsonify(error={"code": code, "message": message}), status
    return render_template("error.html", status=status, title=title(), message=message), status


def refuse_bodies_that_did_not_arrive() -> None:
    if request.environ.get(BODY_TIMED_OUT):
        raise RequestTimeout()


def register(app: Flask) -> None:
    app.before_request_funcs.setdefault(None, []).insert(0, refuse_bodies_that_did_not_arrive)
    app.register_error_handler(HTTPException, http_error)
    app.register_error_handler(ServiceError, service_error)
    app.register_error_handler(CSRFError, csrf_refused)
    app.register_error_handler(RequestEntityTooLarge, too_large)
    for error in reading.DATABASE_ERRORS:
        app.register_error_handler(error, database_unavailable)


def http_error(exc: HTTPException) -> tuple[Response | str, int]:
    message = exc.description or exc.name
    if message == type(exc).description and exc.code in PLAIN:
        message = _(PLAIN[exc.code])
    return error_answer(exc.code or 500, exc.name.lower().replace(" ", "-"), message,
                        lambda: _(TITLES[exc.code]) if exc.code in TITLES else exc.name)


def service_error(exc: ServiceError) -> tuple[Response | str, int]:
    """A service's refusal as an answer, its sentence said in the reader's language (here, at the edge)."""
    return error_answer(exc.status, exc.code, translated(exc),
                        lambda: _(SERVICE_TITLES.get(exc.status, SERVICE_TITLE)))


def csrf_message(reason: str) -> str:
    reason = _(CSRF_REASONS[reason]) if reason in CSRF_REASONS else reason.rstrip(".")
    return _(  # type: ignore[no-any-return]  # flask_babel is untyped: its gettext gives a str
        "This request was refused because its CSRF token is missing or not valid (%(reason)s). "
        "Reload the page and try again; if you are calling the API, send the token of "
        "GET /api/csrf-token in an X-CSRFToken header.", reason=reason)


def csrf_refused(exc: CSRFError) -> tuple[Response | str, int]:
    return error_answer(400, "csrf-token", csrf_message(exc.description or "no token"),
                        lambda: _("Bad request"))


def too_large(exc: RequestEntityTooLarge) -> tuple[Response | str, int]:
    limit = current_app.config.get("MAX_CONTENT_LENGTH") or 0
    size = f"{limit / (1024 * 1024):g} MB" if limit >= 1024 * 1024 else f"{math.ceil(limit / 1024)} KB"
    message = _("This request is larger than the %(size)s the server accepts; send something smaller.", size=size)
    return error_answer(413, "too-large", message, lambda: _("Too large"))


def database_unavailable(exc: Exception) -> Response:
    """The database is not answering: a 503 that says so (the app recovers by itself once it answers)."""
    reading.rollback()
    current_app.logger.warning("database unavailable for %s %s: %s", request.method, request.path,
                               str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
    without_table_language()  # no second question to a database that does not answer
    message = str(UNAVAILABLE)
    try:
        response = current_app.make_response(error_answer(503, "database-unavailable", message,
                                                          lambda: _("Service unavailable")))
    except Exception:  # noqa: BLE001 - the page itself needed the database: plain text says it
        response = current_app.make_response((message, 503, {"Content-Type": "text/plain; charset=utf-8"}))
    response.status_code = 503
    response.headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
    response.headers["Cache-Control"] = "no-store"
    return response


def login_first() -> ResponseReturnValue:
    """A stranger where a teacher must be logged in: a 401 for the API, else the log-in page (and back)."""
    message = _("Log in as a teacher first: opening tables, the deck studio and reports are for teachers.")
    if wants_json():
        return error_answer(401, "login-required", message, lambda: _("Log in first"))
    return redirect(url_for("accounts.login", next=request.full_path.rstrip("?")))


def wrong_host(hosts: list[str]) -> tuple[str, list[tuple[str, str]], bytes]:
    """The answer, before Flask, to a request for a host this server does not answer to (status, headers,
    body): plain text, in English (there is no request to take a language from)."""
    body = (f"This server answers to {', '.join(hosts)} only: open the address your teacher "
            "gave you.\n").encode()
    return "400 Bad Request", [("Content-Type", "text/plain; charset=utf-8"), ("Content-Length", str(len(body)))], body

