"""Views: the only way state leaves the engine. A PlayerView holds one seat's hand and public facts."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Iterator

from .events import EventFields
from .moves import Answer, Ask, Challenge, Claim, Defend, Move, PassTurn
from ..decks.model import Deck
from .options import Options


class AskChoices(Sequence[Ask]):
    """The legal asks of one player as items x targets, built on demand (a random pick costs O(1))."""

    __slots__ = ("player", "ask_by", "items", "targets")

    def __init__(self, player: str, ask_by: str, items: tuple[str, ...], targets: tuple[str, ...]):
        self.player, self.ask_by, self.items, self.targets = player, ask_by, items, targets

    def __len__(self) -> int:
        return len(self.items) * len(self.targets)

    def __getitem__(self, index: int) -> Ask:  # type: ignore[override]  # one ask at a time: no slices
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        item, target = divmod(index, len(self.targets))
        if self.ask_by == "set":
            return Ask(self.player, self.targets[target], set=self.items[item])
        return Ask(self.player, self.targets[target], card=self.items[item])

    def __repr__(self) -> str:
        return f"AskChoices({self.player!r}, {len(self)} asks)"


# Sent apart from the view's facts (state.py): the recent events and the last naming go beside the game.
NOT_IN_DICT = ("options", "deck", "asks", "recent", "last_answer")


@dataclass(frozen=True)
class PublicView:
    """What every player at the table (and the projector) may see."""
    rules: str
    deck_id: str
    players: tuple[str, ...]
    dealer: str
    teams: tuple[tuple[str, ...], ...] | None
    turn: str | None
    finished: bool
    hand_counts: dict[str, int]
    books: dict[str, tuple[str, ...]]
    team_books: tuple[tuple[str, ...], ...] | None
    cancelled: tuple[str, ...]
    pending: dict[str, int]
    bonus: dict[str, int]
    scores: dict[str, int]
    team_scores: tuple[int, ...] | None
    stock: int
    last_ask: EventFields | None
    log: tuple[EventFields, ...] | None  # None where the rules forbid notes (Literature)
    winners: tuple[str, ...]
    version: int
    last_answer: EventFields | None      # the latest naming of a work, whoever made it
    recent: tuple[EventFields, ...]      # the events of the last move, as this view's reader saw them
    challenge: dict[str, str] | None     # challenge_sets: the challenge now open (Game.challenge)

    def to_dict(self, plain: bool = True) -> dict[str, Any]:
        """The view's facts by name (not its options, deck or ask choices). `plain=False` leaves the
        values as the engine holds them (tuples, shared dicts): for a JSON encoder, which needs no copy."""
        fields = (name for name in self.__dataclass_fields__ if name not in NOT_IN_DICT)
        if not plain:
            return {name: getattr(self, name) for name in fields}
        return {name: _plain(getattr(self, name)) for name in fields}


@dataclass(frozen=True)
class PlayerView(PublicView):
    """One seat's knowledge: the public view plus its own hand, prompts and choices."""
    seat: str
    options: Options
    deck: Deck                          # the deck as played: public knowledge
    team: int | None
    hand: tuple[str, ...]
    prompts: tuple[str, ...]            # cards whose work this player still has to name, oldest first
    to_act: bool
    asks: AskChoices | None             # the legal asks when it is this seat's turn to ask
    claimable: tuple[str, ...]          # sets this seat may claim now (Literature)
    pass_targets: tuple[str, ...]       # players this seat may hand the turn to now

    def legal_moves(self) -> Iterator[Move]:
        """The same moves as Game.legal_moves for this seat, from this view alone."""
        if self.challenge is not None:
            if self.challenge["stage"] == "defend" and self.challenge["player"] == self.seat:
                yield Defend(self.seat, self.challenge["set"], ())
            elif self.challenge["stage"] == "offer" and self.challenge["challenger"] == self.seat:
                yield Challenge(self.seat, self.challenge["set"])
                yield Challenge(self.seat, None)
            return
        if self.prompts:
            yield Answer(self.seat, None)
            return
        if self.asks is not None:
            yield from self.asks
        if self.claimable:
            team = self.own_team()
            for set_id in self.claimable:
                yield from attributions(self.seat, set_id, self.set_cards(set_id), team, self.players)
        for to in self.pass_targets:
            yield PassTurn(self.seat, to)

    def set_cards(self, set_id: str) -> tuple[str, ...]:
        return self.deck.set(set_id).card_ids

    def own_team(self) -> tuple[str, ...]:
        """The players of this seat's team, in a team game."""
        assert self.teams is not None and self.team is not None, "not a team game"
        return self.teams[self.team]


def attributions(player: str, set_id: str, cards: tuple[str, ...], team: tuple[str, ...],
                  seating: tuple[str, ...]) -> Iterator[Claim]:
    """Every claim of the set: each of the team's players (in seat order) for each card."""
    order = tuple(sorted(team, key=seating.index))
    for code in range(len(order) ** len(cards)):
        yield attribution(player, set_id, cards, order, code)


def attribution(player: str, set_id: str, cards: tuple[str, ...], order: tuple[str, ...], code: int) -> Claim:
    """The code-th claim of `attributions`: card i goes to order[digit i of code in base len(order)]."""
    owners: dict[str, list[str]] = {}
    for card in cards:
        code, pick = divmod(code, len(order))
        owners.setdefault(order[pick], []).append(card)
    return Claim(player, set_id, tuple((name, tuple(owners[name])) for name in order if name in owners))


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    return value
