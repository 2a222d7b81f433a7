"""The version poll, fast. Every screen asks GET /api/tables/<code> every second or so with the ETag of
what it shows; nearly always nothing has changed, and the answer is a 304. That answer needs one small
query (the table's version and its seats' token hashes), not the table, its deals or its game.

Two doors lead to it:
- the play door (app/web/play_door.py), a WSGI middleware in front of Flask, answers a student's poll
  (a browser that holds a seat at the table and is no teacher) before Flask builds a request at all: it
  reads the signed session cookie with Flask's own serializer, runs the query and answers 304 with the
  usual headers (and a changed state in full);
- `not_modified_etag`, inside the view, does the same for everyone else (teachers, projectors).
Anything else (a change, a stale token, a seat that is not the browser's, a database error) goes on to
the full answer of api.table_state, which builds the same ETag. Neither writes: a poll notes its seats'
presence for the clock (app/services/clock.py), which also keeps the game's time.
"""
from __future__ import annotations

import time

from flask import request

from ..services import reading
from . import asking
from .seating import tokens_held
from .table_code import clean, valid

CHECKED = "authors.poll_checked"  # set in the WSGI environ by the play door when its check found a change
SEEN = "authors.poll_seen"        # set by the play door once it recorded the presence of the browser's seats


def not_modified_etag(code: str) -> str | None:
    """The ETag the full answer would carry, when the request's If-None-Match already names it."""
    if not request.if_none_match or request.environ.get(CHECKED):
        return None
    code = clean(code)
    if not valid(code):
        return None
    rows = reading.version_rows(code)
    tokens = tokens_held(code)
    if tokens:
        now = time.time()
        reading.presence.mark_seen(reading.seen_due(rows, tokens, now), now)
        request.environ[SEEN] = True
    tag = reading.unchanged_etag(rows, tokens, request.args.get("seat"), asking.is_owner_id)
    return tag if tag and request.if_none_match.contains(tag) else None


def mark_seen(seats) -> None:
    """The full answer's part of presence: these seats (held by the browser) polled now. Noted in this
    process's buffer, which the clock writes down (app/store/presence.py), and not again when a poll door
    already noted them."""
    if request.environ.get(SEEN):
        return
    now = time.time()
    reading.presence.mark_seen(reading.presence.due(seats, now), now)
