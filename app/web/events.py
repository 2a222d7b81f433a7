"""A table's state stream, GET /api/tables/<code>/events, as Flask sees it.

The stream itself is app/streaming.py's, in front of Flask in each worker of `authors serve`: it asks
this view once as a stream opens, and streams only when the answer is a 200. The answer is first the
state's own view's (api.table_state: the same seat, the same refusals, a wrong code counted as a guess),
so one function decides who may read a table, polled or streamed. Then, for a 200, what is the stream's
alone:

- without the number of streams this browser already has open, which the front puts in the environ
  (OPEN_STREAMS) where no client can set it, the request came by a plain WSGI server (the development
  server, a test client), which cannot hold a stream without holding a thread: a 406 that says so (the
  stream asked for cannot be given here), and the page polls instead;
- from STREAMS_PER_BROWSER open streams on, a 429 that says so.

What the front needs of the app outside a request is here too: the watcher's query (`watch_reader`) and
this process's table changes (`subscribe`).
"""
from __future__ import annotations

from flask import Blueprint, request

from ..decks.errors import N_
from ..services import reading
from ..services.errors import ServiceError, TooManyAttempts
from . import api

bp = Blueprint("events", __name__, url_prefix="/api")

OPEN_STREAMS = "authors.open_streams"  # in the environ, set by app/streaming.py: this browser's open streams
# A browser opens at most 6 HTTP/1.1 connections to one server, and a stream holds one: beyond 4 the page's
# own requests (moves, pages) would queue behind its streams.
STREAMS_PER_BROWSER = 4

watch_reader = reading.watch_reader
subscribe = reading.changes.subscribe


class StreamsUnavailable(ServiceError):
    status, code = 406, "streams-unavailable"


@bp.get("/tables/<code>/events")
def table_events(code: str):
    """The table's state for this browser, as GET /api/tables/<code> answers it: the stream's first event."""
    answer = api.table_state(code)
    if answer.status_code != 200:
        return answer
    opened = request.environ.get(OPEN_STREAMS)
    if opened is None:
        raise StreamsUnavailable(N_("This server sends no live updates (they need `authors serve`): "
                                    "the page asks for the table every second instead."))
    if opened >= STREAMS_PER_BROWSER:
        raise TooManyAttempts(N_("This browser has too many of this server's pages open at once: close some of its "
                                 "tabs or windows. This page asks for the table every second meanwhile."),
                              code="too-many-streams")
    return answer
