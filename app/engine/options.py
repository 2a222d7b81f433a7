"""The rules as data: one frozen dataclass of switches, and the presets as named instances.

A house rule costs a field here and a branch in the game, never a subclass. Every field is
documented in docs/rules.md; the names `ask_by`, `name_the_work`, `answers`, `named_asks` and
`bonus_in_score` are fixed by the record spec.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from ..decks.errors import N_, Sentence
from .answers import ANSWERS

ASK_BY = ("set", "card")
MISS_PASSES_TO = ("left", "asked")


class OptionsError(Sentence, ValueError):
    """Options that do not exist or have a value they cannot take: a marked template and its fields
    (`template`, `params`), so the web app can say it in the reader's language; str() is English."""


@dataclass(frozen=True)
class Options:
    # -- asking -------------------------------------------------------------------------------------
    ask_by: str = "set"                 # "set": hand over every card of the set; "card": one named card
    miss_passes_to: str = "left"        # a failed ask sends the turn to the asker's left, or to the asked
    bluff_asks: bool = False            # asking for a card you hold yourself is allowed (it always fails)
    # -- dealing and the stock ----------------------------------------------------------------------
    stock: bool = False                 # deal part of the deck; a failed ask draws from the face-down rest
    deal_size: int | None = None        # cards dealt to each player with a stock; None: 7 (2-3 players), else 5
    lucky_draw_continues: bool = True   # drawing the card (set) asked for lets the asker go on
    dealer_asks_first: bool = False     # Literature: the dealer asks first; otherwise the dealer's left
    double_deck: bool = False           # two copies of the deck: copies of a work are one card (classic: 7-11)
    # -- players ------------------------------------------------------------------------------------
    min_players: int = 3
    max_players: int = 6
    # -- teams and claims (Literature) --------------------------------------------------------------
    teams: bool = False                 # two teams seated alternately; asks go to opponents only
    claims: bool = False                # sets are won by claims naming who holds each card
    lay_down_complete: bool = True      # a set completed in one hand goes down at once (else: claim it)
    claims_any_time: bool = False       # house rule: claim out of turn too
    claiming_team_picks_next: bool = False  # house rule: after a claim the claimer may hand the turn on
    high_sets_double: bool = False      # house rule: "high-..." sets score 2
    announce_last_card: bool = False    # house rule: a hand down to one card is announced to the table
    public_log: bool = True             # the full log of asks is public (Literature: last ask only)
    equal_sets_required: bool = False   # the deck's sets must all be the same size
    # -- playing-card regroupings for Literature ----------------------------------------------------
    removed_rank: str | None = None     # rebuild half-suits from the 52 cards without this rank
    jokers: bool = False                # with removed_rank: the removed cards and two jokers form a ninth set
    rank_sets: bool = False             # sets of the four cards of one rank instead of half-suits
    # -- the classroom ------------------------------------------------------------------------------
    name_the_work: bool = False         # a card received by an ask opens a prompt; a right answer scores 1
    answers: str = "exact"              # "exact": the spec's forms only; "typos": also forgive a slip or two
    named_asks: bool = False            # card asks carry the work named from memory; a right one scores 1
    bonus_in_score: bool = True         # false: scores and winners count sets only (bonus kept apart)
    works_listed: bool = False          # the app's screens list the works (recognition), else recall only
    hints: bool = False                 # the app offers hints when asked; a hinted naming scores no bonus

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def overrides(self, base: "Options") -> dict[str, Any]:
        """Only the fields that differ from base (what a record needs to write down)."""
        return {k: v for k, v in asdict(self).items() if getattr(base, k) != v}


OPTION_NAMES = tuple(f.name for f in fields(Options))

PRESETS: dict[str, Options] = {
    # Authors with an ordinary deck: ask for a rank, no stock, a miss passes left [seeds 000-002].
    "standard": Options(ask_by="set", min_players=3, max_players=6),
    # Authors, 1861 style: ask for one named work [seed 003].
    "classic": Options(ask_by="card", min_players=2, max_players=6),
    # Go Fish: the standard deck with a stock.
    "go-fish": Options(ask_by="set", stock=True, min_players=2, max_players=6),
    # Literature / Canadian Fish: two teams, card asks, claims, a miss passes to the asked [seed 004].
    "literature": Options(ask_by="card", miss_passes_to="asked", teams=True, claims=True,
                          lay_down_complete=False, dealer_asks_first=True, public_log=False,
                          equal_sets_required=True, min_players=6, max_players=8),
}

DEFAULT_DECKS = {"standard": "standard-52", "classic": "authors-1861", "go-fish": "standard-52",
                 "literature": "literature-48"}


def make_options(preset: str, overrides: dict[str, Any] | None = None) -> Options:
    """A preset with overrides applied; OptionsError names what is wrong."""
    if preset not in PRESETS:
        raise OptionsError(N_('unknown rules "%(rules)s"; choose one of %(choices)s'), rules=preset,
                           choices=", ".join(PRESETS))
    base = PRESETS[preset]
    overrides = dict(overrides or {})
    for name, value in overrides.items():
        if name not in OPTION_NAMES:
            raise OptionsError(N_('unknown option "%(name)s"; options are %(names)s'), name=name,
                               names=", ".join(OPTION_NAMES))
        overrides[name] = _coerce(name, value, getattr(base, name))
    if overrides.get("double_deck") and not {"min_players", "max_players"} & set(overrides):
        overrides.update(min_players=7, max_players=11)  # two decks are for big tables [seed 003]
    options = replace(base, **overrides)
    _check(options)
    return options


def _coerce(name: str, value: Any, default: Any) -> Any:
    kind = {f.name: f.type for f in fields(Options)}[name]
    if "bool" in kind:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in ("true", "false"):
            return value.lower() == "true"
        raise OptionsError(N_('option "%(name)s" is true or false, not %(value)s'), name=name, value=repr(value))
    if "int" in kind:
        if value is None and "None" in kind:
            return None
        if isinstance(value, bool) or not isinstance(value, (int, str)) or not str(value).isascii() \
                or not str(value).isdigit():  # "²".isdigit() is true, int("²") fails
            raise OptionsError(N_('option "%(name)s" is a whole number, not %(value)s'), name=name,
                               value=repr(value))
        return int(value)
    if value is None and "None" in kind:
        return None
    if not isinstance(value, (str, int)) or isinstance(value, bool):
        raise OptionsError(N_('option "%(name)s" is text, not %(value)s'), name=name, value=repr(value))
    return str(value)


def _check(options: Options) -> None:
    for name, choices in (("ask_by", ASK_BY), ("miss_passes_to", MISS_PASSES_TO), ("answers", ANSWERS)):
        if getattr(options, name) not in choices:
            raise OptionsError(N_('option "%(name)s" is "%(first)s" or "%(second)s", not "%(value)s"'), name=name,
                               first=choices[0], second=choices[1], value=getattr(options, name))
    if not 2 <= options.min_players <= options.max_players <= 22:
        raise OptionsError(N_("player limits must satisfy 2 <= min_players <= max_players <= 22"))
    if not options.lay_down_complete and not options.claims:
        raise OptionsError(N_('without claims, complete sets must be laid down ("lay_down_complete": true)'))
    if options.claims and not options.teams:
        raise OptionsError(N_('option "%(name)s" needs "%(needed)s"'), name="claims", needed="teams")
    if options.deal_size is not None and options.deal_size < 1:
        raise OptionsError(N_('option "%(name)s" must be at least %(least)d'), name="deal_size", least=1)
    if options.double_deck and options.claims:  # a claim names who holds which card; copies are not told apart
        raise OptionsError(N_('option "%(name)s" is not played with "%(other)s"'), name="double_deck", other="claims")
    if options.named_asks and options.ask_by != "card":
        raise OptionsError(N_('option "%(name)s" needs "%(needed)s"'), name="named_asks", needed="ask_by: card")
    if options.jokers and options.removed_rank is None:
        raise OptionsError(N_('option "jokers" needs "removed_rank" (the removed cards and the jokers form a set)'))
