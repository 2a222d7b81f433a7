"""A record whose built-in deck's file is broken is unusable with a sentence, not a traceback (the
library reads a deck's file when the record first asks for it)."""
from __future__ import annotations

import pytest

from app.decks.library import Library
from app.engine import record
from app.engine.record import RecordError, load_record_text


def test_a_broken_library_deck_makes_the_record_unusable_with_a_sentence(tmp_path, monkeypatch):
    (tmp_path / "broken-deck.yaml").write_text("format: authors-deck/1\nid: broken-deck\ntitle: [\n")
    monkeypatch.setattr(record, "builtin_decks", lambda: Library(tmp_path))
    text = "format: authors-record/1\nrules: standard\ndeck: broken-deck\nplayers: [Anna, Boris, Vera]\n"
    with pytest.raises(RecordError, match=":3: the deck library cannot be read"):
        load_record_text(text)
