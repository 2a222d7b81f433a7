"""Every OptionsError, SetupError and PrintError can be said in every language of the interface.

These errors (app.decks.errors.Sentence) keep their English sentence (str(), what the command line
prints) and carry the marked template and fields they were made from, as deck problems do:
`assert_translatable` (tests/deck_problems.py) checks that the template renders back to exactly the
English sentence, that it and every phrase inside it is translated in each catalog, and that each
translation keeps every field's value.

`every_error_sentence_is_translatable` is an autouse fixture of the whole suite (tests/conftest.py):
every such error made during a test is checked when the test ends. (Hypothesis leaves autouse fixtures
alone, so the property tests are checked too.)
"""
from __future__ import annotations

import pytest

from app.decks.errors import Sentence

from .deck_problems import assert_translatable


@pytest.fixture(autouse=True)
def every_error_sentence_is_translatable():
    made: dict[tuple[type, str], Sentence] = {}
    original = Sentence.__init__

    def recording(self, template, **params):
        original(self, template, **params)
        made.setdefault((type(self), self.message), self)

    Sentence.__init__ = recording
    try:
        yield made
    finally:
        Sentence.__init__ = original
    for error in made.values():
        assert_translatable(error)
