"""Decks: the YAML format, its validator and the built-in library. Pure Python: no Flask, no database.

The names below are imported from their modules when first used, so that importing one light module
of the package (`app.decks.errors`, `app.decks.model`, `app.decks.slug`) does not import YAML too.
"""
from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

_WHERE = {
    "DeckError": "errors", "Problem": "errors",
    "builtin_decks": "library", "get_deck": "library", "load_library": "library",
    "deck_from_node": "loader", "load_deck_file": "loader", "load_deck_text": "loader",
    "Card": "model", "CardSet": "model", "Deck": "model",
    "slugify": "slug",
}

__all__ = [
    "Card", "CardSet", "Deck", "DeckError", "Problem", "builtin_decks", "deck_from_node", "get_deck",
    "load_deck_file", "load_deck_text", "load_library", "slugify",
]

if TYPE_CHECKING:
    from .errors import DeckError, Problem
    from .library import builtin_decks, get_deck, load_library
    from .loader import deck_from_node, load_deck_file, load_deck_text
    from .model import Card, CardSet, Deck
    from .slug import slugify


def __getattr__(name: str) -> object:
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f".{_WHERE[name]}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
