"""A one-page rules sheet for each preset and language, to print and put on the table.

The text is the student page of app/rules (content/PRESET.LANG.md), the same as the web page /rules.
"""
from __future__ import annotations

import io
from xml.sax.saxutils import escape

from reportlab.lib.colors import HexColor
from reportlab.lib.fonts import addMapping
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import (KeepTogether, ListFlowable, ListItem, Paragraph, SimpleDocTemplate, Spacer,
                                Table, TableStyle)

from .. import rules
from ..rules.markup import Paragraph as TextParagraph
from ..rules.markup import inline_reportlab
from . import geometry
from .errors import N_, PrintError, Text
from .faces import INK, MUTED
from .fonts import fonts
from .sheets import CREATOR

MARGIN = 16.0  # mm
EXAMPLE_BACKGROUND = HexColor("#f2efe8")
EXAMPLE_RULE = HexColor("#b9b2a3")
BODY_SIZES = (11.0, 10.5, 10.0, 9.5)  # pt, largest first


def render_rules(preset: str, paper: str = "letter", language: str = rules.DEFAULT_LANGUAGE) -> bytes:
    try:
        page = rules.rules_page(preset, language)
    except rules.RulesError as exc:
        raise PrintError(exc.template, **exc.params) from None
    if paper not in geometry.PAPERS:
        raise PrintError(N_('paper must be one of %(choices)s, not "%(value)s"'), choices=", ".join(geometry.PAPERS),
                         value=paper)
    font_pair = fonts()
    where = Text.of(N_("the rules"))
    font_pair.check([(where, text) for text in page.texts()],
                    Text.of(N_('the rules sheet "%(preset)s" (%(language)s)'), preset=preset, language=language))
    # The largest body size at which the page fits on one sheet: short pages print bigger.
    for size in BODY_SIZES:
        data, pages = _build(page, paper, font_pair, size)
        if pages == 1:
            break
    return data


def _build(page: rules.RulesPage, paper: str, font_pair, size: float) -> tuple[bytes, int]:
    styles = _styles(font_pair, size)
    width, height = geometry.PAPERS[paper]
    margin = geometry.pt(MARGIN)
    frame_width = geometry.pt(width) - 2 * margin

    story = [Paragraph(escape(page.title), styles["title"]), Paragraph(inline_reportlab(page.summary), styles["summary"])]
    for section in page.sections:
        heading = Paragraph(escape(section.heading), styles["heading"])
        blocks = [_block(block, styles, font_pair) for block in section.blocks]
        if section.key == "example":
            box = Table([[[heading, *blocks]]], colWidths=[frame_width])
            box.setStyle(TableStyle([
                ("BACKGROUND", (0, 0), (-1, -1), EXAMPLE_BACKGROUND),
                ("LINEBEFORE", (0, 0), (0, -1), 2, EXAMPLE_RULE),
                ("LEFTPADDING", (0, 0), (-1, -1), 8), ("RIGHTPADDING", (0, 0), (-1, -1), 8),
                ("TOPPADDING", (0, 0), (-1, -1), 1), ("BOTTOMPADDING", (0, 0), (-1, -1), 6),
            ]))
            story += [Spacer(1, 8), box]
        else:
            story.append(KeepTogether([heading, blocks[0]]))
            story += blocks[1:]
    story += [Spacer(1, 6), Paragraph(f"Authors Classroom \u00b7 {page.preset} \u00b7 {page.language}", styles["foot"])]

    buffer = io.BytesIO()
    doc = SimpleDocTemplate(buffer, pagesize=(geometry.pt(width), geometry.pt(height)), leftMargin=margin,
                            rightMargin=margin, topMargin=margin, bottomMargin=margin, invariant=1,
                            pageCompression=1, initialFontName=font_pair.regular, initialFontSize=10,
                            title=page.title, author=CREATOR, creator=CREATOR, subject=page.summary_text,
                            lang=page.language)
    doc.build(story)
    return buffer.getvalue(), doc.page


def _block(block, styles, font_pair):
    if isinstance(block, TextParagraph):
        return Paragraph(inline_reportlab(block.runs), styles["body"])
    items = [ListItem(Paragraph(inline_reportlab(item), styles["body"]), leftIndent=10, value="\u2022")
             for item in block.items]
    return ListFlowable(items, bulletType="bullet", start="\u2022", leftIndent=10,
                        bulletFontName=font_pair.regular, bulletFontSize=8, bulletColor=MUTED)


def _styles(font_pair, size: float) -> dict[str, ParagraphStyle]:
    # <b> in the rules picks the bold face.
    addMapping(font_pair.regular, 0, 0, font_pair.regular)
    addMapping(font_pair.regular, 1, 0, font_pair.bold)
    body = ParagraphStyle("body", fontName=font_pair.regular, fontSize=size, leading=round(size * 1.28, 2),
                          textColor=INK, spaceAfter=2)
    return {
        "title": ParagraphStyle("title", parent=body, fontName=font_pair.bold, fontSize=20, leading=24),
        "summary": ParagraphStyle("summary", parent=body, textColor=MUTED, fontSize=size + 1,
                                  leading=round((size + 1) * 1.28, 2), spaceAfter=6),
        "heading": ParagraphStyle("heading", parent=body, fontName=font_pair.bold, fontSize=size + 2.5,
                                  leading=round((size + 2.5) * 1.25, 2),
                                  spaceBefore=7, spaceAfter=2),
        "body": body,
        "foot": ParagraphStyle("foot", parent=body, fontSize=7.5, leading=10, textColor=MUTED),
    }
