"""The one error printing raises: its message is a sentence for the person printing.

Like the deck validator's problems (app/decks/errors.py), the sentence is an English template with
`%(name)s` fields marked with `N_`: str() is the English sentence (what `authors print` says), and
`render(translations)` says it in the web page reader's language. A field may be a `Text` (a place such
as 'set "monet"'), translated the same way.
"""
from __future__ import annotations

from ..decks.errors import N_, N_plural, Sentence, Text

__all__ = ["N_", "N_plural", "PrintError", "Text"]


class PrintError(Sentence):
    pass
