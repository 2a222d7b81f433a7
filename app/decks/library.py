"""The built-in decks: every decks/<id>.yaml at the top of the repository (or of the folder that
AUTHORS_DECKS_DIR names), loaded and checked once.

A wheel carries them inside the package, as app/decks/builtin/ (setup.py copies them there when it
builds one); a checkout, or an editable install, reads the repository's decks/. A deck a teacher drops
into the folder is in the library on the next start; a broken one is left out, and `authors serve`
reports it (file:line:col) as it starts.
"""
from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from functools import lru_cache
from pathlib import Path

from .errors import N_, DeckError, Problem
from .loader import load_deck_file
from .model import Deck
from .slug import DECK_ID

PACKAGED_DECKS_DIR = Path(__file__).resolve().parent / "builtin"   # in a wheel (setup.py)
REPOSITORY_DECKS_DIR = Path(__file__).resolve().parents[2] / "decks"  # in a checkout
DEFAULT_DECKS_DIR = PACKAGED_DECKS_DIR if PACKAGED_DECKS_DIR.is_dir() else REPOSITORY_DECKS_DIR


def decks_dir() -> Path:
    return Path(os.environ.get("AUTHORS_DECKS_DIR", DEFAULT_DECKS_DIR))


def load_library(directory: Path | None = None) -> dict[str, Deck]:
    """Every deck in the folder by id; any broken file refuses the whole library, listing all problems."""
    decks, problems = read_folder(Path(directory or decks_dir()))
    if problems:
        raise DeckError(problems)
    return decks


def read_folder(directory: Path) -> tuple[dict[str, Deck], list[Problem]]:
    """Every valid deck in the folder by id, and the problems of the files left out."""
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
    return decks, problems


class Library(Mapping[str, Deck]):
    """The valid decks of a folder by id, read when first asked for. Looking one deck up (`[id]`, `in`,
    `get`) reads that deck's own file only: `authors replay` of a game with a built-in deck, or the web
    page of one deck, need not read the other eleven. Anything that walks the library (iterating, len,
    keys, values, items, ==) reads it whole. A broken file (or one that names another id) is left out,
    never refusing the others: its problems are in `problems`."""

    def __init__(self, directory: Path):
        self.directory = directory
        self._all: dict[str, Deck] | None = None
        self._problems: list[Problem] = []
        self._some: dict[str, Deck] = {}

    def whole(self) -> dict[str, Deck]:
        if self._all is None:
            self._all, self._problems = read_folder(self.directory)
        return self._all

    @property
    def problems(self) -> list[Problem]:
        """What is wrong with each file left out (the folder is read whole to say)."""
        self.whole()
        return list(self._problems)

    def __getitem__(self, deck_id: str) -> Deck:
        if self._all is not None:
            return self._all[deck_id]
        found = self._some.get(deck_id)
        if found is not None:
            return found
        path = self.directory / f"{deck_id}.yaml"
        if not (isinstance(deck_id, str) and DECK_ID.fullmatch(deck_id) and path.is_file()):
            raise KeyError(deck_id)
        try:
            found = load_deck_file(path)
        except DeckError:
            raise KeyError(deck_id) from None  # left out of the library (its problems: `problems`)
        if found.id != deck_id:
            raise KeyError(deck_id)
        self._some[deck_id] = found
        return found

    def __contains__(self, deck_id: object) -> bool:
        try:
            self[deck_id]  # type: ignore[index]
        except KeyError:
            return False
        return True

    def __iter__(self) -> Iterator[str]:
        return iter(self.whole())

    def __len__(self) -> int:
        return len(self.whole())

    def __eq__(self, other: object) -> bool:
        return self.whole() == (other.whole() if isinstance(other, Library) else other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Library({str(self.directory)!r})"


@lru_cache(maxsize=4)
def _cached_library(directory: str) -> Library:
    return Library(Path(directory))


def builtin_decks() -> Library:
    """The built-in decks (of AUTHORS_DECKS_DIR, when it is set): a mapping of id to Deck."""
    return _cached_library(str(decks_dir()))


def get_deck(deck_id: str) -> Deck:
    """A built-in deck by id; KeyError when there is none."""
    return builtin_decks()[deck_id]
