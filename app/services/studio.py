"""The deck studio: teachers' own decks, stored in the database as deck-format YAML.

Every deck that comes in (a form, a spreadsheet, an uploaded or edited file) is checked by the one
validator, app.decks.load_deck_text, the code behind `authors decks validate`: the web and the command
line never disagree. A deck is private to its owner or shared with every teacher on the server; a table
plays a snapshot of it taken as the table opens (models.DeckSnapshot), so editing or deleting a deck
never changes a game. Images live in instance/uploads/decks/<deck>/images/, re-encoded with Pillow.
"""
from __future__ import annotations

import csv
import hashlib
import io
import os
import re
import secrets
import shutil
import time
import unicodedata
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml
from flask import current_app
from flask_babel import get_translations
from flask_babel import gettext as _
from flask_babel import ngettext
from sqlalchemy.exc import IntegrityError

from ..db import db
from ..decks import Deck, DeckError, Problem, builtin_decks, load_deck_text, slugify
from ..decks.dump import deck_to_dict
from ..decks.errors import N_, Text
from ..decks.loader import FORMAT, MAX_CARDS, MAX_SETS, MIN_CARDS, MIN_SETS
from ..decks.yamlsafe import decode
from ..models import DeckSnapshot, StudioDeck, StudioImage
from .catalog import SNAPSHOT_PREFIX
from .errors import BadRequest, Forbidden, NotFound, ServiceError

STUDIO_PREFIX = "studio:"     # how a studio deck is chosen for a table: studio:<number>
MAX_DECKS_PER_TEACHER = 200
TEXT_MAX = 120                # a title, a set's name, a card's title, a label
NOTE_MAX = 300
ALIASES_MAX = 12
# A paste of more rows than the largest deck's cards, with room for a heading and blank rows, is refused
# before it is read: reading and showing 20,000 rows cost seconds of the server's time.
MAX_PASTE_ROWS = 2 * MAX_SETS * MAX_CARDS
IMAGE_MAX_BYTES = 1024 * 1024
IMAGE_MAX_PIXELS = 30_000_000  # refused before decoding: no decompression bombs
IMAGE_MAX_SIDE = 1600          # larger images are scaled down (a poker card at 300 dpi is 750 x 1050)
IMAGE_NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,80}\.(png|jpg)")
SOURCE = "deck.yaml"


class DeckInvalid(ServiceError):
    """The validator refused the deck: every problem, each with its line."""
    status, code = 400, "deck-invalid"

    def __init__(self, problems: list[Problem], text: str | None = None):
        super().__init__("; ".join(p.message for p in problems[:3]) + ("; ..." if len(problems) > 3 else ""))
        self.problems = problems
        self.text = text


def problem_text(problem: Problem) -> str:
    """A validator's problem in the reader's language: its English template translated, then filled in."""
    return problem.render(get_translations())


# ----------------------------------------------------------------------------------------------------
# Finding decks
# ----------------------------------------------------------------------------------------------------
def ref_of(row: StudioDeck) -> str:
    return f"{STUDIO_PREFIX}{row.id}"


def visible(teacher_id: int) -> list[StudioDeck]:
    """The teacher's own decks and those the other teachers share, by title."""
    rows = (StudioDeck.query.filter((StudioDeck.owner_id == teacher_id) | StudioDeck.shared.is_(True))
            .order_by(StudioDeck.title, StudioDeck.id).all())
    return sorted(rows, key=lambda row: (row.owner_id != teacher_id, row.title.casefold(), row.id))


def own(teacher_id: int) -> list[StudioDeck]:
    return [row for row in visible(teacher_id) if row.owner_id == teacher_id]


def _number(value: Any) -> int | None:
    try:
        number = int(str(value))
    except (TypeError, ValueError):
        return None
    return number if 0 < number < 2**31 else None


def get_visible(teacher_id: int, deck_number: Any) -> StudioDeck:
    """A deck this teacher may see: their own or a shared one. Another's private deck is not found."""
    number = _number(deck_number)
    row = db.session.get(StudioDeck, number) if number else None
    if row is None or (row.owner_id != teacher_id and not row.shared):
        raise NotFound(_("There is no such deck in the studio."), code="unknown-deck")
    return row


def get_own(teacher_id: int, deck_number: Any) -> StudioDeck:
    """A deck this teacher may change: their own. A shared deck of another teacher is 403."""
    row = get_visible(teacher_id, deck_number)
    if row.owner_id != teacher_id:
        raise Forbidden(_('"%(title)s" belongs to %(owner)s: duplicate it to make a copy of your own.',
                          title=row.title, owner=row.owner.name),
                        code="not-your-deck")
    return row


def deck_of(row: StudioDeck) -> Deck:
    """The stored deck, read (cached by its text; images are not looked for)."""
    return _parse_cached(row.yaml_text)


@lru_cache(maxsize=64)
def _parse_cached(text: str) -> Deck:
    return load_deck_text(text, source=SOURCE)


def deck_for_table(ref: Any, teacher_id: int) -> Deck:
    """The deck of a new table: a built-in id, or studio:<number> for a deck the teacher sees."""
    if isinstance(ref, str) and ref in builtin_decks():
        return builtin_decks()[ref]
    if isinstance(ref, str) and ref.startswith(STUDIO_PREFIX):
        try:
            return deck_of(get_visible(teacher_id, ref[len(STUDIO_PREFIX):]))
        except (NotFound, DeckError):
            pass
    shown = str(ref)[:80]
    raise BadRequest(_('unknown deck "%(deck)s"; choose a deck of the library (%(decks)s) '
                       "or one of the studio's (studio:<number>)", deck=shown,
                       decks=", ".join(sorted(builtin_decks()))))


def table_deck_id(ref: str, teacher_id: int) -> str:
    """What a new table stores as its deck: the built-in id, or a snapshot of the studio deck as it is."""
    if ref in builtin_decks():
        return ref
    row = get_visible(teacher_id, ref[len(STUDIO_PREFIX):])
    digest = hashlib.sha256(f"{row.id}\n{row.yaml_text}".encode()).hexdigest()[:40]
    snapshot_ref = f"{SNAPSHOT_PREFIX}{digest}"
    if DeckSnapshot.query.filter_by(ref=snapshot_ref).first() is None:
        db.session.add(DeckSnapshot(ref=snapshot_ref, studio_deck_id=row.id, title=row.title,
                                    yaml_text=row.yaml_text))
        try:
            db.session.commit()
        except IntegrityError:  # another table took the same snapshot at the same moment
            db.session.rollback()
    return snapshot_ref


# ----------------------------------------------------------------------------------------------------
# Validating and saving
# ----------------------------------------------------------------------------------------------------
def upload_root() -> Path:
    return Path(current_app.config.get("UPLOAD_FOLDER") or Path(current_app.instance_path) / "uploads")


def deck_dir(row_id: int | None) -> Path:
    return upload_root() / "decks" / (str(row_id) if row_id else "new")


def validate(text: str | bytes, row_id: int | None = None, source: str = SOURCE) -> Deck:
    """THE validator (app.decks.load_deck_text), with image paths looked up among the deck's uploads."""
    sync_images(row_id)
    try:
        return load_deck_text(text, source=source, base_dir=deck_dir(row_id))
    except DeckError as exc:
        shown = text if isinstance(text, str) else text.decode("utf-8", "replace")
        raise DeckInvalid(exc.problems, shown) from None


def canonical_yaml(deck: Deck) -> str:
    return yaml.safe_dump(deck_to_dict(deck), allow_unicode=True, sort_keys=False, width=100)


def _store(row: StudioDeck, text: str, deck: Deck) -> StudioDeck:
    row.yaml_text, row.title, row.language = text, deck.title, deck.language
    row.set_count, row.card_count, row.updated_at = len(deck.sets), deck.card_count, time.time()
    db.session.add(row)
    db.session.commit()
    return row


def _check_room(teacher_id: int) -> None:
    if StudioDeck.query.filter_by(owner_id=teacher_id).count() >= MAX_DECKS_PER_TEACHER:
        raise BadRequest(_("You have %(num)d decks already; delete one to make another.", num=MAX_DECKS_PER_TEACHER),
                         code="too-many-decks")


def create_from_text(teacher_id: int, text: str | bytes, source: str = SOURCE, shared: bool = False) -> StudioDeck:
    """A new deck from a file or a pasted text, kept as written (comments and all) once valid."""
    deck = validate(text, None, source)
    _check_room(teacher_id)
    return _store(StudioDeck(owner_id=teacher_id, shared=bool(shared)), decode(text, source), deck)


def save_text(row: StudioDeck, text: str | bytes, source: str = SOURCE) -> StudioDeck:
    deck = validate(text, row.id, source)
    saved = _store(row, decode(text, source), deck)
    _forget_unused_images(saved, deck)
    return saved


def set_shared(row: StudioDeck, shared: bool) -> None:
    row.shared = bool(shared)
    db.session.commit()


def delete(row: StudioDeck) -> None:
    folder = deck_dir(row.id)
    StudioImage.query.filter_by(deck_id=row.id).delete()
    db.session.delete(row)
    db.session.commit()
    shutil.rmtree(folder, ignore_errors=True)  # tables keep playing their snapshots


def duplicate(teacher_id: int, source: str) -> StudioDeck:
    """A private copy of any deck the teacher sees (built-in or studio), images included."""
    _check_room(teacher_id)
    images_from = None
    if source in builtin_decks():
        original = builtin_decks()[source]
        if original.source and any(s.image or any(c.image for c in s.cards) for s in original.sets):
            images_from = Path(original.source).parent
    elif isinstance(source, str) and source.startswith(STUDIO_PREFIX):
        row = get_visible(teacher_id, source[len(STUDIO_PREFIX):])
        original = deck_of(row)
        sync_images(row.id)
        images_from = deck_dir(row.id)
    else:
        raise NotFound(_("There is no such deck to copy."), code="unknown-deck")
    data = deck_to_dict(original)
    data["title"] = _clip(_("%(title)s (copy)", title=original.title), 200)
    text = yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=100)
    deck = load_deck_text(text, source=SOURCE)
    copy = _store(StudioDeck(owner_id=teacher_id, shared=False), text, deck)
    if images_from is not None:
        for image in _images_of(deck):
            origin = images_from / image
            if origin.is_file():
                _keep_image(copy.id, image, origin.read_bytes())
        db.session.commit()
    return copy


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _images_of(deck: Deck) -> set[str]:
    return {image for s in deck.sets for image in (s.image, *(c.image for c in s.cards)) if image}


def new_deck_id(title: str) -> str:
    slug = slugify(title)[:64].strip("-")
    return slug if len(slug) >= 2 else "my-deck"


# ----------------------------------------------------------------------------------------------------
# The form editor: fields s<i>_name, s<i>c<j>_title ... as a deck
# ----------------------------------------------------------------------------------------------------
@dataclass
class FormResult:
    data: dict[str, Any]
    problems: list[str] = field(default_factory=list)


def too_long(what: str, limit: int) -> str:
    return ngettext("%(what)s is longer than %(num)d character", "%(what)s is longer than %(num)d characters",
                    limit, what=what)


def _field(form, name: str, limit: int, problems: list[str], what: str) -> str:
    value = form.get(name, "")
    value = " ".join(value.split()) if isinstance(value, str) else ""
    if len(value) > limit:
        problems.append(too_long(what, limit))
    if any(unicodedata.category(ch) == "Cc" for ch in value):
        problems.append(_("%(what)s contains a control character", what=what))
    return value


def _given(**fields: Any) -> dict[str, Any]:
    """The fields that were filled in, in order (a deck's YAML carries no empty keys)."""
    return {key: value for key, value in fields.items() if value}


def deck_from_form(form, keep_id: str | None = None) -> FormResult:
    """The form editor's fields as the deck format's mapping. Blank card rows and blank sets are empty
    slots; anything typed in a row keeps the row (so a note without a title is reported, not dropped)."""
    problems: list[str] = []
    title = _field(form, "title", TEXT_MAX, problems, _("the title"))
    data: dict[str, Any] = {"format": FORMAT, "id": keep_id or new_deck_id(title), "title": title,
                            "language": _field(form, "language", 35, problems, _("the language")) or "en"}
    description = _field(form, "description", NOTE_MAX, problems, _("the description"))
    if description:
        data["description"] = description
    for key, label in (("set_label", _("what a set is called")), ("card_label", _("what a card is called"))):
        value = _field(form, key, 40, problems, label)
        if value:
            data[key] = value
    sets = []
    used_set_ids: set[str] = set()
    for i in range(MAX_SETS + 10):
        prefix = f"s{i}"
        name = _field(form, f"{prefix}_name", TEXT_MAX, problems, _("set %(set)d's name", set=i + 1))
        note = _field(form, f"{prefix}_note", NOTE_MAX, problems, _("set %(set)d's note", set=i + 1))
        color = _field(form, f"{prefix}_color", 20, problems, _("set %(set)d's colour", set=i + 1))
        cards = []
        for j in range(MAX_CARDS + 4):
            cp = f"{prefix}c{j}"
            card_title = _field(form, f"{cp}_title", TEXT_MAX, problems,
                                _("set %(set)d, card %(card)d's title", set=i + 1, card=j + 1))
            aliases = _split_aliases(_field(form, f"{cp}_aliases", 1000, problems,
                                            _("set %(set)d, card %(card)d's aliases", set=i + 1, card=j + 1)),
                                     also_commas=True)
            card_note = _field(form, f"{cp}_note", NOTE_MAX, problems,
                               _("set %(set)d, card %(card)d's note", set=i + 1, card=j + 1))
            if not (card_title or aliases or card_note):
                continue
            kept_id = _field(form, f"{cp}_id", 64, problems, _("a card's id"))
            image = _field(form, f"{cp}_image", 200, problems, _("a card's image"))
            cards.append({"title": card_title, **_given(id=kept_id, aliases=aliases, note=card_note, image=image)})
        if not (name or note or color or cards):
            continue
        set_id = _field(form, f"{prefix}_id", 64, problems, _("a set's id")) or _unique_id(name, used_set_ids, f"set-{i + 1}")
        used_set_ids.add(set_id)
        image = _field(form, f"{prefix}_image", 200, problems, _("a set's image"))
        _give_card_ids(cards, set_id)
        sets.append({"id": set_id, "name": name, **_given(note=note, color=color, image=image), "cards": cards})
    data["sets"] = sets
    return FormResult(data, problems)


def _unique_id(name: str, used: set[str], fallback: str) -> str:
    base = slugify(name)[:60].strip("-") or fallback
    candidate, n = base, 2
    while candidate in used:
        candidate, n = f"{base}-{n}", n + 1
    return candidate


def _give_card_ids(cards: list[dict], set_id: str, used: set[str] | None = None) -> None:
    """Cards whose titles give no usable id (Cyrillic, only signs) get one from their set and place."""
    for index, card in enumerate(cards, 1):
        if "id" in card or not card.get("title"):
            continue
        slug = slugify(card["title"])[:64].strip("-")
        if not slug or (used is not None and slug in used):
            card["id"] = f"{set_id}-{index}"[:64]
        if used is not None:
            used.add(card.get("id") or slug)


def form_values(deck: Deck | None) -> dict[str, str]:
    """A stored deck as the form editor's fields."""
    if deck is None:
        return {"language": "en"}
    values = {"title": deck.title, "language": deck.language, "description": deck.description or "",
              "set_label": "" if deck.set_label == Deck.set_label else deck.set_label,
              "card_label": "" if deck.card_label == Deck.card_label else deck.card_label}
    for i, card_set in enumerate(deck.sets):
        values.update({f"s{i}_id": card_set.id, f"s{i}_name": card_set.name, f"s{i}_note": card_set.note or "",
                       f"s{i}_color": card_set.color or "", f"s{i}_image": card_set.image or ""})
        for j, card in enumerate(card_set.cards):
            cp = f"s{i}c{j}"
            values.update({f"{cp}_title": card.title, f"{cp}_aliases": "; ".join(card.aliases),
                           f"{cp}_note": card.note or "", f"{cp}_image": card.image or "",
                           f"{cp}_id": card.id if card.id != slugify(card.title) else ""})
    return values


def save_form(teacher_id: int, form, row: StudioDeck | None) -> StudioDeck:
    """The form editor's deck, checked by the validator and stored (a new deck when row is None)."""
    keep_id = deck_of(row).id if row is not None else None
    result = deck_from_form(form, keep_id)
    if result.problems:
        raise DeckInvalid([Problem("the form", 0, 0, message) for message in result.problems])
    text = yaml.safe_dump(result.data, allow_unicode=True, sort_keys=False, width=100)
    try:
        sync_images(row.id if row else None)
        deck = load_deck_text(text, source="the form", base_dir=deck_dir(row.id if row else None))
    except DeckError as exc:
        raise DeckInvalid([_in_the_form(p) for p in exc.problems]) from None
    if row is None:
        _check_room(teacher_id)
        row = StudioDeck(owner_id=teacher_id, shared=bool(form.get("shared")))
    else:
        row.shared = bool(form.get("shared"))
    saved = _store(row, canonical_yaml(deck), deck)
    _forget_unused_images(saved, deck)
    return saved


def _in_the_form(problem: Problem) -> Problem:
    """A problem of the YAML made from the form, said without the lines of that YAML the teacher never saw."""
    if "first" in problem.params:  # the form lists sets and cards in the YAML's order
        problem = problem.with_params(first=Text.of(N_("the first one is higher up in the form")))
    return replace(problem, source="the form", line=0, column=0)


# ----------------------------------------------------------------------------------------------------
# Pasting from a spreadsheet: set, card title, aliases, note
# ----------------------------------------------------------------------------------------------------
HEADINGS = {"set", "sets", "set name", "group", "author", "authors", "writer", "scientist", "painter",
            "composer", "inventor", "rank", "card", "cards", "card title", "title", "work", "works", "name",
            "aliases", "alias", "note", "notes"}


@dataclass
class SheetRow:
    number: int                 # the row as the spreadsheet counts it, from 1
    cells: list[str]
    status: str = "card"        # card, heading, blank
    set_name: str = ""
    title: str = ""
    aliases: list[str] = field(default_factory=list)
    note: str = ""
    problems: list[str] = field(default_factory=list)


@dataclass
class Sheet:
    rows: list[SheetRow]
    delimiter: str
    problems: list[str] = field(default_factory=list)   # about the whole deck

    @property
    def ok(self) -> bool:
        return not self.problems and not any(row.problems for row in self.rows)

    @property
    def cards(self) -> list[SheetRow]:
        return [row for row in self.rows if row.status == "card"]

    def sets(self) -> list[tuple[str, list[SheetRow]]]:
        groups: dict[str, tuple[str, list[SheetRow]]] = {}
        for row in self.cards:
            if row.set_name:
                groups.setdefault(row.set_name.casefold(), (row.set_name, []))[1].append(row)
        return list(groups.values())


def _split_aliases(text: str, also_commas: bool) -> list[str]:
    parts = re.split(r"[;|,]" if also_commas else r"[;|]", text)
    return [" ".join(part.split()) for part in parts if part.strip()]


def _is_heading(cells: list[str], labels: tuple[str, ...]) -> bool:
    words = {w.casefold() for w in labels if w} | HEADINGS
    first = [re.sub(r"[^\w ]", "", c).strip().casefold() for c in cells[:2]]
    return len(first) == 2 and first[0] in words and first[1] in words


def read_sheet(text: str, labels: tuple[str, ...] = ()) -> Sheet:
    """Every row of a pasted spreadsheet with what it becomes, or its problems: nothing is dropped
    without saying so (a blank row and a heading row are shown as skipped)."""
    text = (text or "").replace("\r\n", "\n").replace("\r", "\n")
    delimiter = "\t" if "\t" in text else ","
    sheet = Sheet([], "tab" if delimiter == "\t" else "comma")
    lines = text.count("\n") + 1
    if lines > MAX_PASTE_ROWS:  # refused before any work: no deck has that many rows
        sheet.problems.append(_("these are %(rows)d rows; a deck has at most %(cards)d cards (%(sets)d sets of "
                                "%(per_set)d), so paste at most %(most)d rows", rows=lines,
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
            sheet.rows.append(SheetRow(start, [], problems=[_("this row cannot be read (%(error)s)", error=str(exc))]))
            break
        cells = [" ".join(cell.split()) for cell in cells]
        first_rows = not seen_heading and not any_card
        row = SheetRow(start, cells)
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
            row.problems.append(ngettext("this row has %(num)d column; a row is: set, card title, aliases, note "
                                         "(put several aliases in one cell, separated by ;)",
                                         "this row has %(num)d columns; a row is: set, card title, aliases, note "
                                         "(put several aliases in one cell, separated by ;)", len(cells)))
        padded = cells + [""] * (4 - len(cells))
        row.set_name, row.title, row.note = padded[0], padded[1], padded[3]
        row.aliases = _split_aliases(padded[2], also_commas=delimiter == "\t")
        if not row.set_name:
            row.problems.append(_("the first column (the set) is empty"))
        if not row.title:
            row.problems.append(_("the second column (the card's title) is empty"))
        for what, value, limit in ((N_("the set"), row.set_name, TEXT_MAX), (N_("the title"), row.title, TEXT_MAX),
                                   (N_("the note"), row.note, NOTE_MAX)):
            if len(value) > limit:
                row.problems.append(too_long(_(what), limit))
        if any(len(alias) > TEXT_MAX for alias in row.aliases) or len(row.aliases) > ALIASES_MAX:
            row.problems.append(_("at most %(aliases)d aliases of at most %(characters)d characters each",
                                  aliases=ALIASES_MAX, characters=TEXT_MAX))
        if any(unicodedata.category(ch) == "Cc" for ch in "".join(cells)):
            row.problems.append(_("a cell contains a control character"))
        if row.title:
            first = seen_titles.get(row.title.casefold())
            if first is not None:
                row.problems.append(_('the card title "%(title)s" is already in row %(row)d',
                                      title=row.title, row=first))
            else:
                seen_titles[row.title.casefold()] = row.number
    for name, rows in sheet.sets():
        if len(rows) > MAX_CARDS:
            for extra in rows[MAX_CARDS:]:
                extra.problems.append(_('the set "%(name)s" already has %(most)d cards in the rows above; '
                                        "a set has %(least)d to %(most)d",
                                        name=name, least=MIN_CARDS, most=MAX_CARDS))
        elif len(rows) < MIN_CARDS:
            rows[0].problems.append(ngettext('the set "%(name)s" has only %(num)d card; '
                                             "a set needs %(least)d to %(most)d",
                                             'the set "%(name)s" has only %(num)d cards; '
                                             "a set needs %(least)d to %(most)d",
                                             len(rows), name=name, least=MIN_CARDS, most=MAX_CARDS))
    count = len(sheet.sets())
    if not sheet.cards:
        sheet.problems.append(_("nothing to read: paste rows of set, card title, aliases, note"))
    elif not MIN_SETS <= count <= MAX_SETS:
        sheet.problems.append(ngettext("a deck needs %(least)d to %(most)d sets; these rows make %(num)d",
                                       "a deck needs %(least)d to %(most)d sets; these rows make %(num)d",
                                       count, least=MIN_SETS, most=MAX_SETS))
    return sheet


def _q(text: str) -> str:
    """A YAML double-quoted scalar on one line (every character escaped as YAML needs)."""
    return yaml.safe_dump(text, default_style='"', allow_unicode=True, width=10**9).rstrip("\n")


def sheet_yaml(sheet: Sheet, head: dict[str, str]) -> tuple[str, dict[int, list[int]]]:
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
        set_id = _unique_id(name, used_sets, f"set-{n}")
        used_sets.add(set_id)
        origin[len(lines) + 1] = [r.number for r in rows]
        lines.append(f"  - id: {_q(set_id)}")
        origin[len(lines) + 1] = [r.number for r in rows]
        lines.append(f"    name: {_q(name)}")
        origin[len(lines) + 1] = [r.number for r in rows]
        lines.append("    cards:")
        cards = [{"title": r.title} for r in rows]
        _give_card_ids(cards, set_id, used_cards)
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


def create_from_sheet(teacher_id: int, text: str, head: dict[str, str], shared: bool = False) -> tuple[Sheet, StudioDeck | None]:
    """Read the pasted rows; when every row is good, make the deck (checked by the validator, whose
    problems are put back on the rows they came from). Returns the sheet and the deck, if made."""
    head = {k: " ".join(str(v or "").split()) for k, v in head.items()}
    sheet = read_sheet(text, (head.get("set_label", ""), head.get("card_label", "")))
    for key, what, limit in (("title", N_("the title"), TEXT_MAX), ("language", N_("the language"), 35),
                             ("set_label", N_("what a set is called"), 40),
                             ("card_label", N_("what a card is called"), 40)):
        if len(head.get(key, "")) > limit:
            sheet.problems.append(too_long(_(what), limit))
    if not head.get("title"):
        sheet.problems.append(_("give the deck a title"))
    if not sheet.ok:
        return sheet, None
    head = {**head, "id": new_deck_id(head["title"]), "language": head.get("language") or "en"}
    source, origin = sheet_yaml(sheet, head)
    try:
        deck = load_deck_text(source, source="the sheet")
    except DeckError as exc:
        by_number = {row.number: row for row in sheet.rows}
        for problem in exc.problems:
            rows = origin.get(problem.line)
            if "first" in problem.params:  # the first one's line of the YAML, as the row it came from
                line = problem.params["first"].params["line"]
                problem = problem.with_params(first=Text.of(N_("first in row %(row)s"),
                                                            row=origin.get(line, ["?"])[0]))
            message = problem_text(problem)
            if rows:
                by_number[rows[0]].problems.append(message)
            else:
                sheet.problems.append(message)
        return sheet, None
    _check_room(teacher_id)
    row = _store(StudioDeck(owner_id=teacher_id, shared=bool(shared)), canonical_yaml(deck), deck)
    return sheet, row


# ----------------------------------------------------------------------------------------------------
# Images of a set or a card: PNG or JPEG, size-checked, re-encoded with Pillow
# ----------------------------------------------------------------------------------------------------
def clean_image(data: bytes, max_bytes: int = IMAGE_MAX_BYTES) -> tuple[bytes, str]:
    """The image re-encoded (metadata dropped, scaled down when huge) and its suffix; BadRequest when
    it is not a PNG or JPEG, too large, or unreadable."""
    from PIL import Image, ImageOps, UnidentifiedImageError

    if not data:
        raise BadRequest(_("Choose an image file (PNG or JPEG) to upload."), code="no-file")
    if len(data) > max_bytes:
        raise BadRequest(_("The image is %(size)d KiB; an image may be at most %(most)d KiB.", size=len(data) // 1024,
                           most=max_bytes // 1024),
                         code="image-too-large")
    try:
        with Image.open(io.BytesIO(data)) as image:
            kind = image.format
            if kind not in ("PNG", "JPEG"):
                raise BadRequest(_("This file is a %(kind)s image, not a PNG or JPEG.", kind=kind) if kind
                                 else _("This file is not an image, not a PNG or JPEG."),
                                 code="not-an-image")
            width, height = image.size
            if width * height > IMAGE_MAX_PIXELS or width < 1 or height < 1:
                raise BadRequest(_("The image is %(width)d x %(height)d pixels; that is too many for a card "
                                   "(at most 30 million).", width=width, height=height), code="image-too-large")
            image.load()
            image = ImageOps.exif_transpose(image)
            if max(image.size) > IMAGE_MAX_SIDE:
                image.thumbnail((IMAGE_MAX_SIDE, IMAGE_MAX_SIDE))
            out = io.BytesIO()
            if kind == "PNG":
                if image.mode not in ("RGB", "RGBA", "L", "LA"):
                    image = image.convert("RGBA")
                image.save(out, "PNG")
                return out.getvalue(), "png"
            image.convert("RGB").save(out, "JPEG", quality=88)
            return out.getvalue(), "jpg"
    except BadRequest:
        raise
    except Image.DecompressionBombError:
        raise BadRequest(_("The image has too many pixels for a card (at most 30 million)."),
                         code="image-too-large") from None
    except UnidentifiedImageError:
        raise BadRequest(_("This file is not a PNG or JPEG image."), code="not-an-image") from None
    except (OSError, ValueError, SyntaxError, EOFError):
        raise BadRequest(_("This image is damaged and cannot be read; save it again as PNG or JPEG."),
                         code="not-an-image") from None


def _target(deck: Deck, target: str) -> tuple[str, str]:
    kind, _colon, item = str(target).partition(":")
    if kind == "set" and deck.has_set(item):
        return kind, item
    if kind == "card" and deck.has_card(item):
        return kind, item
    raise BadRequest(_("Choose a set or a card of this deck for the image."), code="unknown-target")


def set_image(row: StudioDeck, target: str, data: bytes) -> StudioDeck:
    deck = deck_of(row)
    kind, item = _target(deck, target)
    content, suffix = clean_image(data)
    name = f"{kind}-{slugify(item)[:40] or 'x'}-{secrets.token_hex(4)}.{suffix}"
    _keep_image(row.id, f"images/{name}", content)  # committed with the deck that names it
    return _with_image(row, deck, kind, item, f"images/{name}")


def remove_image(row: StudioDeck, target: str) -> StudioDeck:
    deck = deck_of(row)
    kind, item = _target(deck, target)
    return _with_image(row, deck, kind, item, None)


def _with_image(row: StudioDeck, deck: Deck, kind: str, item: str, image: str | None) -> StudioDeck:
    data = deck_to_dict(deck)
    for card_set in data["sets"]:
        places = [card_set] if kind == "set" and card_set["id"] == item else []
        if kind == "card":
            places = [c for c, original in zip(card_set["cards"], deck.set(card_set["id"]).cards) if original.id == item]
        for place in places:
            if image:
                place["image"] = image
            else:
                place.pop("image", None)
    return save_text(row, yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=100))


# Images live in the database (studio_images), so every app process and host has them; each host keeps
# a copy on its disk, under the deck's upload folder, where the validator and the printer look for them.
def _keep_image(row_id: int, path: str, content: bytes) -> None:
    """Store an image of the deck (in the caller's transaction) and this host's copy of it."""
    db.session.add(StudioImage(deck_id=row_id, path=path, data=content))
    _write_copy(deck_dir(row_id) / path, content)


def _write_copy(target: Path, content: bytes) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary = target.parent / f".{target.name}.{secrets.token_hex(4)}.tmp"
    temporary.write_bytes(content)
    os.replace(temporary, target)  # whole or not at all, for a reader in another thread


def _local_images(row_id: int) -> set[str]:
    folder = deck_dir(row_id)
    if not folder.is_dir():
        return set()
    return {path.relative_to(folder).as_posix() for path in folder.rglob("*")
            if path.is_file() and path.suffix.lower() in (".png", ".jpg", ".jpeg") and not path.name.startswith(".")}


FRESH_COPY_SECONDS = 60


def sync_images(row_id: int | None) -> None:
    """Make this host's copies of a deck's images match the database: copy what another host stored,
    drop what another host removed. An image on this disk that the deck still names but the database
    lacks (uploaded before images moved into the database) is taken into it."""
    if not row_id:
        return
    stored = {path for (path,) in db.session.query(StudioImage.path).filter_by(deck_id=row_id)}
    local = _local_images(row_id)
    for path in sorted(stored - local):
        image = StudioImage.query.filter_by(deck_id=row_id, path=path).first()
        if image is not None:
            _write_copy(deck_dir(row_id) / path, image.data)
    extra = local - stored
    if not extra:
        return
    row = db.session.get(StudioDeck, row_id)
    named = _images_of(deck_of(row)) if row is not None else set()
    adopted = False
    for path in sorted(extra):
        if path in named:
            db.session.add(StudioImage(deck_id=row_id, path=path, data=(deck_dir(row_id) / path).read_bytes()))
            adopted = True
        elif time.time() - (deck_dir(row_id) / path).stat().st_mtime > FRESH_COPY_SECONDS:
            (deck_dir(row_id) / path).unlink(missing_ok=True)  # (a fresh one may be an upload not yet committed)
    if adopted:
        try:
            db.session.commit()
        except IntegrityError:  # another process took them in at the same moment
            db.session.rollback()


def _forget_unused_images(row: StudioDeck, deck: Deck) -> None:
    used = _images_of(deck)
    unused = [image for image in StudioImage.query.filter_by(deck_id=row.id) if image.path not in used]
    for image in unused:
        db.session.delete(image)
    if unused:
        db.session.commit()
    for path in _local_images(row.id) - used:
        (deck_dir(row.id) / path).unlink(missing_ok=True)


def image_path(row: StudioDeck, name: str) -> Path:
    """This host's copy of one of the deck's images (images/<name>), made from the database if needed."""
    if not IMAGE_NAME.fullmatch(name or ""):
        raise NotFound(_("There is no such image."), code="unknown-image")
    image = StudioImage.query.filter_by(deck_id=row.id, path=f"images/{name}").first()
    path = deck_dir(row.id) / "images" / name
    if image is None:
        path.unlink(missing_ok=True)  # removed on another host
        raise NotFound(_("There is no such image."), code="unknown-image")
    if not path.is_file():
        _write_copy(path, image.data)
    return path


def deck_for_print(row: StudioDeck) -> Deck:
    """The deck read from a file in its folder, so the printer finds its images beside it."""
    sync_images(row.id)
    folder = deck_dir(row.id)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / SOURCE
    if not path.is_file() or path.read_text(encoding="utf-8") != row.yaml_text:
        temporary = folder / f".{SOURCE}.{secrets.token_hex(4)}.tmp"
        temporary.write_text(row.yaml_text, encoding="utf-8")
        os.replace(temporary, path)
    return load_deck_text(row.yaml_text, source=str(path))
