"""A match: deals in series, the deal rotating clockwise, to a fixed number of deals or a target score.

The arithmetic is pure functions of each deal's scores in seat order (`seat_totals`, `regular_play_over`,
`leaders`, `tie_break_due`, `match_winners`): `Match` plays a match with them, and the web app, which
stores each deal's result, counts its tables' matches with the same functions.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Sequence

from ..decks.errors import N_
from ..decks.model import Deck
from .game import Game, SetupError
from .options import Options


@dataclass(frozen=True)
class MatchFormat:
    deals: int | None = 1        # a fixed number of deals ...
    target: int | None = None    # ... or first to this total (20 or 25 sets are usual)
    tie_break: bool = False      # a tie at the end is settled by one more deal among everyone

    def __post_init__(self) -> None:
        if (self.deals is None) == (self.target is None):
            raise SetupError(N_("a match is either a number of hands or a target score, not both or neither"))
        if self.deals is not None and self.deals < 1:
            raise SetupError(N_("a match has at least one hand"))
        if self.target is not None and self.target < 1:
            raise SetupError(N_("a target score is at least 1"))


MAX_DEALS = 50  # a first-to-N match ends here whatever the scores


def seat_totals(deals: Iterable[Sequence[int]], seats: int) -> list[int]:
    """Each seat's total over the deals counted, given each deal's scores in seat order."""
    totals = [0] * seats
    for scores in deals:
        for seat, score in enumerate(scores):
            if seat >= len(totals):
                totals.extend([0] * (seat + 1 - len(totals)))
            totals[seat] += score
    return totals


def regular_play_over(format: MatchFormat, deals_played: int, totals: Sequence[int]) -> bool:
    """Whether the deals of the match proper are all played (a tie-break deal may follow)."""
    if format.deals is not None:
        return deals_played >= format.deals
    assert format.target is not None
    return deals_played >= MAX_DEALS or max(totals, default=0) >= format.target


def leaders(totals: Sequence[int]) -> list[int]:
    """The seats with the best total."""
    best = max(totals, default=0)
    return [seat for seat, total in enumerate(totals) if total == best]


def tie_break_due(format: MatchFormat, totals: Sequence[int]) -> bool:
    return format.tie_break and len(leaders(totals)) > 1


def match_winners(totals: Sequence[int], tie_break: Sequence[int] | None = None) -> list[int]:
    """The winning seats of a finished match: the leaders, or those of them who scored best in the
    tie-break deal (its scores in seat order) when one was played."""
    best = leaders(totals)
    if tie_break is None:
        return best
    top = max(tie_break[seat] for seat in best)
    return [seat for seat in best if tie_break[seat] == top]


@dataclass
class Match:
    deck: Deck
    options: Options
    players: Sequence[str]
    format: MatchFormat = field(default_factory=MatchFormat)
    seed: int = 0
    rules: str = "custom"
    teams: Sequence[Sequence[str]] | None = None
    first_dealer: int | None = None   # seat index; default the last player
    deals: list[Game] = field(default_factory=list)
    totals: dict[str, int] = field(default_factory=dict)
    tie_break_deal: Game | None = None
    counted: int = 0                  # deals whose scores are in the totals

    def __post_init__(self) -> None:
        self.players = tuple(self.players)
        self.totals = {name: 0 for name in self.players}
        if self.first_dealer is None:
            self.first_dealer = len(self.players) - 1
        self._deal_next()

    @property
    def current(self) -> Game:
        return self.tie_break_deal or self.deals[-1]

    def _new_game(self, number: int) -> Game:
        assert self.first_dealer is not None  # __post_init__ sets it
        dealer = self.players[(self.first_dealer + number) % len(self.players)]  # rotates clockwise
        return Game(self.deck, self.options, self.players, dealer=dealer, teams=self.teams,
                    seed=self.seed * 1000 + number, rules=self.rules)

    def _deal_next(self) -> None:
        self.deals.append(self._new_game(len(self.deals)))

    def _seat_totals(self) -> list[int]:
        return [self.totals[name] for name in self.players]

    def _regular_play_over(self) -> bool:
        return regular_play_over(self.format, len(self.deals), self._seat_totals())

    def deal_finished(self) -> None:
        """Call when the current deal is finished: counts it, then deals the next one if the match goes on."""
        game = self.current
        if not game.finished:
            raise SetupError(N_("the current hand is not finished"))
        if game is self.tie_break_deal:
            return
        if self.counted == len(self.deals):
            return  # already counted
        for name, score in game.scores().items():
            self.totals[name] += score
        self.counted = len(self.deals)
        if not self._regular_play_over():
            self._deal_next()
        elif self._tie_break_due():
            self.tie_break_deal = self._new_game(len(self.deals))

    def _leaders(self) -> list[str]:
        return [self.players[seat] for seat in leaders(self._seat_totals())]

    @property
    def over(self) -> bool:
        if self.tie_break_deal is not None:
            return self.tie_break_deal.finished
        return self.counted == len(self.deals) and self._regular_play_over() and not self._tie_break_due()

    def _tie_break_due(self) -> bool:
        return self.tie_break_deal is None and tie_break_due(self.format, self._seat_totals())

    def winners(self) -> list[str]:
        if not self.over:
            return []
        extra = None
        if self.tie_break_deal is not None:
            scores = self.tie_break_deal.scores()
            extra = [scores[name] for name in self.players]
        return [self.players[seat] for seat in match_winners(self._seat_totals(), extra)]
