"""Join codes, secret seat tokens and display names."""
from __future__ import annotations

import hashlib
import hmac
import secrets
import unicodedata

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


def clean_name(text) -> str:
    """A display name as shown: trimmed, inner spaces folded, printable. NameProblem says what is wrong."""
    if not isinstance(text, str):
        raise NameProblem(N_("a name is a piece of text"))
    name = " ".join(unicodedata.normalize("NFC", text).split())
    if not name:
        raise NameProblem(N_("type a name"))
    if len(name) > NAME_MAX:
        raise NameProblem(N_("a name has at most %(max)d characters"), max=NAME_MAX)
    if any(unicodedata.category(ch).startswith("C") for ch in name):
        raise NameProblem(N_("a name cannot hold control characters"))
    return name


def name_key(name: str) -> str:
    return name.casefold()
