"""One hand of a quartet game: Authors, Go Fish, Literature, as the options say.

The state leaves this module only through `view(player)` / `public_view()`; moves come in through
`apply(move)`, which returns the events it caused or raises IllegalMove with a stable code and a
sentence. Chance (the deal, the stock) comes from the deal given or from a seeded generator.
"""
from __future__ import annotations

import random
from collections import deque
from itertools import compress
from dataclasses import replace
from typing import Iterable, Iterator, Mapping, Sequence, TypedDict, Unpack

from ..decks.errors import Sentence, Text
from ..decks.model import Deck
from .decks import deck_for
from .events import Event, EventFields
from .outcome import Outcome
from .moves import N_, Answer, Ask, Challenge, Claim, Defend, IllegalMove, Move, PassTurn
from .answers import Verdict, candidates_named, grade
from .options import Options, OptionsError, in_play
from .views import AskChoices, PlayerView, PublicView, attributions

DOWN = -1   # laid down, claimed or cancelled: out of play
STOCK = -2  # face down in the stock


class SetupError(Sentence, ValueError):
    """A table that cannot be played: wrong number of players, a deal that is not the deck, ...

    Like OptionsError, a marked template with `%(name)s` fields (`template`, `params`) that the web app
    says in the reader's language; str() is English."""


def _and(items: Sequence[str]) -> str | Text:
    """ "4 and 6", "3 and 4 and 5": a phrase the catalogs translate."""
    if len(items) == 1:
        return items[0]
    return Text.of(N_("%(first)s and %(second)s"), first=_and(items[:-1]), second=items[-1])


# A deck's cards and sets by index: card ids, index by card id, set ids, index by set id, each set's cards,
# each card's set.
_Tables = tuple[list[str], dict[str, int], list[str], dict[str, int], list[tuple[int, ...]], list[int]]
_TABLES: dict[int, tuple[Deck, _Tables]] = {}


def _tables(deck: Deck) -> _Tables:
    """Index tables of a deck, made once per deck object (a game is set up thousands of times a second)."""
    cached = _TABLES.get(id(deck))
    if cached is not None and cached[0] is deck:
        return cached[1]
    card_ids = [c.id for c in deck.cards]
    card_index = {cid: i for i, cid in enumerate(card_ids)}
    set_ids = [s.id for s in deck.sets]
    set_index = {sid: i for i, sid in enumerate(set_ids)}
    set_cards = [tuple(card_index[c.id] for c in s.cards) for s in deck.sets]
    card_set = [set_index[c.set_id] for c in deck.cards]
    tables: _Tables = (card_ids, card_index, set_ids, set_index, set_cards, card_set)
    if len(_TABLES) > 256:
        _TABLES.clear()
    _TABLES[id(deck)] = (deck, tables)  # the deck is kept alive with its tables, so its id stays unique
    return tables


class TeamState(TypedDict):
    players: list[str]
    books: list[str]
    score: int


class ReplayState(TypedDict):
    """The whole state of a hand, every hand of cards included (`authors replay --json`)."""
    finished: bool
    turn: str | None
    hands: dict[str, list[str]]
    books: dict[str, list[str]]
    pending: dict[str, int]
    bonus: dict[str, int]
    scores: dict[str, int]
    stock: int
    teams: list[TeamState] | None
    cancelled: list[str]
    winners: list[str]


class _Naming(TypedDict, total=False):
    """The fields an ask adds with named_asks (events.py: EventFields)."""
    named: str | None
    verdict: str
    title: str
    bonus: int


class _Handover:
    """The cards one successful ask handed over, as `answer_names: set` grades their prompts: the works of
    the set the receiver held before they came, and the works no later prompt of them may name (those an
    earlier prompt resolved to, and those an earlier answer named right or almost right)."""

    __slots__ = ("group", "held", "spent")

    def __init__(self, group: int, held: frozenset[int]):
        self.group, self.held = group, held
        self.spent: set[int] = set()


class _Challenge:
    """`challenge_sets`: a set laid down from a handover, which the player who gave up its last card may
    challenge; once challenged (`defending`), its layer names its works."""

    __slots__ = ("set", "layer", "giver", "defending")

    def __init__(self, s: int, layer: int, giver: int):
        self.set, self.layer, self.giver, self.defending = s, layer, giver, False

    @property
    def actor(self) -> int:
        return self.layer if self.defending else self.giver


class Game:
    def __init__(self, deck: Deck, options: Options, players: Sequence[str], *, dealer: str | None = None,
                 teams: Sequence[Sequence[str]] | None = None, hands: Mapping[str, Sequence[str]] | None = None,
                 stock: Sequence[str] | None = None, seed: int | None = None, rules: str = "custom"):
        self.rules = rules
        self.chosen_options = options  # as the table or record gave them (what a record writes down)
        self.options = in_play(options, len(players))  # as played: two players of Quartett have a talon
        try:
            self.deck = deck_for(deck, options)
        except OptionsError as exc:
            raise SetupError(exc.template, **exc.params) from None
        self.source_deck = deck
        self.players: tuple[str, ...] = tuple(players)
        self._check_players()
        self._seat = {name: i for i, name in enumerate(self.players)}
        n = len(self.players)
        self.dealer = self._seat_of(dealer, "dealer") if dealer is not None else n - 1
        self.seed = seed

        # Cards and sets by index, for speed; ids only at the edges.
        tables = _tables(self.deck)
        self._card_ids, self._card_index, self._set_ids, self._set_index, self._set_cards, self._card_set = tables
        self._weight = [2 if options.high_sets_double and sid.startswith("high-") else 1 for sid in self._set_ids]
        self._check_deck_shape()
        self._copy_tables()

        self._team_of: list[int] | None = None
        self.teams: tuple[tuple[str, ...], ...] | None = None
        if options.teams:
            self._set_up_teams(teams)
        elif teams:
            raise SetupError(N_('these rules are not played in teams; leave out "teams"'))

        self._holder: list[int] = [DOWN] * len(self._card_ids)
        self._count: list[list[int]] = [[0] * len(self._set_ids) for _ in range(n)]
        self._hand_size: list[int] = [0] * n
        self._stock: list[int] = []  # top card last, so a draw is list.pop()
        self._set_winner: list[int | None] = [None] * len(self._set_ids)  # seat, or team with claims
        self._cancelled: list[str] = []
        self._books: list[list[int]] = [[] for _ in range(n)]
        self._team_books: list[list[int]] = [[], []]
        self._sets_left = len(self._set_ids)
        self._prompts: list[deque[int]] = [deque() for _ in range(n)]
        self._handovers: list[_Handover | None] = [None] * n  # answer_names: set; the open prompts' handover
        self._bonus: list[int] = [0] * n
        self._challenges: deque[_Challenge] = deque()  # challenge_sets: sets that may be challenged, oldest first
        self._turn: int | None = None
        self._must_pass = False       # the turn holder emptied their hand by a claim and hands the turn on
        self._may_pass = False        # house rule: after a claim, the claimer may hand the turn on
        self._endgame_claimer: int | None = None
        self.moves: list[Move] = []
        # Every event with its secrets: read only through a seat's eyes (events_seen_by, the views).
        self._events: list[Event] = []
        self._last_move_at = 0                 # where the events of the last move begin in _events
        self.last_ask: Event | None = None
        self._last_answer: Event | None = None

        self._new_events: list[Event] = []
        self._logs: list[list[EventFields]] = [[] for _ in range(n)]
        self._deal(hands, stock, seed)
        dealt: list[list[str]] = [[] for _ in range(n)]
        for card, seat in enumerate(self._holder):
            if seat >= 0:
                dealt[seat].append(self._card_ids[card])
        self.initial_hands: dict[str, tuple[str, ...]] = dict(zip(self.players, map(tuple, dealt)))
        self.initial_stock: tuple[str, ...] = tuple(self._card_ids[c] for c in reversed(self._stock))
        self._lay_down_dealt_sets()
        first = self.dealer if options.dealer_asks_first else (self.dealer + 1) % n
        self._begin_turn(first)
        self._settle()
        self._events.extend(self._new_events)
        self._last_move_at = len(self._events)  # the deal is no move: nothing is recent yet

    # ------------------------------------------------------------------------------------------
    # Set-up
    # ------------------------------------------------------------------------------------------
    def _check_players(self) -> None:
        names = self.players
        for name in names:
            if not isinstance(name, str) or not name.strip():
                raise SetupError(N_("every player needs a name"))
        repeated = sorted({name for name in names if names.count(name) > 1})
        if repeated:
            raise SetupError(N_('player "%(name)s" is named twice; every player needs a different name'),
                             name=repeated[0])
        low, high = self.options.min_players, self.options.max_players
        if not low <= len(names) <= high:
            raise SetupError(N_("these rules are for %(low)d to %(high)d players, not %(count)d"), low=low, high=high,
                             count=len(names))

    def _copy_tables(self) -> None:
        """The double deck's two copies of a card cannot be told apart: they are one *work*, asked for by
        the first copy's id and met by either copy; the two copies of a set are one *group*, and any four
        different works of it (one copy each) make a set. A single deck: every card and set is its own."""
        self._copies: list[tuple[int, ...]] | None = None   # by work (first copy): both copies
        self._group = list(range(len(self._set_ids)))        # by set: the first copy's set
        self._group_sets: list[tuple[int, ...]] = [(s,) for s in self._group]  # by group: its sets, first copy first
        self._card_group = self._card_set
        self._work = list(range(len(self._card_ids)))
        if not self.options.double_deck:
            return
        half = len(self._set_ids) // 2  # engine/decks.py doubled(): the copies follow the originals
        self._copies = [()] * len(self._card_ids)
        for s in range(half):
            self._group[s + half] = s
            self._group_sets[s] = (s, s + half)
            for first, second in zip(self._set_cards[s], self._set_cards[s + half]):
                self._work[second] = first
                self._copies[first] = (first, second)
        self._card_group = [self._group[s] for s in self._card_set]

    def _check_deck_shape(self) -> None:
        n = len(self.players)
        sizes = {len(cards) for cards in self._set_cards}
        if self.options.equal_sets_required and len(sizes) > 1:
            raise SetupError(N_('these rules need sets of one size; deck "%(deck)s" has sets of %(sizes)s cards'),
                             deck=self.deck.id, sizes=_and([str(s) for s in sorted(sizes)]))
        total = len(self._card_ids)
        if self.options.stock:
            if self.deal_size * n > total:
                raise SetupError(N_("dealing %(size)d cards to %(players)d players needs %(needed)d cards; "
                                    "this deck has %(total)d"), size=self.deal_size, players=n,
                                 needed=self.deal_size * n, total=total)
        elif total < n:
            raise SetupError(N_("%(players)d players need at least %(players)d cards; this deck has %(total)d"),
                             players=n, total=total)

    @property
    def deal_size(self) -> int:
        if self.options.deal_size is not None:
            return self.options.deal_size
        return 7 if len(self.players) <= 3 else 5

    def _seat_of(self, name: str, what: str) -> int:
        if name not in self._seat:
            template = {"dealer": N_('the dealer "%(name)s" is not one of the players'),
                        "team member": N_('the team member "%(name)s" is not one of the players')}[what]
            raise SetupError(template, name=name)
        return self._seat[name]

    def _set_up_teams(self, teams: Sequence[Sequence[str]] | None) -> None:
        n = len(self.players)
        if n % 2:
            raise SetupError(N_("a team game needs an even number of players, not %(count)d"), count=n)
        if not teams:
            teams = [self.players[0::2], self.players[1::2]]  # seated alternately
        if len(teams) != 2:
            raise SetupError(N_("a team game has exactly two teams"))
        team_of = [-1] * n
        for t, members in enumerate(teams):
            for name in members:
                seat = self._seat_of(name, "team member")
                if team_of[seat] != -1:
                    raise SetupError(N_('"%(name)s" is in a team twice'), name=name)
                team_of[seat] = t
        if -1 in team_of:
            raise SetupError(N_('"%(name)s" is in no team'), name=self.players[team_of.index(-1)])
        if len(teams[0]) != len(teams[1]):
            raise SetupError(N_("the two teams must be the same size"))
        self._team_of = team_of
        self.teams = (tuple(teams[0]), tuple(teams[1]))

    def _deal(self, hands: Mapping[str, Sequence[str]] | None, stock: Sequence[str] | None,
              seed: int | None) -> None:
        n = len(self.players)
        if hands is None:
            if stock is not None:
                raise SetupError(N_('"stock" goes with "hands": give the whole deal, or neither'))
            order = list(range(len(self._card_ids)))
            random.Random(0 if seed is None else seed).shuffle(order)
            dealt = self.deal_size * n if self.options.stock else len(order)
            for k, c in enumerate(order[:dealt]):
                self._give(c, (self.dealer + 1 + k) % n)
            self._stock = list(reversed(order[dealt:]))
            return
        unknown = [name for name in hands if name not in self._seat]
        if unknown:
            raise SetupError(N_('the hands name "%(name)s", who is not at the table'), name=unknown[0])
        if stock and not self.options.stock:
            raise SetupError(N_('these rules have no stock; leave out "stock"'))
        seen: set[int] = set()
        the_stock = Text.of(N_("the stock"))
        for name, cards in list(hands.items()) + [(the_stock, stock or [])]:
            for card_id in cards:
                card = self._card_index.get(card_id)
                if card is None:
                    raise SetupError(N_('%(holder)s: "%(card)s" is not a card of deck "%(deck)s"'), holder=name,
                                     card=card_id, deck=self.deck.id)
                if card in seen:
                    raise SetupError(N_('card "%(card)s" is dealt twice'), card=card_id)
                seen.add(card)
        missing = [cid for i, cid in enumerate(self._card_ids) if i not in seen]
        if missing:
            raise SetupError(N_("the deal must hold every card of the deck once; missing: %(cards)s"),
                             cards=", ".join(missing[:8]) + (" ..." if len(missing) > 8 else ""))
        for name, cards in hands.items():
            for card_id in cards:
                self._give(self._card_index[card_id], self._seat[name])
        self._stock = [self._card_index[c] for c in reversed(list(stock or []))]
        for card in self._stock:
            self._holder[card] = STOCK

    def _lay_down_dealt_sets(self) -> None:
        if not self.options.lay_down_complete:
            return
        n = len(self.players)
        for k in range(n):
            seat = (self.dealer + 1 + k) % n
            for g in range(len(self._set_ids)):
                while self._group[g] == g and self._complete(seat, g):
                    self._lay_down(seat, g, dealt=True)

    # ------------------------------------------------------------------------------------------
    # Low-level state changes
    # ------------------------------------------------------------------------------------------
    def _give(self, card: int, seat: int) -> None:
        self._holder[card] = seat
        self._count[seat][self._card_group[card]] += 1
        self._hand_size[seat] += 1

    def _take(self, card: int) -> int:
        seat = self._holder[card]
        self._count[seat][self._card_group[card]] -= 1
        self._hand_size[seat] -= 1
        self._holder[card] = DOWN
        return seat

    def _holds_work(self, seat: int, work: int) -> bool:
        if self._copies is None:
            return self._holder[work] == seat
        return any(self._holder[c] == seat for c in self._copies[work])

    def _copy_held(self, seat: int, work: int) -> int | None:
        """The copy of a work that `seat` holds (the first, if both), or None."""
        for c in (work,) if self._copies is None else self._copies[work]:
            if self._holder[c] == seat:
                return c
        return None

    def _complete(self, seat: int, g: int) -> bool:
        """Does `seat` hold a whole set of group g (with two copies: one copy of each of its works)?"""
        if self._copies is None:
            return self._count[seat][g] == len(self._set_cards[g])
        return self._count[seat][g] >= len(self._set_cards[g]) and all(
            self._holds_work(seat, w) for w in self._set_cards[g])

    def _lay_down(self, seat: int, g: int, dealt: bool = False) -> None:
        """Lay down the first set of group g still in play, with the cards of it that `seat` holds."""
        s = next(s for s in self._group_sets[g] if self._set_winner[s] is None)
        cards = [c for w in self._set_cards[g] if (c := self._copy_held(seat, w)) is not None]
        assert len(cards) == len(self._set_cards[g])  # seat holds a copy of every work of the set
        for card in cards:
            self._take(card)
        self._sets_left -= 1
        self._books[seat].append(s)
        if self._team_of is not None:
            self._set_winner[s] = self._team_of[seat]
            self._team_books[self._team_of[seat]].append(s)
        else:
            self._set_winner[s] = seat
        self._emit("laid-down", player=self.players[seat], set=self._set_ids[s], dealt=dealt,
                   cards=[self._card_ids[c] for c in cards])

    def _emit(self, kind: str, secret: EventFields | None = None, owner: int | None = None,
              **data: Unpack[EventFields]) -> Event:
        event = Event(kind, data, secret, None if owner is None else self.players[owner])
        self._new_events.append(event)
        if kind == "answer":
            self._last_answer = event
        if self.options.public_log:  # each seat's log is kept as it goes: a view copies it, never rebuilds it
            public = event.public()
            for log in self._logs:
                log.append(public)
            if owner is not None:
                self._logs[owner][-1] = event.seen_by(self.players[owner])
        return event

    # ------------------------------------------------------------------------------------------
    # Turns
    # ------------------------------------------------------------------------------------------
    def _can_play(self, seat: int) -> bool:
        return self._hand_size[seat] > 0 or (self.options.stock and bool(self._stock))

    def _begin_turn(self, seat: int) -> None:
        """Give the turn to `seat`, or to the first player clockwise from it who can play."""
        self._must_pass = self._may_pass = False
        if self._sets_left == 0:
            self._turn = None
            return
        if self._team_of is not None and self._team_game_endgame(seat):
            return
        n = len(self.players)
        for k in range(n):
            candidate = (seat + k) % n
            if self._can_play(candidate):
                self._turn = candidate
                if self._hand_size[candidate] == 0:  # an empty hand while the stock lasts draws one card
                    self._draw(candidate, reason="empty-hand")
                return
        self._turn = None  # unreachable while sets are left: someone holds their cards

    def _pass_left(self, seat: int) -> None:
        self._begin_turn((seat + 1) % len(self.players))

    def _team_game_endgame(self, seat: int) -> bool:
        """When one team has no cards left, the other team claims the rest [seed 004]."""
        assert self._team_of is not None  # called in team games only
        holding = [0, 0]
        for s, size in enumerate(self._hand_size):
            holding[self._team_of[s]] += size
        empty = [t for t in (0, 1) if holding[t] == 0]
        if not empty:
            return False
        if self._endgame_claimer is not None:
            self._turn = self._endgame_claimer
        elif self._team_of[seat] not in empty:
            self._endgame_claimer = self._turn = seat   # a member of the team with cards claims alone
        else:
            self._turn = seat                           # the empty team's player picks the opponent who claims
            self._must_pass = True
        return True

    def _endgame(self) -> bool:
        """A team game in which a team is out of cards: one player claims every set left, alone [seed 004]."""
        if self._endgame_claimer is not None:
            return True
        if self._team_of is None:
            return False
        holding = [0, 0]
        for s, size in enumerate(self._hand_size):
            holding[self._team_of[s]] += size
        return 0 in holding

    @property
    def finished(self) -> bool:
        return self._sets_left == 0 and not any(self._prompts) and not self._challenges

    # ------------------------------------------------------------------------------------------
    # Events, as one seat (or the public: None) saw them: the only way out of the game
    # ------------------------------------------------------------------------------------------
    @property
    def event_count(self) -> int:
        return len(self._events)

    def events_seen_by(self, player: str | None, start: int = 0) -> list[EventFields]:
        """The events from the `start`-th on (the deal's first), each as `player` saw it."""
        return [event.seen_by(player) for event in self._events[start:]]

    def recent(self, player: str | None) -> tuple[EventFields, ...]:
        """The events of the last move as `player` saw them (none before the first move)."""
        return tuple(event.seen_by(player) for event in self._events[self._last_move_at:])

    @property
    def turn(self) -> str | None:
        """Who acts next: the turn holder, or whoever still has works to name once the sets are down."""
        actor = self._actor()
        return None if actor is None else self.players[actor]

    def _actor(self) -> int | None:
        if self._challenges:  # a challenge waits for its challenger's word, then for the layer's names
            return self._challenges[0].actor
        if self._turn is not None and (self._sets_left > 0 or self._prompts[self._turn]):
            return self._turn
        for seat, prompts in enumerate(self._prompts):
            if prompts:
                return seat
        return None

    # ------------------------------------------------------------------------------------------
    # Moves
    # ------------------------------------------------------------------------------------------
    def apply(self, move: Move) -> list[Event]:
        """Play a move; returns the events it caused. Raises IllegalMove, leaving the game unchanged."""
        self._new_events = []
        if isinstance(move, Ask):
            self._apply_ask(move)
        elif isinstance(move, Answer):
            self._apply_answer(move)
        elif isinstance(move, Claim):
            self._apply_claim(move)
        elif isinstance(move, PassTurn):
            self._apply_pass(move)
        elif isinstance(move, Challenge):
            self._apply_challenge(move)
        elif isinstance(move, Defend):
            self._apply_defend(move)
        else:
            raise IllegalMove("not-allowed", "this is not a move of this game", move)
        self._settle()
        self.moves.append(move)
        self._last_move_at = len(self._events)
        self._events.extend(self._new_events)
        return self._new_events

    def _settle(self) -> None:
        """With a stock, a player who has nobody to ask draws a card instead, and the turn passes left."""
        while (self.options.stock and self._stock and self._team_of is None and self._turn is not None
               and self._sets_left and not self._prompts[self._turn] and not self._challenges
               and not any(size for seat, size in enumerate(self._hand_size) if seat != self._turn)):
            seat = self._turn
            self._draw(seat, reason="no-one-to-ask")
            self._pass_left(seat)

    def check(self, move: Move) -> IllegalMove | None:
        """Why a move would be refused, or None if it is legal (the game is left unchanged)."""
        try:
            if isinstance(move, Ask):
                self._validate_ask(move)
            elif isinstance(move, Answer):
                self._validate_answer(move)
            elif isinstance(move, Claim):
                self._validate_claim(move)
            elif isinstance(move, PassTurn):
                self._validate_pass(move)
            elif isinstance(move, Challenge):
                self._validate_challenge(move)
            elif isinstance(move, Defend):
                self._validate_defend(move)
            else:
                return IllegalMove("not-allowed", "this is not a move of this game", move)
        except IllegalMove as refusal:
            return refusal
        return None

    def is_legal(self, move: Move) -> bool:
        return self.check(move) is None

    def _player(self, name: str, move: Move) -> int:
        seat = self._seat.get(name)
        if seat is None:
            raise IllegalMove("unknown-player", '"%(name)s" is not at this table', move, name=name)
        return seat

    def _on_turn(self, seat: int, move: Move, claims_any_time: bool = False) -> None:
        if self._sets_left == 0:
            raise IllegalMove("game-over", "every set is already down; the hand is over", move)
        self._challenge_first(seat, move)
        if claims_any_time:
            return
        if self._turn != seat:
            raise self._not_your_turn(move)

    def _not_your_turn(self, move: Move) -> IllegalMove:
        """The refusal of a move by anyone but the player to act now."""
        whose = self.turn
        assert whose is not None  # while sets are left or a challenge is open, someone is to act
        return IllegalMove("not-your-turn", "it is %(whose)s's turn, not %(player)s's", move, whose=whose,
                           player=move.player)

    # -- asking ---------------------------------------------------------------------------------
    def _validate_ask(self, move: Ask) -> tuple[int, int, int, int | None]:
        seat = self._player(move.player, move)
        self._on_turn(seat, move)
        if self._prompts[seat]:
            raise IllegalMove("answer-pending", "name the work of the card you received before asking again "
                                                "(or pass)", move)
        if self._must_pass:
            raise IllegalMove("not-allowed", self._must_pass_reason(seat), move)
        if move.named is not None and not (self.options.named_asks and isinstance(move.named, str)):
            # Only named_asks names the work in the ask, and as text (a sentence the catalogs already have).
            raise IllegalMove("not-allowed", "this is not a move of this game", move)
        target = self._player(move.target, move)
        if target == seat:
            raise IllegalMove("ask-self", "you cannot ask yourself; ask another player", move)
        if self._team_of is not None and self._team_of[target] == self._team_of[seat]:
            raise IllegalMove("ask-teammate", "%(target)s is your teammate; ask a player of the other team",
                              move, target=move.target)
        by_card = self.options.ask_by == "card"
        if (move.card is None) == (move.set is None):
            raise IllegalMove("wrong-ask", "an ask names either a set or a card, not both or neither", move)
        if by_card and move.card is None:
            raise IllegalMove("wrong-ask", "in this game you ask for one card by name, not for a whole set",
                              move)
        if not by_card and move.set is None:
            raise IllegalMove("wrong-ask", "in this game you ask for a whole set, not for one card", move)
        card = None
        s: int | None
        if by_card:
            card = self._card_index.get(str(move.card))
            if card is None:
                raise IllegalMove("unknown-card", 'there is no card "%(card)s" in this deck', move, card=str(move.card))
            if self._work[card] != card:
                raise IllegalMove("not-allowed", 'ask for "%(name)s": the two copies of the double deck are asked '
                                  'for as one', move, name=self._card_ids[self._work[card]])
            s = self._card_set[card]
        else:
            s = self._set_index.get(str(move.set))
            if s is None:
                raise IllegalMove("unknown-set", 'there is no set "%(set)s" in this deck', move, set=str(move.set))
            if self._group[s] != s:
                raise IllegalMove("not-allowed", 'ask for "%(name)s": the two copies of the double deck are asked '
                                  'for as one', move, name=self._set_ids[self._group[s]])
        if self._hand_size[target] == 0:
            raise IllegalMove("target-has-no-cards", "%(target)s has no cards left and cannot be asked",
                              move, target=move.target)
        if self._count[seat][s] == 0:
            raise IllegalMove("set-not-held", "you may only ask for %(set)s while you hold one of its cards", move,
                              set=self._set_name(s))
        if card is not None and self._holds_work(seat, card) and not self.options.bluff_asks:
            raise IllegalMove("card-already-held", "you hold %(card)s yourself; ask for a card you lack", move,
                              card=self._card_title(card))
        return seat, target, s, card

    def _apply_ask(self, move: Ask) -> None:
        seat, target, s, card = self._validate_ask(move)
        self._may_pass = False  # the house rule's choice lapses once the claimer asks instead
        if card is None:  # every card of the set the target holds, in deck order
            holder = self._holder
            if self._copies is None:
                given = [c for c in self._set_cards[s] if holder[c] == target]
            else:  # in the deck's order of works: a work's two copies at its place, the first copy first
                given = [c for w in self._set_cards[s] for c in self._copies[w] if holder[c] == target]
        else:
            copy = self._copy_held(target, card)  # either copy meets the ask: the first, if both are there
            given = [] if copy is None else [copy]
        prompted = bool(given) and self.options.name_the_work and not self.options.named_asks
        if prompted and self.options.answer_names == "set":  # what the receiver held when the cards came
            self._handovers[seat] = _Handover(s, frozenset(w for w in self._set_cards[s] if self._holds_work(seat, w)))
        if given:  # every card handed over is of group s: move them in one step
            k = len(given)
            for c in given:
                self._holder[c] = seat
            self._count[target][s] -= k
            self._count[seat][s] += k
            self._hand_size[target] -= k
            self._hand_size[seat] += k
        naming: _Naming = {}
        if self.options.named_asks:  # the ask is the naming: graded at once, the title shown beside it
            assert card is not None  # named_asks asks for cards (options.py)
            verdict = self.grade(move.named, self._card_ids[card])
            bonus = int(bool(given) and verdict.scores)
            self._bonus[seat] += bonus
            naming = {"named": move.named, "verdict": verdict.value, "title": self._card_title(card), "bonus": bonus}
        ask = self._emit("ask", player=move.player, target=move.target, set=self._set_ids[s],
                         card=None if card is None else self._card_ids[card],
                         given=[self._card_ids[c] for c in given], **naming)
        self.last_ask = ask
        if self.options.announce_last_card and self._hand_size[target] == 1:
            self._emit("last-card", player=move.target)
        if given:
            if prompted:
                self._prompts[seat].extend(given)  # already in the deck's order of works
            while self.options.lay_down_complete and self._complete(seat, s):
                self._lay_down(seat, s)
                if self.options.challenge_sets:  # the target gave up its last card: they may challenge
                    self._challenges.append(_Challenge(self._books[seat][-1], seat, target))
            self._after_success(seat)
            return
        if self.options.stock and self._stock:
            drawn = self._draw(seat, reason="go-fish")
            lucky = (self._work[drawn] == card) if card is not None else (self._card_group[drawn] == s)
            if lucky and self.options.lucky_draw_continues:
                self._after_success(seat)
                return
        if self.options.miss_passes_to == "asked":
            self._begin_turn(target)
        else:
            self._pass_left(seat)

    def _after_success(self, seat: int) -> None:
        """The asker goes on, unless the hand is over or theirs is empty: then it draws at once while the
        stock lasts, or else the turn moves on once their prompts are answered."""
        if self._sets_left == 0:
            self._turn = seat if self._prompts[seat] else None
            return
        if self._hand_size[seat] == 0 and self.options.stock and self._stock:
            # A hand emptied by laying down a set draws at once while the stock lasts, naming prompts open
            # or not, and the asker goes on (after answering them).
            self._draw(seat, reason="empty-hand")
            self._turn = seat
        elif self._hand_size[seat] == 0 and not self._prompts[seat]:
            if self._team_of is not None:
                self._emptied_by_own_claim(seat)
            else:
                self._begin_turn(seat)  # draws from the stock if there is one, else passes on
        else:
            self._turn = seat

    def _draw(self, seat: int, reason: str) -> int:
        card = self._stock.pop()
        self._holder[card] = DOWN
        self._give(card, seat)
        s = self._card_group[card]
        lucky = reason == "go-fish" and self.last_ask is not None and (
            self._card_ids[self._work[card]] == self.last_ask.data["card"] if self.last_ask.data["card"] else
            self._set_ids[s] == self.last_ask.data["set"])
        # Only the drawer sees the card, unless it is the one asked for: then it is shown.
        if lucky:
            self._emit("draw", player=self.players[seat], reason=reason, lucky=True, card=self._card_ids[card],
                       stock=len(self._stock))
        else:
            self._emit("draw", secret={"card": self._card_ids[card]}, owner=seat, player=self.players[seat],
                       reason=reason, lucky=False, stock=len(self._stock))
        while self.options.lay_down_complete and self._complete(seat, s):
            self._lay_down(seat, s)
        return card

    # -- naming the work ------------------------------------------------------------------------
    def _validate_answer(self, move: Answer) -> int:
        seat = self._player(move.player, move)
        if not self._prompts[seat]:
            raise IllegalMove("nothing-to-answer", "there is no card waiting for you to name its work", move)
        if move.text is not None and not isinstance(move.text, str):
            raise IllegalMove("not-allowed", "an answer is a piece of text (or nothing, to pass)", move)
        self._challenge_first(seat, move)
        return seat

    def _apply_answer(self, move: Answer) -> None:
        seat = self._validate_answer(move)
        handover = self._handovers[seat]
        if handover is None:  # answer_names: card
            card = self._prompts[seat].popleft()
            verdict = self.grade(move.text, self._card_ids[card])
        else:
            card, verdict = self._resolve(seat, handover, move.text)
            if not self._prompts[seat]:
                self._handovers[seat] = None
        if verdict.scores:
            self._bonus[seat] += 1
        # `card`: the card the prompt resolved to, `title` its spelling; `correct`: it scored (right or
        # almost), `verdict` says which.
        self._emit("answer", player=move.player, card=self._card_ids[card], text=move.text,
                   correct=verdict.scores, verdict=verdict.value, title=self._card_title(card))
        if not self._prompts[seat] and self._turn == seat:
            if self._sets_left == 0:
                self._turn = None
            elif self._hand_size[seat] == 0:
                if self._team_of is not None:
                    self._emptied_by_own_claim(seat)
                else:
                    self._begin_turn(seat)

    def _resolve(self, seat: int, handover: _Handover, text: str | None) -> tuple[int, Verdict]:
        """`answer_names: set`: grade an answer against the candidates of the handover's set, and take the
        received card the prompt resolves to off the seat's prompts. Candidates are works (with a double
        deck, a work's two copies are one); the prompts are the handover's unresolved cards, in order."""
        prompts = self._prompts[seat]
        works = self._set_cards[handover.group]
        candidates = [w for w in works if w not in handover.held and w not in handover.spent]
        others = [w for w in works if w not in candidates]
        card_of = self.deck.card
        verdict, named = candidates_named(text, [card_of(self._card_ids[w]) for w in candidates],
                                          [card_of(self._card_ids[w]) for w in others], self.options.answers)
        named_works = [self._card_index[c.id] for c in named]
        # The first received card it names, in prompt order; else the first unresolved received card.
        card = next((c for c in prompts if self._work[c] in named_works), prompts[0])
        prompts.remove(card)
        handover.spent.add(self._work[card])
        if named_works and self._work[card] not in named_works:
            handover.spent.add(named_works[0])  # a candidate not received: the first named, in deck order
        return card, verdict

    def grade(self, text: str | None, card_id: str) -> Verdict:
        """What `text` is worth as a name of the card's work, under these rules' `answers` option."""
        card = self.deck.card(card_id)
        return grade(text, card, self.deck.set(card.set_id).cards, self.options.answers)

    # -- challenging a set (challenge_sets) ------------------------------------------------------
    def _challenge_first(self, seat: int, move: Move) -> None:
        """While a laid-down set may be (or was) challenged, nothing else is played."""
        if not self._challenges:
            return
        challenge = self._challenges[0]
        if seat != challenge.actor:
            raise self._not_your_turn(move)
        if challenge.defending:
            raise IllegalMove("not-allowed", "%(challenger)s challenged %(set)s: name its works first", move,
                              challenger=self.players[challenge.giver], set=self._set_name(challenge.set))
        raise IllegalMove("not-allowed", "first say whether you challenge %(set)s", move,
                          set=self._set_name(challenge.set))

    def _validate_challenge(self, move: Challenge) -> _Challenge:
        seat = self._player(move.player, move)
        if not self._challenges or self._challenges[0].defending:
            raise IllegalMove("not-allowed", "there is no set to challenge now", move)
        challenge = self._challenges[0]
        if seat != challenge.giver:
            raise self._not_your_turn(move)
        if move.set is not None and str(move.set) != self._set_ids[challenge.set]:
            raise IllegalMove("not-allowed", "the set you may challenge now is %(set)s", move,
                              set=self._set_name(challenge.set))
        return challenge

    def _apply_challenge(self, move: Challenge) -> None:
        challenge = self._validate_challenge(move)
        challenged = move.set is not None
        self._emit("challenge", player=move.player, target=self.players[challenge.layer],
                   set=self._set_ids[challenge.set], challenged=challenged)
        if challenged:
            challenge.defending = True
        else:
            self._challenges.popleft()

    def _validate_defend(self, move: Defend) -> tuple[_Challenge, tuple[str, ...]]:
        seat = self._player(move.player, move)
        if not self._challenges or not self._challenges[0].defending:
            raise IllegalMove("not-allowed", "nobody has challenged a set of yours", move)
        challenge = self._challenges[0]
        if seat != challenge.layer:
            raise self._not_your_turn(move)
        if str(move.set) != self._set_ids[challenge.set]:
            raise IllegalMove("not-allowed", "the challenged set is %(set)s", move, set=self._set_name(challenge.set))
        names = move.names
        if not isinstance(names, tuple) or not all(isinstance(name, str) for name in names):
            raise IllegalMove("not-allowed", "a defence is a list of names, one for each work", move)
        size = len(self._set_cards[self._group[challenge.set]])
        if len(names) > size:
            raise IllegalMove("not-allowed", "%(set)s has %(count)s works: name each once", move,
                              set=self._set_name(challenge.set), count=str(size))
        return challenge, names

    def _apply_defend(self, move: Defend) -> None:
        """Each name is graded, as a naming is (`answers`), against the set's works not yet named (a
        right name before an almost right one); the set is kept when every work is named, and then
        scores its layer 1 bonus point; otherwise it goes to the challenger."""
        challenge, names = self._validate_defend(move)
        works = self._set_cards[self._group[challenge.set]]
        card_of = self.deck.card
        named: list[int] = []
        verdicts: list[str] = []
        titles: list[str | None] = []
        for text in names:
            candidates = [w for w in works if w not in named]
            verdict, hits = candidates_named(text, [card_of(self._card_ids[w]) for w in candidates],
                                             [card_of(self._card_ids[w]) for w in named], self.options.answers)
            verdicts.append(verdict.value)
            if hits:
                work = self._card_index[hits[0].id]
                named.append(work)
                titles.append(self._card_title(work))
            else:
                titles.append(None)
        layer, giver, s = challenge.layer, challenge.giver, challenge.set
        held = len(named) == len(works)
        if held:
            self._bonus[layer] += 1
        else:  # the set changes hands: the challenger's books (and team) now hold it
            self._books[layer].remove(s)
            self._books[giver].append(s)
            if self._team_of is not None:
                self._team_books[self._team_of[layer]].remove(s)
                self._team_books[self._team_of[giver]].append(s)
                self._set_winner[s] = self._team_of[giver]
            else:
                self._set_winner[s] = giver
        # What was typed, and which works it named, go to the layer only; the table learns how many.
        self._emit("defence", secret={"names": list(names), "verdicts": verdicts, "titles": titles}, owner=layer,
                   player=move.player, target=self.players[giver], set=self._set_ids[s], held=held,
                   count=len(named), size=len(works))
        self._challenges.popleft()

    def challenge(self) -> dict[str, str] | None:
        """The challenge now open, as the table sees it: the set, its layer (`player`), the player who may
        challenge it (`challenger`) and its `stage`: "offer" (theirs to decide) or "defend" (the layer names
        its works); None when there is none."""
        if not self._challenges:
            return None
        c = self._challenges[0]
        return {"set": self._set_ids[c.set], "player": self.players[c.layer], "challenger": self.players[c.giver],
                "stage": "defend" if c.defending else "offer"}

    # -- claims (Literature) --------------------------------------------------------------------
    def _validate_claim(self, move: Claim) -> tuple[int, int, dict[int, int]]:
        seat = self._player(move.player, move)
        if not self.options.claims:
            raise IllegalMove("not-allowed", "these rules have no claims; sets are laid down when complete",
                              move)
        assert self._team_of is not None  # claims are played in teams (options.py)
        endgame = self._endgame()
        if self.options.claims_any_time and endgame and self._sets_left and self._turn != seat:
            # Once a team is out of cards, one player makes the remaining claims alone, house rule or not.
            whose = self.turn
            assert whose is not None  # while sets are left, someone holds the turn
            raise IllegalMove("not-allowed", "it is %(whose)s's turn, not %(player)s's", move, whose=whose,
                              player=move.player)
        self._on_turn(seat, move, claims_any_time=self.options.claims_any_time and not endgame)
        if self._prompts[seat]:
            raise IllegalMove("answer-pending", "name the work of the card you received first (or pass)", move)
        if self._must_pass and self._turn == seat:
            raise IllegalMove("not-allowed", self._must_pass_reason(seat), move)
        s = self._set_index.get(str(move.set))
        if s is None:
            raise IllegalMove("unknown-set", 'there is no set "%(set)s" in this deck', move, set=move.set)
        if self._set_winner[s] is not None or self._set_ids[s] in self._cancelled:
            raise IllegalMove("not-allowed", "%(set)s is already down; claim a set still in play",
                              move, set=self._set_name(s))
        named: dict[int, int] = {}
        holders = move.holders if isinstance(move.holders, tuple) else ()
        if not holders:
            raise IllegalMove("invalid-claim", "a claim names who holds each card of the set", move)
        for name, cards in holders:
            holder = self._player(str(name), move)
            if self._team_of[holder] != self._team_of[seat]:
                raise IllegalMove("invalid-claim", "%(name)s is not on your team; a claim names only your team's players",
                                  move, name=name)
            for card_id in cards:
                card = self._card_index.get(str(card_id))
                if card is None or self._card_set[card] != s:
                    raise IllegalMove("invalid-claim", '"%(card)s" is not a card of %(set)s', move, card=card_id,
                                      set=self._set_name(s))
                if card in named:
                    raise IllegalMove("invalid-claim", "%(card)s is named twice", move, card=self._card_title(card))
                named[card] = holder
        missing = [c for c in self._set_cards[s] if c not in named]
        if missing:
            raise IllegalMove("invalid-claim", "a claim names the holder of every card of the set; missing: %(cards)s",
                              move, cards=", ".join(self._card_title(c) for c in missing))
        return seat, s, named

    def _apply_claim(self, move: Claim) -> None:
        seat, s, named = self._validate_claim(move)
        assert self._team_of is not None  # claims are played in teams (options.py)
        team = self._team_of[seat]
        had_cards = self._hand_size[seat] > 0
        actual = {c: self._holder[c] for c in self._set_cards[s]}
        opponents_hold = [c for c, h in actual.items() if self._team_of[h] != team]
        for c in self._set_cards[s]:
            self._take(c)
        self._sets_left -= 1
        if opponents_hold:
            # The other team wins the set; no player laid it down or claimed it, so no player's books hold it.
            winner_team = 1 - team
            self._set_winner[s] = winner_team
            self._team_books[winner_team].append(s)
            outcome = "opponents"
        elif all(named[c] == actual[c] for c in self._set_cards[s]):
            self._set_winner[s] = team
            self._team_books[team].append(s)
            self._books[seat].append(s)
            outcome = "correct"
        else:
            self._cancelled.append(self._set_ids[s])
            outcome = "cancelled"
        self._emit("claim", player=move.player, set=self._set_ids[s], outcome=outcome,
                   holders={self.players[h]: [self._card_ids[c] for c in self._set_cards[s] if named[c] == h]
                            for h in sorted(set(named.values()))},
                   actual={self._card_ids[c]: self.players[h] for c, h in actual.items()})
        if self._sets_left == 0:
            self._turn = None
            return
        if self._endgame_claimer is not None:
            return  # the claimer of the endgame goes on alone until every set is down
        if self._turn == seat:
            if self._hand_size[seat] == 0 and had_cards:
                self._emptied_by_own_claim(seat)
            elif self._hand_size[seat] == 0:
                self._begin_turn(seat)
            else:
                self._may_pass = self.options.claiming_team_picks_next
                if self._team_game_endgame(seat):
                    return
        elif self._turn is not None and self._hand_size[self._turn] == 0:
            self._begin_turn(self._turn)  # an out-of-turn claim emptied the turn holder's hand

    def _emptied_by_own_claim(self, seat: int) -> None:
        """A player who emptied their hand by their own claim hands the turn to a teammate [seed 004]."""
        if self._team_game_endgame(seat):
            return
        mates = self._pass_targets_for(seat, opponents=False)
        if mates:
            self._turn, self._must_pass, self._may_pass = seat, True, False
        else:
            self._begin_turn(seat)

    def _must_pass_reason(self, seat: int) -> str:
        if self._hand_size[seat] == 0 and self._endgame_claimer is None and self._team_game_empty(seat):
            return N_("your team has no cards left: choose a player of the other team to claim the remaining sets")
        return N_("your hand is empty after your claim: pass the turn to a teammate who still holds cards")

    def _team_game_empty(self, seat: int) -> bool:
        assert self._team_of is not None  # a team game's turn is handed on
        team = self._team_of[seat]
        return all(self._hand_size[s] == 0 for s in range(len(self.players)) if self._team_of[s] == team)

    # -- passing the turn -----------------------------------------------------------------------
    def _pass_targets_for(self, seat: int, opponents: bool) -> list[int]:
        assert self._team_of is not None  # a team game's turn is handed on
        team = self._team_of[seat]
        return [s for s in range(len(self.players))
                if s != seat and self._hand_size[s] > 0 and (self._team_of[s] != team) == opponents]

    def _validate_pass(self, move: PassTurn) -> tuple[int, int]:
        seat = self._player(move.player, move)
        self._on_turn(seat, move)
        if self._prompts[seat]:
            raise IllegalMove("answer-pending", "name the work of the card you received first (or pass)", move)
        if self._team_of is None or not (self._must_pass or self._may_pass):
            raise IllegalMove("not-allowed", "you may hand the turn on only after your claim emptied your hand",
                              move)
        to = self._player(move.to, move)
        choosing_claimer = self._must_pass and self._team_game_empty(seat)
        if to == seat:
            raise IllegalMove("not-allowed", "hand the turn to another player", move)
        if (self._team_of[to] != self._team_of[seat]) != choosing_claimer:
            if choosing_claimer:
                raise IllegalMove("not-allowed", "hand the turn to a player of the other team", move)
            raise IllegalMove("not-allowed", "hand the turn to a teammate", move)
        if self._hand_size[to] == 0:
            raise IllegalMove("target-has-no-cards", "%(target)s has no cards left; choose a player who has",
                              move, target=move.to)
        return seat, to

    def _apply_pass(self, move: PassTurn) -> None:
        seat, to = self._validate_pass(move)
        choosing_claimer = self._must_pass and self._team_game_empty(seat)
        self._emit("pass", player=move.player, to=move.to)
        self._must_pass = self._may_pass = False
        if choosing_claimer:
            self._endgame_claimer = to
        self._turn = to

    # ------------------------------------------------------------------------------------------
    # Legal moves
    # ------------------------------------------------------------------------------------------
    def legal_moves(self, player: str) -> Iterator[Move]:
        """Every legal move of `player`, lazily. Where an Answer is listed, any text is a legal answer."""
        seat = self._seat.get(player)
        if seat is None:
            return
        if self._challenges:
            challenge = self._challenges[0]
            set_id = self._set_ids[challenge.set]
            if challenge.defending and seat == challenge.layer:
                yield Defend(player, set_id, ())
            elif not challenge.defending and seat == challenge.giver:
                yield Challenge(player, set_id)
                yield Challenge(player, None)
            return
        if self._prompts[seat]:
            yield Answer(player, None)
            return
        if self._sets_left == 0:
            return
        on_turn = self._turn == seat
        if on_turn and not self._must_pass:
            yield from self._ask_choices(seat)
        for set_id in self.claimable_sets(player):
            yield from self._claims_of(seat, self._set_index[set_id])
        for to in self._pass_choices(seat):
            yield PassTurn(player, to)

    def asks(self, player: str) -> AskChoices:
        """The legal asks of `player` now, as a lazy sequence (empty when they may not ask)."""
        seat = self._seat[player]
        if self._turn != seat or self._must_pass or self._prompts[seat] or self._sets_left == 0 or self._challenges:
            return AskChoices(player, self.options.ask_by, (), ())
        return self._ask_choices(seat)

    def prompts(self, player: str) -> tuple[str, ...]:
        """Cards whose work `player` still has to name, oldest first."""
        return tuple(self._card_ids[c] for c in self._prompts[self._seat[player]])

    def claimable_sets(self, player: str) -> tuple[str, ...]:
        """Sets `player` may claim now (Literature); any attribution of their cards to the team is legal."""
        seat = self._seat[player]
        if not self.options.claims or self._sets_left == 0 or self._prompts[seat] or self._challenges:
            return ()
        on_turn = self._turn == seat
        if on_turn and self._must_pass:
            return ()
        if not on_turn and not (self.options.claims_any_time and not self._endgame()):
            return ()
        return tuple(self._set_ids[s] for s in self._claimable_sets())

    def pass_targets(self, player: str) -> tuple[str, ...]:
        """Players `player` may hand the turn to now."""
        return self._pass_choices(self._seat[player])

    def _pass_choices(self, seat: int) -> tuple[str, ...]:
        if self._turn != seat or self._prompts[seat] or self._sets_left == 0 or self._challenges:
            return ()
        if not (self._must_pass or self._may_pass):
            return ()
        choosing = self._must_pass and self._team_game_empty(seat)
        return tuple(self.players[to] for to in self._pass_targets_for(seat, opponents=choosing))

    def _ask_choices(self, seat: int) -> AskChoices:
        # compress() keeps the hot path in C: this runs once per move in every simulation.
        sizes = self._hand_size
        if self._team_of is None:
            mine = self.players[seat]
            targets = tuple(name for name in compress(self.players, sizes) if name != mine)
        else:
            team = self._team_of[seat]
            targets = tuple(self.players[t] for t in range(len(sizes)) if sizes[t] and self._team_of[t] != team)
        counts = self._count[seat]
        if self.options.ask_by == "set":
            items = tuple(compress(self._set_ids, counts))
        else:
            holder, bluff, ids = self._holder, self.options.bluff_asks, self._card_ids
            if self._copies is None:
                items = tuple(ids[c] for cards in compress(self._set_cards, counts) for c in cards
                              if bluff or holder[c] != seat)
            else:  # counts are by group, so only the first copies' sets are listed: one ask per work
                items = tuple(ids[c] for cards in compress(self._set_cards, counts) for c in cards
                              if bluff or not self._holds_work(seat, c))
        return AskChoices(self.players[seat], self.options.ask_by, items, targets)

    def _claimable_sets(self) -> list[int]:
        return [s for s in range(len(self._set_ids))
                if self._set_winner[s] is None and self._set_ids[s] not in self._cancelled]

    def _claims_of(self, seat: int, s: int) -> Iterator[Claim]:
        """Every way to attribute the set's cards to the claimer's team (right or wrong)."""
        assert self._team_of is not None and self.teams is not None  # claims are played in teams
        team = self.teams[self._team_of[seat]]
        return attributions(self.players[seat], self._set_ids[s], self.deck.set(self._set_ids[s]).card_ids,
                            team, self.players)

    # ------------------------------------------------------------------------------------------
    # Reading the state: only through views, one seat at a time, or the public view
    # ------------------------------------------------------------------------------------------
    def _hand_ids(self, seat: int) -> tuple[str, ...]:
        holder = self._holder
        return tuple(self._card_ids[c] for c in range(len(holder)) if holder[c] == seat)

    def _card_title(self, card: int) -> str:
        return self.deck.card(self._card_ids[card]).title

    def _set_name(self, s: int) -> str:
        return self.deck.set(self._set_ids[s]).name

    def _set_points(self, books: list[int]) -> int:
        return len(books) if not self.options.high_sets_double else sum(self._weight[s] for s in books)

    def _scored_bonus(self) -> list[int]:
        """The bonus points that count in the scores: none with `bonus_in_score: false`."""
        return self._bonus if self.options.bonus_in_score else [0] * len(self._bonus)

    def scores(self) -> dict[str, int]:
        """This hand's points per player: sets (in a team game, the team's sets) plus bonus."""
        base: Iterable[int]
        if self._team_of is None:
            base = map(self._set_points, self._books)
        else:
            team_value = [self._set_points(books) for books in self._team_books]
            base = (team_value[t] for t in self._team_of)
        return dict(zip(self.players, map(int.__add__, base, self._scored_bonus())))

    def team_scores(self) -> list[int] | None:
        if self._team_of is None:
            return None
        totals = [self._set_points(books) for books in self._team_books]
        for seat, bonus in enumerate(self._scored_bonus()):
            totals[self._team_of[seat]] += bonus
        return totals

    def winners(self) -> list[str]:
        if not self.finished:
            return []
        if self._team_of is not None:
            totals = self.team_scores()
            assert totals is not None  # a team game's
            best = max(totals)
            return [name for seat, name in enumerate(self.players) if totals[self._team_of[seat]] == best]
        scores = self.scores()
        best = max(scores.values())
        return [name for name, score in scores.items() if score == best]

    def outcome(self) -> Outcome:
        """The scores, sets and winners as they stand (the winners once the hand is finished)."""
        view = self._facts()
        return Outcome(finished=self.finished, players=self.players, dealer=view.dealer, scores=view.scores,
                       bonus=view.bonus, books=view.books, winners=tuple(self.winners()), teams=self.teams,
                       team_scores=view.team_scores, team_books=view.team_books, cancelled=view.cancelled)

    def replay_state(self) -> ReplayState:
        """The whole state, every hand included, in the shape of `authors replay --json`.

        For the record reader only (it knows the whole deal anyway); screens get views."""
        team_scores = self.team_scores()
        outcome = self.outcome()
        return {
            "finished": outcome.finished,
            "turn": self.turn,
            "hands": {name: list(self._hand_ids(i)) for i, name in enumerate(self.players)},
            "books": {name: [self._set_ids[s] for s in self._books[i]] for i, name in enumerate(self.players)},
            "pending": {name: len(self._prompts[i]) for i, name in enumerate(self.players)},
            "bonus": {name: self._bonus[i] for i, name in enumerate(self.players)},
            "scores": dict(outcome.scores),
            "stock": len(self._stock),
            "teams": None if self.teams is None or team_scores is None else [
                {"players": list(members), "books": [self._set_ids[s] for s in self._team_books[t]],
                 "score": team_scores[t]} for t, members in enumerate(self.teams)],
            "cancelled": list(outcome.cancelled),
            "winners": list(outcome.winners),
        }

    def _facts(self) -> PublicView:
        """The public facts, without a log or recent events (each view adds its reader's)."""
        players, set_ids = self.players, self._set_ids
        team_scores = self.team_scores()
        return PublicView(
            rules=self.rules,
            deck_id=self.deck.id,
            players=players,
            dealer=players[self.dealer],
            teams=self.teams,
            turn=self.turn,
            finished=self.finished,
            hand_counts=dict(zip(players, self._hand_size)),
            books=dict(zip(players, (tuple(set_ids[s] for s in books) for books in self._books))),
            team_books=None if self._team_of is None else tuple(
                tuple(set_ids[s] for s in books) for books in self._team_books),
            cancelled=tuple(self._cancelled),
            pending=dict(zip(players, map(len, self._prompts))),
            bonus=dict(zip(players, self._bonus)),
            scores=self.scores(),
            team_scores=None if team_scores is None else tuple(team_scores),
            stock=len(self._stock),
            last_ask=None if self.last_ask is None else self.last_ask.public(),
            last_answer=None if self._last_answer is None else self._last_answer.public(),
            log=None,
            winners=tuple(self.winners()) if self._sets_left == 0 else (),
            challenge=self.challenge(),
            version=len(self.moves),
            recent=(),
        )

    def public_view(self) -> PublicView:
        """What the whole table may see: the projector's view."""
        log = tuple(e.public() for e in self._events) if self.options.public_log else None
        return replace(self._facts(), log=log, recent=self.recent(None))

    def view(self, player: str) -> PlayerView:
        """What one player may know: their own hand, their prompts, their moves, and the public facts."""
        seat = self._seat[player]
        actor = self._actor()
        facts = {**vars(self._facts()), "recent": self.recent(player),
                 "log": tuple(self._logs[seat]) if self.options.public_log else None}
        return PlayerView(
            **facts,
            seat=player,
            options=self.options,
            deck=self.deck,
            team=None if self._team_of is None else self._team_of[seat],
            hand=self._hand_ids(seat),
            prompts=self.prompts(player),
            to_act=actor == seat,
            asks=self._ask_choices(seat) if actor == seat and self._turn == seat and not self._prompts[seat]
            and not self._must_pass and self._sets_left and not self._challenges else None,
            claimable=self.claimable_sets(player),
            pass_targets=self._pass_choices(seat) if actor == seat else (),
        )
