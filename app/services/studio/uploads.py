"""This host's folder of a deck: its images copied from the database, and its text for the printer.

Images live in the database (studio_images), so every app process and host has them; each host keeps
a copy on its disk, under the deck's upload folder, where the validator and the printer look for them.
Saving a deck and changing its images both need these copies, so they are kept apart from either.
"""
from __future__ import annotations

import os
import re
import secrets
import time
from pathlib import Path

from flask import current_app
from sqlalchemy.exc import IntegrityError

from ...decks.errors import N_
from ...db import db
from ...decks import Deck, load_deck_text
from ...models import DeckSnapshot, StudioDeck, StudioImage
from ...store import SNAPSHOT_PREFIX
from ..errors import NotFound
from .finding import SOURCE, deck_of

IMAGE_NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,80}\.(png|jpg)")
FRESH_COPY_SECONDS = 60


def upload_root() -> Path:
    return Path(current_app.config.get("UPLOAD_FOLDER") or Path(current_app.instance_path) / "uploads")


def deck_dir(row_id: int | None) -> Path:
    return upload_root() / "decks" / (str(row_id) if row_id else "new")


def table_image(deck_ref: str, name: str) -> Path:
    """An image of a table's studio deck, from the studio deck its snapshot was taken from (the images
    stay in the studio; a snapshot keeps the text). The caller checks the snapshot uses it."""
    snapshot = (DeckSnapshot.query.filter_by(ref=deck_ref).one_or_none()
                if str(deck_ref).startswith(SNAPSHOT_PREFIX) else None)
    row = db.session.get(StudioDeck, snapshot.studio_deck_id) if snapshot and snapshot.studio_deck_id else None
    if row is None:
        raise NotFound(N_("There is no such image."), code="unknown-image")
    return image_path(row, name)


def images_of(deck: Deck) -> set[str]:
    return {image for s in deck.sets for image in (s.image, *(c.image for c in s.cards)) if image}


def keep_image(row_id: int, path: str, content: bytes) -> None:
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
    named = images_of(deck_of(row)) if row is not None else set()
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


def forget_unused_images(row: StudioDeck, deck: Deck) -> None:
    used = images_of(deck)
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
        raise NotFound(N_("There is no such image."), code="unknown-image")
    image = StudioImage.query.filter_by(deck_id=row.id, path=f"images/{name}").first()
    path = deck_dir(row.id) / "images" / name
    if image is None:
        path.unlink(missing_ok=True)  # removed on another host
        raise NotFound(N_("There is no such image."), code="unknown-image")
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
