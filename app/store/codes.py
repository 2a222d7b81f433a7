"""Join codes, secret seat tokens and display names."""
from __future__ import annotations

import hashlib
import hmac
import secrets
import unicodedata
from functools import lru_cache
from typing import Any

from ..decks.errors import N_

# No look-alikes: no 0/O/Q/D, 1/I/L/J, 2/Z, 5/S, 8/B, U/V, 6/G.
CODE_ALPHABET = "ACEFHKMNPRTWXY34679"
CODE_LENGTH = 6
NAME_MAX = 24


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalize_code(text: str | None) -> str:
    """What a student types: any case, spaces or dashes; returns the stored form (may be invalid)."""
    return "".join(ch for ch in str(text or "").upper() if ch.isalnum())


def is_valid_code(code: str) -> bool:
    return len(code) == CODE_LENGTH and all(ch in CODE_ALPHABET for ch in code)


def new_token() -> str:
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def token_matches(token: str | None, stored_hash: str | None) -> bool:
    if not isinstance(token, str) or not token or not stored_hash:
        return False  # (a session holds whatever was put in it: only text can be a token)
    return hmac.compare_digest(token_hash(token), stored_hash)


class NameProblem(ValueError):
    """What is wrong with a name: an English template with %(fields)s (`template`, `params`), so the web
    app can say it in the reader's language; str() is the English sentence."""

    def __init__(self, template: str, **params: int):
        self.template, self.params = template, params
        super().__init__(template % params if params else template)


# The letters that Unicode itself says show nothing (Default_Ignorable_Code_Point, DerivedCoreProperties.txt:
# the Hangul fillers; NFKC makes the halfwidth U+FFA0 one U+3164). Every other ignorable is a format or
# control character (category C), or a mark or symbol, none of which makes a name by itself.
INVISIBLE_LETTERS = frozenset("\u115f\u1160\u3164")
KEY_MAX = 40  # play_seats.name_key and class_students.name_key


def clean_name(text: Any) -> str:
    """A display name as shown: trimmed, inner spaces folded, printable, with a letter or a digit that can
    be seen (after NFKC, so that a width or a compatibility form is no way around it). NameProblem says
    what is wrong."""
    if not isinstance(text, str):
        raise NameProblem(N_("a name is a piece of text"))
    name = " ".join(unicodedata.normalize("NFC", text).split())
    if not name:
        raise NameProblem(N_("type a name"))
    if len(name) > NAME_MAX:
        raise NameProblem(N_("a name has at most %(max)d characters"), max=NAME_MAX)
    if any(unicodedata.category(ch).startswith("C") for ch in name):
        raise NameProblem(N_("a name cannot hold control characters"))
    compatible = unicodedata.normalize("NFKC", name)
    if any(ch in INVISIBLE_LETTERS for ch in compatible):
        raise NameProblem(N_("a name cannot hold characters that show nothing"))
    if not any(unicodedata.category(ch)[0] in "LN" for ch in compatible):
        raise NameProblem(N_("a name needs at least one letter or digit that can be seen"))
    return name


def name_key(name: str) -> str:
    """What makes a name the same as another at a table or on a roster: the same letters whatever their
    case, their width or compatibility form (NFKC), and whatever look-alikes of another script stand for
    them (Unicode TR39's confusables: "Аnna" with a Cyrillic А is "Anna"). The key is blind to case, so
    each letter is compared once: as a capital first (Cyrillic Т for T, which small т is not like), then
    what is left as a small letter (Cyrillic у for y); a small letter whose capital is like another one
    goes by its capital (Cyrillic г, like r but Г like Greek Γ). Not for display. A key longer than the
    column is its digest.

    Keys stored before look-alikes counted (plain casefolds) are not rewritten: the checks derive the key
    from the names on both sides, never compare a stored key with a new one."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    key = _skeleton(_skeleton(folded.upper()).casefold())
    return key if len(key) <= KEY_MAX else "#" + hashlib.sha256(key.encode()).hexdigest()[:KEY_MAX - 1]


def account_key(name: str) -> str:
    """A teacher's account name as it is looked up: casefolded, the key every account was stored with."""
    return name.casefold()


def _skeleton(text: str) -> str:
    """TR39's skeleton: each character replaced by the prototype of its look-alikes (NFD on both sides),
    recomposed (NFC) to keep the key short."""
    return unicodedata.normalize("NFC", unicodedata.normalize(
        "NFD", "".join(_prototype(ch) for ch in unicodedata.normalize("NFD", text))))


@lru_cache(maxsize=4096)
def _prototype(ch: str) -> str:
    """The character (or sequence) Unicode's confusables map `ch` to. The library lists the look-alikes
    of each character both ways: a source lists its one prototype, a prototype all its sources (never a
    source itself); a lone pair is told apart by neither side, so both take the smaller."""
    found = _look_alikes(ch)
    if not found or len(found) > 1:
        return ch
    (other,) = found
    if len(other) > 1 or len(_look_alikes(other)) > 1:
        return other
    return min(ch, other)


@lru_cache(maxsize=4096)
def _look_alikes(ch: str) -> tuple[str, ...]:
    # (its data takes 0.1 s to load: the first name pays it; the library has no type hints)
    from confusable_homoglyphs import confusables  # type: ignore[import-untyped]

    found = confusables.is_confusable(ch, greedy=True)
    # (the library's right-to-left characters come wrapped in left-to-right marks, from Unicode's comments)
    return tuple(glyph["c"].strip("\u200e\u200f") for glyph in found[0]["homoglyphs"]) if found else ()
