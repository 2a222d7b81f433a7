"""What a deck is once loaded: immutable, validated, independent of YAML."""
from __future__ import annotations

from dataclasses import dataclass, field

from .errors import N_


@dataclass(frozen=True)
class Card:
    id: str
    title: str
    set_id: str
    index: int  # 1-based position of the card in its set, as the deck lists it
    aliases: tuple[str, ...] = ()
    note: str | None = None
    image: str | None = None


@dataclass(frozen=True)
class CardSet:
    id: str
    name: str
    cards: tuple[Card, ...]
    note: str | None = None
    color: str | None = None
    image: str | None = None

    @property
    def card_ids(self) -> tuple[str, ...]:
        return tuple(card.id for card in self.cards)


@dataclass(frozen=True)
class Deck:
    id: str
    title: str
    sets: tuple[CardSet, ...]
    language: str = "en"
    description: str | None = None
    # A deck that names neither gets the format's words, shown in the reader's language (app/i18n.py:
    # deck_word) and printed in the deck's (app/printing/faces.py): compare with Deck.set_label, never "Set".
    set_label: str = N_("Set")
    card_label: str = N_("Card")
    source: str | None = None  # the file it came from, when it came from one
    _cards: dict[str, Card] = field(default_factory=dict, init=False, repr=False, compare=False)
    _sets: dict[str, CardSet] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for card_set in self.sets:
            self._sets[card_set.id] = card_set
            for card in card_set.cards:
                self._cards[card.id] = card

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(card for card_set in self.sets for card in card_set.cards)

    @property
    def card_count(self) -> int:
        return len(self._cards)

    def card(self, card_id: str) -> Card:
        return self._cards[card_id]

    def set(self, set_id: str) -> CardSet:
        return self._sets[set_id]

    def has_card(self, card_id: str) -> bool:
        return card_id in self._cards

    def has_set(self, set_id: str) -> bool:
        return set_id in self._sets
