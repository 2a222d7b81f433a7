"""What one move costs the server when nothing else runs: one table of 5 students, one request at a time.

    .venv/bin/python bench/move_cost.py [--moves 500] [--gaps 0,10] [--rounds 2] [--database sqlite|postgres|URL]
                                        [--workers 1] [--threads 1] [--json FILE]

The same requests as a move costs in bench/load.py (the move, its answer's state, and the states of the
other screens that poll: here one or two of them, 1.6 on average, as load.py measures at think 0), sent by
one client that waits for each answer, against `authors serve --prod` (granian) on a fresh database.
The server's CPU (user + system, from /proc) per move is reported for each gap: the pause the client
makes before each request. With no gap the server runs back to back, its caches warm; with a gap of a
few milliseconds, as under a real load where each worker waits between requests, the same requests
cost the same server more CPU. The gaps take turns (`--rounds`), so a busy spell of a shared machine
weighs on each alike; the machine's speed (load.py's `machine_speed_ms`) is reported before and after.
"""
from __future__ import annotations

import argparse
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
sys.path.insert(0, str(ROOT / "bench"))

from load import POSTGRES, cpu_seconds, machine_speed_ms, reset_postgres, serving_pids  # noqa: E402
from tests.server_support import Browser, Server  # noqa: E402
from tests.web_support import choose_move  # noqa: E402

OTHER_SCREENS = 0.6  # the chance a move is followed by two other screens' states rather than one (1.6)
TABLE = {"rules": "standard", "deck": "standard-52", "seats": [{"kind": "human"}] * 5,
         "match": {"format": "hands", "value": 20}}


class Table:
    """One table of five students, each a browser of its own, and the state each last saw; it plays the
    requests a move costs. A browser is anything with `json(method, path, body, headers)` that keeps its
    cookies and sends its CSRF token (tests/server_support.Browser over HTTP; move_instructions.Browser in
    process). `gap`: seconds before each request (a list: the caller changes it between rounds)."""

    def __init__(self, teacher, new_browser, rng: random.Random, gap: list[float] | None = None):
        self.teacher, self.new_browser, self.rng = teacher, new_browser, rng
        self.gap = gap if gap is not None else [0.0]
        self.requests = 0
        self._open()

    def _open(self) -> None:
        status, data = self.teacher.json("POST", "/api/tables", TABLE)
        assert status == 201, (status, data)
        self.url = f"/api/tables/{data['code']}"
        self.students = []
        for s in range(5):
            browser = self.new_browser()
            status, data = browser.json("POST", f"{self.url}/join", {"name": f"Student {s + 1}"})
            assert status == 201, (status, data)
            self.students.append(browser)
        status, data = self.teacher.json("POST", f"{self.url}/start")
        assert status == 200, (status, data)
        _, self.deck = self.teacher.json("GET", f"{self.url}/deck")
        self.states = [self._get(s) for s in self.students]

    def _send(self, browser, method: str, path: str, body=None, headers: dict | None = None):
        if self.gap[0]:
            time.sleep(self.gap[0])
        self.requests += 1
        status, data = browser.json(method, path, body, headers=headers)
        assert status == 200, (status, data)
        return data

    def _get(self, browser) -> dict:
        return self._send(browser, "GET", self.url)

    def _mover(self) -> int | None:
        return next((i for i, s in enumerate(self.states)
                     if s["status"] == "playing" and s["game"] and s["game"]["turn"] == s["you"]["name"]), None)

    def play(self, moves: int, cpu=lambda: 0.0) -> tuple[float, int]:
        """Play this many moves; returns the CPU `cpu()` counted meanwhile and the requests they took."""
        rng = self.rng
        before, started, spent = self.requests, cpu(), 0.0
        played = 0
        while played < moves:
            mover = self._mover()
            if mover is None and self.states[0]["status"] == "finished":
                spent += cpu() - started
                requests = self.requests - before
                self._open()  # the match is over (20 hands, about 1,000 moves): a new table, not counted
                before, started = self.requests - requests, cpu()
                continue
            if mover is None:  # between hands: every screen asks until a seat's turn shows
                self.states = [self._get(s) for s in self.students]
                continue
            state = self.states[mover]
            body = {"version": state["version"], "move": choose_move(state, self.deck, rng)}
            answer = self._send(self.students[mover], "POST", f"{self.url}/moves", body,
                                headers={"Idempotency-Key": uuid.UUID(int=rng.getrandbits(128)).hex})
            self.states[mover] = answer["state"]
            played += 1
            # the other screens that poll next: whoever's turn it is now first, as its screen must see it
            turn = (answer["state"].get("game") or {}).get("turn")
            others = [i for i in range(5) if i != mover]
            rng.shuffle(others)
            others.sort(key=lambda i: self.states[i]["you"]["name"] != turn)
            for i in others[:2 if rng.random() < OTHER_SCREENS else 1]:
                self.states[i] = self._get(self.students[i])
        return spent + cpu() - started, self.requests - before


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--moves", type=int, default=500, help="moves measured per gap and round")
    parser.add_argument("--gaps", default="0,10", help="pauses before each request, in ms, comma-separated")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--database", default="sqlite", help="sqlite, postgres, or a database URL")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--json", help="write the figures to this file")
    args = parser.parse_args()
    gaps = [float(g) for g in args.gaps.split(",")]

    work = Path(tempfile.mkdtemp(prefix="authors-move-cost-"))
    url = {"sqlite": f"sqlite:///{work / 'bench.db'}", "postgres": POSTGRES}.get(args.database, args.database)
    if url.startswith("postgresql"):
        reset_postgres(url)
    server = Server(url, work / "instance", workers=args.workers, threads=args.threads,
                    env={"AUTHORS_HAND_PAUSE_SECONDS": "0"}).start(60)
    spent: dict[float, list[tuple[float, int]]] = {gap: [] for gap in gaps}  # gap -> [(server CPU s, requests)]
    try:
        gap = [0.0]
        table = Table(Browser(server.port).sign_up(), lambda: Browser(server.port), random.Random(0), gap)
        table.play(50)  # warm: the first requests build the process's caches
        pids = serving_pids(server, "sqlite" if url.startswith("sqlite") else "postgres")
        speed_before = machine_speed_ms()
        for _ in range(args.rounds):
            for ms in gaps:
                gap[0] = ms / 1000
                spent[ms].append(table.play(args.moves, lambda: cpu_seconds(pids)))
        speed_after = machine_speed_ms()
    finally:
        server.stop()

    rows = []
    for ms in gaps:
        per_move = [cpu / args.moves * 1000 for cpu, _ in spent[ms]]
        requests = sum(r for _, r in spent[ms]) / (args.moves * args.rounds)
        rows.append({"gap_ms": ms, "server_cpu_ms_per_move": [round(v, 2) for v in per_move],
                     "requests_per_move": round(requests, 2)})
        print(f"gap {ms:g} ms: server CPU per move {' / '.join(f'{v:.2f}' for v in per_move)} ms "
              f"({requests:.2f} requests a move)")
    print(f"{args.workers} worker(s) x {args.threads} thread(s), {args.database}; machine speed before/after "
          f"{speed_before}/{speed_after} ms")
    if args.json:
        Path(args.json).write_text(json.dumps({"database": args.database, "workers": args.workers,
                                               "threads": args.threads, "moves": args.moves, "rows": rows,
                                               "machine_speed_ms": [speed_before, speed_after]}, indent=2))


if __name__ == "__main__":
    os.environ.setdefault("PYTHONDONTWRITEBYTECODE", "1")
    main()
