"""A deck as a PDF of card sheets: each front sheet followed, with --backs, by its back sheet."""
from __future__ import annotations

import io
from dataclasses import dataclass

from reportlab.pdfgen.canvas import Canvas

from ..decks import Deck
from . import geometry, textfit
from .errors import PrintError, Text
from .faces import MUTED, DeckLook, draw_back, draw_front
from .fonts import FontPair, fonts
from .geometry import BLEED, DUPLEX, Layout, pt
from .language import N_, translations

CREATOR = "Authors Classroom"
MARK_WIDTH = 0.25  # points
MAX_OFFSET = 20.0  # mm; a printer further off than this needs mending, not an offset
FOOTER = N_("%(title)s · sheet %(number)d of %(count)d · print at 100%% (actual size)")  # in the deck's language
PDF_TITLE = N_("%(title)s - cards")
BACKS = {"long": N_(", backs for long-edge duplex"), "short": N_(", backs for short-edge duplex")}


@dataclass(frozen=True)
class PrintOptions:
    paper: str = "letter"
    card: str = "poker"
    bleed: bool = False
    backs: bool = False
    duplex: str = "long"
    back_offset: tuple[float, float] = (0.0, 0.0)
    index: bool = False  # each card's quartet index ("B2": its set's letter, its place) instead of "2/4"

    def __post_init__(self) -> None:
        if self.paper not in geometry.PAPERS:
            raise PrintError(N_('paper must be one of %(choices)s, not "%(value)s"'),
                             choices=", ".join(geometry.PAPERS), value=self.paper)
        if self.card not in geometry.CARDS:
            raise PrintError(N_('card size must be one of %(choices)s, not "%(value)s"'),
                             choices=", ".join(geometry.CARDS), value=self.card)
        if self.duplex not in DUPLEX:
            raise PrintError(N_('duplex must be one of %(choices)s, not "%(value)s"'), choices=", ".join(DUPLEX),
                             value=self.duplex)
        for value in self.back_offset:
            if not -MAX_OFFSET <= value <= MAX_OFFSET:
                raise PrintError(N_("a back offset must be between -%(most)s and %(most)s mm, not %(value)s"),
                                 most=f"{MAX_OFFSET:g}", value=f"{value:g}")

    def layout(self) -> Layout:
        return geometry.grid_layout(geometry.PAPERS[self.paper], geometry.CARDS[self.card],
                                    BLEED if self.bleed else 0.0)


def new_canvas(buffer: io.BytesIO, paper: str, font_pair: FontPair, title: str) -> Canvas:
    """A canvas that writes the same bytes for the same drawing: no dates, no random ids, and our own
    font from the first operator on (no unembedded Helvetica)."""
    width, height = geometry.PAPERS[paper]
    canvas = Canvas(buffer, pagesize=(pt(width), pt(height)), invariant=1, pageCompression=1,
                    initialFontName=font_pair.regular, initialFontSize=10)
    canvas.setTitle(title)
    canvas.setAuthor(CREATOR)
    canvas.setCreator(CREATOR)
    return canvas


def render_deck(deck: Deck, options: PrintOptions) -> bytes:
    """The whole PDF, in memory: nothing is written anywhere until every card has been drawn."""
    font_pair = fonts()
    look = DeckLook(deck, font_pair, marks=options.index)  # reads every image the deck uses, refusing a broken one
    words = translations(deck.language)  # what printing adds to the sheets is said in the deck's language
    footer = words.gettext(FOOTER)
    font_pair.check([*look.texts(), (Text.of(N_("the sheet's footer")), footer)],
                    Text.of(N_('the deck "%(deck)s"'), deck=deck.id))
    layout = options.layout()
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, options.paper, font_pair, words.gettext(PDF_TITLE) % {"title": deck.title})
    subject = words.ngettext("%(count)d %(size)s card on %(paper)s paper", "%(count)d %(size)s cards on %(paper)s paper",
                             deck.card_count)
    canvas.setSubject(subject % {"count": deck.card_count, "size": options.card, "paper": options.paper}
                      + (words.gettext(BACKS[options.duplex]) if options.backs else ""))
    if options.backs:
        w, h, bleed = pt(layout.card[0]), pt(layout.card[1]), pt(layout.bleed)
        canvas.beginForm("back", -bleed, -bleed, w + bleed, h + bleed)
        draw_back(canvas, look, w, h, bleed)
        canvas.endForm()
    cards = deck.cards
    batches = geometry.sheets(len(cards), layout.per_sheet)
    for number, batch in enumerate(batches, 1):
        _front_sheet(canvas, look, layout, [cards[i] for i in batch])
        _footer(canvas, font_pair, layout, footer % {"title": deck.title, "number": number, "count": len(batches)})
        canvas.showPage()
        if options.backs:
            _back_sheet(canvas, layout, len(batch), options)
            canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def _front_sheet(canvas, look: DeckLook, layout: Layout, cards) -> None:
    canvas.setStrokeColorRGB(0, 0, 0)
    canvas.setLineWidth(MARK_WIDTH)
    for mark in geometry.crop_marks(layout):
        canvas.line(pt(mark.x1), pt(mark.y1), pt(mark.x2), pt(mark.y2))
    w, h, bleed = pt(layout.card[0]), pt(layout.card[1]), pt(layout.bleed)
    for card, rect in zip(cards, layout.cards):
        canvas.saveState()
        canvas.translate(pt(rect.x), pt(rect.y))
        draw_front(canvas, look, card, w, h, bleed)
        canvas.restoreState()


def _back_sheet(canvas, layout: Layout, count: int, options: PrintOptions) -> None:
    """The deck's back (a form drawn once) behind each of the first `count` cards of the sheet."""
    for front in layout.cards[:count]:
        rect = geometry.back_rect(front, layout.paper, options.duplex, options.back_offset)
        canvas.saveState()
        canvas.translate(pt(rect.x), pt(rect.y))
        canvas.doForm("back")
        canvas.restoreState()


def _footer(canvas, font_pair: FontPair, layout: Layout, text: str) -> None:
    """A line under the grid, between the crop marks of the widest, most central column, where the
    margin has room for it."""
    room = layout.grid.y - 2 * geometry.MARK_EDGE
    xs, _ = geometry.cut_lines(layout)
    if room < 3 or len(xs) < 2:
        return
    centre = layout.paper[0] / 2
    left, right = max(zip(xs, xs[1:]), key=lambda gap: (round(gap[1] - gap[0], 3), -abs(sum(gap) / 2 - centre)))
    left, right = left + 1.5, right - 1.5
    try:
        fitted = textfit.fit([text], font_pair.regular, font_pair.descent, pt(right - left), pt(room) * 0.6,
                             6, 4, floor=4)
    except textfit.TextDoesNotFit:
        return
    canvas.setFillColor(MUTED)
    textfit.draw(canvas, fitted, pt(left), pt(geometry.MARK_EDGE), pt(right - left), pt(room))
