"""Is a typed answer the name of the work? Forgiving of case, accents, punctuation and articles."""
from __future__ import annotations

import re
import unicodedata

from ..decks.model import Card

# Leading articles of the rule sources' languages and English. They are stripped from both sides in
# every language, because a deck's titles are often in another language than the deck itself (a French
# title in an English deck); a title that only differs by an article is then accepted either way.
LEADING_ARTICLES = ("the", "a", "an", "le", "la", "les", "l", "il", "lo", "i", "gli", "o", "os", "as")
_ARTICLE = re.compile(r"^(?:%s)\s+" % "|".join(LEADING_ARTICLES))


def normalize_title(text: str) -> str:
    folded = unicodedata.normalize("NFKD", text.casefold())
    folded = "".join(ch for ch in folded if not unicodedata.combining(ch))
    # Punctuation (apostrophes included, so "l'etranger" -> "l etranger") becomes space, then spaces fold.
    words = " ".join("".join(ch if ch.isalnum() else " " for ch in folded).split())
    return _ARTICLE.sub("", words, count=1).replace(" ", "")


def is_correct_answer(answer: str | None, card: Card) -> bool:
    if answer is None:
        return False
    given = normalize_title(answer)
    if not given:
        return False
    return any(given == normalize_title(name) for name in (card.title, *card.aliases))
