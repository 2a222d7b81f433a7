"""What a deck looks like wherever it is shown: each set's colour and whether its cards are ordinary
playing cards (rank and suit). Printed cards (app/printing/faces.py) and the cards drawn in the browser
(static/js/cards.js, from the deck a table sends) share these answers, so a set has one colour.
"""
from __future__ import annotations

import re
import unicodedata
import zlib

from .model import Deck

# For sets (and a deck's backs) without a colour of their own.
PALETTE = ("#7a2e2e", "#2e4a7a", "#2e6b45", "#6b3fa0", "#8a5a1c", "#1f6b6b", "#7a2e5e", "#4a5a2e",
           "#3c4a5c", "#8a3c1c", "#2e5a8a", "#5a4a3c")
RED_SUITS = frozenset("♥♦♡♢")
PLAYING_DECKS = frozenset({"standard-52", "literature-48", "literature-54"})
RANK_SUIT = re.compile(r"^(\S{1,3}?)\s?([♠♥♦♣♤♡♢♧])$")


def rank_and_suit(title: str) -> tuple[str, str] | None:
    """("10", "♥") for a title such as "10♥" or "10 ♥"; None for any other title."""
    one_line = " ".join(unicodedata.normalize("NFC", title).split())
    found = RANK_SUIT.match(one_line)
    return (found.group(1), found.group(2)) if found else None


def is_playing_deck(deck: Deck) -> bool:
    """Ordinary playing cards: the known ids, or a deck whose titles are mostly rank and suit."""
    if deck.id in PLAYING_DECKS:
        return True
    cards = deck.cards
    return bool(cards) and sum(rank_and_suit(c.title) is not None for c in cards) * 4 >= len(cards) * 3


def set_letter(position: int) -> str:
    """A set's letter by its place in the deck (0-based): A to Z, then AA, AB ... as spreadsheets count."""
    letters = ""
    position += 1
    while position:
        position, rest = divmod(position - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def card_marks(deck: Deck) -> dict[str, str]:
    """Each card's index as old quartets print it, its set's letter and its place in the set ("B2"): a
    child who cannot read yet asks for "B2"."""
    return {card.id: f"{set_letter(i)}{card.index}" for i, card_set in enumerate(deck.sets) for card in card_set.cards}


def set_colors(deck: Deck) -> dict[str, str]:
    """Each set's colour (#rrggbb): its own, else the palette's in the order of the sets."""
    return {s.id: s.color or PALETTE[i % len(PALETTE)] for i, s in enumerate(deck.sets)}


def deck_color(deck: Deck) -> str:
    """The deck's colour (its backs): the colour most of its sets share, else one picked by its id."""
    counts: dict[str, int] = {}
    for card_set in deck.sets:
        if card_set.color:
            counts[card_set.color] = counts.get(card_set.color, 0) + 1
    if counts:
        top = max(counts.values())
        return next(s.color for s in deck.sets if s.color and counts[s.color] == top)
    return PALETTE[zlib.crc32(deck.id.encode()) % len(PALETTE)]
