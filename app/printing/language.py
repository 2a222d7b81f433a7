"""The words printing itself puts on paper (a sheet's footer, the PDF's title and subject, the label of a
set when the deck names none, the score pad, the alignment page), in a language: a card sheet in its
deck's language, the score pad and the alignment page in the one asked for.

The texts are the web app's gettext catalogs (app/translations), read here with Babel alone: printing
knows nothing of Flask. They are read from the .po files, which are in the repository, not from the
compiled .mo files, which are build products (git-ignored, possibly missing or older than the .po): so a
PDF depends only on the repository's files, and printables/ stays reproducible byte for byte.
"""
from __future__ import annotations

import io
from functools import lru_cache
from gettext import NullTranslations
from pathlib import Path

from ..decks.errors import N_  # marks a message for the catalogs; translated where it is printed

CATALOGS = Path(__file__).resolve().parents[1] / "translations"
SOURCE_LANGUAGE = "en"  # the messages are written in English: no catalog

__all__ = ["CATALOGS", "SOURCE_LANGUAGE", "N_", "primary_language", "translations"]

def primary_language(tag: str | None) -> str:
    """The language of a tag, as the catalogs are named: "pt-BR" -> "pt", "RU" -> "ru", None -> "en"."""
    return (tag or SOURCE_LANGUAGE).replace("_", "-").split("-")[0].strip().lower() or SOURCE_LANGUAGE


def translations(tag: str | None) -> NullTranslations:
    """The catalog for this language tag; English (the messages as written) when there is none."""
    return _catalog(primary_language(tag))


@lru_cache(maxsize=None)
def _catalog(language: str) -> NullTranslations:
    path = CATALOGS / language / "LC_MESSAGES" / "messages.po"
    if language == SOURCE_LANGUAGE or not language.isalpha() or not path.is_file():
        return NullTranslations()  # the messages as written: no Babel to import (about 50 ms of start-up)
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po
    from babel.support import Translations

    with open(path, "rb") as handle:
        catalog = read_po(handle, locale=language)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)  # fuzzy and untranslated messages are left out, as `pybabel compile` does
    compiled.seek(0)
    return Translations(compiled)
