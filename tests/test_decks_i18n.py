"""The validator's problems in five languages: English as the command line prints it, and each problem's
template and fields, which the studio says in the teacher's language (tests/deck_problems.py checks every
problem of the validation tests this way; these are the cases those tests leave out, and whole sentences)."""
from __future__ import annotations

import textwrap

import pytest

from app.decks import DeckError, Problem, load_deck_text
from app.decks.errors import N_, Text

from .deck_problems import assert_translatable, catalog
from .deck_problems import every_problem_is_translatable  # noqa: F401 (autouse)


def refused(text: str) -> list[Problem]:
    with pytest.raises(DeckError) as info:
        load_deck_text(textwrap.dedent(text), source="deck.yaml")
    return info.value.problems


def said(problem: Problem, lang: str) -> str:
    return problem.render(catalog(lang)[1])


NAMELESS = """\
    format: authors-deck/1
    id: nameless
    title: Nameless
    sets:
      - cards:
          - title: Alone
      - note: nothing else
    """


def test_a_set_without_an_id_is_named_by_its_number():
    problems = refused(NAMELESS)
    assert [p.message for p in problems] == [
        "set 1 has no id",
        "set 1 has no name",
        "set 1 has 1 card; a set needs 2 to 8",
        "set 2 has no id",
        "set 2 has no name",
        'set 2 has no cards; list them under "cards:"',
    ]
    assert [said(p, "ru") for p in problems] == [
        "у набора 1 нет id", "у набора 1 нет названия", "набор 1: 1 карта, а нужно от 2 до 8",
        "у набора 2 нет id", "у набора 2 нет названия", "в наборе 2 нет карт; перечислите их под строкой «cards:»"]
    assert said(problems[2], "fr") == "la famille 1 a 1 carte ; une famille doit en avoir de 2 à 8"


@pytest.mark.parametrize("count, russian, italian", [
    (0, "0 карт", "0 carte"), (1, "1 карта", "1 carta"), (9, "9 карт", "9 carte")])
def test_a_count_of_cards_agrees_with_its_number(count, russian, italian):
    cards = ", ".join(f"{{title: Card {n}}}" for n in range(count))
    [problem] = refused(f"""\
    format: authors-deck/1
    id: counted
    title: Counted
    sets:
      - id: big
        name: Big
        cards: [{cards}]
      - id: small
        name: Small
        cards: [{{title: A}}, {{title: B}}]
    """)
    assert problem.message == f'set "big" has {count} card{"" if count == 1 else "s"}; a set needs 2 to 8'
    assert said(problem, "ru") == f"набор «big»: {russian}, а нужно от 2 до 8"
    assert said(problem, "it") == f"la serie «big» ha {italian}; una serie deve averne da 2 a 8"


def test_places_and_shapes_are_translated_inside_the_sentence():
    [problem] = refused("""\
    format: authors-deck/1
    id: shapes
    title: Shapes
    sets:
      - id: monet
        name: Claude Monet
        cards:
          - title: Water Lilies
            aliases: {a: b}
          - title: The Magpie
      - id: vermeer
        name: Johannes Vermeer
        cards:
          - title: The Milkmaid
          - title: View of Delft
    """)
    assert problem.message == ('set "monet": card "Water Lilies": "aliases" should be a list like [Oliver, "Twist"], '
                               'but it is a group of "key: value" lines')
    assert said(problem, "ru") == ('набор «monet»: карта «Water Lilies»: «aliases» должно быть списком вроде '
                                   '[Oliver, "Twist"], а здесь группа строк «ключ: значение»')
    assert said(problem, "pt") == ('coleção «monet»: carta «Water Lilies»: «aliases» deve ser uma lista como '
                                   '[Oliver, "Twist"], mas é um grupo de linhas «chave: valor»')


def test_pyyamls_own_words_are_kept_inside_a_translated_sentence():
    [problem] = refused("format: authors-deck/1\nid: [x\n")
    assert problem.message.startswith("this is not valid YAML (")
    detail = problem.params["detail"]
    assert detail in problem.message
    assert said(problem, "fr").startswith(f"ce n’est pas du YAML valide ({detail}) ; vérifiez l’indentation")


def test_a_repeat_can_be_placed_another_way():
    """The studio says where the first one is in its own terms (a row of a sheet, higher up in the form)."""
    [problem] = refused("""\
    format: authors-deck/1
    id: twice
    title: Twice
    sets:
      - id: monet
        name: Monet
        cards: [{title: A}, {title: B}]
      - id: monet
        name: Vermeer
        cards: [{title: C}, {title: D}]
    """)
    assert str(problem) == 'deck.yaml:8:5: set id "monet" is used twice (first at line 5)'
    moved = problem.with_params(first=Text.of(N_("first in row %(row)s"), row=3))
    assert moved.message == 'set id "monet" is used twice (first in row 3)'
    assert said(moved, "ru") == "id набора «monet» встречается дважды (впервые в строке 3)"
    assert_translatable(moved)


def test_a_problem_without_a_template_is_said_as_written():
    problem = Problem("the form", 0, 0, "the title is longer than 120 characters")
    assert problem.render(catalog("ru")[1]) == problem.message
    assert problem.with_params(first=1) is problem
