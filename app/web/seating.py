"""The seats a browser holds, kept in its session cookie: their secret tokens per table (the database
holds only their hashes), its requests to have a seat back, its random id, and the signed link that
moves pass-and-play seats to another device. Who is asking, and the guards, are asking.py's."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import current_app, g, session
from itsdangerous import BadData, URLSafeTimedSerializer

from ..decks.errors import N_
from ..services.reading import SeatSnapshot as Seat, TableSnapshot as Table, new_token, token_matches
from ..services.errors import BadRequest

MAX_TABLES_REMEMBERED = 20
BROWSER = "browser"  # the session's random id of this browser: its count of wrong guesses, the seats it took


def _bucket(key: str) -> dict[str, Any]:
    data = session.get(key)
    return data if isinstance(data, dict) else {}


def _save(key: str, data: dict[str, Any]) -> None:
    session.permanent = True  # a closed browser still finds its seat (PERMANENT_SESSION_LIFETIME)
    if len(data) > MAX_TABLES_REMEMBERED:  # the oldest tables are forgotten first (dicts keep order)
        for stale in list(data)[: len(data) - MAX_TABLES_REMEMBERED]:
            data.pop(stale)
    session[key] = data


def remember_seat(code: str, position: int, token: str) -> None:
    seats = _bucket("seats")
    held = dict(seats.get(code) or {})
    held[str(position)] = token
    seats[code] = held
    _save("seats", seats)


def remember_ask(code: str, token: str) -> None:
    """This browser asked for a seat back at this table: the request's secret (the seat's token once the
    teacher lets it in)."""
    asks = _bucket("asks")
    asks[code] = token
    _save("asks", asks)


def tokens_held(code: str, session_data: Mapping[str, Any] | None = None) -> dict[str, str] | None:
    """The seat tokens (position -> token) held for the table with this clean code, None for none: in this
    request's session, or in a session's contents given."""
    seats = (session if session_data is None else session_data).get("seats")
    tokens = seats.get(code) if isinstance(seats, dict) else None
    return tokens if isinstance(tokens, dict) and tokens else None


def ask_token(code: str) -> str | None:
    token = _bucket("asks").get(code)
    return token if isinstance(token, str) else None


def forget_ask(code: str) -> None:
    asks = _bucket("asks")
    if code in asks:
        asks.pop(code)
        session["asks"] = asks


def remember_homework(code: str, student_id: int) -> None:
    """This browser's student at the homework with this link (her page shows her games, not the roster)."""
    who = _bucket("homework")
    who[code] = student_id
    _save("homework", who)


def homework_student(code: str) -> int | None:
    student = _bucket("homework").get(code)
    return student if isinstance(student, int) else None


def browser_id(make: bool = False) -> str | None:
    """This browser's random id (kept in its session cookie), made now when `make` and it has none."""
    browser = session.get(BROWSER)
    if isinstance(browser, str) and browser:
        return browser
    if not make:
        return None
    session[BROWSER] = browser = new_token()[:16]
    return browser


# What a device says of itself in its User-Agent, in a few words the teacher knows ("iPhone · Safari"):
# the first of each list found names it (Edge and Opera say "Chrome" too, every iPhone browser "Safari").
PLATFORMS = (("iPhone", "iPhone"), ("iPad", "iPad"), ("CrOS", "Chromebook"), ("Android", "Android"),
             ("Windows", "Windows"), ("Macintosh", "Mac"), ("Linux", "Linux"))
BROWSERS = (("SamsungBrowser", "Samsung Internet"), ("YaBrowser", "Yandex Browser"), ("EdgiOS", "Edge"),
            ("EdgA", "Edge"), ("Edg", "Edge"), ("OPR", "Opera"), ("FxiOS", "Firefox"), ("Firefox", "Firefox"),
            ("CriOS", "Chrome"), ("Chrome", "Chrome"), ("Safari", "Safari"))


def device_description(user_agent: str | None) -> str:
    """"iPhone · Safari", "Android · Chrome", ...: what the teacher is shown of a device asking for a seat
    back (only these known names are kept, never the header's own text); "" when it says none of them."""
    text = user_agent or ""
    names = [next((name for mark, name in known if mark in text), None) for known in (PLATFORMS, BROWSERS)]
    return " · ".join(name for name in names if name)


def held_seats(table: Table) -> dict[int, Seat]:
    """The seats of this table whose tokens this browser holds (stale tokens are dropped). Found once
    per request and read of the table (a request asks three or four times; each check hashes a token)."""
    tokens = _bucket("seats").get(table.code) or {}
    if not isinstance(table, Table):  # an ORM row (a teacher's change): it may change, nothing is kept
        return _held_seats(table, tokens)
    known = g.get("held_seats")
    if known is not None and known[0] is table and known[1] == tokens:
        return dict(known[2])
    held = _held_seats(table, tokens)
    g.held_seats = (table, dict(_bucket("seats").get(table.code) or {}), held)
    return dict(held)


def seats_of(table: Table, tokens: Mapping[str, str]) -> dict[int, Seat]:
    """The seats of the table these tokens (position -> token, as the session cookie keeps them) open."""
    return {seat.position: seat for seat in table.seats
            if token_matches(tokens.get(str(seat.position)), seat.token_hash)}


def _held_seats(table: Table, tokens: Mapping[str, str]) -> dict[int, Seat]:
    held = seats_of(table, tokens)
    if len(held) != len(tokens):
        lost = {int(p) for p in tokens if p.isdigit() and int(p) not in held}  # (seats_lost: this request)
        g.seats_lost = {**g.get("seats_lost", {}), table.code: lost}
        seats = _bucket("seats")
        kept = {str(p): tokens[str(p)] for p in held}
        if kept:
            seats[table.code] = kept
        else:
            seats.pop(table.code, None)
        session["seats"] = seats
    return held


def seats_lost(table: Table) -> list[int]:
    """The seats of this table whose tokens this browser's cookie held and which no longer open them (the
    teacher gave the seat away, or let another device in), as held_seats found them in this request."""
    held_seats(table)
    return sorted(g.get("seats_lost", {}).get(table.code, ()))


MOVE_SALT, MOVE_MAX_AGE = "authors.move-seats", 30 * 60


def _move_signer() -> URLSafeTimedSerializer:
    key = current_app.secret_key
    assert key is not None  # always set: app/config.py settings makes or demands one
    return URLSafeTimedSerializer(key, salt=MOVE_SALT)


def move_link_token(table: Table) -> str | None:
    """A signed note of the pass-and-play seats this browser holds (their token hashes, not the tokens),
    for the link that moves them to another device; None when it holds none."""
    held = held_seats(table)
    if not held:
        return None
    return _move_signer().dumps({"code": table.code, "seats": {str(p): s.token_hash for p, s in held.items()}})


def moved_seats(table: Table, signed: str) -> dict[str, str]:
    """The seats a move link names (position -> token hash), checked: signed by this server for this
    table, at most MOVE_MAX_AGE old. A 400 with a sentence otherwise."""
    try:
        data = _move_signer().loads(signed, max_age=MOVE_MAX_AGE)
    except BadData:
        data = None
    if not isinstance(data, dict) or data.get("code") != table.code or not isinstance(data.get("seats"), dict):
        raise BadRequest(N_("This link to move seats is not valid, or older than 30 minutes: ask "
                            "for a new one on the teacher's page."), code="bad-move-link")
    return {str(k): str(v) for k, v in data["seats"].items()}
