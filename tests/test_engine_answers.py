"""The grading of a typed name (record spec, "When an answer is correct"), fixed by a table in five languages.

Each row: a set, the card's title, what was typed, and the verdict under `answers: exact` and `typos`.
The other cards of the set are the ones a typo must not be as near to.
"""
from __future__ import annotations

import pytest

from app.decks.model import Card
from app.engine.answers import Verdict, forms, grade, normalise, tolerance

R, A, W = Verdict.RIGHT, Verdict.ALMOST, Verdict.WRONG

SETS = {
    "poe": [("The Raven", ()), ("The Tell-Tale Heart", ()), ("The Gold-Bug", ()), ("Annabel Lee", ())],
    "longfellow": [("Evangeline", ()), ("Excelsior", ()), ("The Song of Hiawatha", ("Hiawatha",)),
                   ("Paul Revere's Ride", ())],
    "shakespeare": [("Henry IV", ()), ("Henry V", ()), ("Henry VI", ()), ("Henry VIII", ())],
    "modern": [("Nineteen Eighty-Four", ("1984",)), ("Fahrenheit 451", ()), ("Catch-22", ()),
               ("An American Tragedy", ())],
    "gogol": [("Мёртвые души", ()), ("Ревизор", ()), ("Шинель", ()), ("Тарас Бульба", ())],
    "pushkin": [("Евгений Онегин", ()), ("Капитанская дочка", ()), ("Пиковая дама", ()), ("Ёжик в тумане", ())],
    "russian": [("Муму", ()), ("Идиот", ()), ("Обломов", ()), ("Герой нашего времени", ()),
                ("Песня про царя Ивана Васильевича, молодого опричника и удалого купца Калашникова",
                 ("Песня про купца Калашникова",))],
    "camus": [("L'Étranger", ()), ("La Peste", ()), ("La Chute", ()), ("Le Mythe de Sisyphe", ())],
    "french": [("Les Misérables", ()), ("Le Comte de Monte-Cristo", ("Monte-Cristo",)), ("Nana", ()),
               ("Le Tour du monde en quatre-vingts jours", ("Le Tour du monde en 80 jours",)),
               ("Candide", ("Candide ou l'Optimisme",))],
    "italian": [("Il Principe", ()), ("Dell'arte della guerra", ()), ("L'infinito", ()), ("I promessi sposi", ()),
                ("Gli indifferenti", ()), ("Lo cunto de li cunti", ()), ("Decameron", ("Decamerone",))],
    "portuguese": [("Os Lusíadas", ()), ("O Primo Basílio", ()), ("A Cidade e as Serras", ()),
                   ("As Pupilas do Senhor Reitor", ()), ("Os Maias", ())],
}

TABLE = [
    # set, title, typed, exact, typos
    # -- English: case, punctuation, articles glued or dropped ------------------------------------------
    ("poe", "The Raven", "The Raven", R, R),
    ("poe", "The Raven", "TheRaven", R, R),
    ("poe", "The Raven", "the raven!", R, R),
    ("poe", "The Raven", "Raven", R, R),
    ("poe", "The Raven", "  RAVEN  ", R, R),
    ("poe", "The Raven", "A Raven", R, R),               # any listed article may lead
    ("poe", "The Raven", "The", W, W),                   # an article alone names nothing
    ("poe", "The Raven", "Teh Raven", W, A),             # a transposition is one slip
    ("poe", "The Raven", "Ravens", W, A),                # "raven" has 5 characters: 1 slip
    ("poe", "The Raven", "Ravenss", W, W),
    ("poe", "The Tell-Tale Heart", "Tell Tale Heart", R, R),
    ("poe", "The Tell-Tale Heart", "telltaleheart", R, R),
    ("poe", "The Tell-Tale Heart", "Tell-Tail Heart", W, A),   # 13 characters: 2 slips
    ("poe", "The Gold-Bug", "The Gold Bug...", R, R),
    ("poe", "Annabel Lee", "Anabel Lee", W, A),
    ("poe", "Annabel Lee", None, W, W),
    ("poe", "Annabel Lee", "", W, W),
    ("poe", "Annabel Lee", "?!", W, W),
    # -- length thresholds: 9 characters take 1 slip, 10 take 2 -----------------------------------------
    ("longfellow", "Excelsior", "Excelsoir", W, A),
    ("longfellow", "Excelsior", "Exselsoir", W, W),
    ("longfellow", "Evangeline", "Evangelyne", W, A),
    ("longfellow", "Evangeline", "Evangalyne", W, A),
    ("longfellow", "Evangeline", "Evongalyne", W, W),
    ("longfellow", "The Song of Hiawatha", "Hiawatha", R, R),  # an alias
    ("longfellow", "The Song of Hiawatha", "Song of Hiawata", W, A),
    ("longfellow", "Paul Revere's Ride", "Paul Reveres Ride", R, R),
    # -- a slip as near to another card of the set is a confusion ---------------------------------------
    ("shakespeare", "Henry VIII", "Henry VII", W, W),          # as near to Henry VI
    ("shakespeare", "Henry VIII", "Henry VIIII", W, A),
    ("shakespeare", "Henry VIII", "Henry VI", W, W),           # another card, exactly
    ("shakespeare", "Henry IV", "Henry IIV", W, A),
    ("shakespeare", "Henry IV", "Henry V", W, W),
    # -- numbers ----------------------------------------------------------------------------------------
    ("modern", "Nineteen Eighty-Four", "1984", R, R),
    ("modern", "Nineteen Eighty-Four", "1948", W, W),          # a 4-character alias takes no slip
    ("modern", "Nineteen Eighty-Four", "nineteen eighty four", R, R),
    ("modern", "Fahrenheit 451", "Farenheit 451", W, A),
    ("modern", "Fahrenheit 451", "Fahrenheit", W, W),
    ("modern", "Catch-22", "Catch 22", R, R),
    ("modern", "Catch-22", "catch22", R, R),
    ("modern", "An American Tragedy", "American Tragedy", R, R),
    # -- Russian: ё is е, й is its own letter, no articles ----------------------------------------------
    ("gogol", "Мёртвые души", "Мертвые души", R, R),
    ("gogol", "Мёртвые души", "МЁРТВЫЕ ДУШИ", R, R),
    ("gogol", "Мёртвые души", "мертвые  души.", R, R),
    ("gogol", "Ревизор", "Ревизорр", W, A),
    ("gogol", "Шинель", "Шенель", W, A),
    ("pushkin", "Ёжик в тумане", "Ежик в тумане", R, R),
    ("pushkin", "Евгений Онегин", "Евгении Онегин", W, A),  # й is not и with an accent
    ("pushkin", "Евгений Онегин", "Евгений Онегин!", R, R),
    ("pushkin", "Пиковая дама", "Капитанская дочка", W, W),
    ("russian", "Муму", "Муму", R, R),
    ("russian", "Муму", "Мума", W, W),                      # 4 characters: exact only
    ("russian", "Идиот", "Идиоты", W, A),                   # 5 characters: 1 slip
    ("russian", "Идиот", "Идеоты", W, W),
    ("russian", "Обломов", "Oбломов", W, A),                # a Latin O looks alike but is a slip
    ("russian", "Обломов", "Oблoмов", W, W),                # two of them are two
    ("russian", "Герой нашего времени", "Герои нашего времени", W, A),
    ("russian", "Песня про царя Ивана Васильевича, молодого опричника и удалого купца Калашникова",
     "песня про купца калашникова", R, R),
    # -- French: elisions, accents, aliases -------------------------------------------------------------
    ("camus", "L'Étranger", "L'Étranger", R, R),
    ("camus", "L'Étranger", "letranger", R, R),
    ("camus", "L'Étranger", "Etranger", R, R),
    ("camus", "L'Étranger", "l’étranger", R, R),            # a typographic apostrophe
    ("camus", "L'Étranger", "L etranger", R, R),
    ("camus", "L'Étranger", "Étrangers", W, A),
    ("camus", "La Peste", "peste", R, R),
    ("camus", "La Peste", "La Chute", W, W),
    ("camus", "Le Mythe de Sisyphe", "Le mythe de Sysiphe", W, A),
    ("french", "Les Misérables", "les miserables", R, R),
    ("french", "Les Misérables", "Misérables", R, R),
    ("french", "Le Comte de Monte-Cristo", "monte cristo", R, R),
    ("french", "Le Comte de Monte-Cristo", "Comte de Monte Cristo", R, R),
    ("french", "Le Tour du monde en quatre-vingts jours", "Le tour du monde en 80 jours", R, R),
    ("french", "Le Tour du monde en quatre-vingts jours", "Tour du monde en 81 jours", W, A),
    ("french", "Nana", "Nanna", W, W),
    ("french", "Candide", "Candide, ou l'optimisme", R, R),
    # -- Italian: il, lo, i, gli, l' ------------------------------------------------------------------
    ("italian", "Il Principe", "Principe", R, R),
    ("italian", "Il Principe", "il principe!", R, R),
    ("italian", "Il Principe", "Principi", W, A),
    ("italian", "Dell'arte della guerra", "Arte della guerra", W, W),  # "dell'" is no leading article
    ("italian", "Dell'arte della guerra", "Dell'arte della guera", W, A),
    ("italian", "L'infinito", "Infinito", R, R),
    ("italian", "L'infinito", "linfinito", R, R),
    ("italian", "I promessi sposi", "Promessi sposi", R, R),
    ("italian", "I promessi sposi", "I promesi sposi", W, A),
    ("italian", "Gli indifferenti", "Indifferenti", R, R),
    ("italian", "Lo cunto de li cunti", "Cunto de li cunti", R, R),
    ("italian", "Decameron", "Decamerone", R, R),              # an alias
    ("italian", "Decameron", "Decamerome", W, A),              # 2 from the 9-letter title, 1 from the alias
    # -- Portuguese: o, a, os, as ----------------------------------------------------------------------
    ("portuguese", "Os Lusíadas", "Lusiadas", R, R),
    ("portuguese", "Os Lusíadas", "os lusíadas", R, R),
    ("portuguese", "Os Lusíadas", "Lusíadas, Os", W, W),
    ("portuguese", "Os Lusíadas", "Lusiádas", R, R),            # a misplaced accent is no accent
    ("portuguese", "O Primo Basílio", "Primo Basilio", R, R),
    ("portuguese", "O Primo Basílio", "Um primo Basilio", W, A),  # "um" is no listed article: 2 slips of 13
    ("portuguese", "A Cidade e as Serras", "Cidade e as Serras", R, R),
    ("portuguese", "As Pupilas do Senhor Reitor", "Pupilas do Senhor Reitor", R, R),
    ("portuguese", "As Pupilas do Senhor Reitor", "Pupilas do Senhor Retor", W, A),
    ("portuguese", "As Pupilas do Senhor Reitor", "Pupilas do Sr Reitor", W, W),
    ("portuguese", "Os Maias", "Maias", R, R),
    ("portuguese", "Os Maias", "Mayas", W, A),
]


def cards_of(set_id: str) -> list[Card]:
    return [Card(id=f"{set_id}-{i}", title=title, set_id=set_id, index=i, aliases=aliases)
            for i, (title, aliases) in enumerate(SETS[set_id], 1)]


def test_the_table_is_large_and_covers_every_verdict():
    assert len(TABLE) >= 60
    assert {row[3] for row in TABLE} == {R, W} and {row[4] for row in TABLE} == {R, A, W}


@pytest.mark.parametrize("set_id, title, typed, exact, typos", TABLE,
                         ids=[f"{row[1]}|{row[2]}" for row in TABLE])
def test_grading(set_id, title, typed, exact, typos):
    cards = cards_of(set_id)
    card = next(c for c in cards if c.title == title)
    assert grade(typed, card, cards, "exact") is exact
    assert grade(typed, card, cards, "typos") is typos


def test_normalised_text_and_its_forms():
    assert normalise("  L’Étranger — roman!! ") == "l etranger roman"
    assert forms("The Raven") == ("theraven", "raven")
    assert forms("TheRaven") == ("theraven",)
    assert forms("Ёжик") == ("ежик",) and forms("Мой") == ("мой",)
    assert forms("...") == () and forms("Le") == ("le",)


def test_tolerance_by_length():
    assert [tolerance("x" * n) for n in (1, 4, 5, 9, 10, 30)] == [0, 0, 1, 1, 2, 2]


def test_an_almost_right_answer_scores():
    assert A.scores and R.scores and not W.scores
    assert A == "almost" and str(R) == "right"  # events and JSON carry the plain string
