"""The deck a table plays, from what the table stores: a built-in deck's id, a studio deck's snapshot
(frozen when the table opened), or, in a deal's record header, the deck written out."""
from __future__ import annotations

from functools import lru_cache
from typing import Any

import yaml

from ..decks import Deck, builtin_decks, load_deck_text

SNAPSHOT_PREFIX = "snap:"  # a table's studio deck, frozen when the table opened (models.DeckSnapshot)


def deck_by_ref(ref: str) -> Deck:
    """The deck a table plays: a built-in deck's id, or a studio deck's snapshot. KeyError when none."""
    decks = builtin_decks()
    if ref in decks:
        return decks[ref]
    if isinstance(ref, str) and ref.startswith(SNAPSHOT_PREFIX):
        return _snapshot_deck(ref)
    raise KeyError(ref)


@lru_cache(maxsize=128)
def _snapshot_deck(ref: str) -> Deck:
    # A snapshot's ref is a digest of its text: the same ref is the same deck in every process.
    from ..models import DeckSnapshot

    row = DeckSnapshot.query.filter_by(ref=ref).one_or_none()
    if row is None:
        raise KeyError(ref)
    return load_deck_text(row.yaml_text, source=f"<{ref}>")


def header_deck(value: Any) -> Deck:
    """The deck of a deal's record header: a deck id, or the deck written out (a studio deck)."""
    if isinstance(value, dict):
        return _inline_deck(yaml.safe_dump(value, allow_unicode=True, sort_keys=False))
    return deck_by_ref(value)


@lru_cache(maxsize=64)
def _inline_deck(text: str) -> Deck:
    return load_deck_text(text, source="<record>")
