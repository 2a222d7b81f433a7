"""What keeps the server standing: a body sent without a length is measured before anything reads it
(over MAX_CONTENT_LENGTH, the 413 of errors.py); and guessing join codes is limited per browser and per
client address, with counters in the database that every process and host shares
(app/services/ratelimit.py). (A database that does not answer is errors.py's 503.)

Join-code guessing: every request that names a table by its code (the pages and the API alike, and the
join form) and finds no table counts one wrong guess for the browser (a random id in its session
cookie, given with its first wrong code) and one for its address. After JOIN_GUESS_LIMIT wrong guesses
within JOIN_GUESS_WINDOW seconds the browser gets 429 for any code it does not already hold a seat
token for, until the window ends; the other browsers behind the same address (a classroom behind one
NAT) go on joining. After JOIN_GUESS_ADDRESS_LIMIT, a level no class reaches by mistyping (the limit of
a guesser who drops its cookies), the address gets 429 for new joins only: a seat is what a guesser is
after, and a school's whole network shares the address. (An IPv6 address counts by its /64, which one
host or household is given whole.) The class word a roster join asks for is limited the same way
(CLASS_WORD_LIMIT, CLASS_WORD_ADDRESS_LIMIT), with counters of its own.

A table's own people are never refused by a guessing limit: its teacher (logged in), and a browser that
holds a seat of the table or waits to be let back into one. The teacher's page says when its address
is limited (`network_limited`).
"""
from __future__ import annotations

import ipaddress
import math
from typing import Any, NoReturn

from flask import Flask, current_app, g, request, send_from_directory
from werkzeug.exceptions import RequestEntityTooLarge

from ..decks.errors import N_plural, say
from ..i18n import translated
from ..services import homework, ratelimit, reading, tables
from ..services.errors import BadRequest, TooManyAttempts
from . import asking
from .seating import ask_token, browser_id, device_description, homework_student
from .table_code import request_table_code

JOINS = ("api.join", "tables.join")  # the requests that take a seat (or ask for one back)
DATABASE_ERRORS = reading.DATABASE_ERRORS


def register(app: Flask) -> None:
    # (their defaults: app/config.py; the 503 and the 413 they answer with: errors.py)
    # First of all: a body sent without a length is measured before anyone reads it.
    app.before_request_funcs.setdefault(None, []).insert(0, refuse_long_unsized_bodies)
    app.before_request(refuse_blocked_guessers)
    app.after_request(count_wrong_codes)
    app.add_url_rule("/healthz", "healthz", healthz, methods=["GET"])
    app.add_url_rule("/healthz/app", "healthz_app", healthz, methods=["GET"])
    app.add_url_rule("/favicon.ico", "favicon", favicon, methods=["GET"])


def healthz():
    """The process is up (no database work). `authors serve`'s front answers /healthz itself, however busy
    the app's threads; /healthz/app goes through the app's threads and its every hook: that the app answers,
    and bench/load.py's bare request through the app."""
    return "ok\n", 200, {"Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store"}


def favicon():
    """The icon browsers ask for by this name where no page names one (a PDF, a JSON answer); the pages
    name favicon.svg, which this is a rendering of."""
    return send_from_directory(current_app.static_folder, "favicon.ico", mimetype="image/vnd.microsoft.icon",
                               max_age=7 * 24 * 3600)


# ----------------------------------------------------------------------------------------------------
# Too large: 413 (errors.too_large says it)
# ----------------------------------------------------------------------------------------------------
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
def _new_join() -> bool:
    return request.endpoint in JOINS and request.method == "POST"


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


def _browser_key(kind: str = "join-code") -> str | None:
    browser = browser_id()
    return f"{kind}:browser:{browser}" if browser else None


def _address_key(kind: str = "join-code") -> str:
    return f"{kind}:{client_network()}"


def _retry_after(wait: float) -> int:
    """Answer with Retry-After: the seconds to wait; returns them as whole minutes for the sentence."""
    g.retry_after = math.ceil(wait)
    return max(1, math.ceil(wait / 60))


def refuse_blocked_guessers():
    code = request_table_code()
    if code is None or asking.holds_or_awaits_seat(code):
        return None
    config = current_app.config
    window, browser_key = config["JOIN_GUESS_WINDOW"], _browser_key()
    wait = ratelimit.blocked(browser_key, config["JOIN_GUESS_LIMIT"], window) if browser_key else 0
    # (the teacher is asked only of a request a limit would refuse: the answer is the same 429 for a
    # code that does not exist and another teacher's)
    if wait and not asking.is_teacher_of(code):
        _refuse(wait, N_plural(
            "Too many join codes that do not exist were tried in this browser. "
            "Check the code on the board and try again in %(num)d minute.",
            "Too many join codes that do not exist were tried in this browser. "
            "Check the code on the board and try again in %(num)d minutes."))
    if not _new_join():
        return None
    wait = ratelimit.blocked(_address_key(), config["JOIN_GUESS_ADDRESS_LIMIT"], window)
    if wait and not asking.is_teacher_of(code):
        _refuse(wait, N_plural(
            "Too many join codes that do not exist were tried from this network. "
            "Check the code on the board and try again in %(num)d minute.",
            "Too many join codes that do not exist were tried from this network. "
            "Check the code on the board and try again in %(num)d minutes."))
    return None


def _refuse(wait: float, sentence) -> NoReturn:
    """A 429 whose sentence gives the minutes to wait (and Retry-After the seconds)."""
    raise TooManyAttempts(say(sentence, num=_retry_after(wait)))


def network_limited() -> float:
    """Seconds until new joins from this request's address are let through again (too many wrong join
    codes or class words from it), 0 when they are: the teacher's page says so."""
    config = current_app.config
    window = config["JOIN_GUESS_WINDOW"]
    return max(ratelimit.blocked(_address_key(), config["JOIN_GUESS_ADDRESS_LIMIT"], window),
               ratelimit.blocked(_address_key("class-word"), config["CLASS_WORD_ADDRESS_LIMIT"], window))


def network_sentence(wait: float) -> str:
    """The teacher's notice that new joins from this network are refused for `wait` more seconds."""
    minutes = max(1, math.ceil(wait / 60))
    return translated(say(N_plural(
        "Joining is limited for %(num)d more minute: many wrong codes from this network. Students already "
        "seated play on; new students on this network can join once it ends.",
        "Joining is limited for %(num)d more minutes: many wrong codes from this network. Students already "
        "seated play on; new students on this network can join once it ends."), num=minutes))


# ----------------------------------------------------------------------------------------------------
# Taking a seat: the browser and device that join, the class word's guesses limited
# ----------------------------------------------------------------------------------------------------
def joining() -> dict[str, Any]:
    """What `tables.join` is told of the browser that joins: its id (made now if it has none), what its
    device says of itself, and its earlier request to have a seat back at this table."""
    return {"browser": browser_id(make=True), "device": device_description(request.user_agent.string),
            "asked": ask_token(request_table_code() or "")}


def _refuse_word_guessers() -> None:
    """A 429 with a sentence (and Retry-After) once this browser, or its address, tried too many wrong
    class words; each wrong word counts for both (`_count_guess("class-word")`)."""
    config = current_app.config
    window = config["JOIN_GUESS_WINDOW"]
    browser_key = _browser_key("class-word")
    wait = ratelimit.blocked(browser_key, config["CLASS_WORD_LIMIT"], window) if browser_key else 0
    if wait:
        _refuse(wait, N_plural(
            "Too many wrong class words were tried in this browser. "
            "Check the word on the projector and try again in %(num)d minute.",
            "Too many wrong class words were tried in this browser. "
            "Check the word on the projector and try again in %(num)d minutes."))
    wait = ratelimit.blocked(_address_key("class-word"), config["CLASS_WORD_ADDRESS_LIMIT"], window)
    if wait:
        _refuse(wait, N_plural(
            "Too many wrong class words were tried from this network. "
            "Check the word on the projector and try again in %(num)d minute.",
            "Too many wrong class words were tried from this network. "
            "Check the word on the projector and try again in %(num)d minutes."))


def join_from_roster(table, student: Any, word: Any):
    """`tables.join_from_roster` with the class word's guesses limited like join codes: per browser, then
    per address, a 429 with a sentence and Retry-After once a limit is reached (the table's teacher
    never is); each wrong word counts for both."""
    if not asking.is_teacher(table):
        _refuse_word_guessers()
    try:
        return tables.join_from_roster(table, student, word, **joining())
    except BadRequest as refused:
        if refused.code == "wrong-class-word":
            _count_guess("class-word")
        raise


def start_homework(assignment, student: Any, word: Any):
    """`homework.start` for this browser, the class word's guesses limited as at a class's table. A browser
    that started this student's homework before (with the word) is not asked for the word again."""
    _refuse_word_guessers()
    known = homework_student(assignment.code)
    try:
        return homework.start(assignment, student, word, browser=browser_id(make=True),
                              word_known=known is not None and str(known) == str(student))
    except BadRequest as refused:
        if refused.code == "wrong-class-word":
            _count_guess("class-word")
        raise


def count_wrong_codes(response):
    if response.status_code == 429 and g.get("retry_after"):
        response.headers["Retry-After"] = str(g.retry_after)
    if response.status_code != 404:
        return response
    code = request_table_code()
    if code is None:
        return response
    try:
        if reading.exists(code):
            return response  # the table exists: a missing hand or seat is no guess
    except DATABASE_ERRORS:
        return response
    _count_guess("join-code")
    return response


def _count_guess(kind: str) -> None:
    """One wrong guess (a join code, a class word) for this browser and its address. A browser without an
    id gets one: its wrong guesses are its own."""
    browser_id(make=True)
    try:
        for key in (_browser_key(kind), _address_key(kind)):
            ratelimit.hit(str(key), current_app.config["JOIN_GUESS_WINDOW"])
    except DATABASE_ERRORS as exc:  # the refusal stands; this guess goes uncounted
        current_app.logger.warning("could not count a wrong %s: %s", kind, exc)
