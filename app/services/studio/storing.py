"""Validating and saving: every deck that comes in is checked by the one validator, then stored as text."""
from __future__ import annotations

import shutil
import time
from pathlib import Path

import yaml

from ...decks.errors import ENGLISH, N_, Translations, say
from ...db import begin_write, db
from ...decks import Deck, DeckError, builtin_decks, load_deck_text, slugify
from ...decks.dump import deck_to_dict
from ...decks.yamlsafe import decode
from ...models import StudioDeck, StudioImage
from ..errors import BadRequest, NotFound
from .finding import SOURCE, STUDIO_PREFIX, deck_of, get_visible
from .problems import DeckInvalid
from .uploads import deck_dir, forget_unused_images, images_of, keep_image, sync_images

MAX_DECKS_PER_TEACHER = 200


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


def store(row: StudioDeck, text: str, deck: Deck) -> StudioDeck:
    begin_write()  # (SQLite: a read turned into a write fails at once when another wrote in between)
    row.yaml_text, row.title, row.language = text, deck.title, deck.language
    row.set_count, row.card_count, row.updated_at = len(deck.sets), deck.card_count, time.time()
    db.session.add(row)
    db.session.commit()
    return row


def check_room(teacher_id: int) -> None:
    if StudioDeck.query.filter_by(owner_id=teacher_id).count() >= MAX_DECKS_PER_TEACHER:
        raise BadRequest(say(N_("You have %(num)d decks already; delete one to make another."),
                             num=MAX_DECKS_PER_TEACHER), code="too-many-decks")


def create_from_text(teacher_id: int, text: str | bytes, source: str = SOURCE, shared: bool = False) -> StudioDeck:
    """A new deck from a file or a pasted text, kept as written (comments and all) once valid."""
    deck = validate(text, None, source)
    check_room(teacher_id)
    return store(StudioDeck(owner_id=teacher_id, shared=bool(shared)), decode(text, source), deck)


def save_text(row: StudioDeck, text: str | bytes, source: str = SOURCE) -> StudioDeck:
    deck = validate(text, row.id, source)
    saved = store(row, decode(text, source), deck)
    forget_unused_images(saved, deck)
    return saved


def set_shared(row: StudioDeck, shared: bool) -> None:
    begin_write()
    row.shared = bool(shared)
    db.session.commit()


def delete(row: StudioDeck) -> None:
    folder = deck_dir(row.id)
    begin_write()
    StudioImage.query.filter_by(deck_id=row.id).delete()
    db.session.delete(row)
    db.session.commit()
    shutil.rmtree(folder, ignore_errors=True)  # tables keep playing their snapshots


def duplicate(teacher_id: int, source: str, translations: Translations = ENGLISH) -> StudioDeck:
    """A private copy of any deck the teacher sees (built-in or studio), images included, titled
    "<title> (copy)" in the language of `translations` (the teacher's)."""
    check_room(teacher_id)
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
        raise NotFound(N_("There is no such deck to copy."), code="unknown-deck")
    data = deck_to_dict(original)
    data["title"] = _clip(say(N_("%(title)s (copy)"), title=original.title).render(translations), 200)
    text = yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=100)
    deck = load_deck_text(text, source=SOURCE)
    copy = store(StudioDeck(owner_id=teacher_id, shared=False), text, deck)
    if images_from is not None:
        for image in images_of(deck):
            origin = images_from / image
            if origin.is_file():
                keep_image(copy.id, image, origin.read_bytes())
        db.session.commit()
    return copy


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def new_deck_id(title: str) -> str:
    slug = slugify(title)[:64].strip("-")
    return slug if len(slug) >= 2 else "my-deck"
