"""Start-up of the `authors` command, as whole processes (interpreter start, imports, the work itself):
min, median and max of N runs of each case, the cases taking turns.

    .venv/bin/python bench/cli_startup.py [--runs N] [--authors PATH] [--json FILE]

- `python -c pass`: the interpreter alone (the one running this script), the floor under every case.
- `authors --help`, `authors print --help`: the command and the subcommand's options, no work.
- `authors decks list`: reads and checks every built-in deck.
- `authors replay RECORD`: a three-move Literature record (tests/records/literature-success-asks-again.yaml,
  the built-in literature-48 deck).
- `authors print --scorepad -o FILE`: a one-page PDF, reportlab and the fonts included.

--authors times another installation's command (an installed wheel's, or an older checkout's).
The commands run as on a user's machine: from a folder outside the project, and keeping compiled
bytecode (__pycache__) even where PYTHONDONTWRITEBYTECODE is set (else every modified module is
compiled again on every run, tens of ms that no installed copy pays).
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path

from whole_process import timed  # (bench/ is on the path of a script run from it)

ROOT = Path(__file__).resolve().parents[1]
RECORD = ROOT / "tests" / "records" / "literature-success-asks-again.yaml"


def cases(authors: str, out: str) -> list[tuple[str, list[str]]]:
    return [
        ("python -c pass", [sys.executable, "-c", "pass"]),
        ("authors --help", [authors, "--help"]),
        ("authors print --help", [authors, "print", "--help"]),
        ("authors decks list", [authors, "decks", "list"]),
        (f"authors replay {RECORD.name}", [authors, "replay", str(RECORD)]),
        ("authors print --scorepad", [authors, "print", "--scorepad", "-o", out]),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--authors", default=str(Path(sys.executable).parent / "authors"),
                        help="the authors command to time (default: the one beside this interpreter)")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:  # run from a folder of no project: as a user would
        chosen = cases(args.authors, str(Path(tmp) / "out.pdf"))
        results = timed([command for _, command in chosen], args.runs, tmp)
    rows = [{"case": name, "min": min(spent), "median": statistics.median(spent), "max": max(spent)}
            for (name, _), spent in zip(chosen, results)]
    print(f"{args.runs} runs each, seconds")
    print(f"{'':54} {'min':>6} {'median':>7} {'max':>6}")
    for row in rows:
        print(f"{row['case']:54} {row['min']:6.3f} {row['median']:7.3f} {row['max']:6.3f}")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
