"""Rebuild printables/: ready PDFs of every built-in deck, the rules sheets (every preset in every
language), a score pad and the alignment page, in A4 and US Letter, for teachers who print without installing anything.

    python -m app.printing.printables [DIR]      (`make printables`)

The files are reproducible byte for byte on a machine with the same reportlab and font files (the
README written beside them records both); tests/test_print_printables.py rebuilds them and compares.
"""
from __future__ import annotations

import sys
from functools import partial
from pathlib import Path
from typing import Callable

import reportlab

from ..decks import DeckError, builtin_decks
from .alignment import render_alignment
from .errors import PrintError
from .fonts import fonts
from .geometry import PAPERS
from ..rules import LANGUAGES, PRESETS, rules_page
from .rules_sheet import render_rules
from .scorepad import render_scorepad
from .sheets import PrintOptions, render_deck

PRINTABLES_DIR = Path(__file__).resolve().parents[2] / "printables"
PAD_PLAYERS, PAD_DEALS = 6, 10
TOOLCHAIN_PREFIX = "Built with: "


def toolchain() -> str:
    return f"reportlab {reportlab.Version}; {fonts().fingerprint()}"


def builds() -> dict[str, Callable[[], bytes]]:
    """Every file of printables/ by name, with the function that makes its bytes."""
    files: dict[str, Callable[[], bytes]] = {}
    decks = sorted(builtin_decks().values(), key=lambda deck: deck.id)
    for deck in decks:
        for paper in PAPERS:
            files[f"{deck.id}-{paper}.pdf"] = partial(render_deck, deck, PrintOptions(paper=paper, backs=True))
    for preset in PRESETS:
        for language in LANGUAGES:
            for paper in PAPERS:
                files[f"rules-{preset}-{language}-{paper}.pdf"] = partial(render_rules, preset, paper, language)
    for paper in PAPERS:
        files[f"scorepad-{paper}.pdf"] = partial(render_scorepad, PAD_PLAYERS, PAD_DEALS, paper)
        files[f"alignment-{paper}.pdf"] = partial(render_alignment, PrintOptions(paper=paper))
    files["README.md"] = partial(_readme, decks)
    return files


def build(directory: Path = PRINTABLES_DIR) -> list[str]:
    """Write every file; remove PDFs no longer made. Returns the names that changed."""
    directory.mkdir(parents=True, exist_ok=True)
    changed = []
    made = builds()
    for name, make in made.items():
        data = make()
        path = directory / name
        if not path.is_file() or path.read_bytes() != data:
            path.write_bytes(data)
            changed.append(name)
    for path in sorted(directory.glob("*.pdf")):
        if path.name not in made:
            path.unlink()
            changed.append(path.name)
    return changed


def _cell(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("<", "&lt;")


def _readme(decks) -> bytes:
    lines = [
        "# Printables",
        "",
        "Ready-to-print PDFs, made by `make printables` (`python -m app.printing.printables`); do not edit.",
        "",
        "How to print the cards: open a deck's PDF for your paper, print it **double-sided, flipped on the "
        "long edge, at 100% (actual size)** - not \"fit to page\". Each sheet of fronts is followed by its "
        "sheet of backs. Cut along the crop marks in the margins. If the backs come out shifted, print "
        "`alignment-*.pdf` double-sided and follow its instructions, then print with "
        "`authors print DECK --backs --back-offset-x MM --back-offset-y MM`.",
        "",
        "| deck | cards | A4 | US Letter |",
        "|---|---|---|---|",
    ]
    for deck in decks:
        lines.append(f"| {_cell(deck.title)} | {deck.card_count} | [{deck.id}-a4.pdf]({deck.id}-a4.pdf) | "
                     f"[{deck.id}-letter.pdf]({deck.id}-letter.pdf) |")
    lines += ["", "The rules of each game for students, one page each, in seven languages:", "",
              "| rules | language | A4 | US Letter |", "|---|---|---|---|"]
    for preset in PRESETS:
        for language, name in LANGUAGES.items():
            stem = f"rules-{preset}-{language}"
            lines.append(f"| {_cell(rules_page(preset, language).title)} | {name} | [{stem}-a4.pdf]({stem}-a4.pdf) | "
                         f"[{stem}-letter.pdf]({stem}-letter.pdf) |")
    lines += ["", "| also | A4 | US Letter |", "|---|---|---|"]
    lines.append(f"| score pad, {PAD_PLAYERS} players x {PAD_DEALS} hands | [scorepad-a4.pdf](scorepad-a4.pdf) | "
                 "[scorepad-letter.pdf](scorepad-letter.pdf) |")
    lines.append("| duplex alignment test | [alignment-a4.pdf](alignment-a4.pdf) | "
                 "[alignment-letter.pdf](alignment-letter.pdf) |")
    lines += ["", f"{TOOLCHAIN_PREFIX}{toolchain()}", ""]
    return "\n".join(lines).encode()


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    directory = Path(args[0]) if args else PRINTABLES_DIR
    try:
        changed = build(directory)
    except (PrintError, DeckError) as exc:
        print(f"printables: {exc}", file=sys.stderr)
        return 1
    print(f"{directory}: {len(changed)} files changed" + (f": {', '.join(changed)}" if changed else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
