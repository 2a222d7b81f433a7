"""What a teacher chooses from when opening a table: decks, rules, options (one line each), players."""
from __future__ import annotations

from dataclasses import fields
from typing import Any


from ..decks import builtin_decks
from ..engine.bots import BOTS
from ..engine.moves import N_
from ..engine.options import (CHOICES, DEFAULT_DECKS, OPTION_NAMES, OPTION_WORDS, PRESET_HELP, PRESETS, Options,
                              OptionWords)

# The help lines and labels are marked for the catalogs (N_): the API gives them in English, the
# new-table page and the teacher's table page in the reader's language. The rules' own words (each
# option's label, help line and values, each preset's help line) are declared beside the rules, in
# app/engine/options.py.
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
    return CHOICES.get(name)


def option_words(name: str) -> OptionWords:
    """An option's label, help line and words for its values; its id and no help if it was declared without."""
    return OPTION_WORDS.get(name, OptionWords(label=name, help="", choices={}))


def choice_labels(name: str) -> dict[str, str] | None:
    """What an option's values mean, by the value the form submits ("set", "card"; "yes" and "no" for
    true and false); None when its values go without words."""
    choices = option_words(name).choices
    if not choices:
        return None
    return {(("yes" if value else "no") if isinstance(value, bool) else str(value)): label
            for value, label in choices.items()}


def _option_row(name: str) -> dict[str, Any]:
    words = option_words(name)
    return {"name": name, "label": words.label, "kind": option_kind(name), "choices": option_choices(name),
            "choice_labels": choice_labels(name), "help": words.help,
            "rules": list(words.rules), "rare": words.rare}  # the presets it applies to; under "More options"


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
        "options": [_option_row(name) for name in OPTION_NAMES],
        "bots": [{"id": name, "label": BOT_NAMES.get(name, name), "help": BOT_HELP.get(name, name)}
                 for name in BOTS],
        "match_formats": [{"id": k, "help": v} for k, v in MATCH_FORMATS.items()],
    }
