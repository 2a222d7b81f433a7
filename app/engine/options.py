"""The rules as data: one frozen dataclass of switches, and the presets as named instances.

A house rule costs a field here and a branch in the game, never a subclass. Each field carries,
beside its default, what the app says of it (`option`: a label, a help line, the words for its
values) and where the new-table form shows it (the rules it applies to; common, or under "More
options"), and has a row in docs/rules.md (tests/test_options_documented.py checks both). The names
`ask_by`, `name_the_work`, `answers`, `answer_names`, `named_asks` and `bonus_in_score` are fixed by the record
spec.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any, Mapping, TypeVar

from ..decks.errors import N_, Sentence
from .answers import ANSWER_NAMES, ANSWERS

ASK_BY = ("set", "card")
MISS_PASSES_TO = ("left", "asked")

# The options that take one of a few named values, and those values.
CHOICES: dict[str, tuple[str, ...]] = {"ask_by": ASK_BY, "miss_passes_to": MISS_PASSES_TO, "answers": ANSWERS,
                                       "answer_names": ANSWER_NAMES}

T = TypeVar("T")


class OptionsError(Sentence, ValueError):
    """Options that do not exist or have a value they cannot take: a marked template and its fields
    (`template`, `params`), so the web app can say it in the reader's language; str() is English."""


# The rule sets (preset ids) an option can change something in, as `rules=` of option().
FAMILY = ("quartett", "familles", "familias")  # the European family games: one named card at a time
AUTHORS = ("standard", "classic", "go-fish") + FAMILY  # everyone for themselves, sets laid down
LITERATURE = ("literature",)                 # two teams, sets claimed
EVERY_RULES = AUTHORS + LITERATURE
CARD_ASKS = ("classic", "literature") + FAMILY  # the presets that ask for one named card


@dataclass(frozen=True)
class OptionWords:
    """What the app says of an option, in English marked for the catalogs (the web app translates it),
    and where the new-table form shows it."""
    label: str                  # a plain one-line name, for the new-table form
    help: str                   # one line: what the option does
    choices: Mapping[Any, str]  # what a value means, where that is worth words ({"set": "a whole set"})
    rules: tuple[str, ...] = EVERY_RULES  # the presets under which the form offers it
    rare: bool = False          # True: the form keeps it under "More options", closed
    classroom: bool = False     # True: how the app runs the class, no rule of the game; records leave it out


def option(default: T, *, label: str, help: str, choices: Mapping[T, str] | None = None,
           rules: tuple[str, ...] = EVERY_RULES, rare: bool = False, classroom: bool = False) -> T:
    """A field of Options with its words beside its default (they live in the field's metadata)."""
    return field(default=default, metadata={"words": OptionWords(label, help, dict(choices or {}), rules, rare,
                                                                 classroom)})


@dataclass(frozen=True)
class Options:
    # -- asking -------------------------------------------------------------------------------------
    ask_by: str = option(
        "set", label=N_("Ask for"), help=N_("Ask for a whole set, or for one named card."),
        choices={"set": N_("a whole set"), "card": N_("one named card")}, rules=AUTHORS)
    miss_passes_to: str = option(
        "left", label=N_("After a miss, the turn goes to"),
        help=N_("After a failed ask the turn goes to the asker's left, or to the player asked."),
        choices={"left": N_("the asker's left"), "asked": N_("the player asked")})
    bluff_asks: bool = option(
        False, label=N_("A player may ask for a card they hold (a bluff)"),
        help=N_("A player may ask for a card they hold themselves (the ask always fails)."),
        rules=CARD_ASKS, rare=True)
    # -- dealing and the stock ----------------------------------------------------------------------
    stock: bool = option(
        False, label=N_("A draw pile (the stock)"),
        help=N_("Deal only part of the deck; a failed ask draws a card from the stock."), rules=AUTHORS)
    deal_size: int | None = option(
        None, label=N_("Cards dealt to each player"),
        help=N_("With a stock: cards dealt to each player (blank: 7 for 2-3 players, else 5)."),
        rules=AUTHORS, rare=True)
    two_player_talon: bool = option(
        False, label=N_("Two players keep a talon"),
        help=N_("Two players only: deal 10 cards each (or the cards dealt to each player) and keep the rest "
                "face down, to draw from after a miss; with more players every card is dealt."),
        rules=AUTHORS, rare=True)
    lucky_draw_continues: bool = option(
        True, label=N_("Drawing the card asked for gives another ask"),
        help=N_("Drawing the very card or set asked for lets the asker go on."), rules=AUTHORS, rare=True)
    dealer_asks_first: bool = option(
        False, label=N_("The dealer asks first"),
        help=N_("The dealer asks first instead of the player at the dealer's left."), rare=True)
    double_deck: bool = option(  # copies of a work are one card; make_options makes the table 7-11
        False, label=N_("Two decks together, for 7 to 11 players"),
        help=N_("Play with two copies of the deck, for big tables (7 to 11 players)."), rules=AUTHORS, rare=True)
    # -- players ------------------------------------------------------------------------------------
    min_players: int = option(3, label=N_("Fewest players"), help=N_("The fewest players these rules allow."),
                              rare=True)
    max_players: int = option(6, label=N_("Most players"), help=N_("The most players these rules allow."),
                              rare=True)
    # -- teams and claims (Literature) --------------------------------------------------------------
    teams: bool = option(
        False, label=N_("Play in two teams"),
        help=N_("Two teams seated alternately; players ask only the other team."), rules=AUTHORS, rare=True)
    claims: bool = option(
        False, label=N_("Sets are won by claims"),
        help=N_("Sets are won by claims that name which teammate holds each card."), rules=LITERATURE, rare=True)
    lay_down_complete: bool = option(
        True, label=N_("Complete sets go down"),
        help=N_("A set completed in one hand goes down at once (otherwise it must be claimed)."),
        rules=LITERATURE, rare=True)
    claims_any_time: bool = option(
        False, label=N_("Claims at any time"),
        help=N_("House rule: a player may claim even when it is not their turn."), rules=LITERATURE, rare=True)
    claiming_team_picks_next: bool = option(
        False, label=N_("The claimer picks who goes next"),
        help=N_("House rule: after a claim the claimer may hand the turn to a teammate."),
        rules=LITERATURE, rare=True)
    high_sets_double: bool = option(
        False, label=N_("High half-suits score double"),
        help=N_("House rule: the high half-suits (9 to ace) score two points each."), rules=LITERATURE, rare=True)
    announce_last_card: bool = option(
        False, label=N_("Announce the last card"),
        help=N_("House rule: a player down to one card is announced to the table."), rare=True)
    public_log: bool = option(
        True, label=N_("Everyone sees every past ask"),
        help=N_("Everyone may read the full log of asks (Literature: only the last ask is shown)."), rare=True)
    equal_sets_required: bool = option(
        False, label=N_("Sets of one size"), help=N_("The deck's sets must all have the same number of cards."),
        rules=LITERATURE, rare=True)
    # -- playing-card regroupings for Literature ----------------------------------------------------
    removed_rank: str | None = option(
        None, label=N_("Rank taken out of the pack"),
        help=N_("Literature with playing cards: the rank taken out to form half-suits (e.g. 8)."),
        rules=LITERATURE, rare=True)
    jokers: bool = option(
        False, label=N_("Jokers"), help=N_("With a removed rank: its four cards and two jokers form a ninth set."),
        rules=LITERATURE, rare=True)
    rank_sets: bool = option(
        False, label=N_("Sets by rank"),
        help=N_("Literature with playing cards: sets of the four cards of one rank instead of half-suits."),
        rules=LITERATURE, rare=True)
    # -- the classroom ------------------------------------------------------------------------------
    stand_in_after: int | None = option(
        None, label=N_("A computer plays for an away student after (minutes)"),
        help=N_("The app only: a student whose screen has not been seen for this many minutes (1 to 10) gets a "
                "computer playing for them until they are back; blank: only when the teacher asks."), rare=True,
        classroom=True)
    turn_seconds: int | None = option(
        None, label=N_("Seconds to make a move (then a computer makes it)"),
        help=N_("The app only: a student who has not moved after this many seconds (10 to 600) has a computer "
                "make that move for them, and is told; blank: no time limit."), rare=True, classroom=True)
    name_the_work: bool = option(
        False, label=N_("Name the work for a bonus point"),
        help=N_("Each card received by an ask asks its receiver to name the work: a right answer scores 1."))
    answers: str = option(
        "exact", label=N_("How names are marked"),
        help=N_("How naming a work is graded: exactly (spaces, case, accents and a leading article aside), or "
                "forgiving a slip of one or two letters."),
        choices={"exact": N_("spelled right"), "typos": N_("a typo forgiven")})
    answer_names: str = option(
        "card", label=N_("What a naming must name"),
        help=N_("Naming a received card: its own work, or any work of its set the student did not hold before "
                "(fair when a whole set is asked for and the cards arrive unseen)."),
        choices={"card": N_("the card received"), "set": N_("any work of the set not held before")}, rules=AUTHORS)
    named_asks: bool = option(
        False, label=N_("The asker types the title of the card asked for"),
        help=N_("Asking for a card: the asker types the work from memory; a right naming scores 1."),
        rules=CARD_ASKS)
    challenge_sets: bool = option(
        False, label=N_("Challenge a set"),
        help=N_("When a player lays down a set, the player who gave up its last card may challenge: the layer "
                "names every work of the set from memory, or the set goes to the challenger."),
        rules=AUTHORS)
    # The two true/false options whose values are worth saying in words on the form.
    bonus_in_score: bool = option(
        True, label=N_("The bonus counts as a set"),
        help=N_("The bonus counts as a set; otherwise sets decide the winner and the bonus is counted apart."),
        choices={True: N_("the bonus counts as a set"),
                 False: N_("sets decide the winner; the bonus is counted apart")}, rare=True)
    works_listed: bool = option(
        False, label=N_("Works listed on screen"),
        help=N_("For young classes (recognition): the screens list the works, so a student names a work "
                "by picking it. Otherwise (recall) a student names every work from memory."),
        choices={True: N_("recognition: the works are listed (young classes)"),
                 False: N_("recall: every work is named from memory")})
    hints: bool = option(
        False, label=N_("Hints"),
        help=N_("A student who is stuck may ask for a hint (first letters and the length of each word, then "
                "more letters); a hinted answer scores no bonus."))
    review_deals: bool = option(
        False, label=N_("Missed works come back"),
        help=N_("Each class student's works due for review (named wrong before, or not for a while) are dealt "
                "to the computer players, so she must ask for them and name them again."),
        classroom=True)

    card_index: bool = option(
        False, label=N_("Cards show their index (A1, B2 …)"),
        help=N_("For children who cannot read yet: each card on the screens shows its set's letter and its place "
                "(B2), as old quartets print them. Not where works are named from memory: an index would give "
                "the work away."), rare=True, classroom=True)

    hide_scores: bool = option(
        False, label=N_("Scores hidden until the end of the hand"),
        help=N_("While a hand is played no screen shows its scores or bonus points (the sets laid down stay "
                "on the table); they appear when the hand ends."), rare=True, classroom=True)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def overrides(self, base: "Options") -> dict[str, Any]:
        """Only the fields that differ from base (what a table stores of its options)."""
        return {k: v for k, v in asdict(self).items() if getattr(base, k) != v}

    def rule_overrides(self, base: "Options") -> dict[str, Any]:
        """The overrides a game record writes down: the rules' only, not how the app runs the class."""
        return {k: v for k, v in self.overrides(base).items() if k not in CLASSROOM_OPTIONS}


OPTION_NAMES = tuple(f.name for f in fields(Options))
# An option declared without option() has no words: tests/test_options_documented.py says which.
OPTION_WORDS: dict[str, OptionWords] = {f.name: f.metadata["words"] for f in fields(Options) if "words" in f.metadata}
CLASSROOM_OPTIONS = frozenset(name for name, words in OPTION_WORDS.items() if words.classroom)

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
    # Quartett (German): every card dealt, ask for one card, a miss gives the turn to the player asked;
    # two players deal 10 each and draw from the talon after a miss (docs/rules.md).
    "quartett": Options(ask_by="card", miss_passes_to="asked", two_player_talon=True, lucky_draw_continues=False,
                        min_players=2, max_players=6),
    # 7 familles (French): 6 cards each, a stock; a miss draws, and drawing the card asked for plays again.
    "familles": Options(ask_by="card", stock=True, deal_size=6, min_players=2, max_players=6),
    # Siete familias (Spanish): the same with 7 cards each ("¡carta buena!" plays again).
    "familias": Options(ask_by="card", stock=True, deal_size=7, min_players=2, max_players=6),
}

# Each preset in a line, marked for the catalogs (the new-table page, the API). The line follows the
# preset's title (its rules page's), so it does not name the game again.
PRESET_HELP = {
    "standard": N_("Ask a player for a whole set; after a miss the turn passes to the left. Plays with any deck."),
    "classic": N_("Ask for one named card (an author and a work); two to six players."),
    "go-fish": N_("Only part of the deck is dealt; after a miss the asker draws from the stock."),
    "literature": N_("Two teams of three or four ask for single cards and claim half-suits."),
    "quartett": N_("Every card is dealt; ask for one card; after a miss the player asked takes the turn."),
    "familles": N_("Six cards each and a stock; ask for one card of a family; draw after a miss."),
    "familias": N_("A pile and seven cards each; ask for one card of a family; draw after a miss."),
}

DEFAULT_DECKS = {"standard": "standard-52", "classic": "authors-1861", "go-fish": "standard-52",
                 "literature": "literature-48", "quartett": "german-writers", "familles": "french-writers",
                 "familias": "spanish-writers"}


TALON_DEAL = 10  # two players of Quartett: ten cards each, the rest the talon


def in_play(options: Options, players: int) -> Options:
    """The options a game of this many players plays by: `two_player_talon` with two players is a stock
    of all but `deal_size` (10) cards each."""
    if options.two_player_talon and players == 2 and not options.stock:
        return replace(options, stock=True, deal_size=options.deal_size or TALON_DEAL)
    return options


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
    for name, choices in CHOICES.items():
        if getattr(options, name) not in choices:
            raise OptionsError(N_('option "%(name)s" is "%(first)s" or "%(second)s", not "%(value)s"'), name=name,
                               first=choices[0], second=choices[1], value=getattr(options, name))
    if not 2 <= options.min_players <= options.max_players <= 22:
        raise OptionsError(N_("player limits must satisfy 2 <= min_players <= max_players <= 22"))
    if not options.lay_down_complete and not options.claims:
        raise OptionsError(N_('without claims, complete sets must be laid down ("lay_down_complete": true)'))
    if options.claims and not options.teams:
        raise OptionsError(N_('option "%(name)s" needs "%(needed)s"'), name="claims", needed="teams")
    if options.teams and not options.claims:  # asks go to opponents only: a set split between teammates
        # could never go down, and the hand would never end
        raise OptionsError(N_('option "%(name)s" needs "%(needed)s"'), name="teams", needed="claims")
    if options.deal_size is not None and options.deal_size < 1:
        raise OptionsError(N_('option "%(name)s" must be at least %(least)d'), name="deal_size", least=1)
    if options.double_deck and options.claims:  # a claim names who holds which card; copies are not told apart
        raise OptionsError(N_('option "%(name)s" is not played with "%(other)s"'), name="double_deck", other="claims")
    if options.challenge_sets and options.claims:  # a claimed set was laid down by no one
        raise OptionsError(N_('option "%(name)s" is not played with "%(other)s"'), name="challenge_sets",
                           other="claims")
    if options.challenge_sets and options.works_listed:  # a challenged set is named from memory
        raise OptionsError(N_('option "%(name)s" is not played with "%(other)s"'), name="challenge_sets",
                           other="works_listed")
    if options.named_asks and options.ask_by != "card":
        raise OptionsError(N_('option "%(name)s" needs "%(needed)s"'), name="named_asks", needed="ask_by: card")
    if options.stand_in_after is not None and not 1 <= options.stand_in_after <= 10:
        raise OptionsError(N_('option "%(name)s" is a number of minutes from %(least)d to %(most)d'),
                           name="stand_in_after", least=1, most=10)
    if options.turn_seconds is not None and not 10 <= options.turn_seconds <= 600:
        raise OptionsError(N_('option "%(name)s" is a number of seconds from %(least)d to %(most)d'),
                           name="turn_seconds", least=10, most=600)
    if options.jokers and options.removed_rank is None:
        raise OptionsError(N_('option "jokers" needs "removed_rank" (the removed cards and the jokers form a set)'))
