"""Finding decks: those a teacher sees or may change, and the deck a new table plays."""
from __future__ import annotations

import hashlib
from functools import lru_cache
from typing import Any

from sqlalchemy.exc import IntegrityError

from ...decks.errors import N_, say
from ...db import begin_write, db, row_by_id
from ...decks import Deck, DeckError, builtin_decks, load_deck_text
from ...models import DeckSnapshot, StudioDeck
from ...store import SNAPSHOT_PREFIX
from ..errors import BadRequest, Forbidden, NotFound

STUDIO_PREFIX = "studio:"     # how a studio deck is chosen for a table: studio:<number>
SOURCE = "deck.yaml"


def ref_of(row: StudioDeck) -> str:
    return f"{STUDIO_PREFIX}{row.id}"


def visible(teacher_id: int) -> list[StudioDeck]:
    """The teacher's own decks and those the other teachers share, by title."""
    rows = (StudioDeck.query.filter((StudioDeck.owner_id == teacher_id) | StudioDeck.shared.is_(True))
            .order_by(StudioDeck.title, StudioDeck.id).all())
    return sorted(rows, key=lambda row: (row.owner_id != teacher_id, row.title.casefold(), row.id))


def own(teacher_id: int) -> list[StudioDeck]:
    return [row for row in visible(teacher_id) if row.owner_id == teacher_id]


def get_visible(teacher_id: int, deck_number: Any) -> StudioDeck:
    """A deck this teacher may see: their own or a shared one. Another's private deck is not found."""
    row = row_by_id(StudioDeck, deck_number)
    if row is None or (row.owner_id != teacher_id and not row.shared):
        raise NotFound(N_("There is no such deck in the studio."), code="unknown-deck")
    return row


def get_own(teacher_id: int, deck_number: Any) -> StudioDeck:
    """A deck this teacher may change: their own. A shared deck of another teacher is 403."""
    row = get_visible(teacher_id, deck_number)
    if row.owner_id != teacher_id:
        raise Forbidden(say(N_('"%(title)s" belongs to %(owner)s: duplicate it to make a copy of your own.'),
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
    raise BadRequest(say(N_('unknown deck "%(deck)s"; choose a deck of the library (%(decks)s) '
                            "or one of the studio's (studio:<number>)"), deck=shown,
                         decks=", ".join(sorted(builtin_decks()))))


def table_deck_id(ref: str, teacher_id: int) -> str:
    """What a new table stores as its deck: the built-in id, or a snapshot of the studio deck as it is."""
    if ref in builtin_decks():
        return ref
    row = get_visible(teacher_id, ref[len(STUDIO_PREFIX):])
    digest = hashlib.sha256(f"{row.id}\n{row.yaml_text}".encode()).hexdigest()[:40]
    snapshot_ref = f"{SNAPSHOT_PREFIX}{digest}"
    if DeckSnapshot.query.filter_by(ref=snapshot_ref).first() is None:
        begin_write()
        db.session.add(DeckSnapshot(ref=snapshot_ref, studio_deck_id=row.id, title=row.title,
                                    yaml_text=row.yaml_text))
        try:
            db.session.commit()
        except IntegrityError:  # another table took the same snapshot at the same moment
            db.session.rollback()
    return snapshot_ref
