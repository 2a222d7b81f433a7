"""The instructions one move costs the app, counted by valgrind: the same figure on every run, however busy
the machine (a CPU time on a shared machine drifts by a third within minutes).

    .venv/bin/python bench/move_instructions.py [--moves 200] [--database sqlite|URL] [--json FILE]
    .venv/bin/python bench/move_instructions.py --plain --moves 50      # the driver alone, no valgrind

One table of five students, the app called in this process through its WSGI entry (no HTTP server; the
security headers, the fast poll and Flask as in production), with the requests a move costs in
bench/load.py: the move, and one or two other screens' states (1.6 on average). The driver builds each
WSGI environ by hand and reads answers with orjson, so that nearly every instruction counted is the
app's. It runs twice under `valgrind --tool=callgrind`, with 20 and 20 + N moves after the same set-up;
the difference over N is one move's instructions, split by library (self cost: the Python interpreter
running Python code, orjson, SQLite, OpenSSL ...). In the Python figure, the calls per move by package
(cProfile's exact call counts, from the plain run) say whose Python code it is.
"""
from __future__ import annotations

import argparse
import collections
import io
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from http.cookies import SimpleCookie
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from move_cost import Table  # noqa: E402  (the requests a move costs, played the same way as there)

WARM = 20  # moves played before counting starts: the process's caches are built


class Browser:
    """A student's (or the teacher's) browser: its cookies and CSRF token, calling the WSGI app directly."""

    def __init__(self, app):
        self.app, self.cookies, self.token = app, {}, None

    def call(self, method: str, path: str, body=None, headers: dict | None = None) -> tuple[int, dict | None]:
        import orjson

        raw = orjson.dumps(body) if body is not None else b""
        path, _, query = path.partition("?")
        environ = {"REQUEST_METHOD": method, "PATH_INFO": path, "QUERY_STRING": query, "SERVER_NAME": "127.0.0.1",
                   "SERVER_PORT": "5000", "SERVER_PROTOCOL": "HTTP/1.1", "HTTP_HOST": "127.0.0.1:5000",
                   "REMOTE_ADDR": "127.0.0.1", "HTTP_ACCEPT": "application/json", "CONTENT_LENGTH": str(len(raw)),
                   "wsgi.input": io.BytesIO(raw), "wsgi.errors": sys.stderr, "wsgi.url_scheme": "http",
                   "wsgi.version": (1, 0), "wsgi.multithread": True, "wsgi.multiprocess": True, "wsgi.run_once": False}
        if body is not None:
            environ["CONTENT_TYPE"] = "application/json"
        if self.cookies:
            environ["HTTP_COOKIE"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if method != "GET" and self.token:
            environ["HTTP_X_CSRFTOKEN"] = self.token
        for name, value in (headers or {}).items():
            environ["HTTP_" + name.upper().replace("-", "_")] = value
        answer: dict = {}

        def start_response(status, response_headers, exc_info=None):
            answer["status"], answer["headers"] = int(status.split()[0]), response_headers

        data = b"".join(self.app(environ, start_response))
        for name, value in answer["headers"]:
            if name.lower() == "set-cookie":
                cookie = SimpleCookie()
                cookie.load(value)
                self.cookies.update({key: morsel.value for key, morsel in cookie.items()})
        return answer["status"], orjson.loads(data) if data[:1] in (b"{", b"[") else None

    def json(self, method: str, path: str, body=None, headers: dict | None = None) -> tuple[int, dict | None]:
        """As tests/server_support.Browser.json: the CSRF token asked for before the first change."""
        if method != "GET" and self.token is None:
            self.token = self.call("GET", "/api/csrf-token")[1]["csrf_token"]
        return self.call(method, path, body, headers)


def logged_in_teacher(app) -> Browser:
    """A teacher's browser, logged in through a session of its own: no password (the sign-up form would
    hash one, slow under valgrind and not what a move costs)."""
    from app.services import accounts

    with app.app_context():
        teacher = accounts.create_teacher("Bench Teacher", None, password_hash="!")
        accounts.start_login(teacher)
        user_id = teacher.get_id()
    client = app.test_client()
    with client.session_transaction() as session:
        session["_user_id"], session["_fresh"] = user_id, True
    browser = Browser(app)
    name = app.config["SESSION_COOKIE_NAME"]
    browser.cookies[name] = client.get_cookie(name).value
    return browser


def make_app(database: str, work: Path):
    """The app as a worker of `authors serve` builds it (app.factory.create_served_app, where a revision
    has it)."""
    try:
        from app.factory import create_served_app as create_app
    except ImportError:  # (a revision from before it)
        from app.factory import create_app

    url = f"sqlite:///{work / 'bench.db'}" if database == "sqlite" else database
    os.environ["AUTHORS_INSTANCE_PATH"] = str(work / "instance")
    return create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "bench " * 8, "BOT_PACE_SECONDS": 0,
                       "HAND_PAUSE_SECONDS": 0, "DEAL_SEED": 7})


def drive(database: str, moves: int, calls: bool) -> dict:
    """Set up, warm, then play `moves` moves; the figures of this process."""
    work = Path(tempfile.mkdtemp(prefix="authors-move-instructions-"))
    try:
        app = make_app(database, work)
        table = Table(logged_in_teacher(app), lambda: Browser(app), random.Random(0))
        table.play(WARM)
        started = time.process_time()
        if calls:
            import cProfile

            profile = cProfile.Profile()
            profile.runcall(table.play, moves)
            student = table.students[0]  # (its state at the version the last move left)
            floor = {"a bare request (GET /healthz, a student's cookie)": lambda: student.call("GET", "/healthz"),
                     "a student's state, unchanged (GET /api/tables/<code>)": lambda: student.call("GET", table.url),
                     "the same state from the store and the state service alone (no request)":
                         lambda: state_without_request(app, table.url.rsplit("/", 1)[1])}
            per_request = {}
            for name, request in floor.items():
                measured = cProfile.Profile()
                measured.runcall(lambda send=request: [send() for _ in range(100)])
                per_request[name] = round(sum(calls_by_package(measured, 100).values()))
            return {"cpu_ms_per_move": None, "calls_per_move": calls_by_package(profile, moves),
                    "calls_per_request": per_request}
        table.play(moves)
        return {"cpu_ms_per_move": (time.process_time() - started) / max(moves, 1) * 1000}
    finally:
        shutil.rmtree(work, ignore_errors=True)


def state_without_request(app, code: str) -> bytes:
    """A student's state as the app's own services build it, in an app context but no request: the
    table read from the store, the state of seat 0, its JSON. What a play path without Flask's request
    handling (and the ORM session's life around it) would still run."""
    import orjson

    from app import store
    from app.db import db
    from app.services import state

    with app.app_context():
        table = store.read(code)
        data = state.table_state(table, seat=table.seats[0], held={0}, teacher=False)
        body = orjson.dumps(data, default=app.json.default, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS)
        db.session.remove()
    return body


def calls_by_package(profile, moves: int) -> dict[str, float]:
    import pstats

    counts: collections.Counter = collections.Counter()
    for (filename, _line, _name), (_cc, calls, *_rest) in pstats.Stats(profile).stats.items():  # type: ignore[attr-defined]
        counts[package_of(filename)] += calls
    return {name: round(count / moves, 1) for name, count in counts.most_common()}


def package_of(filename: str) -> str:
    if filename == "~" or filename.startswith("<"):
        return "built-in functions" if filename == "~" else "generated code"
    path = Path(filename)
    if "site-packages" in path.parts:
        return path.parts[path.parts.index("site-packages") + 1].removesuffix(".py")
    try:
        inside = path.resolve().relative_to(ROOT)
        return "/".join(inside.parts[:2]).removesuffix(".py")
    except ValueError:
        return "standard library"


def callgrind(database: str, moves: int, out: Path) -> subprocess.Popen:
    """One run of this script (`--plain`) under callgrind, started."""
    env = {**os.environ, "PYTHONHASHSEED": "0"}  # the same hashing, so the same dictionaries, on every run
    command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable, __file__,
               "--plain", "--moves", str(moves), "--database", database]
    return subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


def instructions(run: subprocess.Popen, out: Path) -> tuple[int, dict[str, int]]:
    """The instructions of a finished `callgrind` run, in all and by library (self cost)."""
    _, errors = run.communicate()
    if run.returncode != 0:
        raise SystemExit(errors[-3000:])
    annotated = subprocess.run(["callgrind_annotate", "--threshold=100", str(out)], capture_output=True,
                               text=True, check=True).stdout
    total, libraries = 0, collections.Counter()
    for line in annotated.splitlines():
        found = re.match(r"\s*([\d,]+) \([^)]*\)\s+(.*)$", line)
        if not found:
            continue
        count = int(found.group(1).replace(",", ""))
        if "PROGRAM TOTALS" in line:
            total = count
            continue
        where = found.group(2)
        library = re.search(r"\[([^\]]*)\]\s*$", where)
        libraries[library_name(library.group(1) if library else where)] += count
    return total, dict(libraries)


def library_name(path: str) -> str:
    """A library's short name; code inlined from CPython's own sources (annotated with no library) is
    the interpreter's."""
    name = Path(path).name
    if name.startswith("libpython") or re.search(r"(^|/)(Include|Objects|Python|Modules|Parser)/", path):
        return "the Python interpreter"
    return re.sub(r"(\.cpython-[^.]*)?\.so.*$", "", name) or "other"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--moves", type=int, default=200, help="moves counted (a match holds about 1,000)")
    parser.add_argument("--database", default="sqlite", help="sqlite (a fresh file) or a database URL")
    parser.add_argument("--plain", action="store_true", help="play without valgrind: this process's CPU time")
    parser.add_argument("--json", help="write the figures to this file")
    args = parser.parse_args()
    if args.plain:
        figures = drive(args.database, args.moves, calls=False)
        print(f"{args.moves} moves, {figures['cpu_ms_per_move']:.2f} ms of CPU a move (this process)")
        return
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (apt install valgrind); --plain runs without it")

    with tempfile.TemporaryDirectory() as scratch:
        outs = Path(scratch) / "base.out", Path(scratch) / "full.out"
        runs = callgrind(args.database, 0, outs[0]), callgrind(args.database, args.moves, outs[1])  # side by side
        (base, base_libraries), (full, full_libraries) = (instructions(run, out) for run, out in zip(runs, outs))
    per_move = (full - base) / args.moves
    libraries = {name: (full_libraries.get(name, 0) - base_libraries.get(name, 0)) / args.moves
                 for name in set(base_libraries) | set(full_libraries)}
    libraries = dict(sorted(((k, v) for k, v in libraries.items() if v > per_move / 1000), key=lambda kv: -kv[1]))
    counted = drive(args.database, args.moves, calls=True)
    calls = counted["calls_per_move"]
    print(f"one move: {per_move / 1e6:.2f} million instructions ({args.moves} moves counted, {args.database})")
    for name, count in libraries.items():
        print(f"  {count / 1e6:6.2f} M  {count / per_move:6.1%}  {name}")
    print(f"Python calls a move, by package (cProfile), {sum(calls.values()):.0f} in all:")
    for name, count in list(calls.items())[:14]:
        print(f"  {count:7.0f}  {name}")
    print("Python calls of one request, built-ins included (a move makes 2.6 requests):")
    for name, count in counted["calls_per_request"].items():
        print(f"  {count:7.0f}  {name}")
    if args.json:
        Path(args.json).write_text(json.dumps({"database": args.database, "moves": args.moves,
                                               "instructions_per_move": round(per_move),
                                               "by_library": {k: round(v) for k, v in libraries.items()},
                                               "python_calls_per_move": calls,
                                               "python_calls_per_request": counted["calls_per_request"]}, indent=2))


if __name__ == "__main__":
    main()
