"""Fit text into a box: shrink to a minimum size, then wrap; never overflow, never cut.

Text is drawn with the canvas's string operators, which print every character as it is: deck text
never passes through reportlab's Paragraph markup, so "<b>" or "&amp;" in a title prints literally.
Sizes are in points.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Sequence

from reportlab.pdfbase.pdfmetrics import stringWidth

from .errors import N_, PrintError
from .fonts import INK_ASCENT

LEADING = 1.15  # line spacing, as a share of the size
STEP = 0.5  # sizes tried, in points
FLOOR = 4.0  # below the minimum size only when nothing else fits; below this, refuse

_SPACES = re.compile(r"\s+")


class TextDoesNotFit(PrintError):
    pass


def clean(text: str) -> str:
    """One line of text: composed (NFC) characters and single spaces."""
    return _SPACES.sub(" ", unicodedata.normalize("NFC", text)).strip()


@dataclass(frozen=True)
class Fitted:
    lines: tuple[str, ...]
    size: float
    font: str
    descent: float  # per point of size, negative

    @property
    def leading(self) -> float:
        return self.size * LEADING

    @property
    def height(self) -> float:
        """From the lowest descender to the highest accent."""
        if not self.lines:
            return 0.0
        return (len(self.lines) - 1) * self.leading + (INK_ASCENT - self.descent) * self.size

    def width(self) -> float:
        return max((stringWidth(line, self.font, self.size) for line in self.lines), default=0.0)


_widths: dict[tuple[str, str], float] = {}


def _width(text: str, font: str) -> float:
    """Width at 1 pt, memoised: a card sheet measures the same words many times."""
    key = (text, font)
    found = _widths.get(key)
    if found is None:
        if len(_widths) > 200_000:
            _widths.clear()
        found = _widths[key] = stringWidth(text, font, 1.0)
    return found


def wrap(text: str, font: str, size: float, width: float) -> list[str]:
    """Greedy word wrap; a word wider than the line is broken between characters."""
    lines: list[str] = []
    space = _width(" ", font) * size
    line, line_w = "", 0.0
    for word in text.split(" "):
        word_w = _width(word, font) * size
        if word_w > width:
            pieces = _break_word(word, font, size, width)
        else:
            pieces = [word]
        for piece in pieces:
            piece_w = _width(piece, font) * size
            if line and line_w + space + piece_w <= width:
                line, line_w = f"{line} {piece}", line_w + space + piece_w
            else:
                if line:
                    lines.append(line)
                line, line_w = piece, piece_w
    if line:
        lines.append(line)
    return lines


def _break_word(word: str, font: str, size: float, width: float) -> list[str]:
    pieces, piece = [], ""
    for ch in word:
        if piece and _width(piece + ch, font) * size > width:
            pieces.append(piece)
            piece = ch
        else:
            piece += ch
    if piece:
        pieces.append(piece)
    return pieces


def _sizes(high: float, low: float) -> list[float]:
    count = int(round((high - low) / STEP))
    return [high - i * STEP for i in range(count + 1)] if high >= low else []


def fit(paragraphs: Sequence[str], font: str, descent: float, width: float, height: float,
        max_size: float, min_size: float, floor: float = FLOOR) -> Fitted:
    """The largest size at which every paragraph fits on one line, down to `min_size`; failing that,
    the largest size at which the wrapped paragraphs fit, down to `floor`."""
    paragraphs = [p for p in (clean(p) for p in paragraphs) if p]
    if not paragraphs:
        return Fitted((), max_size, font, descent)
    ink = INK_ASCENT - descent
    widths = [_width(p, font) for p in paragraphs]
    for size in _sizes(max_size, min_size):
        if max(widths) * size <= width:
            fitted = Fitted(tuple(paragraphs), size, font, descent)
            if fitted.height <= height:
                return fitted
    for size in _sizes(max_size, min(min_size, floor)):
        # cheap test first: even one line per paragraph must fit in the height
        if ((len(paragraphs) - 1) * LEADING + ink) * size > height:
            continue
        lines = [line for p in paragraphs for line in wrap(p, font, size, width)]
        fitted = Fitted(tuple(lines), size, font, descent)
        if fitted.height <= height:
            return fitted
    shown = paragraphs[0] if len(paragraphs) == 1 else " / ".join(paragraphs)
    if len(shown) > 60:
        shown = shown[:57] + "..."
    raise TextDoesNotFit(N_('"%(text)s" is too long to print in the space the card has for it; shorten it '
                            "or choose a larger card"), text=shown)


def draw(canvas, fitted: Fitted, x: float, y: float, width: float, height: float,
         align: str = "centre", valign: str = "middle") -> float:
    """Draw fitted lines in the box (x, y, width, height); returns the y of the ink's bottom."""
    if not fitted.lines:
        return y + height
    if valign == "top":
        top = y + height
    elif valign == "bottom":
        top = y + fitted.height
    else:
        top = y + (height + fitted.height) / 2
    text = canvas.beginText()  # one text object for the block: far fewer operators than a call per line
    text.setFont(fitted.font, fitted.size, fitted.leading)
    baseline = top - INK_ASCENT * fitted.size
    for line in fitted.lines:
        if align == "left":
            left = x
        else:
            line_w = _width(line, fitted.font) * fitted.size
            left = x + width - line_w if align == "right" else x + (width - line_w) / 2
        text.setTextOrigin(left, baseline)
        text.textOut(line)
        baseline -= fitted.leading
    canvas.drawText(text)
    return top - fitted.height
