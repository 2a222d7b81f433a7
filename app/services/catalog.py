"""What a teacher chooses from when opening a table: decks, rules, options (one line each), players."""
from __future__ import annotations

from dataclasses import fields
from functools import lru_cache
from typing import Any

import yaml

from ..decks import Deck, builtin_decks, load_deck_text
from ..engine.bots import BOTS
from ..engine.moves import N_
from ..engine.options import DEFAULT_DECKS, OPTION_NAMES, PRESETS, Options

# The help lines and labels are marked for the catalogs (N_): the API gives them in English, the
# new-table page and the teacher's table page in the reader's language.
PRESET_HELP = {
    "standard": N_("Authors with any deck: ask a player for a whole set; a miss passes the turn to the left."),
    "classic": N_("Authors as in 1861: ask for one named card; two to six players."),
    "go-fish": N_("Go Fish: part of the deck is dealt, a miss draws from the stock."),
    "literature": N_("Literature: two teams of three or four, ask for single cards, claim half-suits."),
}

OPTION_HELP = {
    "ask_by": N_("Ask for a whole set, or for one named card."),
    "miss_passes_to": N_("After a failed ask the turn goes to the asker's left, or to the player asked."),
    "bluff_asks": N_("A player may ask for a card they hold themselves (the ask always fails)."),
    "stock": N_("Deal only part of the deck; a failed ask draws a card from the stock."),
    "deal_size": N_("With a stock: cards dealt to each player (blank: 7 for 2-3 players, else 5)."),
    "lucky_draw_continues": N_("Drawing the very card or set asked for lets the asker go on."),
    "dealer_asks_first": N_("The dealer asks first instead of the player at the dealer's left."),
    "double_deck": N_("Play with two copies of the deck, for big tables (7 to 11 players)."),
    "min_players": N_("The fewest players these rules allow."),
    "max_players": N_("The most players these rules allow."),
    "teams": N_("Two teams seated alternately; players ask only the other team."),
    "claims": N_("Sets are won by claims that name which teammate holds each card."),
    "lay_down_complete": N_("A set completed in one hand goes down at once (otherwise it must be claimed)."),
    "claims_any_time": N_("House rule: a player may claim even when it is not their turn."),
    "claiming_team_picks_next": N_("House rule: after a claim the claimer may hand the turn to a teammate."),
    "high_sets_double": N_("House rule: sets whose id starts with \"high-\" score two points."),
    "announce_last_card": N_("House rule: a player down to one card is announced to the table."),
    "public_log": N_("Everyone may read the full log of asks (Literature: only the last ask is shown)."),
    "equal_sets_required": N_("The deck's sets must all have the same number of cards."),
    "removed_rank": N_("Literature with playing cards: the rank taken out to form half-suits (e.g. 8)."),
    "jokers": N_("With a removed rank: its four cards and two jokers form a ninth set."),
    "rank_sets": N_("Literature with playing cards: sets of the four cards of one rank instead of half-suits."),
    "name_the_work": N_("Each card received by an ask asks its receiver to name the work: a right answer scores 1."),
    "answers": N_("How naming a work is graded: exactly (spaces, case, accents and a leading article aside), or "
                  "forgiving a slip of one or two letters."),
    "named_asks": N_("Asking for a card: the asker types the work from memory; a right naming scores 1."),
    "bonus_in_score": N_("The bonus counts as a set; otherwise sets decide the winner and the bonus is counted "
                         "apart."),
    "works_listed": N_("For young classes (recognition): the screens list the works, so a student names a work "
                       "by picking it. Otherwise (recall) a student names every work from memory."),
    "hints": N_("A student who is stuck may ask for a hint (first letters and the length of each word, then "
                "more letters); a hinted answer scores no bonus."),
}

# Short names for the new-table form, the option's id beside it (the API and docs/rules.md use the ids).
OPTION_LABELS = {
    "ask_by": N_("Ask for"),
    "miss_passes_to": N_("After a miss, the turn goes to"),
    "bluff_asks": N_("Bluff asks"),
    "stock": N_("Stock"),
    "deal_size": N_("Cards dealt"),
    "lucky_draw_continues": N_("A lucky draw goes on"),
    "dealer_asks_first": N_("The dealer asks first"),
    "double_deck": N_("Double deck"),
    "min_players": N_("Fewest players"),
    "max_players": N_("Most players"),
    "teams": N_("Teams"),
    "claims": N_("Claims"),
    "lay_down_complete": N_("Complete sets go down"),
    "claims_any_time": N_("Claims at any time"),
    "claiming_team_picks_next": N_("The claimer picks who goes next"),
    "high_sets_double": N_("High sets score double"),
    "announce_last_card": N_("Announce the last card"),
    "public_log": N_("Public log"),
    "equal_sets_required": N_("Sets of one size"),
    "removed_rank": N_("Removed rank"),
    "jokers": N_("Jokers"),
    "rank_sets": N_("Sets by rank"),
    "name_the_work": N_("Naming the work"),
    "answers": N_("Answers"),
    "named_asks": N_("Asks name the work"),
    "bonus_in_score": N_("The bonus counts as a set"),
    "works_listed": N_("Works listed on screen"),
    "hints": N_("Hints"),
}

# What an option's choices mean (the values stay the ids: "set", "card", ...).
CHOICE_LABELS = {
    "ask_by": {"set": N_("a whole set"), "card": N_("one named card")},
    "miss_passes_to": {"left": N_("the asker's left"), "asked": N_("the player asked")},
    "answers": {"exact": N_("spelled right"), "typos": N_("a typo forgiven")},
    # true/false options whose two choices are worth saying in words on the form
    "bonus_in_score": {"yes": N_("the bonus counts as a set"),
                       "no": N_("sets decide the winner; the bonus is counted apart")},
    "works_listed": {"yes": N_("recognition: the works are listed (young classes)"),
                     "no": N_("recall: every work is named from memory")},
}

BOT_NAMES = {
    "random": N_("Random"),
    "memory": N_("Memory"),
    "expert": N_("Expert"),
}

BOT_HELP = {
    "random": N_("Random: any legal move, a beginner's partner."),
    "memory": N_("Memory: remembers what was asked and who holds what."),
    "expert": N_("Expert: plays to win."),
}

MATCH_FORMATS = {
    "hands": N_("Play a fixed number of hands; the highest total wins."),
    "target": N_("Play hands until someone reaches a target score."),
}


def option_kind(name: str) -> str:
    kind = {f.name: str(f.type) for f in fields(Options)}[name]
    if "bool" in kind:
        return "bool"
    if "int" in kind:
        return "int"
    return "text"


def option_choices(name: str) -> tuple[str, ...] | None:
    from ..engine.answers import ANSWERS
    from ..engine.options import ASK_BY, MISS_PASSES_TO
    return {"ask_by": ASK_BY, "miss_passes_to": MISS_PASSES_TO, "answers": ANSWERS}.get(name)


SNAPSHOT_PREFIX = "snap:"  # a table's studio deck, frozen when the table opened (models.DeckSnapshot)


def deck_by_ref(ref: str) -> Deck:
    """The deck a table plays: a built-in deck's id, or a studio deck's snapshot. KeyError when none."""
    decks = builtin_decks()
    if ref in decks:
        return decks[ref]
    if isinstance(ref, str) and ref.startswith(SNAPSHOT_PREFIX):
        return _snapshot_deck(ref)
    raise KeyError(ref)


@lru_cache(maxsize=128)
def _snapshot_deck(ref: str) -> Deck:
    # A snapshot's ref is a digest of its text: the same ref is the same deck in every process.
    from ..models import DeckSnapshot

    row = DeckSnapshot.query.filter_by(ref=ref).one_or_none()
    if row is None:
        raise KeyError(ref)
    return load_deck_text(row.yaml_text, source=f"<{ref}>")


def header_deck(value: Any) -> Deck:
    """The deck of a hand's record header: a deck id, or the deck written out (a studio deck)."""
    if isinstance(value, dict):
        return _inline_deck(yaml.safe_dump(value, allow_unicode=True, sort_keys=False))
    return deck_by_ref(value)


@lru_cache(maxsize=64)
def _inline_deck(text: str) -> Deck:
    return load_deck_text(text, source="<record>")


def catalog(teacher_id: int | None = None) -> dict[str, Any]:
    """Everything the new-table form (and an API client) needs, with a line of explanation each: the
    built-in decks, and for a teacher their own studio decks and those the other teachers share."""
    decks = sorted(builtin_decks().values(), key=lambda deck: deck.title.casefold())
    deck_rows = [{"id": d.id, "title": d.title, "language": d.language, "sets": len(d.sets),
                  "cards": d.card_count, "source": "built-in"} for d in decks]
    if teacher_id is not None:
        from . import studio

        deck_rows += [{"id": studio.ref_of(row), "title": row.title, "language": row.language,
                       "sets": row.set_count, "cards": row.card_count,
                       "source": "yours" if row.owner_id == teacher_id else "shared",
                       "owner": row.owner.name} for row in studio.visible(teacher_id)]
    return {
        "decks": deck_rows,
        "presets": [{"id": name, "help": PRESET_HELP.get(name, ""), "default_deck": DEFAULT_DECKS.get(name),
                     "options": PRESETS[name].to_dict()} for name in PRESETS],
        "options": [{"name": name, "label": OPTION_LABELS.get(name, name), "kind": option_kind(name),
                     "choices": option_choices(name), "choice_labels": CHOICE_LABELS.get(name),
                     "help": OPTION_HELP.get(name, "")} for name in OPTION_NAMES],
        "bots": [{"id": name, "label": BOT_NAMES.get(name, name), "help": BOT_HELP.get(name, name)}
                 for name in BOTS],
        "match_formats": [{"id": k, "help": v} for k, v in MATCH_FORMATS.items()],
    }
