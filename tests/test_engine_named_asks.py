"""The naming options through the engine's API: what events carry, what the options refuse, the bots."""
from __future__ import annotations

import random

import pytest

from app.decks import get_deck
from app.engine.answers import Verdict
from app.engine.bots import make_bot
from app.engine.game import Game
from app.engine.moves import Answer, Ask, IllegalMove
from app.engine.options import OptionsError, make_options
from app.engine.record import load_record_text, record_of

DECK = get_deck("authors-1861")


def dickens_game(**options) -> Game:
    """Lea holds one Dickens card, Tom the other three (and everything else is dealt round)."""
    dickens = DECK.set("dickens").card_ids
    rest = [c.id for c in DECK.cards if c.id not in dickens]
    hands = {"Lea": [dickens[0], *rest[0::2]], "Tom": [*dickens[1:], *rest[1::2]]}
    return Game(DECK, make_options("classic", options), ["Lea", "Tom"], dealer="Tom", hands=hands, rules="classic")


def test_an_answer_event_carries_the_verdict_and_the_title():
    game = dickens_game(name_the_work=True, answers="typos")
    card = DECK.set("dickens").cards[1]
    game.apply(Ask("Lea", "Tom", card=card.id))
    typo = card.title[:-1] + card.title[-1] * 2
    [event] = game.apply(Answer("Lea", typo))
    assert event.public() == {"type": "answer", "player": "Lea", "card": card.id, "text": typo, "correct": True,
                              "verdict": "almost", "title": card.title}
    assert game.view("Lea").bonus["Lea"] == 1


def test_a_named_ask_is_graded_at_once_and_opens_no_prompt():
    game = dickens_game(named_asks=True, name_the_work=True)
    card = DECK.set("dickens").cards[1]
    [event] = game.apply(Ask("Lea", "Tom", card=card.id, named=card.title.upper()))
    assert event.data["verdict"] == "right" and event.data["title"] == card.title
    assert event.data["named"] == card.title.upper() and event.data["bonus"] == 1
    assert game.prompts("Lea") == () and game.replay_state()["bonus"]["Lea"] == 1
    assert game.view("Tom").log[-1]["verdict"] == "right"  # what the asker said, the table heard


def test_game_grade_uses_the_tables_answers_option():
    card = DECK.set("dickens").cards[0]
    typo = "x" + card.title
    assert dickens_game().grade(typo, card.id) is Verdict.WRONG
    assert dickens_game(answers="typos").grade(typo, card.id) is Verdict.ALMOST


def test_the_options_are_checked():
    with pytest.raises(OptionsError, match="named_asks"):
        make_options("standard", {"named_asks": True})
    with pytest.raises(OptionsError, match="answers"):
        make_options("classic", {"answers": "lenient"})
    assert make_options("classic").answers == "exact" and make_options("classic").bonus_in_score is True


def test_a_named_text_must_be_text():
    game = dickens_game(named_asks=True)
    with pytest.raises(IllegalMove) as refusal:
        game.apply(Ask("Lea", "Tom", card=DECK.set("dickens").card_ids[1], named=42))
    assert refusal.value.code == "not-allowed" and game.moves == []


def test_a_named_ask_is_written_in_the_record_and_read_back():
    game = dickens_game(named_asks=True)
    game.apply(Ask("Lea", "Tom", card=DECK.set("dickens").card_ids[1], named="1984"))
    text = record_of(game).to_yaml()
    assert "named: '1984'" in text
    assert load_record_text(text).moves == game.moves


@pytest.mark.parametrize("bot", ["random", "memory", "expert"])
def test_a_bots_ask_names_the_work_with_named_asks(bot):
    game = dickens_game(named_asks=True)
    player = make_bot(bot, 5)
    moves = []
    for seed in range(30):
        player.rng = random.Random(seed)
        move = player.choose(game.view("Lea"))
        assert isinstance(move, Ask) and move.card is not None
        moves.append(move)
    named = [m for m in moves if m.named is not None]
    assert named and any(game.grade(m.named, m.card) is Verdict.RIGHT for m in named)
    plain = make_bot(bot, 5).choose(dickens_game().view("Lea"))
    assert plain.named is None
