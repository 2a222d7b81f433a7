"""Printing speed, as whole processes (interpreter start and imports included): median and best of N
runs, the cases taking turns.

    .venv/bin/python bench/print_speed.py [--runs N]

- `authors print authors-1861 --backs`: the 44-card deck as a teacher prints it (target: under 1 s).
- ours 1,000: a fresh interpreter builds a 1,000-card deck in code (125 sets of 8 cards: more than a
  deck file may hold, so it cannot go through `authors print`) and prints it with backs through
  app.printing.sheets.render_deck.
- bare 1,000: a fresh interpreter with reportlab alone, the same fonts and the same sheets, draws the
  same boxes (bands, rules, crop marks, one back as a form placed behind every card) and the same
  strings at fixed places, with no fitting and no checks (target: ours within 2x of it).
The same two for 44 cards, for comparison.
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def bench_deck(cards: int):
    from app.decks import Card, CardSet, Deck

    per_set = 8 if cards % 8 == 0 else 4
    sets = []
    for i in range(cards // per_set):
        set_id = f"author-{i}"
        sets.append(CardSet(id=set_id, name=f"Author Number {i}", note="1800–1870", cards=tuple(
            Card(id=f"work-{i}-{j}", title=f"The Work Number {j} of Author {i}", set_id=set_id, index=j + 1,
                 note=str(1830 + j)) for j in range(per_set))))
    return Deck(id=f"bench-{cards}", title="Bench deck", sets=tuple(sets))


def child_ours(cards: int, out: str) -> None:
    from app.printing.sheets import PrintOptions, render_deck

    Path(out).write_bytes(render_deck(bench_deck(cards), PrintOptions(paper="letter", backs=True)))


def child_bare(cards: int, out: str) -> None:
    """The same sheets drawn as plainly as reportlab allows."""
    from reportlab.lib.colors import HexColor, white
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen.canvas import Canvas

    from app.printing import geometry
    from app.printing.fonts import find_fonts

    regular, bold = find_fonts()
    pdfmetrics.registerFont(TTFont("R", regular))
    pdfmetrics.registerFont(TTFont("B", bold))
    deck = bench_deck(cards)
    layout = geometry.grid_layout(geometry.PAPERS["letter"], geometry.CARDS["poker"])
    mm = geometry.MM_TO_PT
    w, h = layout.card[0] * mm, layout.card[1] * mm
    canvas = Canvas(out, pagesize=(geometry.PAPERS["letter"][0] * mm, geometry.PAPERS["letter"][1] * mm),
                    invariant=1, pageCompression=1, initialFontName="R")
    band, tint = HexColor("#7a2e2e"), HexColor("#e8d8d8")
    canvas.beginForm("back", 0, 0, w, h)  # one back, drawn once and placed on every back sheet
    canvas.setFillColor(tint)
    canvas.rect(0, 0, w, h, stroke=0, fill=1)
    canvas.setFillColor(band)
    canvas.roundRect(10, 10, w - 20, h - 20, 7, stroke=0, fill=1)
    canvas.roundRect(15, 15, w - 30, h - 30, 4, stroke=1, fill=0)
    canvas.setFillColor(white)
    canvas.setFont("B", 18)
    canvas.drawCentredString(w / 2, h / 2, deck.title)
    canvas.endForm()
    all_cards = deck.cards
    sets = {s.id: s for s in deck.sets}
    for batch in geometry.sheets(len(all_cards), layout.per_sheet):
        canvas.setLineWidth(0.25)
        for mark in geometry.crop_marks(layout):
            canvas.line(mark.x1 * mm, mark.y1 * mm, mark.x2 * mm, mark.y2 * mm)
        for index, rect in zip(batch, layout.cards):
            card = all_cards[index]
            card_set = sets[card.set_id]
            x, y = rect.x * mm, rect.y * mm
            canvas.setFillColor(band)
            canvas.rect(x, y + 0.7 * h, w, 0.3 * h, stroke=0, fill=1)
            canvas.setFillColor(white)
            canvas.setFont("R", 7)
            canvas.drawString(x + 10, y + h - 18, "Set")
            canvas.setFont("B", 8)
            canvas.drawRightString(x + w - 10, y + h - 18, f"{card.index}/{len(card_set.cards)}")
            canvas.setFont("B", 15)
            canvas.drawCentredString(x + w / 2, y + h - 45, card_set.name)
            canvas.setFont("R", 7.5)
            canvas.drawCentredString(x + w / 2, y + h - 68, card_set.note)
            canvas.setFillColorRGB(0.1, 0.1, 0.1)
            canvas.setFont("B", 16)
            canvas.drawCentredString(x + w / 2, y + h * 0.5, card.title)
            canvas.setFont("R", 10)
            canvas.drawCentredString(x + w / 2, y + h * 0.5 - 14, card.note)
            canvas.setStrokeColor(band)
            canvas.line(x + 30, y + 80, x + w - 30, y + 80)
            canvas.setFont("R", 8)
            for line, other in enumerate(c for c in card_set.cards if c.id != card.id):
                canvas.drawCentredString(x + w / 2, y + 68 - line * 9, other.title)
            canvas.setStrokeColorRGB(0, 0, 0)
        canvas.showPage()
        for rect in layout.cards[:len(batch)]:
            back = geometry.back_rect(rect, layout.paper, "long")
            canvas.saveState()
            canvas.translate(back.x * mm, back.y * mm)
            canvas.doForm("back")
            canvas.restoreState()
        canvas.showPage()
    canvas.save()


def timed(commands: list[list[str]], runs: int) -> list[tuple[float, float]]:
    """(median, best) seconds of each command; the commands take turns, so a busy spell of the
    machine weighs on all of them alike."""
    times: list[list[float]] = [[] for _ in commands]
    for _ in range(runs):
        for command, spent in zip(commands, times):
            started = time.perf_counter()
            subprocess.run(command, check=True, cwd=ROOT, stdout=subprocess.DEVNULL)
            spent.append(time.perf_counter() - started)
    return [(statistics.median(spent), min(spent)) for spent in times]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--child", nargs=3, metavar=("KIND", "CARDS", "OUT"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        kind, cards, out = args.child
        (child_ours if kind == "ours" else child_bare)(int(cards), out)
        return

    me = [sys.executable, str(Path(__file__).resolve()), "--child"]
    with tempfile.TemporaryDirectory() as tmp:
        out = str(Path(tmp) / "out.pdf")
        cases = [
            ("authors print authors-1861 --backs (44 cards)",
             [str(BIN / "authors"), "print", "authors-1861", "--backs", "-o", out]),
            ("ours, 44 cards with backs", me + ["ours", "44", out]),
            ("bare reportlab, 44 cards with backs", me + ["bare", "44", out]),
            ("ours, 1,000 cards with backs", me + ["ours", "1000", out]),
            ("bare reportlab, 1,000 cards with backs", me + ["bare", "1000", out]),
        ]
        results = timed([command for _, command in cases], args.runs)
    print(f"{'':45} {'median':>8} {'best':>8}")
    for (name, _), (median, best) in zip(cases, results):
        print(f"{name:45} {median:7.3f}s {best:7.3f}s")
    print(f"{'ours / bare, 1,000 cards':45} {results[3][0] / results[4][0]:7.2f}x {results[3][1] / results[4][1]:7.2f}x")


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main()
