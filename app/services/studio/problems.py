"""A deck the studio refuses, with every problem the validator found (said in the reader's language
where the web shows them: each problem, and the refusal, has `render(translations)`)."""
from __future__ import annotations

from ...decks import Problem
from ...decks.errors import ENGLISH, Text, Translations
from ...decks.spreadsheet import too_long
from ..errors import ServiceError

__all__ = ["DeckInvalid", "form_problem", "too_long"]


class DeckInvalid(ServiceError):
    """The validator refused the deck: every problem, each with its line. Its sentence is that of the
    first three problems."""
    status, code = 400, "deck-invalid"

    def __init__(self, problems: list[Problem], yaml: str | None = None):
        super().__init__(problems[0].text)  # (a refused deck has a problem at least)
        self.problems = problems
        self.yaml = yaml  # the text refused, to show beside its problems
        self.message = self.render()
        self.args = (self.message,)

    def render(self, translations: Translations = ENGLISH) -> str:
        said = "; ".join(problem.render(translations) for problem in self.problems[:3])
        return said + "; ..." if len(self.problems) > 3 else said


def form_problem(sentence: Text) -> Problem:
    """A problem of the form editor's fields (no line to point at)."""
    return Problem("the form", 0, 0, sentence.render(), sentence.template, sentence.params)
