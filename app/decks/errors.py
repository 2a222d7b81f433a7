"""A deck problem names its place (file:line:col) and says what is wrong in plain words.

Every sentence is an English template with named fields (`%(name)s`), marked with `N_` for the
translation catalogs: `message` is the English sentence (what the command line prints), `template`
and `params` let the web app say it in the reader's language (`Problem.render(translations)`). A
field may itself be a `Text` (a place such as 'set "monet"', a shape such as "a list"), rendered the
same way. The sentences themselves (N_, Text, Sentence, ...) are app/sentences.py's, imported here too
for the rooms that import them from app.decks. No Flask here.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Mapping

from ..sentences import (ENGLISH, N_, N_plural, Sentence, Template, Text, Translations, render,
                         say)

__all__ = ["ENGLISH", "N_", "N_plural", "Sentence", "Template", "Text", "Translations", "render",
           "say", "Problem", "DeckError"]


@dataclass(frozen=True)
class Problem:
    source: str
    line: int  # 1-based
    column: int  # 1-based
    message: str  # the English sentence
    template: Template | None = field(default=None, compare=False, repr=False)  # None: `message` as it is
    params: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False, hash=False)

    @classmethod
    def at(cls, source: str, line: int, column: int, template: Template, **params: Any) -> "Problem":
        """A problem whose sentence is a marked template with its fields."""
        return cls(source, line, column, render(template, params), template, params)

    def render(self, translations: Translations = ENGLISH) -> str:
        """The sentence in the language of `translations` (English by default: `message`)."""
        if self.template is None:
            return self.message
        return render(self.template, self.params, translations)

    @property
    def text(self) -> Text:
        """The problem's sentence, without its place (a problem written without a template: as it is)."""
        return Text(self.message) if self.template is None else Text(self.template, self.params)

    def with_params(self, **changes: Any) -> "Problem":
        """The same problem with some fields changed (e.g. "first at line 8" said another way)."""
        if self.template is None:
            return self
        params = {**self.params, **changes}
        return replace(self, message=render(self.template, params), params=params)

    def __str__(self) -> str:
        return f"{self.source}:{self.line}:{self.column}: {self.message}"


class DeckError(Exception):
    """A deck refused whole, with every problem found in it."""

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))
