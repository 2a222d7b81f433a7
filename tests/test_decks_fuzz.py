"""Fuzzing the deck loader: whatever it is fed, it returns a Deck or raises DeckError with usable problems.

Never another exception (no RecursionError, KeyError, OSError ...), and every problem points at a real
place (line >= 1, column >= 1) with a sentence that can be said in every language of the interface.
"""
from __future__ import annotations

import textwrap

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.decks import Deck, DeckError, load_deck_text

from .deck_problems import assert_translatable

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

VALID = textwrap.dedent("""\
    format: authors-deck/1
    id: painters
    title: Painters
    language: en
    description: >-
      Four painters, their pictures.
    set_label: Painter
    card_label: Painting
    sets:
      - id: monet
        name: Claude Monet
        note: 1840-1926
        color: "#336699"
        cards:
          - title: Water Lilies
            aliases: [Lilies, "Nympheas"]
          - title: Impression, Sunrise
            id: impression
            note: "1872"
          - title: The Magpie
      - id: vermeer
        name: Johannes Vermeer
        cards:
          - title: The Milkmaid
          - {title: View of Delft, note: about 1660}
          - title: The Little Street
    """)


def check(data: bytes | str) -> None:
    try:
        deck = load_deck_text(data, source="deck.yaml")
    except DeckError as exc:
        assert exc.problems, "a DeckError must list at least one problem"
        for problem in exc.problems:
            assert problem.source == "deck.yaml"
            assert isinstance(problem.line, int) and problem.line >= 1, problem
            assert isinstance(problem.column, int) and problem.column >= 1, problem
            assert isinstance(problem.message, str) and problem.message.strip(), problem
            assert_translatable(problem)
    else:
        assert isinstance(deck, Deck)
        assert len(deck.sets) >= 2
        assert all(2 <= len(card_set.cards) <= 8 for card_set in deck.sets)


def test_the_mutation_seed_is_valid():
    deck = load_deck_text(VALID, source="deck.yaml")
    assert deck.card_count == 6


@FUZZ
@given(st.binary(max_size=2000))
def test_random_bytes(data):
    check(data)


@FUZZ
@given(st.text(max_size=500))
def test_random_text(data):
    check(data)


@FUZZ
@given(st.text(alphabet=st.sampled_from(list("-:[]{}#&*!|>'\"%@`,? \n\t\r\ufeffab12é")), max_size=300))
def test_random_yaml_punctuation(data):
    check(data)


_SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True), st.text(max_size=20),
    st.sampled_from(["format", "id", "title", "sets", "cards", "name", "color", "image", "aliases",
                     "note", "authors-deck/1", "#7a2e2e", "images/x.png", "../x.png", "1984", "No"]),
)
_KEYS = st.one_of(
    st.sampled_from(["format", "id", "title", "language", "description", "set_label", "card_label",
                     "sets", "cards", "name", "note", "color", "image", "aliases", "titel"]),
    st.text(max_size=10),
)
_TREES = st.recursive(
    _SCALARS,
    lambda children: st.one_of(st.lists(children, max_size=6),
                               st.dictionaries(_KEYS, children, max_size=6)),
    max_leaves=40,
)


@FUZZ
@given(_TREES, st.booleans())
def test_random_yaml_documents(tree, flow):
    check(yaml.safe_dump(tree, default_flow_style=flow, allow_unicode=True))


def _deck_like():
    """Trees shaped roughly like a deck, so the validator's deeper rules get exercised too."""
    card = st.fixed_dictionaries({"title": _SCALARS},
                                 optional={"id": _SCALARS, "aliases": st.lists(_SCALARS, max_size=3),
                                           "note": _SCALARS, "image": _SCALARS, "titel": _SCALARS})
    card_set = st.fixed_dictionaries({"id": _SCALARS, "name": _SCALARS, "cards": st.lists(card, max_size=9)},
                                     optional={"color": _SCALARS, "note": _SCALARS, "image": _SCALARS})
    return st.fixed_dictionaries({
        "format": st.sampled_from(["authors-deck/1", "authors-deck/2"]),
        "id": _SCALARS, "title": _SCALARS, "sets": st.lists(card_set, max_size=4),
    }, optional={"language": _SCALARS, "set_label": _SCALARS})


@FUZZ
@given(_deck_like())
def test_random_deck_shaped_documents(tree):
    check(yaml.safe_dump(tree, sort_keys=False, allow_unicode=True))


_LINES = VALID.splitlines(keepends=True)


@st.composite
def _mutation(draw):
    lines = list(_LINES)
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        if not lines:
            break
        kind = draw(st.sampled_from(["delete", "duplicate", "indent", "dedent", "replace", "insert",
                                     "truncate", "swap"]))
        i = draw(st.integers(min_value=0, max_value=len(lines) - 1))
        if kind == "delete":
            del lines[i]
        elif kind == "duplicate":
            lines.insert(i, lines[i])
        elif kind == "indent":
            lines[i] = " " * draw(st.integers(1, 4)) + lines[i]
        elif kind == "dedent":
            lines[i] = lines[i][draw(st.integers(1, 4)):] or "\n"
        elif kind == "replace" and lines[i]:
            j = draw(st.integers(min_value=0, max_value=len(lines[i]) - 1))
            char = draw(st.one_of(st.sampled_from(list(":-[]{}#&*!|>'\" \t\x00")), st.characters()))
            lines[i] = lines[i][:j] + char + lines[i][j + 1:]
        elif kind == "insert":
            lines.insert(i, draw(st.text(max_size=30)) + "\n")
        elif kind == "swap":
            j = draw(st.integers(min_value=0, max_value=len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        else:  # truncate
            text = "".join(lines)
            lines = [text[: draw(st.integers(min_value=0, max_value=len(text)))]]
    return "".join(lines)


@settings(max_examples=300, deadline=None)
@given(_mutation())
def test_mutations_of_a_valid_deck(text):
    check(text)


@FUZZ
@given(_mutation())
def test_mutations_as_utf8_bytes(text):
    check(text.encode("utf-8", "surrogatepass"))
