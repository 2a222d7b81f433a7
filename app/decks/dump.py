"""A Deck back to the plain mapping of the deck format (for records, downloads and the studio)."""
from __future__ import annotations

from .model import Deck
from .slug import slugify


def deck_to_dict(deck: Deck) -> dict:
    out: dict = {"format": "authors-deck/1", "id": deck.id, "title": deck.title, "language": deck.language}
    if deck.description:
        out["description"] = deck.description
    if deck.set_label != Deck.set_label:
        out["set_label"] = deck.set_label
    if deck.card_label != Deck.card_label:
        out["card_label"] = deck.card_label
    out["sets"] = []
    for card_set in deck.sets:
        set_out: dict = {"id": card_set.id, "name": card_set.name}
        for key in ("note", "color", "image"):
            if getattr(card_set, key):
                set_out[key] = getattr(card_set, key)
        set_out["cards"] = []
        for card in card_set.cards:
            card_out: dict = {"title": card.title}
            if card.id != slugify(card.title):
                card_out["id"] = card.id
            if card.aliases:
                card_out["aliases"] = list(card.aliases)
            for key in ("note", "image"):
                if getattr(card, key):
                    card_out[key] = getattr(card, key)
            set_out["cards"].append(card_out)
        out["sets"].append(set_out)
    return out
