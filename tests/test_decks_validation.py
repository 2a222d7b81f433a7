"""Every rule of the deck format (shared/spec/deck-format.md), each with its exact message and place.

A problem prints as "file:line:col: message"; the tests compare that whole string, so a message that
moves to another column or changes its words is a visible change.
"""
from __future__ import annotations

import textwrap

import pytest
import yaml

from app.decks import Deck, DeckError, Problem, deck_from_node, load_deck_file, load_deck_text, slugify

from .deck_problems import every_problem_is_translatable  # noqa: F401 (autouse: every problem in five languages)

SOURCE = "deck.yaml"

# Line numbers of this deck are used by many tests below: keep it as it is.
VALID = """\
    format: authors-deck/1
    id: painters
    title: Painters
    sets:
      - id: monet
        name: Claude Monet
        cards:
          - title: Water Lilies
          - title: The Magpie
      - id: vermeer
        name: Johannes Vermeer
        cards:
          - title: The Milkmaid
          - title: View of Delft
    """


def load(text: str, **kwargs) -> Deck:
    return load_deck_text(textwrap.dedent(text), source=SOURCE, **kwargs)


def problems(text: str | bytes, **kwargs) -> list[str]:
    """Every problem of a deck that must be refused, as "line:col: message"."""
    if isinstance(text, str):
        text = textwrap.dedent(text)
    with pytest.raises(DeckError) as info:
        load_deck_text(text, source=SOURCE, **kwargs)
    found = info.value.problems
    assert found, "a DeckError lists at least one problem"
    for problem in found:
        assert isinstance(problem, Problem)
        assert problem.source == SOURCE
    return [f"{p.line}:{p.column}: {p.message}" for p in found]


def edit(old: str, new: str) -> str:
    """VALID with one piece changed (the piece must occur exactly once)."""
    text = textwrap.dedent(VALID)
    assert text.count(old) == 1, old
    return text.replace(old, new)


def sets_yaml(count: int, cards: int = 2) -> str:
    lines = []
    for s in range(1, count + 1):
        lines += [f"  - id: s{s}", f"    name: Set {s}", "    cards:"]
        lines += [f"      - title: Card {s}.{c}" for c in range(1, cards + 1)]
    return "\n".join(lines) + "\n"


HEAD = "format: authors-deck/1\nid: big\ntitle: Big\nsets:\n"


# -- a good deck -------------------------------------------------------------------------------

def test_a_valid_deck_loads_with_the_defaults():
    deck = load(VALID)
    assert (deck.id, deck.title, deck.language) == ("painters", "Painters", "en")
    assert (deck.set_label, deck.card_label, deck.description) == ("Set", "Card", None)
    assert deck.source == SOURCE
    assert [s.id for s in deck.sets] == ["monet", "vermeer"]
    assert deck.set("monet").card_ids == ("water-lilies", "the-magpie")
    card = deck.card("view-of-delft")
    assert (card.title, card.set_id, card.index, card.aliases) == ("View of Delft", "vermeer", 2, ())
    assert deck.card_count == 4


def test_every_optional_field_is_read():
    deck = load("""\
        format: authors-deck/1
        id: authors-1861
        title: Authors (1861)
        language: pt-BR
        description: >-
          The classic line-up:
          eleven writers.
        set_label: Author
        card_label: Work
        sets:
          - id: dickens
            name: Charles Dickens
            note: 1812-1870
            color: "#7a2e2e"
            cards:
              - title: Oliver Twist
                id: oliver
                aliases: [Oliver, "Twist"]
                note: "1838"
              - title: Bleak House
                aliases: Bleak
          - id: poe
            name: Edgar Allan Poe
            cards:
              - title: The Raven
              - title: The Gold-Bug
        """)
    assert (deck.language, deck.set_label, deck.card_label) == ("pt-BR", "Author", "Work")
    assert deck.description == "The classic line-up: eleven writers."
    dickens = deck.set("dickens")
    assert (dickens.note, dickens.color) == ("1812-1870", "#7a2e2e")
    oliver = deck.card("oliver")
    assert (oliver.title, oliver.aliases, oliver.note) == ("Oliver Twist", ("Oliver", "Twist"), "1838")
    assert deck.card("bleak-house").aliases == ("Bleak",)
    assert deck.card("the-gold-bug").set_id == "poe"


def test_the_three_sample_messages_of_the_spec():
    text = """\
        format: authors-deck/1
        id: painters
        title: Painters
        description: Painters and their pictures.
        set_label: Painter
        card_label: Painting
        sets:
          - id: monet
            name: Claude Monet
            cards:
              - title: Water Lilies
                note: "1899"
              - title: Impression, Sunrise
              - note: "1867"
              - title: The Magpie
          - id: vermeer
            name: Johannes Vermeer
            cards:
              - title: The Milkmaid
              - title: View of Delft
              - title: The Little Street
          - id: monet
            name: Monet again
            cards:
              - title: Haystacks
              - title: Rouen Cathedral
              - title: Poppies
              - title: Woman with a Parasol
                note: "1875"
              - titel: Wheatstacks
        """
    assert problems(text) == [
        '14:9: set "monet": card 3 has no title',
        '22:5: set id "monet" is used twice (first at line 8)',
        '30:9: unknown key "titel" (did you mean "title"?)',
    ]
    with pytest.raises(DeckError) as info:
        load_deck_text(textwrap.dedent(text), source="decks/painters.yaml")
    assert str(info.value).splitlines()[0] == 'decks/painters.yaml:14:9: set "monet": card 3 has no title'


# -- the deck's own fields ---------------------------------------------------------------------

def test_format_missing():
    assert problems(edit("format: authors-deck/1\n", "")) == [
        '1:1: the deck has no "format"; add the line "format: authors-deck/1"']


@pytest.mark.parametrize("value, shown", [("authors-deck/2", "authors-deck/2"), ("1", "1"),
                                          ("Authors-Deck/1", "Authors-Deck/1"), ("''", "")])
def test_format_wrong(value, shown):
    assert problems(edit("format: authors-deck/1", f"format: {value}")) == [
        f'1:9: format is "{shown}"; this program reads "authors-deck/1"']


def test_deck_id_missing():
    assert problems(edit("id: painters\n", "")) == ['1:1: the deck has no id; add a line like "id: my-deck"']


def test_deck_id_empty_points_at_the_empty_value():
    assert problems(edit("id: painters", "id:")) == ['2:4: the deck has no id; add a line like "id: my-deck"']


@pytest.mark.parametrize("bad", ["Painters", "my deck", "p", "a" * 65, "deck_1", "café"])
def test_deck_id_invalid(bad):
    assert problems(edit("id: painters", f"id: {bad}")) == [
        f'2:5: deck id "{bad}" must be 2 to 64 characters: lowercase letters a-z, digits and "-"']


@pytest.mark.parametrize("good", ["ab", "a" * 64, "authors-1861", "52"])
def test_deck_id_valid(good):
    assert load(edit("id: painters", f"id: {good}")).id == good


def test_title_missing():
    assert problems(edit("title: Painters\n", "")) == [
        '1:1: the deck has no title; add a line like "title: My deck"']


def test_title_blank():
    assert problems(edit("title: Painters", 'title: "  "')) == [
        '3:8: the deck has no title; add a line like "title: My deck"']


@pytest.mark.parametrize("bad", ["english", "e", "en_US", "fr-", "123"])
def test_language_tag_invalid(bad):
    assert problems(edit("title: Painters\n", f"title: Painters\nlanguage: {bad}\n")) == [
        f'4:11: language "{bad}" is not a language tag like "en", "fr" or "pt-BR"']


@pytest.mark.parametrize("good", ["en", "fr", "pt-BR", "zh-Hant-TW", "ru"])
def test_language_tag_valid(good):
    assert load(edit("title: Painters\n", f"title: Painters\nlanguage: {good}\n")).language == good


# -- sets ----------------------------------------------------------------------------------------

def test_sets_missing():
    assert problems(HEAD.replace("sets:\n", "")) == ['1:1: the deck has no "sets"; list its sets under "sets:"']


def test_sets_not_a_list():
    assert problems(HEAD.replace("sets:", "sets: Monet and Vermeer")) == [
        '4:7: "sets" should be a list (each set starting with "- "), but it is the text "Monet and Vermeer"']
    assert problems(HEAD.replace("sets:", "sets:\n  monet: Claude Monet")) == [
        '5:3: "sets" should be a list (each set starting with "- "), but it is a group of "key: value" lines']


def test_sets_too_few():
    assert problems(HEAD + sets_yaml(1)) == ["5:3: a deck needs 2 to 60 sets; this one has 1"]
    assert problems(HEAD.replace("sets:", "sets: []")) == ["4:7: a deck needs 2 to 60 sets; this one has 0"]


def test_sets_at_the_limits():
    assert len(load(HEAD + sets_yaml(2)).sets) == 2
    assert len(load(HEAD + sets_yaml(60)).sets) == 60


def test_sets_too_many():
    assert problems(HEAD + sets_yaml(61)) == ["5:3: a deck needs 2 to 60 sets; this one has 61"]


def test_set_id_missing():
    assert problems(edit("  - id: vermeer\n    name:", "  - name:")) == ["10:5: set 2 has no id"]


@pytest.mark.parametrize("bad", ["monet!", "claude monet", "-monet", "a" * 65, "Моне"])
def test_set_id_invalid(bad):
    assert problems(edit("id: monet", f'id: "{bad}"')) == [
        f'5:9: set id "{bad}" may use only letters a-z, digits and "-" (at most 64 characters)']


@pytest.mark.parametrize("good", ["A", "10", "low-spades", "Q", "a" * 64])
def test_set_id_valid(good):
    assert load(edit("id: monet", f'id: "{good}"')).sets[0].id == good


def test_set_id_duplicate():
    assert problems(edit("id: vermeer", "id: monet")) == [
        '10:5: set id "monet" is used twice (first at line 5)']


def test_set_name_missing():
    assert problems(edit("    name: Johannes Vermeer\n", "")) == ['10:5: set "vermeer" has no name']


def test_set_name_duplicate():
    assert problems(edit("name: Johannes Vermeer", "name: Claude Monet")) == [
        '11:5: set name "Claude Monet" is used twice (first at line 6)']


@pytest.mark.parametrize("bad", ["red", "#12345", "#1234567", "#gggggg", "7a2e2e", "# 7a2e2e"])
def test_color_invalid(bad):
    shown = bad
    assert problems(edit("    name: Claude Monet\n", f'    name: Claude Monet\n    color: "{bad}"\n')) == [
        f'7:12: set "monet": color "{shown}" should be written "#rrggbb", like "#7a2e2e"']  # quoted: no "put it in quotes"


def test_color_without_quotes_is_a_comment_and_is_refused():
    assert problems(edit("    name: Claude Monet\n", "    name: Claude Monet\n    color: #7a2e2e\n")) == [
        '7:11: set "monet": color is empty; write it in quotes, like color: "#7a2e2e" '
        '(without quotes, "#" starts a comment)']


@pytest.mark.parametrize("good", ["#7a2e2e", "#ABCDEF", "#000000"])
def test_color_valid(good):
    deck = load(edit("    name: Claude Monet\n", f'    name: Claude Monet\n    color: "{good}"\n'))
    assert deck.set("monet").color == good


# -- images ----------------------------------------------------------------------------------------

def with_set_image(path: str) -> str:
    return edit("    name: Claude Monet\n", f'    name: Claude Monet\n    image: "{path}"\n')


def with_card_image(path: str) -> str:
    return edit("      - title: The Magpie\n", f'      - title: The Magpie\n        image: "{path}"\n')


@pytest.mark.parametrize("bad", ["images/monet.gif", "images/monet", "monet.png.txt", "images/"])
def test_image_not_png_or_jpeg(bad):
    assert problems(with_set_image(bad)) == [f'7:12: set "monet": image "{bad}" should be a PNG or JPEG file']


@pytest.mark.parametrize("bad", ["../monet.png", "images/../../monet.png", "/etc/monet.png",
                                 "C:/images/monet.png", "c:monet.png", "..\\\\monet.png"])
def test_image_outside_the_deck_folder(bad):
    shown = bad.replace("\\\\", "\\")
    assert problems(with_card_image(bad)) == [
        f'10:16: set "monet": card "The Magpie": image "{shown}" must be a path inside the deck\'s folder, '
        'like "images/dickens.png"']


def test_image_file_missing(tmp_path):
    assert problems(with_card_image("images/magpie.png"), base_dir=tmp_path) == [
        '10:16: set "monet": card "The Magpie": image "images/magpie.png" was not found next to the deck file']


def test_image_file_with_a_name_too_long_for_the_disk_is_missing_not_a_crash(tmp_path):
    name = "m" * 300 + ".png"
    assert problems(with_set_image(name), base_dir=tmp_path) == [
        f'7:12: set "monet": image "{name}" was not found next to the deck file']


def test_image_is_not_checked_on_disk_without_a_folder():
    assert load(with_card_image("images/magpie.png")).card("the-magpie").image == "images/magpie.png"


@pytest.mark.parametrize("name", ["images/magpie.png", "images/magpie.JPG", "magpie.jpeg", "./images/magpie.png"])
def test_image_present(tmp_path, name):
    (tmp_path / "images").mkdir()
    file = tmp_path / name
    file.write_bytes(b"\x89PNG\r\n\x1a\n")
    deck = load(with_card_image(name), base_dir=tmp_path)
    assert deck.card("the-magpie").image == name.removeprefix("./")


def test_image_relative_to_the_deck_file(tmp_path):
    (tmp_path / "images").mkdir()
    (tmp_path / "images" / "monet.jpg").write_bytes(b"\xff\xd8\xff")
    path = tmp_path / "painters.yaml"
    path.write_text(with_set_image("images/monet.jpg"), encoding="utf-8")
    assert load_deck_file(path).set("monet").image == "images/monet.jpg"
    (tmp_path / "images" / "monet.jpg").unlink()
    with pytest.raises(DeckError) as info:
        load_deck_file(path)
    assert [str(p) for p in info.value.problems] == [
        f'{path}:7:12: set "monet": image "images/monet.jpg" was not found next to the deck file']


# -- cards ---------------------------------------------------------------------------------------------

def test_cards_missing():
    assert problems(edit("""\
    cards:
      - title: The Milkmaid
      - title: View of Delft
""", "")) == ['10:5: set "vermeer" has no cards; list them under "cards:"']


def test_cards_not_a_list():
    assert problems(edit("""\
    cards:
      - title: The Milkmaid
      - title: View of Delft
""", "    cards: The Milkmaid\n")) == [
        '12:12: set "vermeer": "cards" should be a list (each card starting with "- "), '
        'but it is the text "The Milkmaid"']


def test_cards_too_few():
    assert problems(edit("      - title: View of Delft\n", "")) == ['13:7: set "vermeer" has 1 card; a set needs 2 to 8']


def test_cards_at_the_limits():
    eight = "".join(f"      - title: Picture {n}\n" for n in range(1, 9))
    deck = load(edit("      - title: The Milkmaid\n      - title: View of Delft\n", eight))
    assert len(deck.set("vermeer").cards) == 8


def test_cards_too_many():
    nine = "".join(f"      - title: Picture {n}\n" for n in range(1, 10))
    assert problems(edit("      - title: The Milkmaid\n      - title: View of Delft\n", nine)) == [
        '13:7: set "vermeer" has 9 cards; a set needs 2 to 8']


def test_card_without_title():
    text = edit("      - title: View of Delft\n",
                "      - title: View of Delft\n      - note: about 1660\n")
    assert problems(text) == ['15:9: set "vermeer": card 3 has no title']


def test_card_with_an_empty_title_in_a_set_without_id():
    text = edit("  - id: vermeer\n    name: Johannes Vermeer\n", "  - name: Johannes Vermeer\n")
    text = text.replace("- title: The Milkmaid", "- title:")
    assert problems(text) == ["10:5: set 2 has no id", "12:15: set 2: card 1 has no title"]


def test_card_title_duplicate():
    assert problems(edit("title: View of Delft", "title: Water Lilies")) == [
        '14:9: card title "Water Lilies" is used twice (first at line 8)']


@pytest.mark.parametrize("bad", ["the milkmaid", "milkmaid!", "-milkmaid", "m" * 65])
def test_card_id_invalid(bad):
    text = edit("      - title: The Milkmaid\n", f'      - title: The Milkmaid\n        id: "{bad}"\n')
    assert problems(text) == [
        f'14:13: set "vermeer": card "The Milkmaid": card id "{bad}" may use only letters a-z, digits and "-" '
        '(at most 64 characters)']


def test_card_id_duplicate():
    text = edit("      - title: The Milkmaid\n", "      - title: The Milkmaid\n        id: magpie\n")
    text = text.replace("      - title: The Magpie\n", "      - title: The Magpie\n        id: magpie\n")
    assert problems(text) == ['15:9: card id "magpie" is used twice (first at line 10)']


def test_card_id_made_from_the_title_collides_with_a_written_id():
    text = edit("      - title: Water Lilies\n", "      - title: Water Lilies\n        id: the-magpie\n")
    assert problems(text) == [
        '10:9: card id "the-magpie" (made from the title) is used twice (first at line 9); '
        'give one of these cards its own "id"']


def test_card_ids_made_from_two_titles_collide():
    assert problems(edit("title: View of Delft", "title: Water lilies!")) == [
        '14:9: card id "water-lilies" (made from the title) is used twice (first at line 8); '
        'give one of these cards its own "id"']


def test_written_card_id_collides_with_an_id_made_from_a_title():
    text = edit("      - title: The Milkmaid\n", "      - title: The Milkmaid\n        id: water-lilies\n")
    assert problems(text) == ['14:9: card id "water-lilies" is used twice (first at line 8)']


def test_card_id_is_the_title_slugified_by_default():
    deck = load(edit("title: View of Delft", "title: Les Misérables, Œuvres!"))
    assert deck.set("vermeer").card_ids == ("the-milkmaid", "les-miserables-oeuvres")


def test_cyrillic_title_without_id_needs_an_id():
    assert problems(edit("title: View of Delft", "title: Война и мир")) == [
        '14:9: set "vermeer": card "Война и мир" needs an id: its title has no letters a-z or digits to make '
        'one from (add a line like "id: my-card")']


def test_cyrillic_title_with_an_id_is_fine():
    deck = load(edit("      - title: View of Delft\n", "      - title: Война и мир\n        id: voina-i-mir\n"))
    assert deck.card("voina-i-mir").title == "Война и мир"


def test_card_ids_and_set_ids_are_separate():
    deck = load(edit("      - title: The Milkmaid\n", "      - title: The Milkmaid\n        id: monet\n"))
    assert deck.card("monet").set_id == "vermeer" and deck.has_set("monet")


# -- unknown and repeated keys -------------------------------------------------------------------------

def test_unknown_key_with_a_suggestion():
    assert problems(edit("      - title: The Magpie", "      - titel: The Magpie")) == [
        '9:9: unknown key "titel" (did you mean "title"?)']


def test_unknown_key_suggestions_at_every_level():
    text = edit("title: Painters", "tilte: Painters")
    text = text.replace("    name: Claude Monet", "    nmae: Claude Monet")
    text = text.replace("      - title: The Magpie", "      - title: The Magpie\n        alias: [Magpie]")
    assert problems(text) == [
        '3:1: unknown key "tilte" (did you mean "title"?)',
        '6:5: unknown key "nmae" (did you mean "name"?)',
        '10:9: unknown key "alias" (did you mean "aliases"?)',
    ]


def test_unknown_key_without_a_close_match():
    assert problems(edit("title: Painters", "title: Painters\nauthor: Ms Smith")) == [
        '4:1: unknown key "author" (allowed here: format, id, title, language, description, set_label, '
        'card_label, sets)']
    assert problems(edit("    name: Claude Monet", "    name: Claude Monet\n    born: 1840")) == [
        '7:5: unknown key "born" (allowed here: id, name, note, color, image, cards)']
    assert problems(edit("      - title: The Magpie", "      - title: The Magpie\n        year: 1869")) == [
        '10:9: unknown key "year" (allowed here: title, id, aliases, note, image)']


def test_a_misspelt_required_key_is_reported_once_not_also_as_missing():
    text = edit("format: authors-deck/1", "fromat: authors-deck/1").replace("cards:", "crads:", 1)
    assert problems(text) == [
        '1:1: unknown key "fromat" (did you mean "format"?)',
        '7:5: unknown key "crads" (did you mean "cards"?)',
    ]


def test_key_repeated_in_one_mapping():
    assert problems(edit("title: Painters", "title: Painters\ntitle: Painters again")) == [
        '4:1: the deck: key "title" appears twice (first at line 3)']
    assert problems(edit("    name: Claude Monet", "    name: Claude Monet\n    name: Monet")) == [
        '7:5: set 1: key "name" appears twice (first at line 6)']
    assert problems(edit("      - title: The Magpie", "      - title: The Magpie\n        title: Magpie")) == [
        '10:9: set "monet": card 2: key "title" appears twice (first at line 9)']


def test_a_key_must_be_a_plain_word():
    assert problems(edit("title: Painters", "title: Painters\n[a, b]: c")) == [
        '4:1: the deck: a key must be a plain word, not a list']


# -- wrong shapes ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("- format: authors-deck/1\n", '1:1: the deck should be written as "key: value" lines, but it is a list'),
    ("just some text\n", '1:1: the deck should be written as "key: value" lines, but it is the text "just some text"'),
    ("---\n", '2:1: the deck should be written as "key: value" lines, but it is empty'),
])
def test_the_deck_is_not_a_mapping(text, expected):
    assert problems(text) == [expected]


def test_text_field_given_a_list_or_a_mapping():
    assert problems(edit("title: Painters", "title: [Painters, Pictures]")) == [
        '3:8: the deck: "title" should be text, but it is a list']
    assert problems(edit("id: painters", "id:\n  - painters")) == [
        '3:3: the deck: "id" should be text, but it is a list']
    assert problems(edit("format: authors-deck/1", "format: {name: authors-deck, version: 1}")) == [
        '1:9: the deck: "format" should be text, but it is a group of "key: value" lines']
    assert problems(edit("name: Claude Monet", "name: {first: Claude, last: Monet}")) == [
        '6:11: set "monet": "name" should be text, but it is a group of "key: value" lines']
    assert problems(edit("      - title: The Magpie", "      - title: [The Magpie]")) == [
        '9:16: set "monet": card 2: "title" should be text, but it is a list']
    assert problems(edit("title: Painters", "title: Painters\ndescription: [a, b]")) == [
        '4:14: the deck: "description" should be text, but it is a list']


def test_a_set_or_a_card_that_is_not_a_mapping():
    text = edit("""\
  - id: vermeer
    name: Johannes Vermeer
    cards:
      - title: The Milkmaid
      - title: View of Delft
""", "  - Johannes Vermeer\n")
    assert problems(text) == ['10:5: set 2 should be written as "key: value" lines, but it is the text "Johannes Vermeer"']
    assert problems(edit("      - title: The Magpie", "      - [The Magpie]")) == [
        '9:9: set "monet": card 2 should be written as "key: value" lines, but it is a list']
    assert problems(edit("      - title: The Magpie", "      -")) == [
        '9:8: set "monet": card 2 should be written as "key: value" lines, but it is empty']


def test_aliases_of_the_wrong_shape():
    assert problems(edit("      - title: The Magpie", "      - title: The Magpie\n        aliases: {a: b}")) == [
        '10:18: set "monet": card "The Magpie": "aliases" should be a list like [Oliver, "Twist"], '
        'but it is a group of "key: value" lines']
    assert problems(edit("      - title: The Magpie", '      - title: The Magpie\n        aliases: [Magpie, ""]')) == [
        '10:27: set "monet": card "The Magpie": each alias should be a piece of text']
    # A list or mapping inside the aliases is one level deeper than the format goes: refused before walking.
    assert problems(edit("      - title: The Magpie", "      - title: The Magpie\n        aliases: [{a: b}]")) == [
        "10:19: the lists and mappings nest deeper than the format allows; check the indentation"]


# -- all problems at once --------------------------------------------------------------------------------

def test_every_problem_is_reported_at_once():
    text = edit("id: painters", "id: Painters")
    text = text.replace("    name: Claude Monet\n", "    name: Claude Monet\n    color: red\n")
    text = text.replace("      - title: View of Delft", "      - titel: View of Delft")
    assert problems(text) == [
        '2:5: deck id "Painters" must be 2 to 64 characters: lowercase letters a-z, digits and "-"',
        '7:12: set "monet": color "red" should be written "#rrggbb", like "#7a2e2e" (put it in quotes)',
        '15:9: unknown key "titel" (did you mean "title"?)',
    ]


def test_the_error_text_lists_every_problem_with_file_line_and_column():
    text = edit("format: authors-deck/1", "format: authors-deck/9").replace("name: Johannes Vermeer", "name:")
    with pytest.raises(DeckError) as info:
        load_deck_text(text, source="decks/painters.yaml")
    assert str(info.value) == (
        'decks/painters.yaml:1:9: format is "authors-deck/9"; this program reads "authors-deck/1"\n'
        'decks/painters.yaml:11:10: set "vermeer" has no name')


# -- text is taken as written ------------------------------------------------------------------------------

@pytest.mark.parametrize("written, expected", [
    ("1984", "1984"), ("No", "No"), ("yes", "yes"), ("off", "off"), ("3.10", "3.10"), ("1e3", "1e3"),
    ("0x1F", "0x1F"), ("007", "007"), ("null", "null"), ("~", "~"), ("true", "true"), (".inf", ".inf"),
    ("2024-01-02", "2024-01-02"), ("'1984'", "1984"), ('"No"', "No"), ("!!int 12", "12"),
])
def test_text_is_taken_as_written(written, expected):
    deck = load(edit("title: Painters", f"title: {written}").replace("name: Claude Monet", f"name: {written}")
                .replace("- title: The Magpie", f"- title: {written}\n        id: magpie"))
    assert deck.title == expected
    assert deck.set("monet").name == expected
    assert deck.set("monet").cards[1].title == expected


def test_notes_and_ids_are_taken_as_written():
    deck = load(edit("    name: Claude Monet\n", "    name: Claude Monet\n    note: 1840-1926\n")
                .replace("id: vermeer", "id: 1632")
                .replace("      - title: The Magpie\n", "      - title: The Magpie\n        note: 1869\n"
                                                        "        id: 0012\n        aliases: [1869, No]\n"))
    assert deck.set("monet").note == "1840-1926"
    assert deck.has_set("1632")
    magpie = deck.card("0012")
    assert (magpie.note, magpie.aliases) == ("1869", ("1869", "No"))


def test_multi_line_text():
    deck = load(edit("title: Painters\n", "title: Painters\ndescription: |\n  Line one\n  Line two\n"))
    assert deck.description == "Line one\nLine two"


# -- what is refused before the tree is walked ------------------------------------------------------------

def test_anchor_refused():
    assert problems(edit("name: Claude Monet", "name: &painter Claude Monet")) == [
        "6:11: a YAML anchor (&painter) is not allowed in a deck; write the text out in full instead"]


def test_alias_refused_even_without_its_anchor():
    assert problems(edit("name: Claude Monet", "name: *painter")) == [
        "6:11: a YAML alias (*painter) is not allowed in a deck; write the text out in full instead"]


def test_billion_laughs_refused_at_the_first_anchor():
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for n in range(ord("b"), ord("j") + 1):
        prev = chr(n - 1)
        lines.append(f"{chr(n)}: &{chr(n)} [" + ",".join([f"*{prev}"] * 9) + "]")
    assert problems("\n".join(lines) + "\n") == [
        "1:4: a YAML anchor (&a) is not allowed in a deck; write the text out in full instead"]


def test_merge_keys_are_refused_too():
    text = "base: &base {note: x}\nformat: authors-deck/1\nother:\n  <<: *base\n"
    assert problems(text) == ["1:7: a YAML anchor (&base) is not allowed in a deck; write the text out in full instead"]


def test_file_over_one_mebibyte_refused():
    text = textwrap.dedent(VALID) + "#" + "x" * (1024 * 1024) + "\n"
    assert problems(text) == ["1:1: the file is larger than 1 MiB; no deck needs that much"]
    assert problems(text.encode("utf-8")) == ["1:1: the file is larger than 1 MiB; no deck needs that much"]


def test_the_size_limit_counts_bytes_not_characters():
    text = "title: " + "é" * (512 * 1024)  # fewer than 1 Mi characters, more than 1 MiB of UTF-8
    assert problems(text) == ["1:1: the file is larger than 1 MiB; no deck needs that much"]


def test_a_file_of_exactly_one_mebibyte_is_read():
    # Read, and refused only for what it says: the nesting, found at once, not its size.
    data = b"[" * 8 + b" " * (1024 * 1024 - 8)
    assert problems(data) == ["1:7: the lists and mappings nest deeper than the format allows; check the indentation"]


@pytest.mark.parametrize("text", ["[" * 10000, "[" * 10000 + "]" * 10000, "{a: " * 10000,
                                  "- " * 10000 + "x", "a:\n" + "".join(" " * n + "- \n" for n in range(1, 1000))])
def test_deep_nesting_refused_cleanly(text):
    found = problems(text)
    assert len(found) == 1
    assert found[0].endswith(": the lists and mappings nest deeper than the format allows; check the indentation")


def test_nesting_refused_with_its_place():
    assert problems("[" * 10000) == [
        "1:7: the lists and mappings nest deeper than the format allows; check the indentation"]
    assert problems(edit("      - title: The Magpie", "      - title: The Magpie\n        aliases: [[Magpie]]")) == [
        "10:19: the lists and mappings nest deeper than the format allows; check the indentation"]


def test_the_deepest_nesting_of_the_format_is_allowed():
    deck = load(edit("      - title: The Magpie", "      - title: The Magpie\n        aliases: [Magpie, Pie]"))
    assert deck.card("the-magpie").aliases == ("Magpie", "Pie")


# -- bytes, encodings, empty files, YAML syntax -------------------------------------------------------------

def test_not_utf8():
    data = textwrap.dedent(VALID).replace("Claude Monet", "Claude Mon\xe9t").encode("latin-1")
    assert problems(data) == ["6:21: the file is not UTF-8 text; save it again as UTF-8"]


def test_not_utf8_column_counts_characters():
    assert problems("title: Crème \xff".encode("utf-8").replace(b"\xc3\xbf", b"\xff")) == [
        "1:14: the file is not UTF-8 text; save it again as UTF-8"]


def test_utf16_is_not_utf8():
    found = problems(textwrap.dedent(VALID).encode("utf-16"))
    assert found == ["1:1: the file is not UTF-8 text; save it again as UTF-8"]


@pytest.mark.parametrize("data", [b"", "", "\n\n", "# only a comment\n", "\ufeff"])
def test_empty_file(data):
    assert problems(data) == ['1:1: the file is empty; a deck starts with "format: authors-deck/1"']


def test_multiple_documents():
    text = textwrap.dedent(VALID) + "---\n" + textwrap.dedent(VALID)
    assert problems(text) == ['15:1: a second YAML document starts here ("---"); a deck file holds one deck only']


def test_a_single_document_with_markers_is_fine():
    assert load("---\n" + textwrap.dedent(VALID) + "...\n").id == "painters"


def test_yaml_syntax_error_colon_in_text():
    assert problems(edit("      - title: The Magpie", "      - title: Impression: Sunrise")) == [
        "9:26: this is not valid YAML (mapping values are not allowed here); check the indentation "
        "and quote text that contains ':' or '#'"]


def test_yaml_syntax_error_bad_indentation():
    assert problems(edit("    name: Johannes Vermeer", "     name: Johannes Vermeer")) == [
        "11:10: this is not valid YAML (mapping values are not allowed here); check the indentation "
        "and quote text that contains ':' or '#'"]


def test_yaml_syntax_error_unclosed_quote():
    assert problems(edit("title: Painters", 'title: "Painters')) == [
        "15:1: this is not valid YAML (while scanning a quoted scalar, found unexpected end of stream); "
        "check the indentation and quote text that contains ':' or '#'"]


def test_yaml_tab_indentation():
    assert problems(edit("    name: Claude Monet", "\tname: Claude Monet")) == [
        "6:1: this is not valid YAML (while scanning for the next token, found character '\\t' that cannot "
        "start any token); check the indentation and quote text that contains ':' or '#'"]


def test_control_character_refused_with_its_place():
    assert problems(edit("name: Claude Monet", "name: Claude\x07Monet")) == [
        "6:17: the file contains a character that YAML does not allow (#x0007); delete it"]
    assert problems("\ufefftitle: \x00") == [
        "1:8: the file contains a character that YAML does not allow (#x0000); delete it"]
    assert problems("a:\r\r b: \x01") == [
        "3:5: the file contains a character that YAML does not allow (#x0001); delete it"]
    assert problems("title: \ud800") == [
        "1:8: the file contains a character that YAML does not allow (#xd800); delete it"]


def test_byte_order_mark_accepted():
    assert load_deck_text(textwrap.dedent(VALID).encode("utf-8-sig"), source=SOURCE).id == "painters"
    assert load_deck_text("\ufeff" + textwrap.dedent(VALID), source=SOURCE).id == "painters"


def test_byte_order_mark_does_not_shift_columns():
    data = edit("id: painters", "id: Painters").encode("utf-8-sig")
    assert problems(data) == [
        '2:5: deck id "Painters" must be 2 to 64 characters: lowercase letters a-z, digits and "-"']
    data = edit("format: authors-deck/1", "format: x").encode("utf-8-sig")
    assert problems(data) == ['1:9: format is "x"; this program reads "authors-deck/1"']


def test_windows_line_endings():
    assert load(textwrap.dedent(VALID).replace("\n", "\r\n")).card_count == 4
    assert problems(edit("id: vermeer", "id: monet").replace("\n", "\r\n")) == [
        '10:5: set id "monet" is used twice (first at line 5)']


def test_unreadable_file(tmp_path):
    path = tmp_path / "nope.yaml"
    with pytest.raises(DeckError) as info:
        load_deck_file(path)
    assert [str(p) for p in info.value.problems] == [f"{path}:1:1: cannot read the file (No such file or directory)"]


def test_deck_from_node_validates_an_inline_deck():
    node = yaml.compose(textwrap.dedent(VALID), Loader=yaml.SafeLoader)
    assert deck_from_node(node, "record.yaml").id == "painters"
    with pytest.raises(DeckError) as info:
        deck_from_node(yaml.compose(edit("id: vermeer", "id: monet"), Loader=yaml.SafeLoader), "record.yaml")
    assert [str(p) for p in info.value.problems] == ['record.yaml:10:5: set id "monet" is used twice (first at line 5)']


# -- slugify --------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, slug", [
    ("Oliver Twist", "oliver-twist"),
    ("Les Misérables", "les-miserables"),
    ("Œuvres", "oeuvres"),
    ("Crème brûlée", "creme-brulee"),
    ("Straße", "strasse"),
    ("Ærø, Łódź", "aero-lodz"),
    ("The Gold-Bug", "the-gold-bug"),
    ("Hello,  World!!", "hello-world"),
    ("  --Trimmed--  ", "trimmed"),
    ("a -- b __ c", "a-b-c"),
    ("Catch-22", "catch-22"),
    ("1984", "1984"),
    ("Twenty Thousand Leagues Under the Sea", "twenty-thousand-leagues-under-the-sea"),
    ("Война и мир", ""),
    ("!!!", ""),
    ("", ""),
])
def test_slugify(text, slug):
    assert slugify(text) == slug
