"""A match: hands in series, the deal rotating clockwise, to a fixed number of hands or a target score."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from ..decks.errors import N_
from ..decks.model import Deck
from .game import Game, SetupError
from .options import Options


@dataclass(frozen=True)
class MatchFormat:
    hands: int | None = 1        # a fixed number of hands ...
    target: int | None = None    # ... or first to this total (20 or 25 sets are usual)
    tie_break: bool = False      # a tie at the end is settled by one more hand among everyone

    def __post_init__(self) -> None:
        if (self.hands is None) == (self.target is None):
            raise SetupError(N_("a match is either a number of hands or a target score, not both or neither"))
        if self.hands is not None and self.hands < 1:
            raise SetupError(N_("a match has at least one hand"))
        if self.target is not None and self.target < 1:
            raise SetupError(N_("a target score is at least 1"))


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
    hands: list[Game] = field(default_factory=list)
    totals: dict[str, int] = field(default_factory=dict)
    tie_break_hand: Game | None = None
    counted: int = 0                  # hands whose scores are in the totals

    def __post_init__(self) -> None:
        self.players = tuple(self.players)
        self.totals = {name: 0 for name in self.players}
        if self.first_dealer is None:
            self.first_dealer = len(self.players) - 1
        self._deal_next()

    @property
    def current(self) -> Game:
        return self.tie_break_hand or self.hands[-1]

    def _new_game(self, number: int) -> Game:
        dealer = self.players[(self.first_dealer + number) % len(self.players)]  # rotates clockwise
        return Game(self.deck, self.options, self.players, dealer=dealer, teams=self.teams,
                    seed=self.seed * 1000 + number, rules=self.rules)

    def _deal_next(self) -> None:
        self.hands.append(self._new_game(len(self.hands)))

    def _regular_play_over(self) -> bool:
        if self.format.hands is not None:
            return len(self.hands) >= self.format.hands
        return max(self.totals.values()) >= self.format.target

    def hand_finished(self) -> None:
        """Call when the current hand is finished: counts it, then deals the next hand if the match goes on."""
        game = self.current
        if not game.finished:
            raise SetupError(N_("the current hand is not finished"))
        if game is self.tie_break_hand:
            return
        if self.counted == len(self.hands):
            return  # already counted
        for name, score in game.scores().items():
            self.totals[name] += score
        self.counted = len(self.hands)
        if not self._regular_play_over():
            self._deal_next()
        elif self._tie_break_due():
            self.tie_break_hand = self._new_game(len(self.hands))

    def _leaders(self) -> list[str]:
        best = max(self.totals.values())
        return [name for name, total in self.totals.items() if total == best]

    @property
    def over(self) -> bool:
        if self.tie_break_hand is not None:
            return self.tie_break_hand.finished
        return self.counted == len(self.hands) and self._regular_play_over() and not self._tie_break_due()

    def _tie_break_due(self) -> bool:
        return self.format.tie_break and self.tie_break_hand is None and len(self._leaders()) > 1

    def winners(self) -> list[str]:
        if not self.over:
            return []
        leaders = self._leaders()
        if self.tie_break_hand is None:
            return leaders
        scores = self.tie_break_hand.scores()
        best = max(scores[name] for name in leaders)
        return [name for name in leaders if scores[name] == best]
