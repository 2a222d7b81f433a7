"""What a computer player knows: its own hand and the record of the table, kept as facts about cards.

The facts come from the seat's view (its hand, the hand counts, the sets already down) and from the
events as that seat saw them: the view's log where the rules keep one, else the events the bot was
shown through `observe` (Literature forbids notes, but a player still remembers what was said).

Facts, all exact (sound) at every moment:
- `loc[c]`: where card c is when that is known (a card handed over face up, a lucky draw, one's own
  cards and draws), UNKNOWN when not, OUT once its set is down.
- `cannot[c]`: a bit mask of the holders known not to hold c: a failed ask, a set handed over in full,
  an ask for a card (the asker lacks it). Bit n is the stock: a card once seen outside it is never in it.
- `floor[p][s]`: p holds at least this many cards of set s (asking for s proves one; cards received
  add to it; cards handed over take from it).

A hidden draw clears the drawer's "cannot" bits for every card that may have been in the stock.
"""
from __future__ import annotations

from collections.abc import Sequence

from ..events import EventFields
from ..views import PlayerView

UNKNOWN = -1
OUT = -2


class Knowledge:
    def __init__(self) -> None:
        self.ready = False
        self.pending: list[EventFields] = []
        self.log_done = 0
        self.quiet = 0  # asks since a set last went down: the stall breakers watch it

    # ------------------------------------------------------------------------------------------
    def observe(self, events: list[EventFields]) -> None:
        self.pending.extend(events)

    def update(self, view: PlayerView) -> None:
        """Catch up with the record, then take the view's own facts (hand, counts, sets down)."""
        if not self.ready:
            self._setup(view)
        events: Sequence[EventFields]
        if view.log is not None:
            events = view.log[self.log_done:]
            self.log_done = len(view.log)
            self.pending.clear()
        else:
            events, self.pending = self.pending, []
        for event in events:
            self._feed(event)
        self._sync(view)

    # ------------------------------------------------------------------------------------------
    def _setup(self, view: PlayerView) -> None:
        deck = view.deck
        self.players = view.players
        self.n = len(self.players)
        self.seat = {name: i for i, name in enumerate(self.players)}
        self.me = self.seat[view.seat]
        self.stock_bit = 1 << self.n
        self.card_ids = [c.id for c in deck.cards]
        self.card_index = {cid: i for i, cid in enumerate(self.card_ids)}
        self.set_ids = [s.id for s in deck.sets]
        self.set_index = {sid: i for i, sid in enumerate(self.set_ids)}
        self.set_cards = [tuple(self.card_index[c.id] for c in s.cards) for s in deck.sets]
        self.card_set = [self.set_index[c.set_id] for c in deck.cards]
        self.set_size = [len(cards) for cards in self.set_cards]
        # The double deck: the copies of a work (twins) and of a set (group) are asked for as one.
        self.double = view.options.double_deck
        self.twins: list[tuple[int, ...]] = [(c,) for c in range(len(self.card_ids))]
        self.group: list[tuple[int, ...]] = [(s,) for s in range(len(self.set_ids))]
        if self.double:
            half = len(self.set_ids) // 2  # engine/decks.py doubled(): the copies follow the originals
            for s in range(half):
                self.group[s] = (s, s + half)
                for first, second in zip(self.set_cards[s], self.set_cards[s + half]):
                    self.twins[first] = self.twins[second] = (first, second)
        self.by_card = view.options.ask_by == "card"
        self.bluff = view.options.bluff_asks
        self.has_stock = view.options.stock
        self.lay_down = view.options.lay_down_complete
        self.team_of = None
        if view.teams:
            self.team_of = [0] * self.n
            for t, members in enumerate(view.teams):
                for name in members:
                    self.team_of[self.seat[name]] = t
        self.loc = [UNKNOWN] * len(self.card_ids)
        self.shown = [False] * len(self.card_ids)  # its place is public (handed over, drawn face up)
        self.cannot = [0] * len(self.card_ids)
        self.floor = [[0] * len(self.set_ids) for _ in range(self.n)]
        self.down = [False] * len(self.set_ids)
        self.ready = True

    def _feed(self, e: EventFields) -> None:
        kind = e["type"]
        if kind == "ask":
            self.quiet += 1
            a, t = self.seat[e["player"]], self.seat[e["target"]]
            s = self.set_index[e["set"]]
            card = e.get("card")
            given = [self.card_index[g] for g in e["given"]]
            floor, cannot, card_set = self.floor, self.cannot, self.card_set
            if not self.double:  # with two copies the asker's card may be of either copy's set
                floor[a][s] = max(floor[a][s], 1)
            if card is not None and not self.bluff:
                for c in self.twins[self.card_index[card]]:
                    cannot[c] |= 1 << a
            if not self.by_card:
                for g in self.group[s]:
                    for c in self.set_cards[g]:
                        cannot[c] |= 1 << t
                    floor[t][g] = 0
            elif not given:
                assert card is not None  # an ask by card names its card
                for c in self.twins[self.card_index[card]]:
                    cannot[c] |= 1 << t
            for c in given:
                if self.by_card:
                    floor[t][card_set[c]] = max(0, floor[t][card_set[c]] - 1)
                floor[a][card_set[c]] += 1
                self.loc[c] = a
                self.shown[c] = True
                cannot[c] |= self.stock_bit | 1 << t
        elif kind == "draw":
            p = self.seat[e["player"]]
            card = e.get("card")
            if card is not None:
                c = self.card_index[card]
                self.loc[c] = p
                self.shown[c] = e.get("lucky", False)
                self.cannot[c] |= self.stock_bit
            else:  # a card we did not see: any card that may have been in the stock may now be p's
                clear = ~(1 << p)
                stock_bit, loc, cannot = self.stock_bit, self.loc, self.cannot
                for c in range(len(loc)):
                    if loc[c] == UNKNOWN and not cannot[c] & stock_bit:
                        cannot[c] &= clear
        elif kind in ("laid-down", "claim"):
            cards = e.get("cards")  # a double deck's set is laid down with either copy of each work
            self._set_down(self.set_index[e["set"]], None if cards is None else [self.card_index[c] for c in cards])

    def _set_down(self, s: int, cards: list[int] | None = None) -> None:
        if self.down[s]:
            return
        self.down[s] = True
        self.quiet = 0
        for c in self.set_cards[s] if cards is None else cards:
            self.loc[c] = OUT
        for row in self.floor:
            row[s] = 0

    def _sync(self, view: PlayerView) -> None:
        for books in view.books.values():
            for set_id in books:
                self._set_down(self.set_index[set_id])
        for set_id in view.cancelled:
            self._set_down(self.set_index[set_id])
        me, loc = self.me, self.loc
        mine = [self.card_index[cid] for cid in view.hand]
        for c, where in enumerate(loc):
            if where == me:  # a card that left without our seeing it (a bot made mid-game)
                loc[c] = UNKNOWN
        for c in mine:
            loc[c] = me
            self.cannot[c] |= self.stock_bit
        self.hand = mine
        self.my_count = [0] * len(self.set_ids)
        for c in mine:
            self.my_count[self.card_set[c]] += 1
        self.counts = [view.hand_counts[name] for name in self.players]
        self.stock = view.stock

    # ------------------------------------------------------------------------------------------
    # Questions the players ask of the facts
    # ------------------------------------------------------------------------------------------
    def known_cards(self, p: int, s: int) -> list[int]:
        return [c for c in self.set_cards[s] if self.loc[c] == p]

    def known_count(self, p: int, s: int) -> int:
        """How many cards of s p is publicly known to hold: cards seen going to p, or the floor."""
        return max(self.floor[p][s], len(self.known_cards(p, s)))

    def public_count(self, p: int, s: int) -> int:
        """How many cards of s the table knows p holds (what p gave away by asking and receiving)."""
        return max(self.floor[p][s], sum(1 for c in self.set_cards[s] if self.loc[c] == p and self.shown[c]))

    def lacks_card(self, p: int, c: int) -> bool:
        where = self.loc[c]
        if where >= 0 or where == OUT:
            return where != p
        return bool(self.cannot[c] >> p & 1)

    def lacks_set(self, p: int, s: int) -> bool:
        return all(self.lacks_card(p, c) for c in self.set_cards[s])
