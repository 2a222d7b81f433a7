"""A score pad for a match: a column per player, a row per deal, and a total, in the language asked for."""
from __future__ import annotations

import io
from dataclasses import dataclass

from . import geometry, textfit
from .errors import N_, PrintError, Text
from .faces import INK, MUTED
from .fonts import fonts
from .geometry import Rect, pt
from .language import SOURCE_LANGUAGE, translations
from .sheets import new_canvas

MIN_PLAYERS, MAX_PLAYERS = 2, 12
MIN_DEALS, MAX_DEALS = 1, 30
MARGIN = 15.0
HEAD = 32.0  # mm above the grid: title and the lines to fill in
NAME_ROW = 14.0  # mm, the row where players write their names
MAX_ROW = 10.0  # mm
MIN_ROW = 6.0
FIRST_COLUMN = 22.0  # mm


@dataclass(frozen=True)
class PadLayout:
    grid: Rect
    xs: tuple[float, ...]  # column lines, left to right
    ys: tuple[float, ...]  # row lines, top to bottom: top, under the names, under each deal, under the total


def pad_layout(paper: tuple[float, float], players: int, deals: int) -> PadLayout:
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise PrintError(N_("a score pad has %(least)d to %(most)d players, not %(count)d"), least=MIN_PLAYERS,
                         most=MAX_PLAYERS, count=players)
    if not MIN_DEALS <= deals <= MAX_DEALS:
        raise PrintError(N_("a score pad has %(least)d to %(most)d hands, not %(count)d"), least=MIN_DEALS,
                         most=MAX_DEALS, count=deals)
    width, height = paper
    top = height - MARGIN - HEAD
    room = top - MARGIN - NAME_ROW
    row = min(MAX_ROW, room / (deals + 1))
    if row < MIN_ROW:
        raise PrintError(N_("%(count)d hands do not fit on one page; at most %(most)d"), count=deals,
                         most=int(room // MIN_ROW) - 1)
    column = (width - 2 * MARGIN - FIRST_COLUMN) / players
    xs = (MARGIN,) + tuple(MARGIN + FIRST_COLUMN + i * column for i in range(players + 1))
    ys = (top, top - NAME_ROW) + tuple(top - NAME_ROW - (i + 1) * row for i in range(deals + 1))
    return PadLayout(grid=Rect(xs[0], ys[-1], xs[-1] - xs[0], ys[0] - ys[-1]), xs=xs, ys=ys)


def render_scorepad(players: int = 4, deals: int = 5, paper: str = "letter",
                    language: str = SOURCE_LANGUAGE) -> bytes:
    if paper not in geometry.PAPERS:
        raise PrintError(N_('paper must be one of %(choices)s, not "%(value)s"'), choices=", ".join(geometry.PAPERS),
                         value=paper)
    size = geometry.PAPERS[paper]
    layout = pad_layout(size, players, deals)
    font_pair = fonts()
    words = translations(language)
    title = words.gettext("Score pad")
    blank = "____________________"
    line = f'{words.gettext("Game")} {blank}   {words.gettext("Deck")} {blank}   {words.gettext("Date")} {blank[:14]}'
    rule = words.gettext("One point for each set laid down. Write each hand's sets under each player; "
                         "add them up at the end.")
    player, total, deal_row = words.gettext("Player"), words.gettext("Total"), words.gettext("Hand %(number)d")
    where = Text.of(N_("the score pad"))
    font_pair.check([(where, text) for text in (title, line, rule, player, total, deal_row)],
                    Text.of(N_("the score pad (%(language)s)"), language=language))
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, paper, font_pair, title)
    canvas.setSubject(words.ngettext("%(num)d player", "%(num)d players", players) % {"num": players} + ", "
                      + words.ngettext("%(num)d hand", "%(num)d hands", deals) % {"num": deals})

    def text(value: str, x: float, y: float, w: float, h: float, bold: bool = False, size_pt: float = 10,
             align: str = "centre") -> None:
        font = font_pair.bold if bold else font_pair.regular
        fitted = textfit.fit([value], font, font_pair.descent, pt(w) - 4, pt(h) - 2, size_pt, 6)
        textfit.draw(canvas, fitted, pt(x) + 2, pt(y) + 1, pt(w) - 4, pt(h) - 2, align=align)

    width, height = size
    canvas.setFillColor(INK)
    text(title, MARGIN, height - MARGIN - 12, width - 2 * MARGIN, 12, bold=True, size_pt=20, align="left")
    canvas.setFillColor(MUTED)
    text(line, MARGIN, height - MARGIN - 22, width - 2 * MARGIN, 8, size_pt=10, align="left")
    text(rule, MARGIN, height - MARGIN - 29, width - 2 * MARGIN, 6, size_pt=8.5, align="left")

    xs, ys = layout.xs, layout.ys
    canvas.setFillColorRGB(0.93, 0.93, 0.93)
    canvas.rect(pt(xs[0]), pt(ys[-1]), pt(xs[-1] - xs[0]), pt(ys[-2] - ys[-1]), stroke=0, fill=1)
    canvas.setStrokeColor(INK)
    canvas.setLineWidth(0.6)
    canvas.grid([pt(x) for x in xs], [pt(y) for y in ys])
    canvas.setFillColor(MUTED)
    text(player, xs[0], ys[1], xs[1] - xs[0], ys[0] - ys[1], size_pt=9)
    for deal in range(1, len(ys) - 2):
        text(deal_row % {"number": deal}, xs[0], ys[deal + 1], xs[1] - xs[0], ys[deal] - ys[deal + 1], size_pt=9)
    canvas.setFillColor(INK)
    text(total, xs[0], ys[-1], xs[1] - xs[0], ys[-2] - ys[-1], bold=True, size_pt=10)
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()
