"""The costliest requests a teacher's browser can send, timed as the server's CPU per request.

    .venv/bin/python bench/costly_requests.py [--runs N]

Each case is sent to the app (a test client in this process, on a fresh SQLite file, logged in as a
teacher) N times; the figure is the process's CPU time (time.process_time) per request, the median and
the worst of the runs. The target is at most 1 s of server CPU for any request: the cases are the
largest bodies the server takes (MAX_CONTENT_LENGTH) shaped to cost the most work:

- a YAML upload of 3,000 tiny sets (a deck has at most 60), of 20,000 sets in flow style, and of
  300,000 empty lists written so that the slower pure Python parser reads them (the most nodes the byte
  limit allows);
- a spreadsheet paste of 20,000 rows, previewed and created (a deck has at most 480 cards);
- the largest legal deck (60 sets of 8 cards with every field at its longest) uploaded, and pasted;
- a new table's body with the most seats.
"""
from __future__ import annotations

import argparse
import io
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def many_sets_yaml(sets: int) -> str:
    lines = ["format: authors-deck/1", "id: many", "title: Many", "sets:"]
    for i in range(sets):
        lines += [f"  - id: s{i}", f"    name: S{i}", "    cards: [{title: A}, {title: B}]"]
    return "\n".join(lines) + "\n"


def flow_sets_yaml(sets: int) -> str:
    body = ",".join(f"{{id: s{i}, name: S{i}, cards: [{{title: A}}, {{title: B}}]}}" for i in range(sets))
    return f"format: authors-deck/1\nid: flow\ntitle: Flow\nsets: [{body}]\n"


def largest_deck_yaml() -> str:
    lines = ["format: authors-deck/1", "id: largest", "title: " + "T" * 100, "sets:"]
    for i in range(60):
        lines += [f"  - id: author-{i}", f"    name: {'Author %02d ' % i}{'n' * 100}", f"    note: {'x' * 290}",
                  "    cards:"]
        for j in range(8):
            aliases = ", ".join(f"alias {k} {'a' * 100}" for k in range(12))
            lines += [f"      - title: Work {i}-{j} {'w' * 100}", f"        note: {'y' * 290}",
                      f"        aliases: [{aliases}]"]
    return "\n".join(lines) + "\n"


def paste_rows(rows: int, sets: int | None = None) -> str:
    sets = sets or rows
    return "\n".join(f"Set {i % sets}\tWork {i}\talias {i}\t{1800 + i % 100}" for i in range(rows))


def cases() -> dict[str, tuple[str, str, dict]]:
    head = {"title": "Paste", "language": "en", "set_label": "", "card_label": ""}
    return {
        "YAML upload, 3,000 sets": ("post", "/studio/upload", {"data": {"text": many_sets_yaml(3000)}}),
        "YAML upload, 20,000 sets in flow style": ("post", "/studio/upload",
                                                   {"data": {"text": flow_sets_yaml(20000)[:2_000_000]}}),
        "YAML upload, 300,000 empty lists, Python parser": ("post", "/studio/upload", {"data": {
            "file": (io.BytesIO(b"sets: [" + b"[]," * 300_000 + b"[]]"), "deck.yaml")}}),  # no final line break:
        # the text is one libyaml and the Python parser read alike only with it, so the Python parser reads it
        "YAML upload, the largest legal deck": ("post", "/studio/upload", {"data": {"text": largest_deck_yaml()}}),
        "paste preview, 20,000 rows": ("post", "/studio/paste", {"data": {**head, "rows": paste_rows(20000)}}),
        "paste create, 20,000 rows": ("post", "/studio/paste",
                                      {"data": {**head, "rows": paste_rows(20000), "action": "create"}}),
        "paste preview, 480 rows (the most a deck holds)": (
            "post", "/studio/paste", {"data": {**head, "rows": paste_rows(480, 60)}}),
        "new table, 22 seats": ("post", "/api/tables", {"json": {
            "rules": "standard", "seats": [{"kind": "computer", "bot": "expert"}] * 22,
            "options": {"min_players": 2, "max_players": 22}}}),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--only", default="", help="run the cases whose name contains this text")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["AUTHORS_INSTANCE_PATH"] = str(Path(tmp) / "instance")
        from app.factory import create_app
        from tests.web_support import CSRFClient, log_in

        app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp}/bench.sqlite3"})
        app.test_client_class = CSRFClient
        client = log_in(app.test_client(), app)
        print(f"{'request':<48} {'status':>6} {'CPU ms median':>14} {'worst':>8}")
        for name, (method, url, kwargs) in cases().items():
            if args.only not in name:
                continue
            times, status = [], None
            for _ in range(args.runs):
                sent = {key: ({k: (v[0].__class__(v[0].getvalue()), v[1]) if isinstance(v, tuple) else v
                               for k, v in value.items()} if key == "data" else value) for key, value in kwargs.items()}
                start = time.process_time()
                response = client.open(url, method=method.upper(), **sent)
                times.append((time.process_time() - start) * 1000)
                status = response.status_code
            print(f"{name:<48} {status:>6} {statistics.median(times):>14.0f} {max(times):>8.0f}")


if __name__ == "__main__":
    main()
