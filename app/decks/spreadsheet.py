"""Pasting a deck from a spreadsheet: rows of set, card title, aliases, note.

`read_sheet` reads every pasted row into a Sheet, with what the row becomes or its problems, and
`sheet_yaml` writes a good sheet as deck YAML, one card per line, remembering which rows each line came
from (so the validator's problems can be put back on the rows). Pure Python, like the rest of app.decks:
every problem is a marked template (a Text), and `say` puts a sheet's problems in a reader's language.
"""
from __future__ import annotations

import csv
import io
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import yaml

from .errors import ENGLISH, N_, N_plural, Text, Translations
from .loader import FORMAT, MAX_CARDS, MAX_SETS, MIN_CARDS, MIN_SETS
from .slug import slugify

TEXT_MAX = 120                # a title, a set's name, a card's title, a label
NOTE_MAX = 300
ALIASES_MAX = 12
# A paste of more rows than the largest deck's cards, with room for a heading and blank rows, is refused
# before it is read: reading and showing 20,000 rows cost seconds of the server's time.
MAX_PASTE_ROWS = 2 * MAX_SETS * MAX_CARDS

HEADINGS = {"set", "sets", "set name", "group", "author", "authors", "writer", "scientist", "painter",
            "composer", "inventor", "rank", "card", "cards", "card title", "title", "work", "works", "name",
            "aliases", "alias", "note", "notes"}

# A problem as the parser finds it (a marked Text), or as a reader is told it (a sentence in their language).
Message = TypeVar("Message", Text, str)


@dataclass
class SheetRow(Generic[Message]):
    number: int                 # the row as the spreadsheet counts it, from 1
    cells: list[str]
    status: str = "card"        # card, heading, blank
    set_name: str = ""
    title: str = ""
    aliases: list[str] = field(default_factory=list)
    note: str = ""
    problems: list[Message] = field(default_factory=list)


@dataclass
class Sheet(Generic[Message]):
    rows: list[SheetRow[Message]]
    delimiter: str
    problems: list[Message] = field(default_factory=list)   # about the whole deck

    @property
    def ok(self) -> bool:
        return not self.problems and not any(row.problems for row in self.rows)

    @property
    def cards(self) -> list[SheetRow[Message]]:
        return [row for row in self.rows if row.status == "card"]

    def sets(self) -> list[tuple[str, list[SheetRow[Message]]]]:
        groups: dict[str, tuple[str, list[SheetRow[Message]]]] = {}
        for row in self.cards:
            if row.set_name:
                groups.setdefault(row.set_name.casefold(), (row.set_name, []))[1].append(row)
        return list(groups.values())


def say(sheet: Sheet[Text], translations: Translations = ENGLISH) -> Sheet[str]:
    """The sheet with every problem said in the language of `translations` (English by default)."""
    rows = [SheetRow(row.number, row.cells, row.status, row.set_name, row.title, row.aliases, row.note,
                     [problem.render(translations) for problem in row.problems]) for row in sheet.rows]
    return Sheet(rows, sheet.delimiter, [problem.render(translations) for problem in sheet.problems])


def too_long(what: Text | str, limit: int) -> Text:
    """"<what> is longer than <limit> characters" (`what` a phrase to translate, or one already said)."""
    return Text.of(N_plural("%(what)s is longer than %(num)d character", "%(what)s is longer than %(num)d characters"),
                   what=what, num=limit, count=limit)


def split_aliases(text: str, also_commas: bool) -> list[str]:
    parts = re.split(r"[;|,]" if also_commas else r"[;|]", text)
    return [" ".join(part.split()) for part in parts if part.strip()]


def _is_heading(cells: list[str], labels: tuple[str, ...]) -> bool:
    words = {w.casefold() for w in labels if w} | HEADINGS
    first = [re.sub(r"[^\w ]", "", c).strip().casefold() for c in cells[:2]]
    return len(first) == 2 and first[0] in words and first[1] in words


def read_sheet(text: str, labels: tuple[str, ...] = ()) -> Sheet[Text]:
    """Every row of a pasted spreadsheet with what it becomes, or its problems: nothing is dropped
    without saying so (a blank row and a heading row are shown as skipped)."""
    text = (text or "").replace("\r\n", "\n").replace("\r", "\n")
    delimiter = "\t" if "\t" in text else ","
    sheet: Sheet[Text] = Sheet([], "tab" if delimiter == "\t" else "comma")
    lines = text.count("\n") + 1
    if lines > MAX_PASTE_ROWS:  # refused before any work: no deck has that many rows
        sheet.problems.append(Text.of(N_("these are %(rows)d rows; a deck has at most %(cards)d cards (%(sets)d sets of "
                                         "%(per_set)d), so paste at most %(most)d rows"), rows=lines,
                                      cards=MAX_SETS * MAX_CARDS, sets=MAX_SETS, per_set=MAX_CARDS, most=MAX_PASTE_ROWS))
        return sheet
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    seen_titles: dict[str, int] = {}
    seen_heading = any_card = False
    while True:
        start = reader.line_num + 1
        try:
            cells = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            sheet.rows.append(SheetRow(start, [], problems=[Text.of(N_("this row cannot be read (%(error)s)"),
                                                                    error=str(exc))]))
            break
        cells = [" ".join(cell.split()) for cell in cells]
        first_rows = not seen_heading and not any_card
        row: SheetRow[Text] = SheetRow(start, cells)
        sheet.rows.append(row)
        if not any(cells):
            row.status = "blank"
            continue
        if first_rows and _is_heading(cells, labels):
            row.status = "heading"
            seen_heading = True
            continue
        any_card = True
        while cells and not cells[-1]:
            cells = cells[:-1]
        if len(cells) > 4:
            row.problems.append(Text.of(N_plural("this row has %(num)d column; a row is: set, card title, aliases, note "
                                                 "(put several aliases in one cell, separated by ;)",
                                                 "this row has %(num)d columns; a row is: set, card title, aliases, note "
                                                 "(put several aliases in one cell, separated by ;)"),
                                        num=len(cells), count=len(cells)))
        padded = cells + [""] * (4 - len(cells))
        row.set_name, row.title, row.note = padded[0], padded[1], padded[3]
        row.aliases = split_aliases(padded[2], also_commas=delimiter == "\t")
        if not row.set_name:
            row.problems.append(Text.of(N_("the first column (the set) is empty")))
        if not row.title:
            row.problems.append(Text.of(N_("the second column (the card's title) is empty")))
        for what, value, limit in ((N_("the set"), row.set_name, TEXT_MAX), (N_("the title"), row.title, TEXT_MAX),
                                   (N_("the note"), row.note, NOTE_MAX)):
            if len(value) > limit:
                row.problems.append(too_long(Text.of(what), limit))
        if any(len(alias) > TEXT_MAX for alias in row.aliases) or len(row.aliases) > ALIASES_MAX:
            row.problems.append(Text.of(N_("at most %(aliases)d aliases of at most %(characters)d characters each"),
                                        aliases=ALIASES_MAX, characters=TEXT_MAX))
        if any(unicodedata.category(ch) == "Cc" for ch in "".join(cells)):
            row.problems.append(Text.of(N_("a cell contains a control character")))
        if row.title:
            first = seen_titles.get(row.title.casefold())
            if first is not None:
                row.problems.append(Text.of(N_('the card title "%(title)s" is already in row %(row)d'),
                                            title=row.title, row=first))
            else:
                seen_titles[row.title.casefold()] = row.number
    for name, rows in sheet.sets():
        if len(rows) > MAX_CARDS:
            for extra in rows[MAX_CARDS:]:
                extra.problems.append(Text.of(N_('the set "%(name)s" already has %(most)d cards in the rows above; '
                                                 "a set has %(least)d to %(most)d"),
                                              name=name, least=MIN_CARDS, most=MAX_CARDS))
        elif len(rows) < MIN_CARDS:
            rows[0].problems.append(Text.of(N_plural('the set "%(name)s" has only %(num)d card; '
                                                     "a set needs %(least)d to %(most)d",
                                                     'the set "%(name)s" has only %(num)d cards; '
                                                     "a set needs %(least)d to %(most)d"),
                                            name=name, num=len(rows), count=len(rows), least=MIN_CARDS, most=MAX_CARDS))
    count = len(sheet.sets())
    if not sheet.cards:
        sheet.problems.append(Text.of(N_("nothing to read: paste rows of set, card title, aliases, note")))
    elif not MIN_SETS <= count <= MAX_SETS:
        sheet.problems.append(Text.of(N_plural("a deck needs %(least)d to %(most)d sets; these rows make %(num)d",
                                               "a deck needs %(least)d to %(most)d sets; these rows make %(num)d"),
                                      least=MIN_SETS, most=MAX_SETS, num=count, count=count))
    return sheet


def unique_id(name: str, used: set[str], fallback: str) -> str:
    """An id for a set named `name`, made from its name and not in `used` (`fallback` when the name gives none)."""
    base = slugify(name)[:60].strip("-") or fallback
    candidate, n = base, 2
    while candidate in used:
        candidate, n = f"{base}-{n}", n + 1
    return candidate


def give_card_ids(cards: list[dict[str, Any]], set_id: str, used: set[str] | None = None) -> None:
    """Cards whose titles give no usable id (Cyrillic, only signs) get one from their set and place."""
    for index, card in enumerate(cards, 1):
        if "id" in card or not card.get("title"):
            continue
        slug = slugify(card["title"])[:64].strip("-")
        if not slug or (used is not None and slug in used):
            card["id"] = f"{set_id}-{index}"[:64]
        if used is not None:
            used.add(card.get("id") or slug)


def _q(text: str) -> str:
    """A YAML double-quoted scalar on one line (every character escaped as YAML needs)."""
    dumped: str = yaml.safe_dump(text, default_style='"', allow_unicode=True, width=10**9)
    return dumped.rstrip("\n")


def sheet_yaml(sheet: Sheet[Message], head: Mapping[str, str]) -> tuple[str, dict[int, list[int]]]:
    """The sheet as deck YAML written one card per line, and which sheet rows each line came from."""
    lines = [f"format: {FORMAT}"]
    for key in ("id", "title", "language", "description", "set_label", "card_label"):
        if head.get(key):
            lines.append(f"{key}: {_q(head[key])}")
    lines.append("sets:")
    origin: dict[int, list[int]] = {}
    used_sets: set[str] = set()
    used_cards: set[str] = set()
    for n, (name, rows) in enumerate(sheet.sets(), 1):
        set_id = unique_id(name, used_sets, f"set-{n}")
        used_sets.add(set_id)
        origin[len(lines) + 1] = [r.number for r in rows]
        lines.append(f"  - id: {_q(set_id)}")
        origin[len(lines) + 1] = [r.number for r in rows]
        lines.append(f"    name: {_q(name)}")
        origin[len(lines) + 1] = [r.number for r in rows]
        lines.append("    cards:")
        cards: list[dict[str, Any]] = [{"title": r.title} for r in rows]
        give_card_ids(cards, set_id, used_cards)
        for row, card in zip(rows, cards):
            parts = [f"title: {_q(row.title)}"]
            if "id" in card:
                parts.append(f"id: {_q(card['id'])}")
            if row.aliases:
                parts.append("aliases: [" + ", ".join(_q(a) for a in row.aliases) + "]")
            if row.note:
                parts.append(f"note: {_q(row.note)}")
            origin[len(lines) + 1] = [row.number]
            lines.append("      - {" + ", ".join(parts) + "}")
    return "\n".join(lines) + "\n", origin
