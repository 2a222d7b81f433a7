"""The built-in deck library: every file in decks/ validates, and the decks other projects rely on are there."""
from __future__ import annotations

import textwrap

import pytest

from app.decks import DeckError, builtin_decks, get_deck, load_deck_file, load_library, slugify
from app.decks.library import DEFAULT_DECKS_DIR

from .deck_problems import every_problem_is_translatable  # noqa: F401 (autouse: every problem in five languages)

DECK_FILES = sorted(DEFAULT_DECKS_DIR.glob("*.yaml"))

SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
LITERATURE_SETS = ["low-spades", "high-spades", "low-hearts", "high-hearts",
                   "low-diamonds", "high-diamonds", "low-clubs", "high-clubs"]
AUTHORS_1861_SETS = ["dickens", "shakespeare", "longfellow", "scott", "irving", "byron", "cooper", "poe",
                     "hawthorne", "tennyson", "twain"]
FIXED = {"standard-52": 52, "literature-48": 48, "literature-54": 54, "authors-1861": 44}


def test_the_library_folder_has_decks():
    assert DECK_FILES, f"no deck files in {DEFAULT_DECKS_DIR}: the built-in decks are missing"


@pytest.mark.parametrize("path", DECK_FILES, ids=[p.name for p in DECK_FILES])
def test_every_builtin_deck_validates(path):
    try:
        deck = load_deck_file(path)
    except DeckError as exc:
        pytest.fail(f"{path.name} does not validate:\n{exc}")
    assert deck.id == path.stem, f"{path.name}: the file name must be the deck id ({deck.id}.yaml)"
    assert deck.title and deck.card_count == len(deck.cards)


def test_the_library_loads_whole():
    library = load_library()
    assert sorted(library) == sorted(p.stem for p in DECK_FILES)
    assert builtin_decks() == library


@pytest.mark.parametrize("deck_id, cards", sorted(FIXED.items()))
def test_fixed_deck_is_present_with_its_size(deck_id, cards):
    assert (DEFAULT_DECKS_DIR / f"{deck_id}.yaml").is_file(), f"decks/{deck_id}.yaml is missing"
    assert get_deck(deck_id).card_count == cards


def test_standard_52():
    deck = get_deck("standard-52")
    assert [s.id for s in deck.sets] == RANKS
    for card_set in deck.sets:
        assert sorted(card_set.card_ids) == sorted(card_set.id + suit for suit in "SHDC")
        for card in card_set.cards:
            assert card.title == card_set.id + SUITS[card.id[-1]]
    for card_id in ("AS", "10H", "QD", "7C", "KC", "2S"):
        assert deck.has_card(card_id)
    assert deck.card("10H").title == "10♥" and deck.card("10H").set_id == "10"


def test_literature_48():
    deck = get_deck("literature-48")
    assert [s.id for s in deck.sets] == LITERATURE_SETS
    expected_ids = {rank + suit for rank in RANKS if rank != "8" for suit in "SHDC"}
    assert {c.id for c in deck.cards} == expected_ids
    for card_set in deck.sets:
        assert len(card_set.cards) == 6
        half, suit_name = card_set.id.split("-")
        suit = {"spades": "S", "hearts": "H", "diamonds": "D", "clubs": "C"}[suit_name]
        ranks = ["2", "3", "4", "5", "6", "7"] if half == "low" else ["9", "10", "J", "Q", "K", "A"]
        assert sorted(card_set.card_ids) == sorted(rank + suit for rank in ranks)
        assert all(card.title == card.id[:-1] + SUITS[card.id[-1]] for card in card_set.cards)
    assert deck.card("10H").set_id == "high-hearts" and deck.card("7C").set_id == "low-clubs"
    assert deck.card("AS").set_id == "high-spades" and deck.card("QD").set_id == "high-diamonds"


def test_literature_54():
    # The spec fixes its id only; the engine (app/engine/decks.py) names the ninth set "eights" with
    # the jokers BJ and RJ, so the file is checked against that.
    deck = get_deck("literature-54")
    literature_48 = get_deck("literature-48")
    assert [s.id for s in deck.sets][:8] == LITERATURE_SETS
    for set_id in LITERATURE_SETS:
        assert deck.set(set_id).card_ids == literature_48.set(set_id).card_ids
    assert len(deck.sets) == 9
    ninth = deck.sets[8]
    assert ninth.id == "eights"
    assert set(ninth.card_ids) == {"8S", "8H", "8D", "8C", "BJ", "RJ"}


def test_authors_1861():
    deck = get_deck("authors-1861")
    assert [s.id for s in deck.sets] == AUTHORS_1861_SETS
    for card_set in deck.sets:
        assert len(card_set.cards) == 4
        for card in card_set.cards:
            assert card.id == slugify(card.title), card.title


def test_deck_ids_are_unique_across_the_library():
    ids = [load_deck_file(path).id for path in DECK_FILES]
    assert len(ids) == len(set(ids))


# -- load_library on other folders ---------------------------------------------------------------

GOOD = textwrap.dedent("""\
    format: authors-deck/1
    id: {id}
    title: A deck
    sets:
      - id: one
        name: One
        cards:
          - title: First
          - title: Second
      - id: two
        name: Two
        cards:
          - title: Third
          - title: Fourth
    """)


def test_load_library_of_a_folder(tmp_path):
    (tmp_path / "alpha.yaml").write_text(GOOD.format(id="alpha"), encoding="utf-8")
    (tmp_path / "beta.yaml").write_text(GOOD.format(id="beta"), encoding="utf-8")
    (tmp_path / "notes.txt").write_text("not a deck", encoding="utf-8")
    assert sorted(load_library(tmp_path)) == ["alpha", "beta"]


def test_load_library_of_an_empty_folder(tmp_path):
    assert load_library(tmp_path) == {}


def test_load_library_refuses_a_folder_with_a_bad_file_listing_every_problem(tmp_path):
    (tmp_path / "alpha.yaml").write_text(GOOD.format(id="alpha"), encoding="utf-8")
    (tmp_path / "broken.yaml").write_text(
        GOOD.format(id="broken").replace("id: two", "id: one").replace("title: Fourth", "titel: Fourth"),
        encoding="utf-8")
    (tmp_path / "gamma.yaml").write_text(GOOD.format(id="delta"), encoding="utf-8")
    with pytest.raises(DeckError) as info:
        load_library(tmp_path)
    assert [str(p) for p in info.value.problems] == [
        f'{tmp_path / "broken.yaml"}:10:5: set id "one" is used twice (first at line 5)',
        f'{tmp_path / "broken.yaml"}:14:9: unknown key "titel" (did you mean "title"?)',
        f'{tmp_path / "gamma.yaml"}:1:1: the deck id "delta" must match the file name ("gamma.yaml")',
    ]


def test_builtin_decks_follow_the_environment(tmp_path, monkeypatch):
    (tmp_path / "alpha.yaml").write_text(GOOD.format(id="alpha"), encoding="utf-8")
    monkeypatch.setenv("AUTHORS_DECKS_DIR", str(tmp_path))
    assert list(builtin_decks()) == ["alpha"]
    assert get_deck("alpha").title == "A deck"
    with pytest.raises(KeyError):
        get_deck("standard-52")


def test_looking_up_one_deck_reads_its_own_file_and_walking_reads_them_all(tmp_path):
    """A deck dropped into the folder is in the library; a broken one (or one that names another id) is
    left out, never refusing the others, and its problems say where."""
    from app.decks.library import Library

    (tmp_path / "alpha.yaml").write_text(GOOD.format(id="alpha"), encoding="utf-8")
    (tmp_path / "beta.yaml").write_text(GOOD.format(id="beta").replace("title: Fourth", "titel: Fourth"),
                                        encoding="utf-8")
    (tmp_path / "gamma.yaml").write_text(GOOD.format(id="delta"), encoding="utf-8")
    library = Library(tmp_path)
    assert library["alpha"].id == "alpha" and "alpha" in library and library.get("alpha") is library["alpha"]
    assert "nope" not in library and library.get("nope") is None and "../alpha" not in library
    with pytest.raises(KeyError):
        library["nope"]
    for broken in ("beta", "gamma"):
        assert broken not in library and library.get(broken) is None
    assert list(library) == ["alpha"] and len(library) == 1 and library == {"alpha": library["alpha"]}
    assert [str(p) for p in library.problems] == [
        f'{tmp_path / "beta.yaml"}:14:9: unknown key "titel" (did you mean "title"?)',
        f'{tmp_path / "gamma.yaml"}:1:1: the deck id "delta" must match the file name ("gamma.yaml")']


def test_the_built_in_library_is_the_whole_folder():
    library = builtin_decks()
    assert library == load_library() and sorted(library) == sorted(p.stem for p in DECK_FILES)
    assert len(library) == len(DECK_FILES) and library["standard-52"] is get_deck("standard-52")
