"""What keeps the server standing: a database that does not answer is a 503 that says so (the app
recovers by itself once it answers again); a body over MAX_CONTENT_LENGTH is a 413 that says so; and
guessing join codes is limited per browser and per client address, with counters in the database that
every process and host shares (app/services/ratelimit.py).

Join-code guessing: every request that names a table by its code (the pages and the API alike, and the
join form) and finds no table counts one wrong guess for the browser (a random id in its session
cookie, given with its first wrong code) and one for its address. After JOIN_GUESS_LIMIT wrong guesses
within JOIN_GUESS_WINDOW seconds the browser gets 429 for any code it does not already hold a seat
token for, until the window ends; the other browsers behind the same address (a classroom behind one
NAT) go on joining. The address gets 429 only after JOIN_GUESS_ADDRESS_LIMIT, a level no class reaches
by mistyping: that is the limit of a guesser who drops its cookies. (An IPv6 address counts by its /64,
which one host or household is given whole.) A browser polling its own table is never slowed down.
"""
from __future__ import annotations

import ipaddress
import math

from flask import Flask, current_app, g, jsonify, render_template, request, session
from flask_babel import gettext as _, lazy_gettext as _l
from werkzeug.exceptions import RequestEntityTooLarge

from .. import store
from ..decks.errors import N_plural, say
from ..services import ratelimit
from ..store.codes import new_token, normalize_code
from ..services.errors import TooManyAttempts
from .seating import wants_json

DEFAULTS = {"JOIN_GUESS_LIMIT": 20, "JOIN_GUESS_ADDRESS_LIMIT": 300, "JOIN_GUESS_WINDOW": 600}
BROWSER = "browser"  # the session's random id of this browser, for its count of wrong join codes
RETRY_AFTER_SECONDS = 5
UNAVAILABLE = _l("The database is not answering just now, so nothing was changed. "
                 "This page tries again by itself; if it goes on, tell the person who runs the server.")
DATABASE_ERRORS = store.DATABASE_ERRORS


def register(app: Flask) -> None:
    for key, value in DEFAULTS.items():
        app.config.setdefault(key, value)
    for error in DATABASE_ERRORS:
        app.register_error_handler(error, database_unavailable)
    app.register_error_handler(RequestEntityTooLarge, too_large)
    # First of all: a body sent without a length is measured before anyone reads it.
    app.before_request_funcs.setdefault(None, []).insert(0, refuse_long_unsized_bodies)
    app.before_request(refuse_blocked_guessers)
    app.after_request(count_wrong_codes)
    app.add_url_rule("/healthz", "healthz", healthz, methods=["GET"])


def healthz():
    """The process is up (no database work): for a load balancer, and the bare endpoint of bench/load.py."""
    return "ok\n", 200, {"Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store"}


# ----------------------------------------------------------------------------------------------------
# The database is not answering: 503
# ----------------------------------------------------------------------------------------------------
def database_unavailable(exc: Exception):
    store.rollback()
    current_app.logger.warning("database unavailable for %s %s: %s", request.method, request.path,
                               str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
    g.setdefault("table_language", None)  # no second question to a database that does not answer
    message = str(UNAVAILABLE)
    if wants_json():
        response = jsonify(error={"code": "database-unavailable", "message": message})
    else:
        try:
            response = current_app.make_response(render_template(
                "error.html", status=503, title=_("Service unavailable"), message=message))
        except Exception:  # noqa: BLE001 - the page itself needed the database: plain text says it
            response = current_app.make_response((message, 503, {"Content-Type": "text/plain; charset=utf-8"}))
    response.status_code = 503
    response.headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
    response.headers["Cache-Control"] = "no-store"
    return response


# ----------------------------------------------------------------------------------------------------
# Too large: 413
# ----------------------------------------------------------------------------------------------------
def too_large(exc: RequestEntityTooLarge):
    limit = current_app.config.get("MAX_CONTENT_LENGTH") or 0
    size = f"{limit / (1024 * 1024):g} MB" if limit >= 1024 * 1024 else f"{math.ceil(limit / 1024)} KB"
    message = _("This request is larger than the %(size)s the server accepts; send something smaller.", size=size)
    if wants_json():
        return jsonify(error={"code": "too-large", "message": message}), 413
    return render_template("error.html", status=413, title=_("Too large"), message=message), 413


def refuse_long_unsized_bodies():
    """A chunked body has no Content-Length to refuse up front, and the server reads it no further than
    MAX_CONTENT_LENGTH, silently cut: read it here (that far), and if it fills the limit, it is too large
    (a 413, like a body whose length says so) rather than a cut body that fails to parse (a 400)."""
    limit = current_app.config.get("MAX_CONTENT_LENGTH")
    if (not limit or request.method in ("GET", "HEAD", "OPTIONS") or request.content_length is not None
            or not request.environ.get("wsgi.input_terminated")):
        return None
    if len(request.get_data(cache=True)) >= limit:
        raise RequestEntityTooLarge()
    return None


# ----------------------------------------------------------------------------------------------------
# Join-code guessing
# ----------------------------------------------------------------------------------------------------
def _named_code() -> str | None:
    """The join code this request names: in its URL, or in the join form. None for other requests."""
    code = (request.view_args or {}).get("code")
    if code is None and request.endpoint == "tables.join" and request.method == "POST":
        code = request.form.get("code", "")
    return None if code is None else str(code)


def _holds_token(code: str) -> bool:
    """Whether this browser was given a seat at this table (the token is checked by the view itself)."""
    held = session.get("seats")
    return isinstance(held, dict) and bool(held.get(normalize_code(code)))


def client_network() -> str:
    """The client's address as the limits count it: an IPv4 address, or an IPv6 address's /64."""
    address = request.remote_addr or "unknown"
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if parsed.version == 4:
        return str(parsed)
    if parsed.ipv4_mapped is not None:  # ::ffff:198.51.100.7 is 198.51.100.7
        return str(parsed.ipv4_mapped)
    return str(ipaddress.ip_network(f"{parsed}/64", strict=False))


def _browser_key() -> str | None:
    browser = session.get(BROWSER)
    return f"join-code:browser:{browser}" if isinstance(browser, str) and browser else None


def _address_key() -> str:
    return f"join-code:{client_network()}"


def _retry_after(wait: float) -> int:
    """Answer with Retry-After: the seconds to wait; returns them as whole minutes for the sentence."""
    g.retry_after = math.ceil(wait)
    return max(1, math.ceil(wait / 60))


def refuse_blocked_guessers():
    code = _named_code()
    if code is None or _holds_token(code):
        return None
    config = current_app.config
    window, browser_key = config["JOIN_GUESS_WINDOW"], _browser_key()
    wait = ratelimit.blocked(browser_key, config["JOIN_GUESS_LIMIT"], window) if browser_key else 0
    if wait:
        minutes = _retry_after(wait)
        raise TooManyAttempts(say(N_plural(
            "Too many join codes that do not exist were tried in this browser. "
            "Check the code on the board and try again in %(num)d minute.",
            "Too many join codes that do not exist were tried in this browser. "
            "Check the code on the board and try again in %(num)d minutes."), num=minutes))
    wait = ratelimit.blocked(_address_key(), config["JOIN_GUESS_ADDRESS_LIMIT"], window)
    if wait:
        minutes = _retry_after(wait)
        raise TooManyAttempts(say(N_plural(
            "Too many join codes that do not exist were tried from this network. "
            "Check the code on the board and try again in %(num)d minute.",
            "Too many join codes that do not exist were tried from this network. "
            "Check the code on the board and try again in %(num)d minutes."), num=minutes))
    return None


def count_wrong_codes(response):
    if response.status_code == 429 and g.get("retry_after"):
        response.headers["Retry-After"] = str(g.retry_after)
    if response.status_code != 404:
        return response
    code = _named_code()
    if code is None:
        return response
    clean = normalize_code(code)
    try:
        if store.exists(clean):
            return response  # the table exists: a missing hand or seat is no guess
    except DATABASE_ERRORS:
        return response
    if _browser_key() is None:  # a browser without a session gets one: its wrong codes are its own
        session[BROWSER] = new_token()[:16]
    try:
        for key in (_browser_key(), _address_key()):
            ratelimit.hit(key, current_app.config["JOIN_GUESS_WINDOW"])
    except DATABASE_ERRORS as exc:  # the 404 stands; this guess goes uncounted
        current_app.logger.warning("could not count a wrong join code: %s", exc)
    return response
