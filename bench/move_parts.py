"""What each part of a served move costs the app alone: the CPU time of a move's POST, a state's GET, a bare
request and one reader's stream state, each called in this process with nothing else running.

    .venv/bin/python bench/move_parts.py [--moves 400] [--repeat 2000] [--json FILE]

One table of five students on SQLite, the app called through its WSGI entry as bench/move_instructions.py
calls it (its Browser: no HTTP server, the hooks and Flask as in production), the requests a move costs in
the load (bench/move_cost.py's Table: the move, and one or two other screens' states). After 50 moves to
warm the caches, `--moves` moves are played and each request's CPU time (`time.process_time()`) is added
to its kind; then a bare request (GET /healthz/app with a student's cookie) is sent `--repeat` times, and
the state a stream sends after a change (app/web/events.py `state_builder`) is built for the five seated
readers from the move's snapshot and from a read of the table, `--repeat` / 10 times each.

Set beside bench/load.py's `server_cpu_ms_per_move` at the same machine speed, these say how much of a
move's CPU under load is the app's own work and how much is the serving around it and the processes'
concurrency (bench/README.md, 2026-12-06).
"""
from __future__ import annotations

import argparse
import collections
import json
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from move_cost import Table  # noqa: E402
from move_instructions import Browser, logged_in_teacher, make_app  # noqa: E402

WARM = 50  # moves before the count: the process's caches are built


class TimedBrowser(Browser):
    """A Browser that adds each request's CPU time to its kind."""

    spent: collections.defaultdict = collections.defaultdict(lambda: [0.0, 0])

    def call(self, method, path, body=None, headers=None):
        started = time.process_time()
        try:
            return super().call(method, path, body, headers)
        finally:
            route = path.split("?", 1)[0]
            if method == "POST" and route.endswith("/moves"):
                kind = "move"
            elif method == "GET" and route.startswith("/api/tables/") and route.count("/") == 3:
                kind = "state"
            else:
                kind = "other"
            entry = self.spent[kind]
            entry[0] += time.process_time() - started
            entry[1] += 1


def cpu_ms(work, times: int) -> float:
    started = time.process_time()
    for _ in range(times):
        work()
    return round((time.process_time() - started) / times * 1000, 4)


def measure(moves: int, repeat: int) -> dict:
    work = Path(tempfile.mkdtemp(prefix="authors-move-parts-"))
    try:
        app = make_app("sqlite", work)
        table = Table(logged_in_teacher(app), lambda: TimedBrowser(app), random.Random(0))
        table.play(WARM)
        TimedBrowser.spent.clear()
        table.play(moves)
        spent = {kind: (total, count) for kind, (total, count) in TimedBrowser.spent.items()}
        student = table.students[0]
        bare = cpu_ms(lambda: student.call("GET", "/healthz/app"), repeat)

        from app.services import reading
        from app.web import events

        code = table.url.rsplit("/", 1)[1]
        build = events.state_builder(app)
        with app.app_context():
            snapshot = reading.read(code)
        readers = [(events.Viewer(code, seat.position, (seat.position,), ((seat.position, seat.token_hash),),
                                  False, ""), b"") for seat in snapshot.seats]
        built = build(code, readers, snapshot)
        assert all(answer is not None and answer[0] == 200 for answer in built), built
        builds = max(repeat // 10, 1)
        from_snapshot = cpu_ms(lambda: build(code, readers, snapshot), builds) / len(readers)
        from_read = cpu_ms(lambda: build(code, readers, None), builds) / len(readers)
        figures = {
            "move_ms": round(spent["move"][0] / spent["move"][1] * 1000, 4),
            "state_get_ms": round(spent["state"][0] / spent["state"][1] * 1000, 4),
            "bare_ms": bare,
            "stream_state_ms": {"from_the_moves_snapshot": round(from_snapshot, 4),
                                "read_once_for_five": round(from_read, 4)},
            "stream_state_bytes": round(sum(len(answer[2]) for answer in built) / len(built)),
            "moves": spent["move"][1],
            "state_gets": spent["state"][1],
        }
        figures["move_in_bare_requests"] = round(figures["move_ms"] / bare, 1)
        return figures
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=400)
    parser.add_argument("--repeat", type=int, default=2000, help="bare requests (and a tenth as many stream builds)")
    parser.add_argument("--json", help="write the figures to this file too")
    args = parser.parse_args()
    figures = measure(args.moves, args.repeat)
    text = json.dumps(figures, indent=2)
    print(text)
    print(f"in process: a move's POST {figures['move_ms']} ms ({figures['move_in_bare_requests']} bare requests of "
          f"{figures['bare_ms']} ms), a state GET {figures['state_get_ms']} ms, a reader's stream state "
          f"{figures['stream_state_ms']['from_the_moves_snapshot']} ms from the move's snapshot "
          f"({figures['stream_state_bytes']} bytes)")
    if args.json:
        Path(args.json).write_text(text + "\n")


if __name__ == "__main__":
    main()
