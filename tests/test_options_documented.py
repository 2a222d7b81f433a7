"""Every rules option says what it is: a label and a help line beside its default (app/engine/options.py),
words for each of its named values, and a row in the options table of docs/rules.md; every preset has
its help line. Forgetting one breaks nothing else, so this is where it shows."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from app.engine.options import CHOICES, OPTION_NAMES, OPTION_WORDS, PRESET_HELP, PRESETS

ROOT = Path(__file__).resolve().parents[1]


def options_table() -> str:
    """The table of docs/rules.md's section "Every option" (its rows "| `name` | ... |")."""
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    section = re.search(r"^## Every option\n(.*?)(?=^## )", text, re.M | re.S)
    assert section, 'docs/rules.md has no section "## Every option"'
    return "\n".join(line for line in section.group(1).splitlines() if line.startswith("|"))


def marked_ids() -> set[str]:
    """The messages marked for translation, as last extracted (`make i18n-extract`)."""
    with open(ROOT / "app" / "translations" / "messages.pot", "rb") as handle:
        return {message.id for message in read_po(handle) if isinstance(message.id, str) and message.id}


@pytest.mark.parametrize("name", OPTION_NAMES)
def test_every_option_has_a_label_and_a_help_line(name: str) -> None:
    words = OPTION_WORDS.get(name)
    assert words is not None, f"{name}: declare it as option(default, label=N_(...), help=N_(...))"
    assert words.label.strip(), f"{name}: no label"
    assert words.help.strip(), f"{name}: no help line"


@pytest.mark.parametrize("name", sorted(CHOICES))
def test_every_named_value_has_words(name: str) -> None:
    labels = OPTION_WORDS[name].choices
    assert set(labels) == set(CHOICES[name]), f"{name}: choices={{...}} must word each of {CHOICES[name]}"
    assert all(label.strip() for label in labels.values()), f"{name}: an empty choice label"


def test_a_true_false_option_words_both_values_or_neither() -> None:
    for name, words in OPTION_WORDS.items():
        if name not in CHOICES and words.choices:
            assert set(words.choices) == {True, False}, f"{name}: choices={{True: ..., False: ...}}"


def test_every_preset_has_its_help_line() -> None:
    assert set(PRESET_HELP) == set(PRESETS)
    assert all(line.strip() for line in PRESET_HELP.values())


def test_the_words_are_marked_for_translation() -> None:
    words = [line for w in OPTION_WORDS.values() for line in (w.label, w.help, *w.choices.values())]
    unmarked = set(words + list(PRESET_HELP.values())) - marked_ids()
    assert not unmarked, f"mark them N_(...) and run `make i18n-update`: {sorted(unmarked)[:5]}"


@pytest.mark.parametrize("name", OPTION_NAMES)
def test_every_option_has_a_row_in_docs_rules(name: str) -> None:
    assert f"| `{name}` |" in options_table(), f'docs/rules.md, "Every option": add the row "| `{name}` | ..."'


@pytest.mark.parametrize("name", OPTION_NAMES)
def test_every_option_says_which_rules_it_applies_to(name: str) -> None:
    """The new-table form shows an option under the presets of its `rules=` (none: never shown)."""
    rules = OPTION_WORDS[name].rules
    assert rules, f"{name}: rules=(...) names no preset, so no form offers it"
    assert set(rules) <= set(PRESETS), f"{name}: rules={rules} names no preset of {sorted(PRESETS)}"
    assert isinstance(OPTION_WORDS[name].rare, bool)


def test_every_preset_offers_some_options_at_first_sight() -> None:
    for preset in PRESETS:
        common = [n for n, w in OPTION_WORDS.items() if preset in w.rules and not w.rare]
        assert common, f"{preset}: every option it offers is under \"More options\""


def test_no_label_or_help_line_names_an_option_by_its_id() -> None:
    ids = [name for name in OPTION_NAMES if "_" in name]  # the others are words ("stock", "teams")
    for name, words in OPTION_WORDS.items():
        for line in (words.label, words.help, *words.choices.values()):
            assert not any(re.search(rf"\b{i}\b", line) for i in ids), f"{name}: {line!r} names an option id"
