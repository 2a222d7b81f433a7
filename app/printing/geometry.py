"""Sheet geometry in millimetres: paper, card sizes, the grid, crop marks, bleed and duplex backs.

Pure functions of numbers: nothing here draws. The PDF origin is the bottom-left corner of the page
and y grows upwards, as in PDF itself; a sheet is always portrait.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

MM_TO_PT = 72 / 25.4

# ISO 216 A4 and ANSI Letter, portrait.
PAPERS: dict[str, tuple[float, float]] = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
# Poker 2.5 x 3.5 in, bridge 2.25 x 3.5 in, tarot 70 x 120 mm, mini 44 x 63.5 mm (a common "mini"),
# quartet 59 x 91 mm (the German Quartett card).
CARDS: dict[str, tuple[float, float]] = {
    "poker": (63.5, 88.9),
    "bridge": (57.15, 88.9),
    "tarot": (70.0, 120.0),
    "mini": (44.0, 63.5),
    "quartet": (59.0, 91.0),
}
DUPLEX = ("long", "short")

BLEED = 3.0  # how far a card's background runs past its cut line with --bleed
SAFE = 3.5  # text and images stay this far inside the cut line
MIN_MARGIN = 6.0  # the grid keeps this much paper free on every side, for crop marks and printers
MARK_GAP = 1.0  # a crop mark starts this far outside the cut line (or outside the bleed)
MARK_LENGTH = 5.0  # at most; shorter where the margin is narrow
MARK_EDGE = 1.0  # a crop mark stops this far from the paper's edge
EPSILON = 1e-6

# Where paper follows the deck's language: these regions use US Letter (CLDR's paperSize data);
# a tag without a region ("en") means US Letter only for English. Everything else gets A4.
LETTER_REGIONS = frozenset("BZ CA CL CO CR GT MX NI PA PH PR SV US VE".split())


class LayoutError(ValueError):
    """The cards do not fit the paper."""


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def top(self) -> float:
        return self.y + self.h

    def inset(self, d: float) -> "Rect":
        return Rect(self.x + d, self.y + d, self.w - 2 * d, self.h - 2 * d)

    def moved(self, dx: float, dy: float) -> "Rect":
        return Rect(self.x + dx, self.y + dy, self.w, self.h)


@dataclass(frozen=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float


@dataclass(frozen=True)
class Layout:
    paper: tuple[float, float]
    card: tuple[float, float]
    bleed: float
    cols: int
    rows: int
    cards: tuple[Rect, ...]  # cut rectangles, row by row from the top left

    @property
    def per_sheet(self) -> int:
        return self.cols * self.rows

    @property
    def grid(self) -> Rect:
        """The area the cards cover, bleed included."""
        left = min(r.x for r in self.cards) - self.bleed
        bottom = min(r.y for r in self.cards) - self.bleed
        right = max(r.right for r in self.cards) + self.bleed
        top = max(r.top for r in self.cards) + self.bleed
        return Rect(left, bottom, right - left, top - bottom)


def paper_size(name: str) -> tuple[float, float]:
    return PAPERS[name]


def card_size(name: str) -> tuple[float, float]:
    return CARDS[name]


def default_paper(language: str) -> str:
    """US Letter where the language tag's region uses it (and for bare "en"); A4 everywhere else."""
    parts = language.replace("_", "-").split("-")
    regions = [p.upper() for p in parts[1:] if len(p) == 2 and p.isalpha()]
    if regions:
        return "letter" if regions[0] in LETTER_REGIONS else "a4"
    return "letter" if parts[0].lower() == "en" else "a4"


def grid_layout(paper: tuple[float, float], card: tuple[float, float], bleed: float = 0.0,
                margin: float = MIN_MARGIN) -> Layout:
    """As many cards as fit, centred. Without bleed cards touch and share cut lines; with bleed each
    card's bleed area is its own, so neighbours sit 2 x bleed apart."""
    paper_w, paper_h = paper
    card_w, card_h = card
    cell_w, cell_h = card_w + 2 * bleed, card_h + 2 * bleed
    cols = math.floor((paper_w - 2 * margin + EPSILON) / cell_w)
    rows = math.floor((paper_h - 2 * margin + EPSILON) / cell_h)
    if cols < 1 or rows < 1:
        raise LayoutError(f"a {card_w:g} x {card_h:g} mm card does not fit on {paper_w:g} x {paper_h:g} mm paper")
    left = (paper_w - cols * cell_w) / 2
    top = paper_h - (paper_h - rows * cell_h) / 2
    cards = tuple(
        Rect(left + col * cell_w + bleed, top - (row + 1) * cell_h + bleed, card_w, card_h)
        for row in range(rows) for col in range(cols)
    )
    return Layout(paper=paper, card=card, bleed=bleed, cols=cols, rows=rows, cards=cards)


def cut_lines(layout: Layout) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """The x of every vertical cut and the y of every horizontal cut, in order."""
    xs = sorted({round(x, 6) for r in layout.cards for x in (r.x, r.right)})
    ys = sorted({round(y, 6) for r in layout.cards for y in (r.y, r.top)})
    return tuple(xs), tuple(ys)


def crop_marks(layout: Layout) -> tuple[Line, ...]:
    """Short lines continuing every cut line outside the grid, never inside a card or its bleed."""
    paper_w, paper_h = layout.paper
    grid = layout.grid
    xs, ys = cut_lines(layout)
    marks: list[Line] = []

    def span(start: float, room: float, direction: int) -> tuple[float, float] | None:
        length = min(MARK_LENGTH, room - MARK_GAP - MARK_EDGE)
        if length <= 0:
            return None
        a = start + direction * MARK_GAP
        return a, a + direction * length

    below = span(grid.y, grid.y, -1)
    above = span(grid.top, paper_h - grid.top, +1)
    left = span(grid.x, grid.x, -1)
    right = span(grid.right, paper_w - grid.right, +1)
    for x in xs:
        for s in (below, above):
            if s:
                marks.append(Line(x, s[0], x, s[1]))
    for y in ys:
        for s in (left, right):
            if s:
                marks.append(Line(s[0], y, s[1], y))
    return tuple(marks)


def back_rect(front: Rect, paper: tuple[float, float], duplex: str = "long",
              offset: tuple[float, float] = (0.0, 0.0)) -> Rect:
    """Where the back of the card cut at `front` goes on the back sheet (seen from the back).

    Long-edge duplex turns a portrait sheet over its vertical axis, so x is mirrored; short-edge
    turns it over its horizontal axis, so y is mirrored. The offset (right, up, in mm as seen on the
    back) corrects a printer that puts the back side off register.
    """
    paper_w, paper_h = paper
    if duplex == "long":
        x, y = paper_w - front.right, front.y
    elif duplex == "short":
        x, y = front.x, paper_h - front.top
    else:
        raise ValueError(f"duplex must be one of {DUPLEX}, not {duplex!r}")
    return Rect(x + offset[0], y + offset[1], front.w, front.h)


def mirror_point(x: float, y: float, paper: tuple[float, float], duplex: str) -> tuple[float, float]:
    """The point on the back sheet behind (x, y) on the front."""
    r = back_rect(Rect(x, y, 0, 0), paper, duplex)
    return r.x, r.y


def sheets(count: int, per_sheet: int) -> list[range]:
    """Card indices sheet by sheet."""
    return [range(start, min(start + per_sheet, count)) for start in range(0, count, per_sheet)]


def pt(value_mm: float) -> float:
    return value_mm * MM_TO_PT
