"""Two versions of the app side by side: the server CPU a move costs each, under the same load at the same time.

    .venv/bin/python bench/compare.py REV [OTHER] [--tables 10] [--seconds 30] [--rounds 3]
                                      [--database sqlite|postgres] [--layouts 4x2,2x2] [--json FILE]

bench/load.py's CPU per move drifts with this shared machine by a third within minutes (its
`machine_speed_ms`), more than most changes it is asked to judge: two runs one after the other compare
the machine's two moments as much as the code. Here each version (a git revision, checked out into a
temporary worktree; OTHER defaults to this working tree) is served by its own `authors serve --prod` on
its own database, and bench/load.py plays `--tables` tables against each at the same time: whatever the
machine does in those seconds weighs on both. On PostgreSQL each run counts the database server's
processes serving its own database (`--own-database-cpu`). Every round prints both figures and their
ratio; the ratios' median is the comparison. Both are served with bench/load.py's default workers and
threads, or each with its own (`--layouts`: REV's and OTHER's, workers x threads: each version at the
default of its day, say). Loopback only; every loop is bounded in time.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATABASES = {"sqlite": lambda side: "sqlite",
             "postgres": lambda side: f"postgresql+psycopg://postgres@127.0.0.1:5432/authors_bench_{side}"}


def checkout(revision: str, into: Path) -> Path:
    """The tree of `revision` in a worktree of its own (removed by `forget`); "." is this working tree."""
    if revision == ".":
        return ROOT
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "--quiet", str(into), revision],
                   check=True)
    # its translations compiled, as `make` does for this tree (git keeps only the catalogs' sources)
    subprocess.run([str(Path(sys.executable).with_name("pybabel")), "-q", "compile", "-d",
                    str(into / "app" / "translations")], check=True)
    return into


def forget(tree: Path) -> None:
    if tree != ROOT:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=False)


def one_round(trees: dict[str, Path], args, scratch: Path, number: int) -> dict[str, dict]:
    """bench/load.py against both versions at once; each one's figures."""
    runs = {}
    for side, tree in trees.items():
        out = scratch / f"{side}-{number}.json"
        layout = dict(zip("ab", args.layouts.split(","))).get(side) if args.layouts else None
        workers, _, threads = layout.partition("x") if layout else ("", "", "")
        command = [sys.executable, str(ROOT / "bench" / "load.py"), "--app", str(tree), "--tables", str(args.tables),
                   *(["--workers", workers, "--threads", threads] if layout else []),
                   "--think", "0", "--seconds", str(args.seconds), "--poll-seconds", "3",
                   "--database", DATABASES[args.database](side), "--own-database-cpu", "--transport", args.transport,
                   "--json", str(out)]
        runs[side] = (subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True), out)
    figures = {}
    for side, (run, out) in runs.items():
        _, errors = run.communicate(timeout=args.seconds + 600)
        if run.returncode != 0:
            raise SystemExit(f"bench/load.py for {side} failed:\n{errors[-3000:]}")
        figures[side] = json.loads(out.read_text())
        if figures[side]["server_cpu_ms_per_move"] is None:  # no move in the recorded window: no figure to compare
            seen = {key: figures[side].get(key) for key in ("moves", "errors", "stream_drops", "statuses", "events")}
            raise SystemExit(f"bench/load.py for {side} recorded no move in {args.seconds} s ({seen}): "
                             f"try more --seconds or --tables")
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("revision", help="a git revision (the first version)")
    parser.add_argument("other", nargs="?", default=".", help="the second version (default: this working tree)")
    parser.add_argument("--tables", type=int, default=10, help="tables of 5 students against each version")
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--database", choices=sorted(DATABASES), default="sqlite")
    parser.add_argument("--transport", choices=("stream", "poll"), default="stream",
                        help="how the students follow their tables (poll: against a revision from before the stream)")
    parser.add_argument("--layouts", help="REV's and OTHER's workers x threads, e.g. 4x2,2x2 (default: load.py's)")
    parser.add_argument("--json", help="write the figures to this file too")
    args = parser.parse_args()

    scratch = Path(tempfile.mkdtemp(prefix="authors-compare-"))
    names = {"a": args.revision, "b": "the working tree" if args.other == "." else args.other}
    trees: dict[str, Path] = {}
    rows = []
    try:
        for side, revision in (("a", args.revision), ("b", args.other)):
            trees[side] = checkout(revision, scratch / f"tree-{side}")
        for number in range(1, args.rounds + 1):
            figures = one_round(trees, args, scratch, number)
            a, b = (figures[side]["server_cpu_ms_per_move"] for side in ("a", "b"))
            row = {"round": number, "a_ms": a, "b_ms": b, "ratio": round(b / a, 3),
                   "a_moves_per_s": figures["a"]["moves_per_s"], "b_moves_per_s": figures["b"]["moves_per_s"],
                   "a_move_p95_ms": figures["a"]["move_ms"]["95"], "b_move_p95_ms": figures["b"]["move_ms"]["95"],
                   "machine_speed_ms": figures["a"]["machine_speed_ms"]}
            rows.append(row)
            print(f"round {number}: {names['a']} {a} ms, {names['b']} {b} ms of server CPU a move: "
                  f"{row['ratio']}x (moves/s {row['a_moves_per_s']} and {row['b_moves_per_s']}; "
                  f"machine speed {row['machine_speed_ms']})", flush=True)
    finally:
        for tree in trees.values():
            forget(tree)
    median = round(statistics.median(row["ratio"] for row in rows), 3)
    print(f"{names['b']} against {names['a']}: {median}x the server CPU a move (median of {len(rows)} rounds; "
          f"{args.tables} tables each, {args.database})")
    if args.json:
        Path(args.json).write_text(json.dumps({"a": names["a"], "b": names["b"], "database": args.database,
                                               "tables": args.tables, "rounds": rows, "median_ratio": median},
                                              indent=2))


if __name__ == "__main__":
    main()
