"""Decks as the rules need them: two copies for the double deck, playing cards regrouped for Literature."""
from __future__ import annotations

from ..decks.errors import N_
from ..decks.model import Card, CardSet, Deck
from .options import Options, OptionsError

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS = (("S", "♠", "spades"), ("H", "♥", "hearts"), ("D", "♦", "diamonds"), ("C", "♣", "clubs"))
RANK_PLURALS = {"2": "twos", "3": "threes", "4": "fours", "5": "fives", "6": "sixes", "7": "sevens",
                "8": "eights", "9": "nines", "10": "tens", "J": "jacks", "Q": "queens", "K": "kings",
                "A": "aces"}
PLAYING_CARD_DECKS = ("standard-52", "literature-48", "literature-54")


def deck_for(deck: Deck, options: Options) -> Deck:
    """The deck actually played: the given one, regrouped or doubled as the options say."""
    if options.removed_rank is not None or options.rank_sets:
        if deck.id not in PLAYING_CARD_DECKS:
            raise OptionsError(N_('options "removed_rank", "jokers" and "rank_sets" regroup ordinary playing '
                                  'cards; use one of the decks %(decks)s, not "%(deck)s"'),
                               decks=", ".join(PLAYING_CARD_DECKS), deck=deck.id)
        deck = playing_card_deck(options.removed_rank, options.jokers, options.rank_sets)
    if options.double_deck:
        deck = doubled(deck)
    return deck


def _card(rank: str, suit: tuple[str, str, str], set_id: str, index: int) -> Card:
    return Card(id=f"{rank}{suit[0]}", title=f"{rank}{suit[1]}", set_id=set_id, index=index)


def playing_card_deck(removed_rank: str | None, jokers: bool, rank_sets: bool) -> Deck:
    """Playing cards grouped by rank (13 sets of 4) or in half-suits around a removed rank."""
    if removed_rank is not None and removed_rank not in RANKS:
        raise OptionsError(N_('option "%(name)s" is one of %(choices)s, not "%(value)s"'), name="removed_rank",
                           choices=" ".join(RANKS), value=removed_rank)
    if rank_sets:
        ranks = [r for r in RANKS if r != removed_rank]
        sets = [CardSet(id=r, name=RANK_PLURALS[r].capitalize(),
                        cards=tuple(_card(r, suit, r, i) for i, suit in enumerate(SUITS, 1))) for r in ranks]
        return Deck(id="literature-rank-sets", title="Playing cards in sets of one rank", sets=tuple(sets),
                    set_label="Rank")
    removed = removed_rank or "8"
    kept = [r for r in RANKS if r != removed]
    low, high = kept[:6], kept[6:]
    sets = []
    for suit in SUITS:
        for half, ranks in (("low", low), ("high", high)):
            set_id = f"{half}-{suit[2]}"
            sets.append(CardSet(id=set_id, name=f"{half.capitalize()} {suit[2]} ({ranks[0]}–{ranks[-1]})",
                                cards=tuple(_card(r, suit, set_id, i) for i, r in enumerate(ranks, 1))))
    if jokers:
        set_id = RANK_PLURALS[removed]
        cards = [_card(removed, suit, set_id, i) for i, suit in enumerate(SUITS, 1)]
        cards += [Card(id="BJ", title="Black joker", set_id=set_id, index=5),
                  Card(id="RJ", title="Red joker", set_id=set_id, index=6)]
        sets.append(CardSet(id=set_id, name=f"{RANK_PLURALS[removed].capitalize()} and jokers", cards=tuple(cards)))
    size = 54 if jokers else 48
    return Deck(id=f"literature-{size}-without-{RANK_PLURALS[removed]}", title=f"Literature, {size} cards",
                sets=tuple(sets), set_label="Half-suit")


def doubled(deck: Deck) -> Deck:
    """Two copies of a deck: every set twice, the second copy's ids ending in "-2"."""
    taken = {s.id for s in deck.sets} | {c.id for c in deck.cards}
    clashes = sorted(x for x in taken if f"{x}-2" in taken)
    if clashes:
        raise OptionsError(N_('this deck cannot be doubled: ids like "%(id)s" already exist in it'),
                           id=f"{clashes[0]}-2")
    copies = []
    for card_set in deck.sets:
        set_id = f"{card_set.id}-2"
        cards = tuple(Card(id=f"{c.id}-2", title=c.title, set_id=set_id, index=c.index, aliases=c.aliases,
                           note=c.note, image=c.image) for c in card_set.cards)
        copies.append(CardSet(id=set_id, name=f"{card_set.name} (2)", cards=cards, note=card_set.note,
                              color=card_set.color, image=card_set.image))
    return Deck(id=f"{deck.id}-double", title=f"{deck.title} (double)", sets=deck.sets + tuple(copies),
                language=deck.language, description=deck.description, set_label=deck.set_label,
                card_label=deck.card_label, source=deck.source)
