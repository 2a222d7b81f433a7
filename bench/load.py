"""Load: N tables of 5 students against `authors serve --prod` (granian), on SQLite or PostgreSQL.

    .venv/bin/python bench/load.py [--tables 100] [--seconds 60] [--database sqlite|postgres|URL]
                                   [--workers W] [--threads T] [--json FILE]

Every student is a browser of its own (cookie, CSRF token, one keep-alive connection) that does what
app/static/js/common.js and play.js do: poll GET /api/tables/<code> every poll_ms (1 s) with
If-None-Match, so an unchanged table costs a 304; on its turn it moves at once (POST .../moves with the
version it saw and an Idempotency-Key) and takes the state of the answer, moving again while the turn
is still its own. Tables play matches of many hands, so play never stops during the run.

Reported: requests and moves per second; the serving processes' CPU (the server's, and PostgreSQL's) in
cores and per move (a move's own request and the states and polls of the screens that follow it: the
figure that says how many moves a machine can serve); move latency (request to answer) p50/p95/p99;
move-to-other-screens latency (from a move's answer to each other seat's poll that first shows the new version); and
the cost of the version poll (a 304) against a bare Flask endpoint (/healthz) on the same server, each
measured alone, closed-loop (8 connections), as requests per second of the whole server; the bare
endpoint with the same session cookie as the poll, and without one; and the same as the serving
processes' CPU time per request (the server's, and on PostgreSQL the database server's too), which the
load generator's own share of the cores does not blur; and the machine's speed before and after the
run (`machine_speed_ms`: a fixed Python workload's CPU time), since on a shared machine every CPU
figure drifts with it. Loopback only (127.0.0.1);
every loop is bounded in time. The load generator runs on the same 2 cores as the server.
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

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.server_support import Browser, Server  # noqa: E402
from tests.web_support import choose_move  # noqa: E402

POSTGRES = "postgresql+psycopg://postgres@127.0.0.1:5432/authors_bench"
SEATS = [{"kind": "human"}] * 5


# ----------------------------------------------------------------------------------------------------
# A minimal HTTP/1.1 keep-alive client on asyncio (the load generator shares the machine: keep it lean)
# ----------------------------------------------------------------------------------------------------
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

    async def _exchange(self, method, path, body, headers):
        lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{self.port}", "Accept: application/json"]
        if self.cookies:
            lines.append("Cookie: " + "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
        if method != "GET":
            lines += ["Content-Type: application/json", f"X-CSRFToken: {self.token or ''}"]
        lines += [f"{k}: {v}" for k, v in headers.items()]
        lines.append(f"Content-Length: {len(body)}")
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
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
        length = int(found.get("content-length", 0))
        data = await self.reader.readexactly(length) if length else b""
        if found.get("connection", "").lower() == "close":
            self.close()
        return status, found, data

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
        self.moves = self.polls = self.not_modified = self.errors = self.refused = 0
        self.statuses: dict[int, int] = {}
        self.recording = False


async def student(table: Table, position: int, conn: Connection, stats: Stats, until: float, poll_ms: int,
                  rng: random.Random, think: float):
    url = f"/api/tables/{table.code}"
    etag = None
    last_version = -1
    delay = poll_ms / 1000
    await asyncio.sleep(rng.random() * delay)  # screens opened at different moments

    def seen(version: int, at: float):
        nonlocal last_version
        if version > last_version:
            last_version = version
            table.seen[position].append((version, at))

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
            state = json.loads(data)
            delay = state.get("poll_ms", poll_ms) / 1000
            seen(state["version"], now)
            while state["status"] == "playing" and state["game"] and state["game"]["turn"] == state["you"]["name"] \
                    and time.perf_counter() < until:
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
                    break
                done = time.perf_counter()
                if stats.recording:
                    stats.statuses[status] = stats.statuses.get(status, 0) + 1
                if status != 200:
                    stats.refused += stats.recording
                    etag = None
                    break
                answer = json.loads(data)
                state = answer["state"]
                version = state["version"]
                if stats.recording:
                    table.answered[version] = (done, position)
                    stats.moves += 1
                    stats.move_ms.append((done - sent) * 1000)
                seen(version, done)
                etag = answer.get("state_etag")  # as play.js: the next poll is a 304 until the table moves
        else:
            stats.errors += stats.recording
        await asyncio.sleep(max(0.0, delay - (time.perf_counter() - now)))
    conn.close()


async def run_load(port: int, tables: list[Table], students: list[list[Browser]], seconds: float, warmup: float,
                   poll_ms: int, think: float) -> Stats:
    stats = Stats()
    start = time.perf_counter()
    until = start + warmup + seconds
    rng = random.Random(8)
    tasks = []
    for table, browsers in zip(tables, students):
        for position, browser in enumerate(browsers):
            conn = Connection(port, browser.cookies, browser.token)
            tasks.append(asyncio.create_task(student(table, position, conn, stats, until, poll_ms,
                                                     random.Random(rng.random()), think)))
    await asyncio.sleep(warmup)
    stats.recording = True
    recorded_from = time.perf_counter()
    await asyncio.gather(*tasks)
    stats.seconds = time.perf_counter() - recorded_from
    for table in tables:  # each move's answer, to the first poll of every other seat that shows it
        for version, (answered, mover) in table.answered.items():
            if answered > until - 2.5:
                continue  # too near the end for every screen to have polled again
            for position, seen in enumerate(table.seen):
                if position != mover:
                    shown = next((t for v, t in seen if v >= version), None)
                    stats.screen_ms.append(max(0.0, shown - answered) * 1000 if shown else float("inf"))
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--warmup", type=float, default=10)
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
    try:
        t0 = time.perf_counter()
        tables, students = set_up(server.port, args.tables)
        print(f"set up {args.tables} tables x 5 students in {time.perf_counter() - t0:.1f} s "
              f"({workers} workers x {args.threads} threads, {args.database})", flush=True)
        _, first = students[0][0].json("GET", f"/api/tables/{tables[0].code}")
        poll_ms = first["poll_ms"]
        pids = serving_pids(server, args.database, own)
        speed_before = machine_speed_ms()
        cpu_before, server_before = time.process_time(), {pid: cpu_seconds([pid]) for pid in pids}
        stats = asyncio.run(run_load(server.port, tables, students, args.seconds, args.warmup, poll_ms,
                                    args.think))
        client_cpu = (time.process_time() - cpu_before) / (args.seconds + args.warmup)
        server_cpu = cpu_since(server_before, serving_pids(server, args.database, own)) / (args.seconds + args.warmup)
        speed_after = machine_speed_ms()

        # The cost of the version poll (a 304 for an unchanged table) against a bare endpoint.
        idle = Browser(server.port)
        code = idle.open_table({"rules": "standard", "seats": SEATS})
        watcher = Browser(server.port)
        watcher.json("POST", f"/api/tables/{code}/join", {"name": "Watcher"})
        status, headers, _ = watcher.request("GET", f"/api/tables/{code}")
        etag = headers.get("etag")
        pids = serving_pids(server, args.database, own)

        def measured(path, browser, tag):  # (req/s, p50, p95, server CPU ms per request)
            before = cpu_seconds(pids)
            rps, p50, p95, count = asyncio.run(closed_loop(server.port, path, browser, tag, 8, args.poll_seconds))
            return rps, p50, p95, (cpu_seconds(pids) - before) * 1000 / max(1, count)

        bare_no_cookie = measured("/healthz", None, None)
        bare = measured("/healthz", watcher, None)
        poll = measured(f"/api/tables/{code}", watcher, etag)
    finally:
        server.stop()

    figures = {
        "database": args.database, "tables": args.tables, "think_s": args.think, "students": 5 * args.tables, "workers": workers,
        "threads": args.threads, "seconds": round(stats.seconds, 1), "poll_ms": poll_ms,
        "requests_per_s": round((stats.polls + stats.moves + stats.refused) / stats.seconds, 1),
        "moves_per_s": round(stats.moves / stats.seconds, 1), "moves": stats.moves,
        "polls": stats.polls, "not_modified": stats.not_modified, "refused_moves": stats.refused,
        "errors": stats.errors, "statuses": stats.statuses,
        "machine_speed_ms": [speed_before, speed_after],
        "load_generator_cores": round(client_cpu, 2), "server_cores": round(server_cpu, 2),
        "server_cpu_ms_per_move": round(server_cpu * 1000 / (stats.moves / stats.seconds), 2) if stats.moves else None,
        "move_ms": {q: round(pct(stats.move_ms, q), 1) for q in (50, 95, 99)},
        "screen_ms": {q: round(pct(stats.screen_ms, q), 1) for q in (50, 95, 99)},
        "screen_max_ms": round(max(stats.screen_ms), 1) if stats.screen_ms else None,
        "screen_updates": len(stats.screen_ms),
        "bare_rps": round(bare[0], 1), "bare_ms_p50_p95": [round(bare[1], 2), round(bare[2], 2)],
        "bare_no_cookie_rps": round(bare_no_cookie[0], 1),
        "poll304_rps": round(poll[0], 1), "poll304_ms_p50_p95": [round(poll[1], 2), round(poll[2], 2)],
        "poll_cost_ratio": round(bare[0] / poll[0], 2) if poll[0] else None,
        # the same comparison as the serving processes' CPU per request (the server's, and PostgreSQL's)
        "bare_cpu_ms": round(bare[3], 3), "poll304_cpu_ms": round(poll[3], 3),
        "poll_cpu_ratio": round(poll[3] / bare[3], 2) if bare[3] else None,
        "poll_cost_ratio_no_cookie": round(bare_no_cookie[0] / poll[0], 2) if poll[0] else None,
    }
    print(json.dumps(figures, indent=2))
    print(f"\n{args.tables} tables ({5 * args.tables} students), {args.database}, {workers}x{args.threads}, "
          f"think {args.think} s: "
          f"{figures['requests_per_s']} req/s, {figures['moves_per_s']} moves/s; move p50/p95/p99 "
          f"{figures['move_ms'][50]}/{figures['move_ms'][95]}/{figures['move_ms'][99]} ms; other screens "
          f"p50/p95/p99 {figures['screen_ms'][50]}/{figures['screen_ms'][95]}/{figures['screen_ms'][99]} ms "
          f"(max {figures['screen_max_ms']}); poll 304 {figures['poll304_rps']} req/s vs bare "
          f"{figures['bare_rps']} req/s with the same cookie: {figures['poll_cost_ratio']}x "
          f"(bare without a cookie {figures['bare_no_cookie_rps']} req/s: {figures['poll_cost_ratio_no_cookie']}x); "
          f"server CPU per request: poll {figures['poll304_cpu_ms']} ms vs bare {figures['bare_cpu_ms']} ms: "
          f"{figures['poll_cpu_ratio']}x; machine speed before/after {speed_before}/{speed_after} ms")
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
