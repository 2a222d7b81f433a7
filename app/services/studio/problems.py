"""A deck the studio refuses, and its problems said in the reader's language."""
from __future__ import annotations

from flask_babel import get_translations

from ...decks import Problem, spreadsheet
from ..errors import ServiceError


class DeckInvalid(ServiceError):
    """The validator refused the deck: every problem, each with its line."""
    status, code = 400, "deck-invalid"

    def __init__(self, problems: list[Problem], yaml: str | None = None):
        super().__init__("; ".join(p.message for p in problems[:3]) + ("; ..." if len(problems) > 3 else ""))
        self.problems = problems
        self.yaml = yaml  # the text refused, to show beside its problems


def problem_text(problem: Problem) -> str:
    """A validator's problem in the reader's language: its English template translated, then filled in."""
    return problem.render(get_translations())


def too_long(what: str, limit: int) -> str:
    """"<what> is longer than <limit> characters" in the reader's language (`what` is said in it already);
    the sentence is the spreadsheet parser's, so the form and the sheet say it alike."""
    return spreadsheet.too_long(what, limit).render(get_translations())
