"""A Deck back to the plain mapping of the deck format (for records, downloads and the studio)."""
from __future__ import annotations

from typing import Required, TypedDict

from .model import Deck
from .slug import slugify


class CardData(TypedDict, total=False):
    title: Required[str]
    id: str
    aliases: list[str]
    note: str
    image: str


class SetData(TypedDict, total=False):
    id: Required[str]
    name: Required[str]
    note: str
    color: str
    image: str
    cards: list[CardData]  # always there, written after the keys above


class DeckData(TypedDict, total=False):
    format: Required[str]
    id: Required[str]
    title: Required[str]
    language: Required[str]
    description: str
    set_label: str
    card_label: str
    sets: list[SetData]  # always there, written after the keys above


def deck_to_dict(deck: Deck) -> DeckData:
    out: DeckData = {"format": "authors-deck/1", "id": deck.id, "title": deck.title, "language": deck.language}
    if deck.description:
        out["description"] = deck.description
    if deck.set_label != Deck.set_label:
        out["set_label"] = deck.set_label
    if deck.card_label != Deck.card_label:
        out["card_label"] = deck.card_label
    out["sets"] = []
    for card_set in deck.sets:
        set_out: SetData = {"id": card_set.id, "name": card_set.name}
        if card_set.note:
            set_out["note"] = card_set.note
        if card_set.color:
            set_out["color"] = card_set.color
        if card_set.image:
            set_out["image"] = card_set.image
        set_out["cards"] = []
        for card in card_set.cards:
            card_out: CardData = {"title": card.title}
            if card.id != slugify(card.title):
                card_out["id"] = card.id
            if card.aliases:
                card_out["aliases"] = list(card.aliases)
            if card.note:
                card_out["note"] = card.note
            if card.image:
                card_out["image"] = card.image
            set_out["cards"].append(card_out)
        out["sets"].append(set_out)
    return out
