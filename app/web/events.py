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

Opened, the stream's reader is kept (`Viewer`: its seat, the seats its cookie holds, teacher or not), and
the front builds each later state for it here (`state_builder`), from the table as read once for all of
its screens and the functions the view uses, without a request: one read of the table a change, not one
request a screen. A reader whose seat was handed to another device since is sent back through the view.

What the front needs of the app outside a request is here too: the watcher's query (`watch_reader`), the
other processes' commits (`others`), this process's table changes (`subscribe`), and the presence of the
seats a stream shows (`presence_recorder`).
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable, Sequence

from flask import Blueprint, Flask, request

from ..decks.errors import N_
from ..services import reading, tables
from ..services.errors import ServiceError, TooManyAttempts
from . import api, asking, json_provider, seating

bp = Blueprint("events", __name__, url_prefix="/api")

OPEN_STREAMS = "authors.open_streams"  # in the environ, set by app/streaming.py: this browser's open streams
VIEWER = "authors.stream_viewer"  # in the environ, a dict from app/streaming.py: the view puts the Viewer in it
# A browser opens at most 6 HTTP/1.1 connections to one server, and a stream holds one: beyond 4 the page's
# own requests (moves, pages) would queue behind its streams.
STREAMS_PER_BROWSER = 4

watch_reader = reading.watch_reader
Look = reading.Look
TableSnapshot = reading.TableSnapshot
others = reading.changes.others
subscribe = reading.changes.subscribe
presence_recorder = reading.presence.recorder
stale = reading.presence.stale


@dataclass(frozen=True)
class Viewer:
    """Whom a stream's states are for, as the view found it at the opening: the table, the seat it looks
    from, the seats the browser holds, the teacher's or not, the app's prefix; and the token hashes of the
    seats its cookie names (when one changes, a seat was handed to another device: the view decides again)."""
    code: str
    seat: int | None
    held: tuple[int, ...]
    hashes: tuple[tuple[int, str | None], ...]
    teacher: bool
    script_root: str
    lost: bool = False  # a seat its cookie names that it no longer opens: only the view tells it why


# A build's answer for one reader: (200, ETag, the JSON, version), (304, ETag, b"", version), (404, b"", b"",
# 0) for a table gone, or None: only the view can say (the reader's seats changed hands).
Built = tuple[int, bytes, bytes, int] | None


def _hashes(table: reading.TableSnapshot, tokens: object) -> tuple[tuple[int, str | None], ...]:
    named = {str(key) for key in tokens} if isinstance(tokens, dict) else set()
    return tuple((seat.position, seat.token_hash) for seat in table.seats if str(seat.position) in named)


def _viewer(code: str) -> Viewer:
    table = tables.read(code)
    seat = asking.requested_seat(table, request.args.get("seat"))
    return Viewer(table.code, seat.position if seat is not None else None, tuple(sorted(seating.held_seats(table))),
                  _hashes(table, seating.tokens_held(table.code)), asking.is_teacher(table), request.script_root,
                  bool(seating.seats_lost(table)))


def _quoted(tag: str) -> bytes:
    return b'"' + tag.encode() + b'"'  # as the ETag header carries it (and If-None-Match sends it back)


Builder = Callable[[str, Sequence[tuple[Viewer, bytes]], "TableSnapshot | None"], list[Built]]


def state_builder(app: Flask) -> Builder:
    """`build(code, asked, moved)`: for each (reader, the ETag of its latest state) the state GET
    /api/tables/<code> would answer that reader, from one read of the table; run on an app thread.
    `moved`, the table as a move of this process just committed it (or None), stands for that read for
    every reader but the teacher, whose state also shows the seats' presence, which a move does not read."""

    def build(code: str, asked: Sequence[tuple[Viewer, bytes]],
              moved: TableSnapshot | None = None) -> list[Built]:
        with app.app_context():
            out: list[Built] = []
            seen: list[reading.presence.Sighting] = []
            now = time.time()
            read: list[TableSnapshot | None] = []
            for viewer, etag in asked:
                if moved is None or viewer.teacher:
                    if not read:
                        read.append(reading.read(code))
                    table = read[0]
                else:
                    table = moved
                out.append(_built(app, table, viewer, etag, now, seen))
            reading.presence.mark_seen(seen, now)
            return out

    return build


def _built(app: Flask, table: reading.TableSnapshot | None, viewer: Viewer, etag: bytes, now: float,
           seen: list[reading.presence.Sighting]) -> Built:
    """One reader's answer (see Built); the seats it shows are added to `seen`."""
    if table is None:
        return (404, b"", b"", 0)
    hashes = {seat.position: seat.token_hash for seat in table.seats}
    if viewer.lost or any(hashes.get(position) != hashed for position, hashed in viewer.hashes):
        return None
    seats = {seat.position: seat for seat in table.seats}
    held = {position: seats[position] for position in viewer.held if position in seats}
    seen += reading.presence.due(held.values(), now)
    seat = seats.get(viewer.seat) if viewer.seat is not None else None
    tag = _quoted(api.state_etag(table, seat, held, viewer.teacher))
    if tag == etag:
        return (304, tag, b"", table.version)
    data = api.state_answer(table, seat, held, viewer.teacher, viewer.script_root)
    return (200, tag, json_provider.encoded(app, data), table.version)


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
    holder = request.environ.get(VIEWER)
    if isinstance(holder, dict):
        holder["viewer"] = _viewer(code)
    return answer
