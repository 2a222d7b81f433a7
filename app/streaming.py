"""A state stream per screen: GET /api/tables/<code>/events, pushed as server-sent events by each worker of
`authors serve`, in front of the ServedApp (app/serving.py), which answers everything else unchanged.

A plain ASGI dispatch (`front`) sends the one URL to a stream (sse-starlette's EventSourceResponse writes
its pings and notices disconnects) and the rest to the ServedApp. A stream waits on the worker's event
loop, holding no app thread; the states it sends are built on the ServedApp's threads:

- Opening: the Flask view behind the events URL (app/web/events.py) answers first, with the number of
  streams this browser already holds (its session cookie, else its address) in the environ. Anything
  but a 200 (404 for a wrong code, counted as a guess; 403; 429 ...) is that ordinary answer. A 200
  starts the stream: a comment at once (buffering proxies pass it), then that state, unless the request's
  Last-Event-ID names its version already. The view also says who reads (events.Viewer).
- One state per change per identity (the request's path, query and the headers a view reads: its
  cookies, language and host): a Flight, shared by that browser's screens of the table. After a change
  the states of all of a table's Flights are built in one job (events.state_builder: one read of the
  table, the view's own functions for each reader; an unchanged one is a 304), one job at a time per
  table: a change during a job makes one more after it, never a queue. After a move of this process the
  job reads nothing: the commit told the table as it left it (Watched.fresh), kept until the watcher
  finds another write. A reader whose seat changed hands
  meanwhile is asked of the view itself from then on (the Flight's `viewer` is None). A stream sends the
  Flight's latest state when it can: a slow screen skips states, never reads a backlog. Each event
  carries `server_time` (the page's clock offset: an EventSource cannot read the Date header).
- Changes: a table this process changed has its states built again at once (app/store/changes.py,
  through events.subscribe), and on PostgreSQL so has one another process says it changed (NOTIFY).
  Other processes' and hosts' commits on SQLite are found by data_version, asked every WATCH_SECONDS on
  a connection of the watcher's own (every WATCH_QUIET_SECONDS once nothing has been committed for
  QUIET_SECONDS: a tick wakes the worker, which tables where nobody moves would pay for): only when it moved does one query read, for all the tables the
  process's streams watch, what their states' ETags depend on (the version, the seats' tokens, the
  teacher's presence stamp); a table whose states are older than its version, or whose tokens changed,
  has them built again (the teacher's alone when only presence changed). Every FULL_SECONDS the query
  runs anyway: it notes the presence of the seats the streams show (a stream is a screen that looks;
  the clock writes it down), and finds a teacher's "away for N minutes" that time alone changes.
- A build that answers anything but 200 or 304 (the table gone, the database not answering, ...)
  ends its streams; the page then polls, and says what the poll is told.
"""
from __future__ import annotations

import asyncio
import logging
import os
import re
import signal
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, AsyncIterator, Awaitable, Callable

import orjson
from flask import Flask
from sse_starlette import EventSourceResponse, ServerSentEvent
from sse_starlette.sse import SendTimeoutError
from starlette.requests import Request

from .serving import Receive, Scope, Send, ServedApp
from .web import events

PING_SECONDS = "AUTHORS_STREAM_PING_SECONDS"  # the environment's setting of the interval between pings
PING_DEFAULT = 15.0
WATCH_SECONDS = 0.05    # the watcher asks whether another process committed, this often (PostgreSQL: told at once),
WATCH_QUIET_SECONDS = 0.15  # and this often once nothing was committed for QUIET_SECONDS: each tick wakes the
QUIET_SECONDS = 0.25        # worker, which idle screens would pay for; a first change still arrives within 200 ms
FULL_SECONDS = 10.0     # the watcher's query runs at least this often: the seats' presence (written after 20 s stale)
RETRY_MS = 2000         # how long an EventSource waits before it opens a dropped stream again
SEND_SECONDS = 30.0     # a screen that takes no byte for this long is gone (a phone off the Wi-Fi): its stream ends
# What a view reads of a request besides its path and query: the identity of a Flight.
IDENTITY = (b"cookie", b"accept-language", b"host", b"authorization", b"x-forwarded-for", b"x-forwarded-proto",
            b"x-forwarded-host", b"x-forwarded-port", b"x-forwarded-prefix")
# Headers of the stream's request that a build must not send on (it sends its own Accept, If-None-Match).
NOT_PASSED = {b"accept", b"if-none-match", b"if-modified-since", b"last-event-id", b"cache-control", b"pragma",
              b"content-length", b"content-type", b"transfer-encoding"}
# Headers of the opening answer that are the JSON's, not the stream's.
ANSWER_ONLY = {b"content-type", b"content-length", b"etag", b"cache-control", b"vary"}

log = logging.getLogger("authors.streaming")


@dataclass(frozen=True)
class State:
    """A state as the view answered it: its version, its ETag (as sent back in If-None-Match), its JSON."""
    version: int
    etag: bytes
    body: bytes
    code: str


def state_of(headers: list[tuple[bytes, bytes]], body: bytes) -> State | None:
    etag = next((value for name, value in headers if name == b"etag"), None)
    try:
        data = orjson.loads(body)
        return State(int(data["version"]), etag or b"", body.rstrip(), str(data["code"]))
    except (orjson.JSONDecodeError, KeyError, TypeError, ValueError):
        return None


class Flight:
    """One identity's state of one table, built once per change and shared by its streams."""

    def __init__(self, streams: "Streams", table: "Watched", key: tuple[Any, ...], scope: Scope,
                 viewer: events.Viewer | None = None) -> None:
        self.streams, self.table, self.key, self.scope = streams, table, key, scope
        self.viewer = viewer  # who reads, as the opening view found it; None: each state asked of the view
        self.state: State | None = None
        self.readers = 0
        self.building = self.again = self.ended = self.due = False
        self._changed = asyncio.Event()

    def adopt(self, state: State) -> None:
        """A state built for this identity: the Flight's latest, unless it is older or the same."""
        current = self.state
        if current is not None and (state.version < current.version or state.etag == current.etag):
            return
        self.state = state
        self.table.version = max(self.table.version, state.version)
        self._tell()

    def end(self) -> None:
        self.ended = True
        self._tell()

    def _tell(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    async def changed(self) -> None:
        await self._changed.wait()

    def refresh(self) -> None:
        """Ask the view for the state again (once more after the build under way, if one is)."""
        if self.ended:
            return
        if self.building:
            self.again = True
            return
        self.building = True
        self.streams.spawn(self._build())

    async def _build(self) -> None:
        try:
            while not self.ended:
                self.again = False
                headers = [(name, value) for name, value in self.scope["headers"] if name not in NOT_PASSED]
                headers.append((b"accept", b"application/json"))
                if self.state is not None and self.state.etag:
                    headers.append((b"if-none-match", self.state.etag))
                status, answer_headers, body = await self.streams.served.respond({**self.scope, "headers": headers})
                if status == 200 and (state := state_of(answer_headers, body)) is not None:
                    self.adopt(state)
                elif status != 304:
                    self.end()  # the page polls, and is told why
                if not self.again:
                    return
        finally:
            self.building = False


class Watched:
    """A table some stream of this process watches: what the watcher last read of it, and its Flights."""

    def __init__(self, code: str) -> None:
        self.code = code
        self.look: events.Look | None = None  # None: not read yet, so the first read builds again
        self.flights: dict[tuple[Any, ...], Flight] = {}
        self.building = False
        self.version = 0  # the newest version a state of its Flights has (a look that finds it builds nothing)
        # The table as this process's last move committed it, while no other write is known to have come
        # since: the builds take it instead of reading the table (see events.state_builder).
        self.fresh: events.TableSnapshot | None = None

    def moved(self, table: events.TableSnapshot | None) -> None:
        """A move of this process left the table so (None: another write came, or may have: forget it).
        One older than the watcher last read is forgotten too (the look came first: it builds newer)."""
        if table is None:
            self.fresh = None
        elif (self.fresh is None or table.version > self.fresh.version) and \
                (self.look is None or table.version >= self.look.version):
            self.fresh = table

    def refresh(self, streams: "Streams", teacher_only: bool = False, only: Flight | None = None) -> None:
        """Build its Flights' states again (the teacher's alone: only the seats' presence changed; or `only`
        that one): one job for all, and one more after the job under way for what is asked during it."""
        for flight in [only] if only is not None else list(self.flights.values()):
            if flight.viewer is None:
                flight.refresh()
            elif not teacher_only or flight.viewer.teacher:
                flight.due = True
        if not self.building and any(flight.due for flight in self.flights.values()):
            self.building = True
            streams.spawn(self._build(streams))

    async def _build(self, streams: "Streams") -> None:
        try:
            while True:
                due = [flight for flight in self.flights.values()
                       if flight.due and not flight.ended and flight.viewer is not None]
                if not due:
                    return
                for flight in due:
                    flight.due = False
                try:
                    built = await streams.build(self.code, [(flight.viewer, flight.state.etag if flight.state else b"")
                                                            for flight in due if flight.viewer is not None],
                                                self.fresh)
                except Exception:  # noqa: BLE001 - the database not answering: the pages poll, and are told
                    log.exception("the state streams of %s could not be built", self.code)
                    built = [(500, b"", b"", 0)] * len(due)
                for flight, answer in zip(due, built):
                    if answer is None:  # its seats changed hands: the view decides, from now on
                        flight.viewer = None
                        flight.refresh()
                    elif answer[0] == 200:
                        flight.adopt(State(answer[3], answer[1], answer[2], self.code))
                    elif answer[0] != 304:
                        flight.end()
        finally:
            self.building = False


class Stream(EventSourceResponse):
    """sse-starlette's response, which tells when it is over, however it ends."""

    def __init__(self, content: AsyncIterator[ServerSentEvent | bytes], closed: Callable[[], None], ping: float) -> None:
        super().__init__(content, ping=ping, ping_message_factory=lambda: ServerSentEvent(comment="ping"),
                         send_timeout=SEND_SECONDS)
        self.closed = closed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:  # type: ignore[override]
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.closed()

    async def _send_with_timeout(self, send: Send, message: dict[str, Any]) -> None:  # type: ignore[override]
        """sse-starlette's own, the same outcome (a send that takes longer than `send_timeout` ends the
        stream with its SendTimeoutError), under asyncio's deadline rather than an anyio cancel scope,
        which cost each event and ping three times the send itself (bench/README.md, 2026-12-05)."""
        try:
            async with asyncio.timeout(self.send_timeout):
                await send(message)
        except TimeoutError:
            self._send_interrupted = True
            raise SendTimeoutError() from None
        except BaseException:
            self._send_interrupted = True
            raise


class Streams:
    """The state streams of one worker process, as an ASGI app for the events URL."""

    def __init__(self, served: ServedApp, flask_app: Flask, ping: float | None = None) -> None:
        self.served = served
        self.ping = ping if ping is not None else float(os.environ.get(PING_SECONDS) or PING_DEFAULT)
        self.looks = events.watch_reader(flask_app)
        self.builder = events.state_builder(flask_app)
        self.others = events.others(flask_app)
        self.note_seen = events.presence_recorder(flask_app)
        self.subscribe = events.subscribe
        self.cookie = flask_app.config["SESSION_COOKIE_NAME"]
        self.tables: dict[str, Watched] = {}
        self.browsers: dict[str, int] = {}  # a browser's open streams (its session cookie, else its address)
        self.loop: asyncio.AbstractEventLoop | None = None
        self.watcher: asyncio.Task[None] | None = None
        self.watch_thread = ThreadPoolExecutor(1, thread_name_prefix="watch")  # the query, off the loop
        self.tasks: set[asyncio.Task[None]] = set()
        self.stopping = False
        self.failing = False  # the watcher's query fails (said once in the log, not every tick)
        self.full_at = 0.0  # when the watcher's query last ran for every watched table

    async def build(self, code: str, asked: list[tuple[events.Viewer, bytes]],
                    moved: events.TableSnapshot | None = None) -> list[events.Built]:
        """The states of these readers of one table, built on an app thread (events.state_builder), from
        `moved` when a move of this process just committed the table so (else read)."""
        return await asyncio.get_running_loop().run_in_executor(self.served.threads, self.builder, code, asked,
                                                                moved)

    def spawn(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self.tasks.add(task)  # (the loop keeps only a weak reference)
        task.add_done_callback(self.tasks.discard)

    # ------------------------------------------------------------------------------------------------
    # Opening a stream
    # ------------------------------------------------------------------------------------------------
    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["method"] != "GET":
            await self.served(scope, receive, send)  # HEAD, POST ...: the app's own answer
            return
        if self.stopping:  # the page polls, on a worker that runs
            await _answer(send, 503, [(b"retry-after", b"1"), (b"content-length", b"0")], b"")
            return
        request = Request(scope)
        browser = request.cookies.get(self.cookie) or (request.client.host if request.client else "")
        opened = self.browsers.get(browser, 0)
        self.browsers[browser] = opened + 1  # held from here, so that streams opened at once are all counted
        try:
            headers = [(name, value) for name, value in scope["headers"] if name != b"if-none-match"]
            holder: dict[str, events.Viewer] = {}
            status, answer_headers, body = await self.served.respond(
                {**scope, "headers": headers}, environ_extra={events.OPEN_STREAMS: opened, events.VIEWER: holder})
            first = state_of(answer_headers, body) if status == 200 else None
        except BaseException:
            self._release(browser)
            raise
        if first is None:
            self._release(browser)
            await _answer(send, status, answer_headers, body)
            return
        flight = self._join(first, scope, holder.get("viewer"))
        skip = request.headers.get("last-event-id") == str(first.version)

        def closed() -> None:
            self._leave(flight)
            self._release(browser)

        response = Stream(self._events(flight, first, skip), closed, self.ping)
        response.raw_headers.extend((name, value) for name, value in answer_headers if name not in ANSWER_ONLY)
        await response(scope, receive, send)

    async def _events(self, flight: Flight, first: State, skip: bool) -> AsyncIterator[ServerSentEvent | bytes]:
        yield ServerSentEvent(comment="stream", retry=RETRY_MS)
        if not skip:
            yield _event(first)
        sent = first
        while True:
            state = flight.state
            if state is not None and state.etag != sent.etag and state.version >= sent.version:
                sent = state
                yield _event(state)
                continue
            if flight.ended:
                return
            await flight.changed()

    def _join(self, first: State, scope: Scope, viewer: events.Viewer | None) -> Flight:
        if self.loop is None:
            self.loop = asyncio.get_running_loop()
            self.subscribe(self._published)
            self._end_on_stop()
        headers = dict((name, value) for name, value in scope["headers"] if name in IDENTITY)
        key = (scope["path"], scope["query_string"], tuple(sorted(headers.items())))
        table = self.tables.get(first.code)
        if table is None:
            table = self.tables[first.code] = Watched(first.code)
        flight = table.flights.get(key)
        if flight is None or flight.ended:
            path = scope["path"].rsplit("/", 1)[0]  # the state's own URL: /api/tables/<code>
            plain = {name: scope[name] for name in ("type", "asgi", "http_version", "scheme", "server", "client",
                                                    "root_path", "query_string") if name in scope}
            state_scope = {**plain, "method": "GET", "path": path, "raw_path": path.encode(),
                           "headers": scope["headers"]}
            flight = table.flights[key] = Flight(self, table, key, state_scope, viewer)
        flight.adopt(first)
        flight.readers += 1
        # A change committed between the opening's read and now was told to the Flights there were: this
        # one is built once more at once (a 304 when nothing changed), or it could wait for the next change.
        table.refresh(self, only=flight)
        if self.watcher is None:
            self.watcher = self.loop.create_task(self._watch())
        return flight

    def _leave(self, flight: Flight) -> None:
        flight.readers -= 1
        table = flight.table
        if flight.readers <= 0 and table.flights.get(flight.key) is flight:
            del table.flights[flight.key]
            if not table.flights and self.tables.get(table.code) is table:
                del self.tables[table.code]

    def _release(self, browser: str) -> None:
        left = self.browsers.get(browser, 1) - 1
        if left > 0:
            self.browsers[browser] = left
        else:
            self.browsers.pop(browser, None)

    # ------------------------------------------------------------------------------------------------
    # Changes
    # ------------------------------------------------------------------------------------------------
    def _published(self, code: str, moved: events.TableSnapshot | None = None) -> None:
        """In the thread that committed: hand the change to the loop."""
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        try:
            loop.call_soon_threadsafe(self._changed, code, moved)
        except RuntimeError:  # the loop is shutting down
            pass

    def _changed(self, code: str, moved: events.TableSnapshot | None = None) -> None:
        """A table this process changed (or, on PostgreSQL, another told it changed): its states built
        again now, with no look at the database first (and from `moved`, the table as this process's
        move left it, when it is that)."""
        table = self.tables.get(code)
        if table is not None:
            table.moved(moved)
            table.refresh(self)

    async def _watch(self) -> None:
        """While any stream is open: what the watched tables' states depend on, read when this process
        committed, when another did (Others), and every FULL_SECONDS; a table whose look changed has its
        states built again."""
        loop = asyncio.get_running_loop()
        stop_listening = self.others.listen(self._published)  # PostgreSQL: other processes' NOTIFY
        try:
            committed_at = time.monotonic()
            while self.tables:
                now = time.monotonic()
                full = now - self.full_at >= FULL_SECONDS
                committed = self.others.committed()  # (microseconds, and never waits: on the loop)
                if committed:
                    committed_at = now
                if full or committed:
                    await self._look(loop, full)
                await asyncio.sleep(WATCH_SECONDS if now - committed_at < QUIET_SECONDS else WATCH_QUIET_SECONDS)
        finally:
            stop_listening()
            self.watcher = None

    async def _look(self, loop: asyncio.AbstractEventLoop, full: bool) -> None:
        codes = list(self.tables)
        if full:
            self.full_at = time.monotonic()
        try:
            found: dict[str, events.Look] = await loop.run_in_executor(self.watch_thread, self.looks, codes)
        except Exception as exc:  # noqa: BLE001 - the database may be back at the next look
            if not self.failing:
                log.warning("the state streams could not read the tables' versions: %s", exc)
            self.failing = True
            return
        self.failing = False
        now = time.time()
        for code in codes:
            table = self.tables.get(code)
            if table is None:
                continue
            look, last = found.get(code), table.look
            table.look = look
            if look is None or (last is not None and look.tokens != last.tokens):
                table.moved(None)
            elif table.fresh is not None and look.version > table.fresh.version:
                table.moved(None)  # another process wrote since: a build reads the table
            if look is None or last is None or look.tokens != last.tokens or look.version > table.version:
                table.refresh(self)  # (a table gone: its streams end, told by the build)
            elif look.teacher != last.teacher:
                table.refresh(self, teacher_only=True)
            elif full:
                for flight in table.flights.values():
                    if flight.viewer is None:
                        flight.refresh()  # (the view notes its seats' presence)
            if full and look is not None:
                self._note_presence(table, look, now)

    def _note_presence(self, table: Watched, look: events.Look, now: float) -> None:
        """The seats this table's streams show are seen (as a poll notes them): each whose stored time is
        stale, or that a computer stands in for, while the reader's token still opens it."""
        seats = {seat[0]: seat for seat in look.seats}
        seen = []
        for flight in table.flights.values():
            viewer = flight.viewer
            if viewer is None:
                continue
            hashes = dict(viewer.hashes)
            for position in viewer.held:
                seat = seats.get(position)
                if seat is None or seat[3] != hashes.get(position):
                    continue
                _position, table_id, seat_id, token_hash, seen_at, stand_in = seat
                if stand_in or events.stale(seen_at, now):
                    seen.append((table_id, seat_id, token_hash if stand_in else None))
        if seen:
            self.note_seen(seen, now)

    def _end_on_stop(self) -> None:
        """granian stops a worker with SIGTERM (or SIGINT) and waits for its connections to end before the
        lifespan's shutdown: the streams end at the signal, or they would hold the worker until it is
        killed. The handler granian's loop set is kept: it is called after this one (asyncio learns of the
        signal from its wakeup fd in any case)."""
        try:
            for number in (signal.SIGTERM, signal.SIGINT):
                previous = signal.getsignal(number)

                def stop(signum: int, frame: Any, previous: Any = previous) -> None:
                    loop = self.loop
                    if loop is not None and not loop.is_closed():
                        loop.call_soon_threadsafe(self.close)
                    if callable(previous):
                        previous(signum, frame)

                signal.signal(number, stop)
        except ValueError:  # not the main thread (an embedding server): the streams end with the worker
            pass

    def close(self) -> None:
        """The worker stops: every stream ends (its page opens it again, on a worker that runs)."""
        self.stopping = True
        for table in list(self.tables.values()):
            for flight in list(table.flights.values()):
                flight.end()


def _event(state: State) -> ServerSentEvent | bytes:
    """The state's event: its JSON with the server's clock added (the page's turn timer counts on it),
    written out here as the event-stream format has it (sse-starlette would split and copy the JSON, a
    tenth of a move's CPU); a JSON on more than one line (never from orjson) is left to sse-starlette."""
    body = state.body
    if body.startswith(b"{") and body != b"{}":
        body = b'{"server_time":%.3f,' % time.time() + body[1:]
    if b"\n" in body or b"\r" in body:
        return ServerSentEvent(data=body.decode(), event="state", id=str(state.version))
    return b"event: state\r\nid: %d\r\ndata: %s\r\n\r\n" % (state.version, body)


async def _answer(send: Send, status: int, headers: list[tuple[bytes, bytes]], body: bytes) -> None:
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


EVENTS_PATH = re.compile(r"/api/tables/[^/]+/events")


def front(served: ServedApp, flask_app: Flask) -> Callable[[Scope, Receive, Send], Awaitable[None]]:
    """The worker's ASGI app: the events URL to its stream, everything else to the ServedApp (a plain
    dispatch: every request passes here, and a router's middleware would cost each one)."""
    streams = Streams(served, flask_app)

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and EVENTS_PATH.fullmatch(scope["path"]):
            await streams(scope, receive, send)
        elif scope["type"] == "lifespan":
            await _lifespan(streams, receive, send)
        else:
            await served(scope, receive, send)

    return app


async def _lifespan(streams: Streams, receive: Receive, send: Send) -> None:
    """The worker starts (nothing to do) and stops: its streams end."""
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            streams.close()
            await send({"type": "lifespan.shutdown.complete"})
            return
