"""Decks: the YAML format, its validator and the built-in library. Pure Python: no Flask, no database."""
from .errors import DeckError, Problem
from .library import builtin_decks, get_deck, load_library
from .loader import deck_from_node, load_deck_file, load_deck_text
from .model import Card, CardSet, Deck
from .slug import slugify

__all__ = [
    "Card", "CardSet", "Deck", "DeckError", "Problem", "builtin_decks", "deck_from_node", "get_deck",
    "load_deck_file", "load_deck_text", "load_library", "slugify",
]
