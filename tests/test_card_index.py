"""The quartet index on screen (option card_index, issue #35): each card of the deck a table sends carries
its mark ("B2"), for children who ask by index; never at a table where works are named from memory (the
recall deck names no cards at all), and not when the option is off."""
from app.decks import get_deck
from app.decks.look import card_marks

from .web_support import deck_of, open_table, teacher_client


def _marks(deck_json):
    return {card["id"]: card.get("mark") for s in deck_json["sets"] for card in s["cards"]}


def test_a_table_with_the_index_sends_each_cards_mark(app):
    teacher = teacher_client(app)
    code = open_table(teacher, rules="quartett", deck="german-writers", options={"card_index": True})
    sent = _marks(deck_of(teacher, code))
    assert sent == card_marks(get_deck("german-writers"))
    assert sorted(sent.values())[:2] == ["A1", "A2"] and "H4" in sent.values()  # 8 sets of 4


def test_without_the_option_or_under_recall_no_mark_is_sent(app):
    teacher = teacher_client(app)
    plain = open_table(teacher, rules="quartett", deck="german-writers")
    assert set(_marks(deck_of(teacher, plain)).values()) == {None}
    recall = open_table(teacher, rules="quartett", deck="german-writers",
                        options={"card_index": True, "name_the_work": True})
    deck = deck_of(teacher, recall)
    assert deck.get("recall") and all(not s["cards"] for s in deck["sets"])  # no card, so no mark either
    assert "B2" not in str(deck)
    listed = open_table(teacher, rules="quartett", deck="german-writers",
                        options={"card_index": True, "name_the_work": True, "works_listed": True})
    assert "B2" in _marks(deck_of(teacher, listed)).values()  # recognition: the works are on screen anyway
