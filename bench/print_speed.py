"""Printing speed, as whole processes (interpreter start and imports included): min, median and max of
N runs, the cases taking turns.

    .venv/bin/python bench/print_speed.py [--runs N] [--json FILE]

- `authors print authors-1861 --backs`: the 44-card deck as a teacher prints it (target: under 1 s).
- `authors print BIG.yaml --backs`: the largest deck the format allows (shared/spec/deck-format.md:
  60 sets of 8 cards, 480 cards, 54 sheets of fronts and 54 of backs on Letter), written by this script as a
  deck file (each set a name, a note and a colour of its own; each card a title of 20-40 characters
  and a note), read, checked and printed by the command as a user runs it (target: within 2x of bare).
- bare reportlab, 480 cards: a fresh interpreter with reportlab alone, the same fonts and the same
  sheets, draws the same boxes (bands, rules, crop marks, one back as a form placed behind every card)
  and the same strings at fixed places, with no reading, fitting or checks: the floor any printing
  program pays.

The commands run from a folder outside the project and keep their compiled bytecode (as on a user's
machine) even where PYTHONDONTWRITEBYTECODE is set. --authors times another installation's command
(an installed wheel's, or an older checkout's) against the same bare script.
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
BIN = Path(sys.executable).parent
MAX_SETS, MAX_CARDS = 60, 8  # the deck format's limits (shared/spec/deck-format.md)
PALETTE = ("#7a2e2e", "#2e4a7a", "#2e6b45", "#6b3fa0", "#8a5a1c", "#1f6b6b", "#7a2e5e", "#4a5a2e")
WORDS = ("River", "Garden", "Winter", "Letters", "Journey", "Silence", "Harbour", "Mountain", "Stranger",
         "Evening", "Orchard", "Lantern", "Promise", "Shadow", "Meadow", "Voyage")


def big_deck() -> dict:
    """The largest deck the format allows, as plain values (the same in both children)."""
    sets = []
    for i in range(MAX_SETS):
        cards = []
        for j in range(MAX_CARDS):
            title = f"The {WORDS[(i + j) % len(WORDS)]} of the {WORDS[(3 * i + 5 * j + 1) % len(WORDS)]} {i}-{j}"
            cards.append({"title": title, "note": str(1820 + (7 * i + j) % 90)})
        sets.append({"id": f"author-{i}", "name": f"Author Number {i} {WORDS[i % len(WORDS)]}",
                     "note": f"{1790 + i % 60}-{1850 + i % 60}", "color": PALETTE[i % len(PALETTE)], "cards": cards})
    return {"format": "authors-deck/1", "id": "largest", "title": "The largest deck", "language": "en",
            "set_label": "Author", "card_label": "Work", "sets": sets}


def write_big_deck(path: Path) -> None:
    import yaml

    path.write_text(yaml.safe_dump(big_deck(), allow_unicode=True, sort_keys=False, width=1000), encoding="utf-8")


def child_bare(out: str) -> None:
    """The same sheets drawn as plainly as reportlab allows: the strings placed, not fitted."""
    from reportlab.lib.colors import HexColor, white
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen.canvas import Canvas

    from app.printing import geometry
    from app.printing.fonts import find_fonts

    regular, bold = find_fonts()
    pdfmetrics.registerFont(TTFont("R", regular))
    pdfmetrics.registerFont(TTFont("B", bold))
    deck = big_deck()
    layout = geometry.grid_layout(geometry.PAPERS["letter"], geometry.CARDS["poker"])
    mm = geometry.MM_TO_PT
    w, h = layout.card[0] * mm, layout.card[1] * mm
    canvas = Canvas(out, pagesize=(geometry.PAPERS["letter"][0] * mm, geometry.PAPERS["letter"][1] * mm),
                    invariant=1, pageCompression=1, initialFontName="R")
    tint = HexColor("#e8d8d8")
    canvas.beginForm("back", 0, 0, w, h)  # one back, drawn once and placed on every back sheet
    canvas.setFillColor(tint)
    canvas.rect(0, 0, w, h, stroke=0, fill=1)
    canvas.setFillColor(HexColor(PALETTE[0]))
    canvas.roundRect(10, 10, w - 20, h - 20, 7, stroke=0, fill=1)
    canvas.roundRect(15, 15, w - 30, h - 30, 4, stroke=1, fill=0)
    canvas.setFillColor(white)
    canvas.setFont("B", 18)
    canvas.drawCentredString(w / 2, h / 2, deck["title"])
    canvas.endForm()
    all_cards = [(card_set, index, card) for card_set in deck["sets"] for index, card in enumerate(card_set["cards"], 1)]
    for batch in geometry.sheets(len(all_cards), layout.per_sheet):
        canvas.setLineWidth(0.25)
        for mark in geometry.crop_marks(layout):
            canvas.line(mark.x1 * mm, mark.y1 * mm, mark.x2 * mm, mark.y2 * mm)
        for index, rect in zip(batch, layout.cards):
            card_set, number, card = all_cards[index]
            band = HexColor(card_set["color"])
            x, y = rect.x * mm, rect.y * mm
            canvas.setFillColor(band)
            canvas.rect(x, y + 0.7 * h, w, 0.3 * h, stroke=0, fill=1)
            canvas.setFillColor(white)
            canvas.setFont("R", 7)
            canvas.drawString(x + 10, y + h - 18, deck["set_label"])
            canvas.setFont("B", 8)
            canvas.drawRightString(x + w - 10, y + h - 18, f"{number}/{len(card_set['cards'])}")
            canvas.setFont("B", 15)
            canvas.drawCentredString(x + w / 2, y + h - 45, card_set["name"])
            canvas.setFont("R", 7.5)
            canvas.drawCentredString(x + w / 2, y + h - 68, card_set["note"])
            canvas.setFillColorRGB(0.1, 0.1, 0.1)
            canvas.setFont("B", 16)
            canvas.drawCentredString(x + w / 2, y + h * 0.5, card["title"])
            canvas.setFont("R", 10)
            canvas.drawCentredString(x + w / 2, y + h * 0.5 - 14, card["note"])
            canvas.setStrokeColor(band)
            canvas.line(x + 30, y + 80, x + w - 30, y + 80)
            canvas.setFont("R", 8)
            for line, other in enumerate(c for c in card_set["cards"] if c is not card):
                canvas.drawCentredString(x + w / 2, y + 68 - line * 9, other["title"])
            canvas.setStrokeColorRGB(0, 0, 0)
        canvas.drawCentredString(geometry.PAPERS["letter"][0] * mm / 2, 10, f"{deck['title']} · sheet")
        canvas.showPage()
        for rect in layout.cards[:len(batch)]:
            back = geometry.back_rect(rect, layout.paper, "long")
            canvas.saveState()
            canvas.translate(back.x * mm, back.y * mm)
            canvas.doForm("back")
            canvas.restoreState()
        canvas.showPage()
    canvas.save()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    parser.add_argument("--authors", default=str(BIN / "authors"),
                        help="the authors command to time (default: the one beside this interpreter)")
    parser.add_argument("--child", metavar="OUT", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child_bare(args.child)
        return

    authors = args.authors
    with tempfile.TemporaryDirectory() as tmp:
        big = Path(tmp) / "largest.yaml"
        write_big_deck(big)
        out = str(Path(tmp) / "out.pdf")
        cases = [
            ("authors print authors-1861 --backs (44 cards)", [authors, "print", "authors-1861", "--backs", "-o", out]),
            ("authors print largest.yaml --backs (480 cards)",
             [authors, "print", str(big), "--paper", "letter", "--backs", "-o", out]),
            ("bare reportlab, the same 480 cards with backs", [sys.executable, str(Path(__file__).resolve()),
                                                                "--child", out]),
        ]
        results = timed([command for _, command in cases], args.runs, tmp)
    rows = [{"case": name, "min": min(spent), "median": statistics.median(spent), "max": max(spent)}
            for (name, _), spent in zip(cases, results)]
    ratios = sorted(ours / bare for ours, bare in zip(results[1], results[2]))  # run by run: same moment
    print(f"{args.runs} runs each, seconds")
    print(f"{'':50} {'min':>6} {'median':>7} {'max':>6}")
    for row in rows:
        print(f"{row['case']:50} {row['min']:6.3f} {row['median']:7.3f} {row['max']:6.3f}")
    print(f"{'ours / bare, 480 cards (run by run)':50} {ratios[0]:5.2f}x {statistics.median(ratios):6.2f}x "
          f"{ratios[-1]:5.2f}x")
    if args.json:
        Path(args.json).write_text(json.dumps({"rows": rows, "ratio_median": statistics.median(ratios),
                                               "ratios": ratios}, indent=2))


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))  # the bare child takes the sheets' geometry from app.printing
    main()
