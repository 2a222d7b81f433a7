"""The small Markdown subset the student rules pages are written in, its parser and two renderings.

    # Title                       one, on the first line
    A summary paragraph.          one, before the first section
    ## Heading {#key}             a section; key: lower-case letters, digits, dashes
    A paragraph, on one or more lines.
    - A bullet item, which may go on
      on lines indented by two spaces.

Blank lines separate paragraphs and lists. Inside any text, **bold** is the only markup. Anything
else that looks like Markdown (###, a lone *, `, backslashes, > quotes, numbered lists, tables, tabs,
indented text) is refused with the file and line, so that a mistake in a translation shows up when the
page is loaded, not as stray asterisks on a printed sheet. HTML is not markup: <, > and & are text,
escaped like all text.

Rendering: `inline_html`/`blocks_html` (every text escaped, the only tags are p, ul, li, strong,
section, h2) and `inline_reportlab` (escaped, <b> for bold) for the printed sheet.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Union

from markupsafe import Markup, escape

SECTION = re.compile(r"## (?P<heading>\S.*?) \{#(?P<key>[a-z][a-z0-9-]*)\}")
NOT_IN_SUBSET = re.compile(r"#|>|\*(?!\*)|\+ |\d+[.)] |```|\||\s")
BOLD = "**"


class MarkupError(ValueError):
    """A rules file outside the subset; the message names the file and line."""


@dataclass(frozen=True)
class Run:
    text: str
    bold: bool = False


Inline = tuple[Run, ...]


@dataclass(frozen=True)
class Paragraph:
    runs: Inline


@dataclass(frozen=True)
class BulletList:
    items: tuple[Inline, ...]


Block = Union[Paragraph, BulletList]


@dataclass(frozen=True)
class Section:
    key: str
    heading: str
    blocks: tuple[Block, ...]


@dataclass(frozen=True)
class Document:
    title: str
    summary: Inline
    sections: tuple[Section, ...]


def plain(runs: Inline) -> str:
    return "".join(run.text for run in runs)


def parse(text: str, source: str = "<rules>") -> Document:
    """The document in `text`, or MarkupError naming `source` and the line."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    title: str | None = None
    summary: list[Inline] = []
    sections: list[tuple[str, str, list[Block]]] = []
    keys: set[str] = set()
    paragraph: list[str] = []  # lines of the paragraph being read
    items: list[list[str]] = []  # the list being read: each item's lines
    start = 0  # line number where the current block began

    def fail(number: int, message: str) -> MarkupError:
        return MarkupError(f"{source}:{number}: {message}")

    def close_block() -> None:
        nonlocal paragraph, items
        if paragraph:
            runs = _inline(" ".join(paragraph), lambda m: fail(start, m))
            if sections:
                sections[-1][2].append(Paragraph(runs))
            elif summary:
                raise fail(start, "only one summary paragraph may come before the first section")
            else:
                summary.append(runs)
        elif items:
            if not sections:
                raise fail(start, "a list must be inside a section (## Heading {#key})")
            sections[-1][2].append(BulletList(tuple(_inline(" ".join(item), lambda m: fail(start, m))
                                                    for item in items)))
        paragraph, items = [], []

    for number, line in enumerate(lines, 1):
        if line != line.rstrip():
            raise fail(number, "trailing spaces")
        if "\t" in line:
            raise fail(number, "a tab; indent with spaces")
        if title is None:
            if not line.startswith("# ") or not line[2:].strip() or line[2:] != line[2:].strip():
                raise fail(number, 'the file must begin with the title: "# Title"')
            title = line[2:]
            if BOLD in title or "*" in title:
                raise fail(number, "the title cannot have bold text")
            continue
        if not line:
            close_block()
            continue
        if line.startswith("## "):
            close_block()
            match = SECTION.fullmatch(line)
            if not match:
                raise fail(number, 'a section heading is "## Heading {#key}" (key: a-z, 0-9, -)')
            key = match["key"]
            if key in keys:
                raise fail(number, f'the section key "{key}" is used twice')
            if BOLD in match["heading"] or "*" in match["heading"]:
                raise fail(number, "a heading cannot have bold text")
            keys.add(key)
            sections.append((key, match["heading"], []))
            continue
        if line.startswith("- "):
            if paragraph:
                raise fail(number, "leave a blank line between a paragraph and a list")
            if not items:
                start = number
            body = line[2:]
            if not body or body[0].isspace():
                raise fail(number, 'a list item is "- text"')
            items.append([body])
            continue
        if line.startswith("  ") and items:
            body = line[2:]
            if not body or body[0].isspace():
                raise fail(number, "continue a list item on a line indented by exactly two spaces")
            items[-1].append(body)
            continue
        if items:
            raise fail(number, "indent a list item's next line by two spaces, or leave a blank line after the list")
        if NOT_IN_SUBSET.match(line):
            raise fail(number, f"not in the rules subset (headings, paragraphs, - lists, **bold**): {line[:30]!r}")
        if not paragraph:
            start = number
        paragraph.append(line)
    close_block()
    if title is None:
        raise fail(1, "the file is empty")
    if not summary:
        raise fail(2, "a summary paragraph must follow the title")
    for _key, heading, blocks in sections:
        if not blocks:
            raise fail(len(lines), f'the section "{heading}" is empty')
    return Document(title=title, summary=summary[0],
                    sections=tuple(Section(key, heading, tuple(blocks)) for key, heading, blocks in sections))


def _inline(text: str, fail) -> Inline:
    parts = text.split(BOLD)
    if len(parts) % 2 == 0:
        raise fail("a ** without its closing **")
    runs = []
    for index, part in enumerate(parts):
        bold = index % 2 == 1
        if bold and (not part.strip() or part != part.strip()):
            raise fail("bold text must be **like this**, not empty nor starting or ending with a space")
        for mark in ("*", "`", "\\"):
            if mark in part:
                raise fail(f"{mark!r} is not allowed in the text (only **bold** is markup)")
        if "  " in part:
            raise fail("two spaces in a row")
        if part:
            runs.append(Run(part, bold))
    return tuple(runs)


# --- rendering ---------------------------------------------------------------------------------

def inline_html(runs: Inline) -> Markup:
    return Markup("").join(Markup("<strong>%s</strong>") % run.text if run.bold else escape(run.text)
                           for run in runs)


def blocks_html(blocks: tuple[Block, ...]) -> Markup:
    out = []
    for block in blocks:
        if isinstance(block, Paragraph):
            out.append(Markup("<p>%s</p>") % inline_html(block.runs))
        else:
            lis = Markup("").join(Markup("<li>%s</li>") % inline_html(item) for item in block.items)
            out.append(Markup("<ul>%s</ul>") % lis)
    return Markup("\n").join(out)


def sections_html(sections: tuple[Section, ...]) -> Markup:
    """Each section as <section id=key><h2>heading</h2>...</section>."""
    return Markup("\n").join(
        Markup('<section id="%s" class="rules-section">\n<h2>%s</h2>\n%s\n</section>')
        % (section.key, section.heading, blocks_html(section.blocks))
        for section in sections)


def xml_escape(text: str) -> str:
    """&, < and > escaped, as xml.sax.saxutils.escape does (which imports urllib, http and email: 25 ms
    of start-up for every command that reads the preset names)."""
    return text.replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;")


def inline_reportlab(runs: Inline) -> str:
    """reportlab Paragraph markup: every text escaped, <b> for bold."""
    return "".join(f"<b>{xml_escape(run.text)}</b>" if run.bold else xml_escape(run.text) for run in runs)
