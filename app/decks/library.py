"""The built-in decks: every app/decks/builtin/<id>.yaml, loaded and checked once.

They live inside the package, so an installed wheel carries them (pyproject.toml's package data).
"""
from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

from .errors import N_, DeckError, Problem
from .loader import load_deck_file
from .model import Deck

DEFAULT_DECKS_DIR = Path(__file__).resolve().parent / "builtin"


def decks_dir() -> Path:
    return Path(os.environ.get("AUTHORS_DECKS_DIR", DEFAULT_DECKS_DIR))


def load_library(directory: Path | None = None) -> dict[str, Deck]:
    """Every deck in the folder by id; any broken file refuses the whole library, listing all problems."""
    directory = Path(directory or decks_dir())
    decks: dict[str, Deck] = {}
    problems: list[Problem] = []
    for path in sorted(directory.glob("*.yaml")):
        try:
            deck = load_deck_file(path)
        except DeckError as exc:
            problems.extend(exc.problems)
            continue
        if deck.id != path.stem:
            problems.append(Problem.at(str(path), 1, 1, N_('the deck id "%(id)s" must match the file name '
                                                           '("%(name)s.yaml")'), id=deck.id, name=path.stem))
            continue
        decks[deck.id] = deck
    if problems:
        raise DeckError(problems)
    return decks


@lru_cache(maxsize=4)
def _cached_library(directory: str) -> dict[str, Deck]:
    return load_library(Path(directory))


def builtin_decks() -> dict[str, Deck]:
    return _cached_library(str(decks_dir()))


def get_deck(deck_id: str) -> Deck:
    """A built-in deck by id; KeyError when there is none."""
    return builtin_decks()[deck_id]
