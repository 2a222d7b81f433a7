"""Every problem the deck validator reports can be said in every language of the interface.

A problem keeps its English sentence (`message`, what `authors decks validate` prints) and carries the
marked template and fields it was made from. `assert_translatable` checks that the template renders
back to exactly that English sentence, that it (and every phrase inside it, such as 'set "monet"' or
"a list") is translated in each catalog, and that each translation keeps every field's value.

`every_problem_is_translatable` is an autouse fixture: a test module that imports it has every
DeckError raised during each of its tests checked this way.
"""
from __future__ import annotations

import io
from functools import lru_cache
from pathlib import Path

import pytest
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

from app.decks import DeckError, Problem
from app.decks.errors import Text

TRANSLATIONS = Path(__file__).resolve().parents[1] / "app" / "translations"
LOCALES = ("ru", "fr", "pt", "it", "de", "es")


@lru_cache(maxsize=None)
def catalog(lang: str):
    """The language's catalog as written (.po) and as gettext uses it (compiled in memory)."""
    with open(TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po", "rb") as handle:
        messages = read_po(handle, locale=lang)
    compiled = io.BytesIO()
    write_mo(compiled, messages)
    compiled.seek(0)
    return messages, Translations(compiled)


def _parts(item: Problem | Text):
    """The templates and the plain field values of a problem, its Text fields included."""
    templates, values = [item.template], []
    for value in item.params.values():
        if isinstance(value, Text):
            inner_templates, inner_values = _parts(value)
            templates += inner_templates
            values += inner_values
        else:
            values.append(str(value))
    return templates, values


def assert_translatable(problem: Problem) -> None:
    assert problem.template is not None, f"a problem without a marked template: {problem}"
    assert problem.render() == problem.message, problem
    templates, values = _parts(problem)
    for lang in LOCALES:
        messages, translations = catalog(lang)
        for template in templates:
            msgid = template[0] if isinstance(template, tuple) else template
            found = messages.get(msgid)
            assert found is not None, f"{lang}: not in the catalog (make i18n-update): {msgid!r}"
            strings = found.string if isinstance(found.string, tuple) else (found.string,)
            assert all(strings) and "fuzzy" not in found.flags, f"{lang}: not translated: {msgid!r}"
        said = problem.render(translations)
        assert said != problem.message, (lang, said)
        for value in values:
            assert value in said, (lang, value, said)


@pytest.fixture(autouse=True)
def every_problem_is_translatable(monkeypatch):
    raised: list[Problem] = []
    make = DeckError.__init__

    def recording(self, problems):
        make(self, problems)
        raised.extend(self.problems)

    monkeypatch.setattr(DeckError, "__init__", recording)
    yield raised
    for problem in raised:
        assert_translatable(problem)
