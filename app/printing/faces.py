"""One card's front or back, drawn with its bottom-left cut corner at the canvas origin.

Knows cards, not sheets: the caller moves the origin. Units are points. Everything printed stays
inside the safe zone (SAFE mm inside the cut line) except backgrounds, which run into the bleed.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from reportlab.lib.colors import Color, HexColor, white
from reportlab.lib.utils import ImageReader

from ..decks import Card, CardSet, Deck
from ..decks.look import card_marks, deck_color, is_playing_deck, rank_and_suit, set_colors
from . import textfit
from .errors import PrintError, Text
from .fonts import FontPair
from .geometry import CARDS, SAFE, pt
from .language import N_, translations

INK = HexColor("#1a1a1a")
MUTED = HexColor("#555555")
RED = HexColor("#c0162c")
BLACK = HexColor("#111111")
SUITS = {"♠": BLACK, "♣": BLACK, "♤": BLACK, "♧": BLACK, "♥": RED, "♦": RED, "♡": RED, "♢": RED}
READABLE = 5.0  # points: the smallest minimum size, however small the card
FIXED_TEXT = "0123456789/ABCDEFGHIJKLMNOPQRSTUVWXYZ"  # printed by the layout itself (a card's index)
DEFAULT_SET_LABEL = Deck.set_label  # what a set is called when the deck says nothing: printed in the deck's language


def _luminance(color: Color) -> float:
    return 0.2126 * color.red + 0.7152 * color.green + 0.0722 * color.blue


def _on(color: Color) -> Color:
    """Text colour that reads on a background of this colour."""
    return white if _luminance(color) < 0.6 else INK


def _tint(color: Color, share: float) -> Color:
    """The colour mixed with white; share is how much white."""
    return Color(*(c + (1 - c) * share for c in (color.red, color.green, color.blue)))


@dataclass(frozen=True)
class Sizes:
    """Text sizes in points for a card, scaled from the poker layout."""
    scale: float

    def __call__(self, size: float) -> float:
        return round(size * self.scale * 2) / 2


class DeckLook:
    """What every card of a deck shares: fonts, colours, style, images."""

    def __init__(self, deck: Deck, fonts: FontPair, marks: bool = False):
        self.deck = deck
        self.fonts = fonts
        self.marks = card_marks(deck) if marks else None  # the quartet index ("B2") instead of "2/4"
        self.playing = is_playing_deck(deck)
        self.set_label = (translations(deck.language).gettext(DEFAULT_SET_LABEL) if deck.set_label == DEFAULT_SET_LABEL
                          else deck.set_label)
        source = Path(deck.source) if deck.source else None
        self.base_dir = source.parent if source is not None and source.is_file() else None  # images live beside it
        self.set_color = {set_id: HexColor(colour) for set_id, colour in set_colors(deck).items()}
        self.color = HexColor(deck_color(deck))
        self._sets = {s.id: s for s in deck.sets}
        self.images = self._read_images()
        self.fitted: dict[tuple, textfit.Fitted] = {}  # _fit's answers: a set's band is the same on each of its cards

    def card_set(self, card: Card) -> CardSet:
        return self._sets[card.set_id]

    def index_text(self, card: Card) -> str:
        """A card's place, printed in a corner: "2/4", or its quartet index ("B2") when asked for."""
        return self.marks[card.id] if self.marks is not None else f"{card.index}/{len(self.card_set(card).cards)}"

    def texts(self) -> list[tuple[Text, str]]:
        """Every string a print of this deck can show, with where it is (a phrase), for the font check."""
        found = [(Text.of(N_("the deck's title")), self.deck.title),
                 (Text.of(N_("the deck's set_label")), self.set_label),
                 (Text.of(N_("the card layout")), FIXED_TEXT)]
        for card_set in self.deck.sets:
            where = Text.of(N_('set "%(set)s"'), set=card_set.id)
            found += [(where, card_set.name), (where, card_set.note or "")]
            found += [(Text.of(N_('set "%(set)s", card "%(card)s"'), set=card_set.id, card=card.id), text)
                      for card in card_set.cards for text in (card.title, card.note or "")]
        return found

    def image_path(self, image: str | None) -> Path | None:
        if image is None or self.base_dir is None:
            return None
        return self.base_dir / image

    def _read_images(self) -> dict[str, ImageReader]:
        """Every image the deck uses, read once, before anything is drawn; a missing or broken file is
        refused by name."""
        readers: dict[str, ImageReader] = {}
        for card_set in self.deck.sets:
            for image in (card_set.image, *(c.image for c in card_set.cards)):
                path = self.image_path(image)
                if path is None or image in readers:
                    continue
                try:
                    reader = ImageReader(str(path))
                    reader.getSize()
                except Exception as exc:  # reportlab and PIL raise many kinds for a bad image
                    raise PrintError(N_('cannot read the image "%(image)s" of the deck "%(deck)s" (%(path)s): '
                                        "%(error)s"), image=image, deck=self.deck.id, path=str(path),
                                     error=str(exc)) from None
                readers[image] = reader
        return readers


def _sizes_for(width: float, height: float) -> Sizes:
    poker_w, poker_h = (pt(v) for v in CARDS["poker"])
    return Sizes(min(width / poker_w, height / poker_h))


def draw_front(canvas, look: DeckLook, card: Card, width: float, height: float, bleed: float = 0.0) -> None:
    if look.playing:
        _playing_front(canvas, look, card, width, height)
    else:
        _authors_front(canvas, look, card, width, height, bleed)


def _fit(look: DeckLook, texts, bold: bool, width: float, height: float, max_size: float, min_size: float,
         floor: float = textfit.FLOOR):
    key = (tuple(texts), bold, width, height, max_size, min_size, floor)
    found = look.fitted.get(key)
    if found is None:
        font = look.fonts.bold if bold else look.fonts.regular
        least = max(min_size, min(READABLE, max_size))  # small cards shrink their sizes, not below this
        found = look.fitted[key] = textfit.fit(texts, font, look.fonts.descent, width, height, max_size, least, floor)
    return found


def _authors_front(canvas, look: DeckLook, card: Card, w: float, h: float, bleed: float) -> None:
    """The 1861 layout: the set's name large in a colour band, the card's title prominent, the set's
    other titles small at the foot."""
    card_set = look.card_set(card)
    colour = look.set_color[card_set.id]
    on = _on(colour)
    size = _sizes_for(w, h)
    s = pt(SAFE)
    inner_w = w - 2 * s

    band_h = 0.30 * h
    band_y = h - band_h
    canvas.setFillColor(colour)
    canvas.rect(-bleed, band_y, w + 2 * bleed, band_h + bleed, stroke=0, fill=1)

    # Band: the set's portrait (its image) on the left, if it has one; beside it a top row with what
    # a set is called and this card's place in its set, then the set's name large, its note below.
    band_bottom = band_y + pt(1.8)
    x, text_w = s, inner_w
    set_image = look.images.get(card_set.image) if card_set.image else None
    if set_image is not None:
        image_w = inner_w * 0.3
        _image(canvas, set_image, s, band_bottom, image_w, h - s - band_bottom)
        x, text_w = s + image_w + pt(2), inner_w - image_w - pt(2)
    canvas.setFillColor(on)
    row_h = size(9)
    row_y = h - s - row_h
    index_fit = _fit(look, [look.index_text(card)], True, text_w * 0.4, row_h, size(8), size(6))
    textfit.draw(canvas, index_fit, x, row_y, text_w, row_h, align="right")
    label_w = text_w - index_fit.width() - pt(2)
    textfit.draw(canvas, _fit(look, [look.set_label], False, label_w, row_h, size(7), size(5)),
                 x, row_y, label_w, row_h, align="left")
    name_top = row_y - pt(0.8)
    if card_set.note:
        note_fit = _fit(look, [card_set.note], False, text_w, size(9), size(7.5), size(5.5))
        textfit.draw(canvas, note_fit, x, band_bottom, text_w, note_fit.height, valign="bottom")
        band_bottom += note_fit.height + pt(0.8)
    textfit.draw(canvas, _fit(look, [card_set.name], True, text_w, name_top - band_bottom, size(15), size(9)),
                 x, band_bottom, text_w, name_top - band_bottom)

    # Foot: a rule in the set's colour, then the set's other titles.
    others = [c.title for c in card_set.cards if c.id != card.id]
    list_h = 0.25 * h
    rule_y = s + list_h + pt(1.5)
    canvas.setStrokeColor(colour)
    canvas.setLineWidth(0.8)
    canvas.line(s + inner_w * 0.15, rule_y, w - s - inner_w * 0.15, rule_y)
    canvas.setFillColor(MUTED)
    textfit.draw(canvas, _fit(look, others, False, inner_w, list_h, size(8), size(5.5)),
                 s, s, inner_w, list_h, valign="top")

    # Middle: the card's title prominent with its note under it, then the card's image if it has one.
    top = band_y - pt(2.5)
    bottom = rule_y + pt(2)
    card_image = look.images.get(card.image) if card.image else None
    note_fit = _fit(look, [card.note], False, inner_w, size(10), size(8), size(6)) if card.note else None
    note_h = note_fit.height + pt(1.2) if note_fit else 0.0
    room = (top - bottom) * (0.45 if card_image is not None else 1.0)
    title_fit = _fit(look, [card.title], True, inner_w, room - note_h, size(16), size(8.5))
    group_h = title_fit.height + note_h
    group_top = top if card_image is not None else (top + bottom + group_h) / 2
    canvas.setFillColor(INK)
    below = textfit.draw(canvas, title_fit, s, group_top - title_fit.height, inner_w, title_fit.height)
    if note_fit:
        canvas.setFillColor(MUTED)
        below = textfit.draw(canvas, note_fit, s, below - note_h, inner_w, note_fit.height, valign="bottom")
    if card_image is not None:
        _image(canvas, card_image, s, bottom, inner_w, below - pt(1.5) - bottom)


def _image(canvas, reader: ImageReader, x: float, y: float, width: float, height: float) -> None:
    if width > 0 and height > 0:
        canvas.drawImage(reader, x, y, width, height, preserveAspectRatio=True, anchor="c", mask="auto")


def _playing_front(canvas, look: DeckLook, card: Card, w: float, h: float) -> None:
    """A playing card: rank and suit in two corners, a large suit, the set (book, half-suit) named."""
    card_set = look.card_set(card)
    size = _sizes_for(w, h)
    s = pt(SAFE)
    parsed = rank_and_suit(card.title)
    rank, suit = parsed if parsed else ("", "")  # no rank and suit: a joker, marked with a star
    ink = SUITS.get(suit, look.set_color[card_set.id])

    corner_w = 0.16 * w
    rank_fit = _fit(look, [rank], True, corner_w, size(16), size(15), size(8)) if rank else None
    suit_fit = _fit(look, [suit], False, corner_w, size(14), size(13), size(8)) if suit else None
    for turn in (0, 180):
        canvas.saveState()
        if turn:
            canvas.translate(w, h)
            canvas.rotate(180)
        canvas.setFillColor(ink)
        if rank_fit and suit_fit:
            bottom = textfit.draw(canvas, rank_fit, s, h - s - rank_fit.height, corner_w, rank_fit.height)
            textfit.draw(canvas, suit_fit, s, bottom - pt(0.5) - suit_fit.height, corner_w, suit_fit.height)
        else:
            radius = size(6)
            _star(canvas, s + corner_w / 2, h - s - radius, radius)
        canvas.restoreState()

    # The middle column, between the corners.
    x = s + corner_w + pt(1)
    inner_w = w - 2 * x
    top = h - s
    name_fit = _fit(look, [card_set.name], True, inner_w, size(22), size(9), size(6))
    canvas.setFillColor(look.set_color[card_set.id])
    bottom = textfit.draw(canvas, name_fit, x, top - name_fit.height, inner_w, name_fit.height)
    index_fit = _fit(look, [look.index_text(card)], False, inner_w, size(9), size(7.5), size(6))
    canvas.setFillColor(MUTED)
    bottom = textfit.draw(canvas, index_fit, x, bottom - pt(0.8) - index_fit.height, inner_w, index_fit.height)

    others = [" ".join(c.title for c in card_set.cards if c.id != card.id)]
    list_h = 0.17 * h
    textfit.draw(canvas, _fit(look, others, False, inner_w, list_h, size(8), size(6)), x, s, inner_w, list_h)

    middle_top, middle_bottom = bottom - pt(2), s + list_h + pt(2)
    canvas.setFillColor(ink)
    if suit:
        big = _fit(look, [suit], False, inner_w, middle_top - middle_bottom, size(80), size(20))
    else:
        big = _fit(look, [card.title], True, inner_w, middle_top - middle_bottom, size(18), size(9))
    textfit.draw(canvas, big, x, middle_bottom, inner_w, middle_top - middle_bottom)


def draw_back(canvas, look: DeckLook, width: float, height: float, bleed: float = 0.0) -> None:
    """The deck's back: a pale ground into the bleed, a panel in the deck's colour inside the safe zone
    (so a back printed a little off register still looks even), the deck's title in the middle."""
    size = _sizes_for(width, height)
    s = pt(SAFE)
    canvas.setFillColor(_tint(look.color, 0.82))
    canvas.rect(-bleed, -bleed, width + 2 * bleed, height + 2 * bleed, stroke=0, fill=1)
    canvas.setFillColor(look.color)
    canvas.roundRect(s, s, width - 2 * s, height - 2 * s, pt(2.5), stroke=0, fill=1)
    frame = s + pt(1.8)
    canvas.setStrokeColor(_tint(look.color, 0.45))
    canvas.setLineWidth(0.9)
    canvas.roundRect(frame, frame, width - 2 * frame, height - 2 * frame, pt(1.5), stroke=1, fill=0)

    inner = frame + pt(3)
    title_fit = _fit(look, [look.deck.title], True, width - 2 * inner, height * 0.4, size(18), size(10))
    canvas.setFillColor(_on(look.color))
    textfit.draw(canvas, title_fit, inner, inner, width - 2 * inner, height - 2 * inner)
    radius = size(3)
    gap = title_fit.height / 2 + pt(4) + radius
    canvas.setFillColor(_tint(look.color, 0.45))
    for centre in (height / 2 + gap, height / 2 - gap):
        _diamond(canvas, width / 2, centre, radius)


def _star(canvas, cx: float, cy: float, radius: float) -> None:
    """A filled five-pointed star (drawn, so it needs no glyph)."""
    points = []
    for i in range(10):
        r = radius if i % 2 == 0 else radius * 0.42
        angle = math.pi / 2 + i * math.pi / 5
        points.append((cx + r * math.cos(angle), cy + r * math.sin(angle)))
    _polygon(canvas, points)


def _diamond(canvas, cx: float, cy: float, radius: float) -> None:
    _polygon(canvas, [(cx, cy + radius), (cx + radius * 0.7, cy), (cx, cy - radius), (cx - radius * 0.7, cy)])


def _polygon(canvas, points) -> None:
    path = canvas.beginPath()
    path.moveTo(*points[0])
    for point in points[1:]:
        path.lineTo(*point)
    path.close()
    canvas.drawPath(path, stroke=0, fill=1)
