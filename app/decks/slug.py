"""Slugs: the ids a deck uses when it does not spell one out."""
from __future__ import annotations

import re
import unicodedata

# Letters that Unicode decomposition does not fold to ASCII on its own.
_EXTRA_FOLDS = str.maketrans({
    "ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "ł": "l", "đ": "d", "þ": "th", "ð": "d",
    "Æ": "ae", "Œ": "oe", "Ø": "o", "Ł": "l", "Đ": "d", "Þ": "th", "Ð": "d",
})

DECK_ID = re.compile(r"[a-z0-9-]{2,64}")
# Set and card ids may be upper case: the fixed ids of standard-52 are "A", "10H", "QD".
ITEM_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9-]{0,63}")


_OTHERS = re.compile(r"[^a-z0-9]+")


def slugify(text: str) -> str:
    """Lowercase, accents folded, every run of other characters one '-', trimmed."""
    if text.isascii():  # nothing to fold (most titles): the same answer, without a walk per character
        return _OTHERS.sub("-", text.lower()).strip("-")
    folded = unicodedata.normalize("NFKD", text.translate(_EXTRA_FOLDS))
    ascii_only = "".join(ch for ch in folded if not unicodedata.combining(ch))
    return _OTHERS.sub("-", ascii_only.lower()).strip("-")
