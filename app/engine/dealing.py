"""A deal made to bring works back: the cards a student is due to review go to other players' hands, so
that she must ask for them (and name them) to complete her sets.

`deal_back` takes a deal as it fell (hands and stock, as `Game.initial_hands` and `initial_stock` give
them) and moves cards by swaps, so every hand keeps its size and the rest of the deal stays as random as
it was. For each wanted card, most wanted first:

- it goes to a receiver's hand (the computer players, the one holding fewest moved cards first), in
  exchange for a card of that hand that no one wants back and is of another set; a receiver is never
  left holding a whole set (it would be laid down at once, and never asked for);
- the student it is due for keeps at least one other card of its set, so that she can ask for it: when
  she holds none, a card of that set no one wants comes to her in exchange for one of hers of another set.

A card that cannot be placed so (its set has one card, or every receiver is full) stays where it fell.
The result is an ordinary deal: a record gives it as `hands` and `stock`, and replays it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

STOCK = ""  # where a card lies that is in no hand


@dataclass(frozen=True)
class DealtBack:
    hands: dict[str, list[str]]
    stock: list[str]
    placed: list[str]  # the wanted cards that are now in a receiver's hand, in the order asked


def deal_back(hands: Mapping[str, Sequence[str]], stock: Sequence[str], set_of: Mapping[str, str],
              wanted: Sequence[tuple[str, str]], receivers: Sequence[str]) -> DealtBack:
    """The deal with each wanted (card, student) moved as the module says. `set_of`: every card's set."""
    places = {name: list(cards) for name, cards in hands.items()}
    places[STOCK] = list(stock)
    where = {card: name for name, cards in places.items() for card in cards}
    set_size: dict[str, int] = {}
    for set_id in set_of.values():
        set_size[set_id] = set_size.get(set_id, 0) + 1
    keep = {card for card, _student in wanted}  # no wanted card is given away to make room for another
    placed: list[str] = []
    load = {name: 0 for name in receivers}

    def count(name: str, set_id: str) -> int:
        return sum(1 for card in places[name] if set_of[card] == set_id)

    def fits(name: str, card: str) -> bool:
        """Can `card` go to `name`'s hand without making a whole set there? (The stock holds anything.)"""
        return name == STOCK or count(name, set_of[card]) + 1 < set_size[set_of[card]]

    def swap(a: str, b: str) -> None:
        pa, pb = where[a], where[b]
        places[pa][places[pa].index(a)] = b
        places[pb][places[pb].index(b)] = a
        where[a], where[b] = pb, pa

    for card, student in wanted:
        if card not in where or student not in places:
            continue
        set_id = set_of[card]
        if set_size[set_id] < 2:
            continue  # a set of one card: whoever holds it lays it down, there is nothing to ask for
        if where[card] not in receivers:
            origin = where[card]
            for receiver in sorted((r for r in receivers if r != student), key=lambda r: (load[r], receivers.index(r))):
                if count(receiver, set_id) + 1 >= set_size[set_id]:
                    continue  # the receiver would hold the whole set
                given = next((c for c in places[receiver] if c not in keep and set_of[c] != set_id
                              and fits(origin, c)), None)
                if given is not None:
                    swap(card, given)
                    break
        if where[card] not in receivers:
            continue
        placed.append(card)
        load[where[card]] += 1
        if count(student, set_id) == 0:
            # She holds no card of the set: one no one wants comes to her, for one of hers of another set.
            for spare in [c for c in set_of if set_of[c] == set_id and c not in keep and where.get(c, student) != student]:
                holder = where[spare]
                mine = next((c for c in places[student] if c not in keep and set_of[c] != set_id
                             and fits(holder, c)), None)
                if mine is not None:
                    swap(spare, mine)
                    keep.add(spare)
                    break
    stock_after = places.pop(STOCK)
    return DealtBack(places, stock_after, placed)
