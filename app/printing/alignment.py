"""A two-sided test page that measures how far a printer puts the back side off register.

The front has three crosses; the back has, behind each cross (mirrored for the duplex mode, moved by
the current back offset), a horizontal and a vertical scale in millimetres. Held up to a light, the
front's lines cross the scales at the numbers to add to --back-offset-x and --back-offset-y.
"""
from __future__ import annotations

import io

from . import geometry, textfit
from .faces import INK, MUTED
from .errors import Text
from .fonts import fonts
from .geometry import pt
from .language import N_, SOURCE_LANGUAGE, translations
from .sheets import PrintOptions, new_canvas

TARGETS = ((0.3, 0.72), (0.7, 0.45), (0.3, 0.2))  # where the crosses are, as shares of the paper
ARM = 15.0  # mm, half the length of a cross's lines
SCALE = 6  # the scales read from -SCALE to +SCALE mm
SCALE_GAP = 10.0  # mm between a cross's centre and the scale that reads it
RULER = 100.0  # mm, the line that checks the printer prints at actual size


def targets(paper: tuple[float, float]) -> list[tuple[float, float]]:
    return [(paper[0] * fx, paper[1] * fy) for fx, fy in TARGETS]


def scale_origins(paper: tuple[float, float], duplex: str, offset: tuple[float, float]) -> list[tuple[float, float]]:
    """The zero of the scales behind each cross, on the back page."""
    found = []
    for x, y in targets(paper):
        bx, by = geometry.mirror_point(x, y, paper, duplex)
        found.append((bx + offset[0], by + offset[1]))
    return found


FRONT_TEXT = (
    N_("Print this page on both sides of one sheet, with the duplex setting you will use for the cards "
       "(long edge unless you chose --duplex short), at 100% (actual size). The line below must measure "
       "100 mm; if it does not, turn off \"fit to page\" in the print dialog."),
    N_("Hold the sheet up to a light, back side towards you. Each cross on this side shows through next to "
       "two scales on the back."),
)
BACK_TEXT = (
    N_("Back side. Hold the sheet up to a light. Where the upright line of each cross meets the horizontal "
       "scale, read the number (negative on the side marked -): add it to --back-offset-x. Where the flat line "
       "meets the upright scale, read the number the same way: add it to --back-offset-y. The three crosses "
       "should read the same; if they differ, take the average."),
    N_("If this text is upside down, or the scales are nowhere near the crosses, print the cards with the other "
       "duplex mode (--duplex long or --duplex short). Print this page again with the new offsets: every "
       "scale should then read 0."),
)
OFFSET_NOTE = {"long": N_("Back offset printed with: x %(x)s mm, y %(y)s mm, long-edge duplex."),
               "short": N_("Back offset printed with: x %(x)s mm, y %(y)s mm, short-edge duplex.")}


def render_alignment(options: PrintOptions, language: str = SOURCE_LANGUAGE) -> bytes:
    font_pair = fonts()
    words = translations(language)
    paper = geometry.PAPERS[options.paper]
    offset_note = words.gettext(OFFSET_NOTE[options.duplex]) % {"x": f"{options.back_offset[0]:+g}",
                                                                 "y": f"{options.back_offset[1]:+g}"}
    front = (words.gettext("Duplex alignment test: front"), *(words.gettext(p) for p in FRONT_TEXT), offset_note)
    back = (words.gettext("Duplex alignment test: back"), *(words.gettext(p) for p in BACK_TEXT), offset_note)
    ruler = words.gettext("100 mm")
    where = Text.of(N_("the alignment page"))
    font_pair.check([(where, text) for text in (*front, *back, ruler)],
                    Text.of(N_("the alignment page (%(language)s)"), language=language))
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, options.paper, font_pair, words.gettext("Duplex alignment test"))

    _text(canvas, font_pair, paper, front[0], front[1:])
    ruler_y = 25.0
    left = (paper[0] - RULER) / 2
    canvas.setStrokeColor(INK)
    canvas.setLineWidth(0.5)
    canvas.line(pt(left), pt(ruler_y), pt(left + RULER), pt(ruler_y))
    for x in (left, left + RULER):
        canvas.line(pt(x), pt(ruler_y - 2), pt(x), pt(ruler_y + 2))
    canvas.setFont(font_pair.regular, 7)
    canvas.setFillColor(MUTED)
    canvas.drawCentredString(pt(paper[0] / 2), pt(ruler_y + 1.5), ruler)
    canvas.setLineWidth(0.3)
    for number, (x, y) in enumerate(targets(paper), 1):
        canvas.line(pt(x - ARM), pt(y), pt(x + ARM), pt(y))
        canvas.line(pt(x), pt(y - ARM), pt(x), pt(y + ARM))
        canvas.drawString(pt(x + 2), pt(y + 2), str(number))
    canvas.showPage()

    _text(canvas, font_pair, paper, back[0], back[1:])
    canvas.setStrokeColor(INK)
    for number, (x, y) in enumerate(scale_origins(paper, options.duplex, options.back_offset), 1):
        _scale(canvas, font_pair, x, y + SCALE_GAP, horizontal=True)
        _scale(canvas, font_pair, x + SCALE_GAP, y, horizontal=False)
        canvas.setFont(font_pair.bold, 8)
        canvas.setFillColor(MUTED)
        canvas.drawString(pt(x - SCALE_GAP), pt(y - SCALE_GAP), str(number))
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def _text(canvas, font_pair, paper, title: str, paragraphs) -> None:
    margin = 20.0
    width = pt(paper[0] - 2 * margin)
    canvas.setFillColor(INK)
    heading = textfit.fit([title], font_pair.bold, font_pair.descent, width, 30, 16, 10)
    bottom = textfit.draw(canvas, heading, pt(margin), pt(paper[1] - margin) - heading.height, width,
                          heading.height, align="left")
    body = textfit.fit(paragraphs, font_pair.regular, font_pair.descent, width, pt(40), 9.5, 7)
    textfit.draw(canvas, body, pt(margin), bottom - 6 - body.height, width, body.height, align="left")


def _scale(canvas, font_pair, x: float, y: float, horizontal: bool) -> None:
    """Ticks every 0.5 mm from -SCALE to +SCALE mm around (x, y), numbered every 2 mm without a sign
    (there is no room for one); a "-" and a "+" beyond the ends say which side is which."""
    canvas.setLineWidth(0.25)
    canvas.setFont(font_pair.regular, 5)
    canvas.setFillColor(INK)
    for half_mm in range(-2 * SCALE, 2 * SCALE + 1):
        at = half_mm / 2
        length = 4.5 if half_mm == 0 else 3.0 if half_mm % 2 == 0 else 1.6
        if horizontal:
            canvas.line(pt(x + at), pt(y), pt(x + at), pt(y + length))
        else:
            canvas.line(pt(x), pt(y + at), pt(x + length), pt(y + at))
        if half_mm % 4 == 0:
            label = str(abs(int(at)))
            if horizontal:
                canvas.drawCentredString(pt(x + at), pt(y - 2.2), label)
            else:
                canvas.drawString(pt(x + 5.2), pt(y + at) - 1.7, label)
    canvas.setFont(font_pair.bold, 7)
    for sign, end in (("-", -SCALE - 1.8), ("+", SCALE + 1.8)):
        if horizontal:
            canvas.drawCentredString(pt(x + end), pt(y + 0.3), sign)
        else:
            canvas.drawCentredString(pt(x + 1.5), pt(y + end) - 2.5, sign)
