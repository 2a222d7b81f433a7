"""A one-page rules sheet for each preset, to print and put on the table (text in rules_text)."""
from __future__ import annotations

import io

from reportlab.lib.fonts import addMapping
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import ListFlowable, ListItem, Paragraph, SimpleDocTemplate, Spacer

from . import geometry
from .errors import PrintError
from .faces import INK, MUTED
from .fonts import fonts
from .rules_text import PRESETS, RULES
from .sheets import CREATOR

MARGIN = 16.0  # mm


def render_rules(preset: str, paper: str = "letter") -> bytes:
    if preset not in RULES:
        raise PrintError(f'there are no rules called "{preset}"; choose one of {", ".join(PRESETS)}')
    if paper not in geometry.PAPERS:
        raise PrintError(f'paper must be one of {", ".join(geometry.PAPERS)}, not "{paper}"')
    font_pair = fonts()
    title, summary, sections = RULES[preset]
    texts = [title, summary, *(text for heading, rules in sections for text in (heading, *rules))]
    font_pair.check([("the rules", text) for text in texts], f'the rules sheet "{preset}"')
    styles = _styles(font_pair)
    story = [Paragraph(title, styles["title"]), Paragraph(summary, styles["summary"])]
    for heading, rules in sections:
        story.append(Paragraph(heading, styles["heading"]))
        items = [ListItem(Paragraph(rule, styles["body"]), leftIndent=10, value="\u2022") for rule in rules]
        story.append(ListFlowable(items, bulletType="bullet", start="\u2022", leftIndent=10,
                                  bulletFontName=font_pair.regular, bulletFontSize=8, bulletColor=MUTED))
    story += [Spacer(1, 6), Paragraph(f"Authors Classroom \u00b7 rules preset \u201c{preset}\u201d", styles["foot"])]

    width, height = geometry.PAPERS[paper]
    margin = geometry.pt(MARGIN)
    buffer = io.BytesIO()
    doc = SimpleDocTemplate(buffer, pagesize=(geometry.pt(width), geometry.pt(height)), leftMargin=margin,
                            rightMargin=margin, topMargin=margin, bottomMargin=margin, invariant=1,
                            pageCompression=1, initialFontName=font_pair.regular, initialFontSize=10,
                            title=f"{title} - rules", author=CREATOR, creator=CREATOR, subject=summary)
    doc.build(story)
    return buffer.getvalue()


def _styles(font_pair) -> dict[str, ParagraphStyle]:
    # <b> in the rules picks the bold face.
    addMapping(font_pair.regular, 0, 0, font_pair.regular)
    addMapping(font_pair.regular, 1, 0, font_pair.bold)
    body = ParagraphStyle("body", fontName=font_pair.regular, fontSize=9.5, leading=12.2, textColor=INK,
                          spaceAfter=2)
    return {
        "title": ParagraphStyle("title", parent=body, fontName=font_pair.bold, fontSize=20, leading=24),
        "summary": ParagraphStyle("summary", parent=body, textColor=MUTED, fontSize=10.5, spaceAfter=6),
        "heading": ParagraphStyle("heading", parent=body, fontName=font_pair.bold, fontSize=12, leading=15,
                                  spaceBefore=7, spaceAfter=2),
        "body": body,
        "foot": ParagraphStyle("foot", parent=body, fontSize=7.5, textColor=MUTED),
    }
