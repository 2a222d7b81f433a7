"""Is a typed name the card's work? The grading of shared/spec/game-record.md, "When an answer is correct".

Both sides are normalised, then compared as *forms*: the text without spaces, and without its leading
article. `answers: typos` also takes a near miss (an optimal-string-alignment distance of 1 for forms of
5 to 9 characters, 2 from 10), unless another card of the set is at least as near to what was typed.
Under `answer_names: set` an answer may name any of several candidates (`candidates_named`); the game
says which cards those are (app/engine/game.py, `_resolve`).
"""
from __future__ import annotations

import unicodedata
from enum import StrEnum
from functools import lru_cache
from typing import Callable, Iterable, Sequence

from rapidfuzz.distance import OSA

from ..decks.model import Card

ANSWERS = ("exact", "typos")
ANSWER_NAMES = ("card", "set")  # what a prompt's answer names: the card received, or any candidate of its set

# The spec's lists. Every list applies to every deck: decks often quote a title in its own language
# (a French title in an English deck), and the spec ties the articles to no deck language. "l'" is
# the word "l" once its apostrophe has become a space.
LEADING_ARTICLES = {
    "en": ("the", "a", "an"),
    "fr": ("le", "la", "les", "l'"),
    "it": ("il", "lo", "la", "i", "gli", "le", "l'"),
    "pt": ("o", "a", "os", "as"),
}
_ARTICLE_WORDS = frozenset(word.rstrip("'") for words in LEADING_ARTICLES.values() for word in words)

# Letters whose mark is part of the letter, not an accent: Russian й is a letter of its own (и
# with a breve is another word), while ё is commonly written е, so ё loses its mark like é does.
_KEPT = {"й": "й"}


class Verdict(StrEnum):
    """A plain string too ("right", "almost", "wrong"), as events and JSON carry it."""

    RIGHT = "right"
    ALMOST = "almost"   # a typo `answers: typos` forgives: it scores like a right answer
    WRONG = "wrong"

    @property
    def scores(self) -> bool:
        return self is not Verdict.WRONG


def _strip_marks(ch: str) -> str:
    if ch in _KEPT:
        return _KEPT[ch]
    return "".join(c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c))


@lru_cache(maxsize=8192)
def normalise(text: str) -> str:
    """Case folded, accents removed, every run of punctuation and spaces one space, trimmed."""
    folded = "".join(map(_strip_marks, unicodedata.normalize("NFC", text.casefold())))
    return " ".join("".join(ch if ch.isalnum() else " " for ch in folded).split())


@lru_cache(maxsize=8192)
def forms(text: str) -> tuple[str, ...]:
    """The text's forms: without spaces; and, after a leading article, the rest without spaces."""
    words = normalise(text).split(" ")
    if words == [""]:
        return ()
    whole = "".join(words)
    if words[0] in _ARTICLE_WORDS and len(words) > 1:
        return (whole, "".join(words[1:]))
    return (whole,)


def names(card: Card) -> tuple[str, ...]:
    """The accepted names of a card: its title and every alias."""
    return (card.title, *card.aliases)


def _name_forms(card: Card) -> tuple[str, ...]:
    return tuple(f for name in names(card) for f in forms(name))


def tolerance(form: str) -> int:
    """How many slips a form of an accepted name forgives under `answers: typos`."""
    return 2 if len(form) >= 10 else 1 if len(form) >= 5 else 0


def _nearest(given: tuple[str, ...], card: Card, within: Callable[[str], int]) -> int | None:
    """The least distance from a given form to a form of the card's names that is within
    `within(form)` of it, or None when there is none."""
    best = None
    for name_form in _name_forms(card):
        limit = within(name_form)
        for form in given:
            distance = OSA.distance(form, name_form, score_cutoff=limit)
            if distance <= limit and (best is None or distance < best):
                best = distance
    return best


def grade(answer: str | None, card: Card, others: Iterable[Card] = (), answers: str = "exact") -> Verdict:
    """The verdict on `answer` as a name of `card`. `others`: the other cards of its set, which a
    typo must not be as near to; `answers`: "exact" or "typos" (the option)."""
    if not isinstance(answer, str):
        return Verdict.WRONG
    given = forms(answer)
    if not given:
        return Verdict.WRONG
    if set(given) & set(_name_forms(card)):
        return Verdict.RIGHT
    if answers != "typos":
        return Verdict.WRONG
    best = _nearest(given, card, tolerance)
    if best is None:
        return Verdict.WRONG
    if any(_nearest(given, other, lambda _: best) is not None for other in others if other.id != card.id):
        return Verdict.WRONG  # as near to another work of the set: a confusion, not a slip
    return Verdict.ALMOST


def candidates_named(answer: str | None, candidates: Sequence[Card], others: Iterable[Card] = (),
                     answers: str = "exact") -> tuple[Verdict, tuple[Card, ...]]:
    """Under `answer_names: set`: the verdict on `answer` as a name of any of `candidates`, and the
    candidates it names, in the order given. A right name outranks an almost right one, so the answer
    names the candidates it is right for, or else those it is almost right for. `others`: the set's
    cards that are not candidates, the only ones a typo must not be as near to."""
    others = tuple(others)
    verdicts = [(grade(answer, card, others, answers), card) for card in candidates]
    for wanted in (Verdict.RIGHT, Verdict.ALMOST):
        named = tuple(card for verdict, card in verdicts if verdict is wanted)
        if named:
            return wanted, named
    return Verdict.WRONG, ()
