"""Load: N tables of 5 students against `authors serve --prod` (granian), on SQLite or PostgreSQL.

    .venv/bin/python bench/load.py [--tables 100] [--seconds 60] [--database sqlite|postgres|URL]
                                   [--transport stream|poll] [--idle-screens N] [--idle-seconds 60]
                                   [--workers W] [--threads T] [--json FILE]

Every student is a browser of its own (cookie, CSRF token) that does what app/static/js/common.js and
play.js do. `--transport stream` (the default): it holds its table's state stream (GET
/api/tables/<code>/events, server-sent events, on a keep-alive connection of its own) and moves on a
second connection when an event shows its turn. `--transport poll`: one keep-alive connection that polls
GET /api/tables/<code> every poll_ms (1 s) with If-None-Match, so an unchanged table costs a 304. Either
way, on its turn it moves at once (POST .../moves with the version it saw and an Idempotency-Key) and
takes the state of the answer, moving again while the turn is still its own. Tables play matches of
many hands, so play never stops during the run.

Reported: requests and moves per second; the serving processes' CPU (the server's, and PostgreSQL's) in
cores and per move (a move's own request and the states the other screens are sent or poll for: the
figure that says how many moves a machine can serve), over the recorded window; move latency (request
to answer) p50/p95/p99; `screen_ms`: from a move's answer to each other seat's screen first having the
new version (its event's arrival, or the poll that first shows it), p50/p95/p99/max; and the cost of a
bare request through the app (/healthz/app: a thread, the app's hooks, no database) on the same server
with the same session cookie (`bare_cpu_ms`; `front_cpu_ms`: /healthz, which the server's front answers
without the app), and of the version poll (a 304), each measured alone, closed-loop (8 connections), as
the serving processes' CPU time per request (the server's, and on PostgreSQL the database server's too)
and as requests per second; and the machine's speed before and after the run (`machine_speed_ms`: a
fixed Python workload's CPU time), since on a shared machine every CPU figure drifts with it.

`--idle-screens N` adds (with `--tables 0`, is) the idle measure: N screens, a browser each, 5 to a
started table where nobody ever moves, hold their stream (or poll); the serving processes' CPU over
`--idle-seconds` is measured once with the screens open and once before they open (the same tables, no
screen), and the requests the screens sent in the window are counted (a stream sends none after it
opens). `idle_cpu_per_screen_ms_per_s`: the CPU with the screens open, per screen and second.

Loopback only (127.0.0.1); every loop is bounded in time. The load generator runs on the same 2 cores as
the server.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import tempfile
import time
import uuid
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.server_support import Browser, Server  # noqa: E402
from tests.web_support import choose_move  # noqa: E402

POSTGRES = "postgresql+psycopg://postgres@127.0.0.1:5432/authors_bench"
SEATS = [{"kind": "human"}] * 5


# ----------------------------------------------------------------------------------------------------
# A minimal HTTP/1.1 keep-alive client on asyncio (the load generator shares the machine: keep it lean)
# ----------------------------------------------------------------------------------------------------
class Sent:
    """The requests the load generator sent (each stream's opening is one): the server's requests, counted
    from the client's side (granian's access log is off)."""
    requests = 0


class Connection:
    def __init__(self, port: int, cookies: dict[str, str], token: str | None):
        self.port, self.cookies, self.token = port, dict(cookies), token
        self.reader = self.writer = None

    async def request(self, method: str, path: str, body: bytes = b"", headers: dict | None = None):
        for attempt in (1, 2):
            try:
                if self.writer is None:
                    self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
                return await self._exchange(method, path, body, headers or {})
            except (ConnectionError, asyncio.IncompleteReadError, OSError):
                self.close()
                if attempt == 2:
                    raise

    def _head(self, method: str, path: str, body: bytes, headers: dict, accept: str = "application/json") -> bytes:
        lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{self.port}", f"Accept: {accept}"]
        if self.cookies:
            lines.append("Cookie: " + "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
        if method != "GET":
            lines += ["Content-Type: application/json", f"X-CSRFToken: {self.token or ''}"]
        lines += [f"{k}: {v}" for k, v in headers.items()]
        lines.append(f"Content-Length: {len(body)}")
        Sent.requests += 1
        return ("\r\n".join(lines) + "\r\n\r\n").encode() + body

    async def _status_and_headers(self) -> tuple[int, dict[str, str]]:
        status_line = await self.reader.readline()
        if not status_line:
            raise ConnectionError("closed")
        status = int(status_line.split()[1])
        found = {}
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b"\n", b""):
                break
            name, _, value = line.decode("latin-1").partition(":")
            name, value = name.strip().lower(), value.strip()
            if name == "set-cookie":
                key, _, val = value.split(";", 1)[0].partition("=")
                self.cookies[key.strip()] = val.strip()
            else:
                found[name] = value
        return status, found

    async def _exchange(self, method, path, body, headers):
        self.writer.write(self._head(method, path, body, headers))
        status, found = await self._status_and_headers()
        if found.get("transfer-encoding", "").lower() == "chunked":
            data = b"".join([chunk async for chunk in self._chunks()])
        else:
            length = int(found.get("content-length", 0))
            data = await self.reader.readexactly(length) if length else b""
        if found.get("connection", "").lower() == "close":
            self.close()
        return status, found, data

    async def _chunks(self):
        """The pieces of a chunked body as they come (granian sends a stream chunked: one chunk an event)."""
        while True:
            size = int((await self.reader.readline()).split(b";", 1)[0], 16)
            if size == 0:
                await self.reader.readline()  # (no trailers are sent) the blank line that ends the body
                return
            chunk = await self.reader.readexactly(size)
            await self.reader.readexactly(2)
            yield chunk

    async def events(self, path: str, until: float, last_event_id: str | None = None):
        """A state stream: GET `path` with Accept: text/event-stream, then (arrival time, kind, value) for each
        event ("state", its id and data) and each comment ("comment", its text: ": ping", ": stream") until
        `until` or the stream ends. Raises ConnectionError when the stream is refused (not a 200)."""
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        headers = {"Last-Event-ID": last_event_id} if last_event_id else {}
        self.writer.write(self._head("GET", path, b"", headers, accept="text/event-stream"))
        status, found = await self._status_and_headers()
        if status != 200 or "text/event-stream" not in found.get("content-type", ""):
            self.close()
            raise ConnectionError(f"stream refused: {status}")
        chunked = found.get("transfer-encoding", "").lower() == "chunked"
        pieces = self._chunks() if chunked else None
        buffer = b""
        try:
            while True:
                left = until - time.perf_counter()
                if left <= 0:
                    return
                try:
                    if chunked:
                        piece = await asyncio.wait_for(pieces.__anext__(), left)
                    else:
                        piece = await asyncio.wait_for(self.reader.read(65536), left)
                        if not piece:
                            return
                except (asyncio.TimeoutError, StopAsyncIteration):
                    return
                at = time.perf_counter()
                buffer = (buffer + piece).replace(b"\r\n", b"\n")  # line ends: CRLF (sse-starlette's) or LF
                *whole, buffer = buffer.split(b"\n\n")
                for block in whole:
                    fields, data = {}, []
                    for line in block.split(b"\n"):
                        if line.startswith(b":"):
                            yield at, "comment", line[1:].strip().decode()
                            continue
                        name, _, value = line.partition(b":")
                        value = value[1:] if value.startswith(b" ") else value
                        if name == b"data":
                            data.append(value)
                        elif name in (b"event", b"id"):
                            fields[name] = value.decode()
                    if data:
                        yield at, fields.get(b"event", "message"), (fields.get(b"id"), b"\n".join(data))
        finally:
            self.close()

    def close(self):
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q / 100 * len(ordered)))]


# ----------------------------------------------------------------------------------------------------
# Students
# ----------------------------------------------------------------------------------------------------
class Table:
    def __init__(self, code: str, deck: dict):
        self.code, self.deck = code, deck
        self.answered: dict[int, tuple[float, int]] = {}  # version a move made -> (its answer's time, mover)
        self.seen: list[list[tuple[int, float]]] = [[] for _ in SEATS]  # per seat: (newer version, when)


class Stats:
    def __init__(self):
        self.move_ms: list[float] = []
        self.screen_ms: list[float] = []
        self.screen_early = 0  # other screens that had a move's version before its mover had the answer
        self.moves = self.polls = self.not_modified = self.errors = self.refused = 0
        self.events = self.pings = self.opened = self.drops = 0
        self.statuses: dict[int, int] = {}
        self.recording = False
        self.first_state = 0  # screens that have had their first state (the idle measure waits for all)


def my_turn(state: dict) -> bool:
    return state["status"] == "playing" and bool(state["game"]) and state["game"]["turn"] == state["you"]["name"]


async def play_turn(table: Table, position: int, conn: Connection, stats: Stats, state: dict, until: float,
                    rng: random.Random, think: float, seen) -> tuple[dict | None, str | None]:
    """Moves while the turn is this student's (as play.js: each move's answer is the next state). Returns
    the last state and the ETag its answer named, or (None, None) when a move was refused or failed."""
    url = f"/api/tables/{table.code}"
    tag = None
    while my_turn(state) and time.perf_counter() < until:
        if think:  # a person reads the screen and chooses
            await asyncio.sleep(rng.uniform(0.5, 1.5) * think)
        move = choose_move(state, table.deck, rng)
        body = json.dumps({"version": state["version"], "move": move}).encode()
        sent = time.perf_counter()
        try:
            status, found, data = await conn.request(
                "POST", url + "/moves", body, {"Idempotency-Key": uuid.uuid4().hex})
        except (ConnectionError, OSError, asyncio.IncompleteReadError):
            stats.errors += 1
            return None, None
        done = time.perf_counter()
        if stats.recording:
            stats.statuses[status] = stats.statuses.get(status, 0) + 1
        if status != 200:
            stats.refused += stats.recording
            return None, None
        answer = orjson.loads(data)
        state = answer["state"]
        version = state["version"]
        if stats.recording:
            table.answered[version] = (done, position)
            stats.moves += 1
            stats.move_ms.append((done - sent) * 1000)
        seen(version, done)
        tag = answer.get("state_etag")  # as play.js: the next poll is a 304 until the table moves
    return state, tag


def seen_by(table: Table, position: int):
    last = [-1]

    def seen(version: int, at: float) -> None:
        if version > last[0]:
            last[0] = version
            table.seen[position].append((version, at))
    return seen


async def student(table: Table, position: int, conn: Connection, stats: Stats, until: float, poll_ms: int,
                  rng: random.Random, think: float, moves: bool = True):
    """A polling screen (--transport poll)."""
    url = f"/api/tables/{table.code}"
    etag = None
    delay = poll_ms / 1000
    seen = seen_by(table, position)
    first = True
    await asyncio.sleep(rng.random() * delay)  # screens opened at different moments

    while time.perf_counter() < until:
        headers = {"If-None-Match": etag} if etag else {}
        try:
            status, found, data = await conn.request("GET", url, headers=headers)
        except (ConnectionError, OSError, asyncio.IncompleteReadError):
            stats.errors += 1
            await asyncio.sleep(delay)
            continue
        now = time.perf_counter()
        if stats.recording:
            stats.polls += 1
            stats.statuses[status] = stats.statuses.get(status, 0) + 1
        if status == 304:
            stats.not_modified += stats.recording
        elif status == 200:
            etag = found.get("etag")
            state = orjson.loads(data)
            if first:
                stats.first_state, first = stats.first_state + 1, False
            delay = state.get("poll_ms", poll_ms) / 1000
            seen(state["version"], now)
            if moves and my_turn(state):
                state, tag = await play_turn(table, position, conn, stats, state, until, rng, think, seen)
                etag = tag if state is not None else None
        else:
            stats.errors += stats.recording
        await asyncio.sleep(max(0.0, delay - (time.perf_counter() - now)))
    conn.close()


async def streaming_student(table: Table, position: int, browser: Browser, port: int, stats: Stats, until: float,
                            rng: random.Random, think: float, moves: bool = True):
    """A streaming screen (--transport stream): one connection holds the table's state stream, a second one
    moves. An event's time is taken as it arrives (a reader of its own), so a screen's moving does not delay
    it; the student moves on the newest state it has, once it is newer than any it has moved from."""
    stream = Connection(port, browser.cookies, browser.token)
    mover = Connection(port, browser.cookies, browser.token)
    seen = seen_by(table, position)
    latest: list[dict | None] = [None]
    arrived = asyncio.Event()
    await asyncio.sleep(rng.random())  # screens opened at different moments

    async def read():
        last_id = None
        first = True
        while time.perf_counter() < until:
            try:
                stats.opened += 1
                async for at, kind, value in stream.events(f"/api/tables/{table.code}/events", until, last_id):
                    if kind == "comment":
                        stats.pings += stats.recording and value == "ping"
                        continue
                    if kind != "state":
                        continue
                    last_id, data = value
                    state = orjson.loads(data)
                    stats.events += stats.recording
                    if first:
                        stats.first_state, first = stats.first_state + 1, False
                    seen(state["version"], at)
                    if latest[0] is None or state["version"] > latest[0]["version"]:
                        latest[0] = state
                        arrived.set()
            except (ConnectionError, OSError, asyncio.IncompleteReadError, ValueError):
                stats.errors += stats.recording
            if time.perf_counter() < until:  # the stream ended early: the browser opens it again
                stats.drops += stats.recording
                await asyncio.sleep(min(0.5, max(0.0, until - time.perf_counter())))
        arrived.set()

    reader = asyncio.create_task(read())
    moved_from = -1  # the newest version this student has moved from or been answered
    while moves and time.perf_counter() < until:
        try:
            await asyncio.wait_for(arrived.wait(), max(0.001, until - time.perf_counter()))
        except asyncio.TimeoutError:
            break
        arrived.clear()
        state = latest[0]
        if state is None or state["version"] <= moved_from or not my_turn(state):
            continue
        moved_from = state["version"]
        last, _ = await play_turn(table, position, mover, stats, state, until, rng, think, seen)
        if last is not None:
            moved_from = max(moved_from, last["version"])
            if last["version"] > latest[0]["version"]:
                latest[0] = last
        elif latest[0]["version"] > moved_from:
            arrived.set()  # refused: a newer state is already here
    await reader
    mover.close()


async def run_load(port: int, tables: list[Table], students: list[list[Browser]], seconds: float, warmup: float,
                   poll_ms: int, think: float, transport: str, sample) -> Stats:
    """The load; `sample()` is called as the recorded window starts and as it ends (the server's CPU)."""
    stats = Stats()
    start = time.perf_counter()
    until = start + warmup + seconds
    rng = random.Random(8)
    tasks = []
    for table, browsers in zip(tables, students):
        for position, browser in enumerate(browsers):
            if transport == "stream":
                work = streaming_student(table, position, browser, port, stats, until, random.Random(rng.random()),
                                         think)
            else:
                conn = Connection(port, browser.cookies, browser.token)
                work = student(table, position, conn, stats, until, poll_ms, random.Random(rng.random()), think)
            tasks.append(asyncio.create_task(work))
    await asyncio.sleep(warmup)
    if transport == "stream" and stats.first_state == 0:
        for task in tasks:
            task.cancel()
        raise SystemExit("no state stream opened (a server from before them?): try --transport poll")
    stats.recording = True
    sample()
    recorded_from = time.perf_counter()
    await asyncio.sleep(max(0.0, until - time.perf_counter()))
    sample()
    stats.recording = False
    await asyncio.gather(*tasks)
    stats.seconds = until - recorded_from
    margin = 1.0 if transport == "stream" else 2.5  # too near the end for every screen to have its event or poll
    for table in tables:  # each move's answer, to the first event or poll of every other seat that shows it
        for version, (answered, mover) in table.answered.items():
            if answered > until - margin:
                continue
            for position, seen in enumerate(table.seen):
                if position != mover:
                    shown = next((t for v, t in seen if v >= version), None)
                    if shown is not None and shown < answered:
                        stats.screen_early += 1
                    stats.screen_ms.append(max(0.0, shown - answered) * 1000 if shown else float("inf"))
    return stats


async def run_idle(port: int, tables: list[Table], students: list[list[Browser]], screens: int, seconds: float,
                   transport: str, poll_ms: int, sample) -> Stats:
    """`screens` screens (a browser each) on tables where nobody moves: opened, given time to have their
    first state, then `sample()` as the window of `seconds` starts and as it ends."""
    stats = Stats()
    opening = 30 + screens / 20  # the longest the screens may take to open
    until = time.perf_counter() + opening + seconds + 2
    rng = random.Random(9)
    tasks = []
    browsers = [(table, position, browser) for table, seated in zip(tables, students)
                for position, browser in enumerate(seated)][:screens]
    for table, position, browser in browsers:
        if transport == "stream":
            work = streaming_student(table, position, browser, port, stats, until, random.Random(rng.random()), 0,
                                     moves=False)
        else:
            conn = Connection(port, browser.cookies, browser.token)
            work = student(table, position, conn, stats, until, poll_ms, random.Random(rng.random()), 0, moves=False)
        tasks.append(asyncio.create_task(work))
    deadline = time.perf_counter() + opening
    while stats.first_state < len(browsers) and time.perf_counter() < deadline:
        await asyncio.sleep(0.1)
    stats.open_seconds = time.perf_counter() + opening - deadline
    await asyncio.sleep(min(5.0, seconds / 4))  # the openings' own work done
    stats.recording = True
    sample()
    started = time.perf_counter()
    await asyncio.sleep(seconds)
    sample()
    stats.seconds = time.perf_counter() - started
    stats.recording = False
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return stats


def machine_speed_ms() -> float:
    """The CPU time of a fixed pure-Python workload (best of 5, milliseconds): how fast this machine runs
    Python at the moment. On a shared virtual machine it drifts by a third within minutes, and every CPU
    figure with it: compare runs only when their calibrations agree."""
    best = float("inf")
    for _ in range(5):
        started = time.process_time()
        kept: dict[int, str] = {}
        for i in range(200_000):
            kept[i % 1000] = json.dumps([i, str(i)])
        best = min(best, time.process_time() - started)
    return round(best * 1000, 1)


def cpu_seconds(pids: list[int]) -> float:
    """CPU time (user + system) used so far by these processes, from /proc (Linux)."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def cpu_since(before: dict[int, float], now: list[int]) -> float:
    """CPU time spent since `before` (pid -> CPU seconds then) by those processes and by the ones that
    started since (`now`: the serving processes now; a new database connection's process, say)."""
    spent = 0.0
    for pid in set(before) | set(now):
        current = cpu_seconds([pid])
        spent += max(0.0, current - before.get(pid, 0.0)) if current or pid not in before else 0.0
    return spent


def database_backends(url: str) -> set[int]:
    """The PostgreSQL server's processes that serve connections to this URL's database (not this one)."""
    from sqlalchemy import create_engine, text

    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            return {row[0] for row in connection.execute(text(
                "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"))}
    finally:
        engine.dispose()


def serving_pids(server: Server, database: str, own: str | None = None) -> list[int]:
    """The server's processes (its main process and workers) and, on PostgreSQL, the database server's:
    what a request costs is the CPU all of them spend on it. `own`: a database URL, to count only the
    database server's processes serving it (two runs side by side, each on its own database:
    bench/compare.py)."""
    backends = database_backends(own) if own else None
    pids = [server.process.pid]
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            status = (proc / "status").read_text()
        except OSError:
            continue
        parent = next((line.split()[1] for line in status.splitlines() if line.startswith("PPid:")), "")
        name = status.split("\n", 1)[0].split()[-1]
        if parent == str(server.process.pid) or (database != "sqlite" and name == "postgres" and (
                backends is None or int(proc.name) in backends)):
            pids.append(int(proc.name))
    return pids


async def closed_loop(port: int, path: str, browser: Browser | None, etag: str | None, connections: int,
                      seconds: float) -> tuple[float, float, float, int]:
    """Requests per second of the server answering `path` alone, `connections` clients back to back
    (and p50, p95 latency and the number of requests)."""
    counts, latencies = [0], []
    until = time.perf_counter() + seconds

    async def one():
        conn = Connection(port, browser.cookies if browser else {}, None)
        headers = {"If-None-Match": etag} if etag else {}
        while time.perf_counter() < until:
            sent = time.perf_counter()
            status, _, _ = await conn.request("GET", path, headers=headers)
            latencies.append((time.perf_counter() - sent) * 1000)
            assert status in (200, 304), status
            counts[0] += 1
        conn.close()

    started = time.perf_counter()
    await asyncio.gather(*(one() for _ in range(connections)))
    return counts[0] / (time.perf_counter() - started), pct(latencies, 50), pct(latencies, 95), counts[0]


# ----------------------------------------------------------------------------------------------------
# Set-up and the run
# ----------------------------------------------------------------------------------------------------
def reset_postgres(url: str) -> None:
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    target = make_url(url)
    admin = create_engine(target.set(database="postgres"), isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'DROP DATABASE IF EXISTS "{target.database}" WITH (FORCE)'))
        connection.execute(text(f'CREATE DATABASE "{target.database}"'))
    admin.dispose()


def set_up(port: int, count: int) -> tuple[list[Table], list[list[Browser]]]:
    teacher = Browser(port).sign_up()
    tables, students = [], []
    for _t in range(count):
        code = teacher.open_table({"rules": "standard", "deck": "standard-52", "seats": SEATS,
                                   "match": {"format": "hands", "value": 20}})
        seated = []
        for s in range(5):
            browser = Browser(port)
            status, data = browser.json("POST", f"/api/tables/{code}/join", {"name": f"Student {s + 1}"})
            assert status == 201, (status, data)
            browser.close()
            seated.append(browser)
        status, data = teacher.json("POST", f"/api/tables/{code}/start")
        assert status == 200, (status, data)
        _, deck = teacher.json("GET", f"/api/tables/{code}/deck")
        tables.append(Table(code, deck))
        students.append(seated)
    teacher.close()
    return tables, students


class Window:
    """The serving processes' CPU (and the load generator's) between two calls of `sample`, the first of
    which lists the serving processes again (on PostgreSQL a connection's process may have started)."""

    def __init__(self, server: Server, database: str, own: str | None):
        self.server, self.database, self.own = server, database, own
        self.marks: list[float] = []
        self.before: dict[int, float] = {}
        self.client_before = 0.0
        self.server_cpu = self.database_cpu = self.client_cpu = self.seconds = 0.0
        self.requests_before = self.requests = 0  # the requests the load generator sent in the window

    def sample(self) -> None:
        now = time.perf_counter()
        pids = serving_pids(self.server, self.database, self.own)
        if not self.marks:
            self.before = {pid: cpu_seconds([pid]) for pid in pids}
            self.client_before = time.process_time()
            self.requests_before = Sent.requests
        else:
            self.requests = Sent.requests - self.requests_before
            self.server_cpu = cpu_since(self.before, pids)
            database = [pid for pid in set(self.before) | set(pids) if pid != self.server.process.pid
                        and is_postgres(pid)]  # (a process gone since reads as nothing spent: not counted)
            self.database_cpu = cpu_since({pid: self.before[pid] for pid in database if pid in self.before},
                                          database)
            self.client_cpu = time.process_time() - self.client_before
            self.seconds = now - self.marks[0]
        self.marks.append(now)


def is_postgres(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip() == "postgres"
    except OSError:
        return False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=100, help="tables of 5 students who play (0: none)")
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--warmup", type=float, default=10)
    parser.add_argument("--transport", choices=("stream", "poll"), default="stream",
                        help="how each screen has the table's state: its event stream (as a browser that can) or "
                             "polling every poll_ms (as a page whose stream failed)")
    parser.add_argument("--idle-screens", type=int, default=0,
                        help="also measure N screens (a browser each) on started tables where nobody moves")
    parser.add_argument("--idle-seconds", type=float, default=60,
                        help="the idle measure's window, with the screens open and (before) without them")
    parser.add_argument("--database", default="sqlite", help="sqlite, postgres, or a DATABASE_URL")
    parser.add_argument("--workers", type=int, default=None, help="server workers (default: 1 per core, as authors serve)")
    parser.add_argument("--threads", type=int, default=2, help="threads per worker (authors serve's default)")
    parser.add_argument("--think", type=float, default=0.0,
                        help="seconds a student takes to choose a move (0: moves the moment the turn is seen)")
    parser.add_argument("--poll-seconds", type=float, default=10, help="each closed-loop poll-cost run")
    parser.add_argument("--json", help="write the figures to this file too")
    parser.add_argument("--app", type=Path, default=ROOT,
                        help="the checkout whose app is served (default: this one; bench/compare.py names another)")
    parser.add_argument("--own-database-cpu", action="store_true",
                        help="on PostgreSQL, count only the database server's processes serving this run's database "
                             "(two runs side by side: bench/compare.py)")
    args = parser.parse_args()
    if args.tables <= 0 and args.idle_screens <= 0:
        parser.error("nothing to measure: --tables 0 and no --idle-screens")

    work = Path(tempfile.mkdtemp(prefix="authors-load-"))
    if args.database == "sqlite":
        url = f"sqlite:///{work / 'load.sqlite3'}"
    else:
        url = POSTGRES if args.database == "postgres" else args.database
        reset_postgres(url)
    workers = args.workers or (os.cpu_count() or 1)
    server = Server(url, work / "instance", workers=workers, threads=args.threads, root=args.app.resolve(),
                    env={"AUTHORS_HAND_PAUSE_SECONDS": "1", "AUTHORS_BOT_PACE_SECONDS": "1"}).start(60)
    own = url if args.own_database_cpu and args.database != "sqlite" else None
    stats = idle = None
    load_window, idle_window, quiet_window = (Window(server, args.database, own) for _ in range(3))
    try:
        speed_before = machine_speed_ms()
        if args.tables > 0:
            t0 = time.perf_counter()
            tables, students = set_up(server.port, args.tables)
            print(f"set up {args.tables} tables x 5 students in {time.perf_counter() - t0:.1f} s "
                  f"({workers} workers x {args.threads} threads, {args.database}, {args.transport})", flush=True)
            _, first = students[0][0].json("GET", f"/api/tables/{tables[0].code}")
            poll_ms = first["poll_ms"]
            stats = asyncio.run(run_load(server.port, tables, students, args.seconds, args.warmup, poll_ms,
                                         args.think, args.transport, load_window.sample))
        if args.idle_screens > 0:
            t0 = time.perf_counter()
            tables, students = set_up(server.port, -(-args.idle_screens // 5))
            print(f"set up {len(tables)} idle tables in {time.perf_counter() - t0:.1f} s", flush=True)
            _, first = students[0][0].json("GET", f"/api/tables/{tables[0].code}")
            poll_ms = first["poll_ms"]
            time.sleep(min(5.0, args.idle_seconds / 4))  # the set-up's own work done
            quiet_window.sample()  # the same server and tables, no screen open
            time.sleep(args.idle_seconds)
            quiet_window.sample()
            idle = asyncio.run(run_idle(server.port, tables, students, args.idle_screens, args.idle_seconds,
                                        args.transport, poll_ms, idle_window.sample))
        speed_after = machine_speed_ms()

        # The cost of the version poll (a 304 for an unchanged table) against a bare endpoint.
        teacher = Browser(server.port)
        code = teacher.open_table({"rules": "standard", "seats": SEATS})
        watcher = Browser(server.port)
        watcher.json("POST", f"/api/tables/{code}/join", {"name": "Watcher"})
        status, headers, _ = watcher.request("GET", f"/api/tables/{code}")
        etag = headers.get("etag")
        pids = serving_pids(server, args.database, own)

        def measured(path, browser, tag):  # (req/s, p50, p95, server CPU ms per request)
            before = cpu_seconds(pids)
            rps, p50, p95, count = asyncio.run(closed_loop(server.port, path, browser, tag, 8, args.poll_seconds))
            return rps, p50, p95, (cpu_seconds(pids) - before) * 1000 / max(1, count)

        bare_no_cookie = measured("/healthz/app", None, None)
        bare = measured("/healthz/app", watcher, None)
        front = measured("/healthz", watcher, None)
        poll = measured(f"/api/tables/{code}", watcher, etag)
    finally:
        server.stop()

    def rounded(value, digits=1):
        return round(value, digits) if value == value and value not in (float("inf"), float("-inf")) else None

    figures = {
        "transport": args.transport, "database": args.database, "tables": args.tables, "think_s": args.think,
        "students": 5 * args.tables, "workers": workers, "threads": args.threads,
        "machine_speed_ms": [speed_before, speed_after],
        "bare_cpu_ms": round(bare[3], 3), "front_cpu_ms": round(front[3], 3), "poll304_cpu_ms": round(poll[3], 3),
        "poll_cpu_ratio": round(poll[3] / bare[3], 2) if bare[3] else None,
        "bare_rps": round(bare[0], 1), "bare_ms_p50_p95": [round(bare[1], 2), round(bare[2], 2)],
        "bare_no_cookie_rps": round(bare_no_cookie[0], 1),
        "poll304_rps": round(poll[0], 1), "poll304_ms_p50_p95": [round(poll[1], 2), round(poll[2], 2)],
        "poll_cost_ratio": round(bare[0] / poll[0], 2) if poll[0] else None,
        "poll_cost_ratio_no_cookie": round(bare_no_cookie[0] / poll[0], 2) if poll[0] else None,
        "server_cpu_ms_per_move": None, "screen_ms": None, "idle_cpu_per_screen_ms_per_s": None,
    }
    if stats is not None:
        seconds = load_window.seconds
        server_cores = load_window.server_cpu / seconds
        figures.update({
            "seconds": round(seconds, 1), "poll_ms": poll_ms,
            "requests_per_s": round(load_window.requests / seconds, 1),
            "moves_per_s": round(stats.moves / seconds, 1), "moves": stats.moves,
            "polls": stats.polls, "not_modified": stats.not_modified, "refused_moves": stats.refused,
            "events": stats.events, "pings": stats.pings, "stream_drops": stats.drops,
            "errors": stats.errors, "statuses": stats.statuses,
            "load_generator_cores": round(load_window.client_cpu / seconds, 2), "server_cores": round(server_cores, 2),
            "database_cores": round(load_window.database_cpu / seconds, 2),  # of server_cores: PostgreSQL's
            "server_cpu_ms_per_move": round(load_window.server_cpu * 1000 / stats.moves, 2) if stats.moves else None,
            "server_cpu_ms_per_move_in_bare_requests": round(load_window.server_cpu * 1000 / stats.moves / bare[3], 1)
            if stats.moves and bare[3] else None,
            "move_ms": {q: rounded(pct(stats.move_ms, q)) for q in (50, 95, 99)},
            "screen_ms": {**{q: rounded(pct(stats.screen_ms, q)) for q in (50, 95, 99)},
                          "max": rounded(max(stats.screen_ms)) if stats.screen_ms else None},
            "screen_max_ms": rounded(max(stats.screen_ms)) if stats.screen_ms else None,
            "screen_updates": len(stats.screen_ms),
            "screen_missed": sum(1 for v in stats.screen_ms if v == float("inf")),
            "screen_before_answer": stats.screen_early,
        })
    if idle is not None:
        seconds = idle_window.seconds
        figures.update({
            "idle_screens": args.idle_screens, "idle_seconds": round(seconds, 1),
            "idle_open_seconds": round(idle.open_seconds, 1),
            "idle_cpu_per_screen_ms_per_s": round(idle_window.server_cpu * 1000 / args.idle_screens / seconds, 4),
            "idle_server_cores": round(idle_window.server_cpu / seconds, 4),
            "idle_server_cores_without_screens": round(quiet_window.server_cpu / quiet_window.seconds, 4),
            "idle_requests": idle_window.requests, "idle_events": idle.events, "idle_pings": idle.pings,
            "idle_stream_drops": idle.drops, "idle_errors": idle.errors,
            "idle_load_generator_cores": round(idle_window.client_cpu / seconds, 3),
        })
    print(json.dumps(figures, indent=2))
    if stats is not None:
        print(f"\n{args.tables} tables ({5 * args.tables} students), {args.database}, {workers}x{args.threads}, "
              f"{args.transport}, think {args.think} s: {figures['requests_per_s']} req/s, {figures['moves_per_s']} "
              f"moves/s; server CPU a move {figures['server_cpu_ms_per_move']} ms "
              f"({figures['server_cpu_ms_per_move_in_bare_requests']} bare requests of {figures['bare_cpu_ms']} ms); "
              f"move p50/p95/p99 {figures['move_ms'][50]}/{figures['move_ms'][95]}/{figures['move_ms'][99]} ms; "
              f"other screens p50/p95/p99/max {figures['screen_ms'][50]}/{figures['screen_ms'][95]}/"
              f"{figures['screen_ms'][99]}/{figures['screen_ms']['max']} ms")
    if idle is not None:
        print(f"{args.idle_screens} idle screens ({args.transport}) for {figures['idle_seconds']} s: "
              f"{figures['idle_server_cores']} server cores ({figures['idle_server_cores_without_screens']} without "
              f"them), {figures['idle_cpu_per_screen_ms_per_s']} ms of CPU per screen per second, "
              f"{figures['idle_requests']} requests")
    print(f"server CPU per request: poll 304 {figures['poll304_cpu_ms']} ms vs bare {figures['bare_cpu_ms']} ms: "
          f"{figures['poll_cpu_ratio']}x; machine speed before/after {speed_before}/{speed_after} ms")
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
