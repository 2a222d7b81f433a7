"""The form editor: fields s<i>_name, s<i>c<j>_title ... as a deck, and a deck as those fields."""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field, replace
from typing import Any, Mapping

import yaml

from ...decks import Deck, DeckError, Problem, load_deck_text, slugify
from ...decks.errors import N_, Text, say
from ...decks.loader import FORMAT, MAX_CARDS, MAX_SETS
from ...decks.spreadsheet import NOTE_MAX, TEXT_MAX, give_card_ids, split_aliases, unique_id
from ...models import StudioDeck
from .finding import deck_of
from .problems import DeckInvalid, form_problem, too_long
from .storing import canonical_yaml, check_room, new_deck_id, store
from .uploads import deck_dir, forget_unused_images, sync_images


@dataclass
class FormResult:
    data: dict[str, Any]
    problems: list[Text] = field(default_factory=list)  # said in the reader's language where they are shown


def _field(form: Mapping[str, Any], name: str, limit: int, problems: list[Text], what: Text | str) -> str:
    """The field's value, its problems said about `what` (a phrase: a marked template or a Text)."""
    what = what if isinstance(what, Text) else Text(what)
    value = form.get(name, "")
    value = " ".join(value.split()) if isinstance(value, str) else ""
    if len(value) > limit:
        problems.append(too_long(what, limit))
    if any(unicodedata.category(ch) == "Cc" for ch in value):
        problems.append(say(N_("%(what)s contains a control character"), what=what))
    return value


def _given(**fields: Any) -> dict[str, Any]:
    """The fields that were filled in, in order (a deck's YAML carries no empty keys)."""
    return {key: value for key, value in fields.items() if value}


def deck_from_form(form: Mapping[str, Any], keep_id: str | None = None) -> FormResult:
    """The form editor's fields as the deck format's mapping. Blank card rows and blank sets are empty
    slots; anything typed in a row keeps the row (so a note without a title is reported, not dropped)."""
    problems: list[Text] = []
    title = _field(form, "title", TEXT_MAX, problems, N_("the title"))
    data: dict[str, Any] = {"format": FORMAT, "id": keep_id or new_deck_id(title), "title": title,
                            "language": _field(form, "language", 35, problems, N_("the language")) or "en"}
    description = _field(form, "description", NOTE_MAX, problems, N_("the description"))
    if description:
        data["description"] = description
    for key, label in (("set_label", N_("what a set is called")), ("card_label", N_("what a card is called"))):
        value = _field(form, key, 40, problems, label)
        if value:
            data[key] = value
    sets = []
    used_set_ids: set[str] = set()
    for i in range(MAX_SETS + 10):
        prefix = f"s{i}"
        name = _field(form, f"{prefix}_name", TEXT_MAX, problems, say(N_("set %(set)d's name"), set=i + 1))
        note = _field(form, f"{prefix}_note", NOTE_MAX, problems, say(N_("set %(set)d's note"), set=i + 1))
        color = _field(form, f"{prefix}_color", 20, problems, say(N_("set %(set)d's colour"), set=i + 1))
        cards = []
        for j in range(MAX_CARDS + 4):
            cp = f"{prefix}c{j}"
            card_title = _field(form, f"{cp}_title", TEXT_MAX, problems,
                                say(N_("set %(set)d, card %(card)d's title"), set=i + 1, card=j + 1))
            aliases = split_aliases(_field(form, f"{cp}_aliases", 1000, problems,
                                           say(N_("set %(set)d, card %(card)d's aliases"), set=i + 1, card=j + 1)),
                                    also_commas=True)
            card_note = _field(form, f"{cp}_note", NOTE_MAX, problems,
                               say(N_("set %(set)d, card %(card)d's note"), set=i + 1, card=j + 1))
            if not (card_title or aliases or card_note):
                continue
            kept_id = _field(form, f"{cp}_id", 64, problems, N_("a card's id"))
            image = _field(form, f"{cp}_image", 200, problems, N_("a card's image"))
            cards.append({"title": card_title, **_given(id=kept_id, aliases=aliases, note=card_note, image=image)})
        if not (name or note or color or cards):
            continue
        set_id = _field(form, f"{prefix}_id", 64, problems, N_("a set's id")) or unique_id(name, used_set_ids, f"set-{i + 1}")
        used_set_ids.add(set_id)
        image = _field(form, f"{prefix}_image", 200, problems, N_("a set's image"))
        give_card_ids(cards, set_id)
        sets.append({"id": set_id, "name": name, **_given(note=note, color=color, image=image), "cards": cards})
    data["sets"] = sets
    return FormResult(data, problems)


def form_values(deck: Deck | None) -> dict[str, str]:
    """A stored deck as the form editor's fields."""
    if deck is None:
        return {"language": "en"}
    values = {"title": deck.title, "language": deck.language, "description": deck.description or "",
              "set_label": "" if deck.set_label == Deck.set_label else deck.set_label,
              "card_label": "" if deck.card_label == Deck.card_label else deck.card_label}
    for i, card_set in enumerate(deck.sets):
        values.update({f"s{i}_id": card_set.id, f"s{i}_name": card_set.name, f"s{i}_note": card_set.note or "",
                       f"s{i}_color": card_set.color or "", f"s{i}_image": card_set.image or ""})
        for j, card in enumerate(card_set.cards):
            cp = f"s{i}c{j}"
            values.update({f"{cp}_title": card.title, f"{cp}_aliases": "; ".join(card.aliases),
                           f"{cp}_note": card.note or "", f"{cp}_image": card.image or "",
                           f"{cp}_id": card.id if card.id != slugify(card.title) else ""})
    return values


def save_form(teacher_id: int, form: Mapping[str, Any], row: StudioDeck | None) -> StudioDeck:
    """The form editor's deck, checked by the validator and stored (a new deck when row is None)."""
    keep_id = deck_of(row).id if row is not None else None
    result = deck_from_form(form, keep_id)
    if result.problems:
        raise DeckInvalid([form_problem(sentence) for sentence in result.problems])
    text = yaml.safe_dump(result.data, allow_unicode=True, sort_keys=False, width=100)
    try:
        sync_images(row.id if row else None)
        deck = load_deck_text(text, source="the form", base_dir=deck_dir(row.id if row else None))
    except DeckError as exc:
        raise DeckInvalid([_in_the_form(p) for p in exc.problems]) from None
    if row is None:
        check_room(teacher_id)
        row = StudioDeck(owner_id=teacher_id, shared=bool(form.get("shared")))
    else:
        row.shared = bool(form.get("shared"))
    saved = store(row, canonical_yaml(deck), deck)
    forget_unused_images(saved, deck)
    return saved


def _in_the_form(problem: Problem) -> Problem:
    """A problem of the YAML made from the form, said without the lines of that YAML the teacher never saw."""
    if "first" in problem.params:  # the form lists sets and cards in the YAML's order
        problem = problem.with_params(first=Text.of(N_("the first one is higher up in the form")))
    return replace(problem, source="the form", line=0, column=0)
