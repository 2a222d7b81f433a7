"""Spaced review (issue #34): every graded naming of a class's roster student is a review of that work
for her, scheduled by FSRS; with `review_deals` a deal puts her due works in the computer players' hands
(app/services/reviews.py, app/engine/dealing.py)."""
from __future__ import annotations

import json
import random
import time

import pytest
from hypothesis import given, settings, strategies as st

from app.db import db
from app.decks import builtin_decks
from app.engine.dealing import deal_back
from app.models import Review, ReviewCard, Table
from app.services import deals, reviews

from .test_classes import make_class
from .test_roster_join import class_ids
from .web_support import get_state, teacher_client

DECK = builtin_decks()["authors-1861"]
SET_OF = {card.id: card_set.id for card_set in DECK.sets for card in card_set.cards}
SET_SIZE = {card_set.id: len(card_set.cards) for card_set in DECK.sets}


# ----------------------------------------------------------------------------------------------------
# The deal: wanted works go to the receivers' hands by swaps, and the rest stays as it fell
# ----------------------------------------------------------------------------------------------------
def _random_deal(rng: random.Random, players: list[str], stock: int):
    cards = list(SET_OF)
    rng.shuffle(cards)
    dealt, rest = cards[:len(cards) - stock], cards[len(cards) - stock:]
    return {name: dealt[i::len(players)] for i, name in enumerate(players)}, rest


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32), stock=st.sampled_from([0, 10, 20]), wanted_count=st.integers(1, 14))
def test_the_wanted_works_go_to_the_computers_and_every_hand_keeps_its_size(seed, stock, wanted_count):
    rng = random.Random(seed)
    players = ["Anna", "Boris", "Computer 1", "Computer 2"]
    hands, rest = _random_deal(rng, players, stock)
    wanted = [(card, rng.choice(["Anna", "Boris"])) for card in rng.sample(list(SET_OF), wanted_count)]
    moved = deal_back(hands, rest, SET_OF, wanted, ["Computer 1", "Computer 2"])

    everything = [card for cards in moved.hands.values() for card in cards] + moved.stock
    assert sorted(everything) == sorted(SET_OF)  # every card once
    assert {name: len(cards) for name, cards in moved.hands.items()} == {name: len(c) for name, c in hands.items()}
    assert len(moved.stock) == len(rest)
    placed = set(moved.placed)
    for card, _student in wanted:
        if card in placed:
            holder = next(name for name, cards in moved.hands.items() if card in cards)
            assert holder.startswith("Computer"), (card, holder)
    for name in players:  # no hand is made to hold a whole set, laid down unasked
        held, before = [SET_OF[c] for c in moved.hands[name]], [SET_OF[c] for c in hands[name]]
        assert all(held.count(s) < SET_SIZE[s] for s in set(held) if held.count(s) > before.count(s)), name
    # Every wanted card goes somewhere: a receiver can always take one of a set it is not full of.
    assert len(placed) >= min(len({c for c, _s in wanted}), 1)


def test_a_student_is_given_a_card_of_the_set_so_she_can_ask_for_her_due_work():
    players = ["Anna", "Computer 1"]
    sets = {set_id: [c for c in SET_OF if SET_OF[c] == set_id] for set_id in SET_SIZE}
    set_ids = sorted(sets)
    # Anna holds none of the first set; its first work is due for her.
    anna = [card for set_id in set_ids[1:6] for card in sets[set_id][:2]]
    computer = [card for set_id in set_ids[6:11] for card in sets[set_id][:2]]
    rest = [card for card in SET_OF if card not in anna and card not in computer]
    due = sets[set_ids[0]][0]
    moved = deal_back({"Anna": anna, "Computer 1": computer}, rest, SET_OF, [(due, "Anna")], ["Computer 1"])
    assert moved.placed == [due] and due in moved.hands["Computer 1"]
    assert any(SET_OF[card] == set_ids[0] for card in moved.hands["Anna"])  # she can ask for it
    assert sorted(moved.hands["Anna"] + moved.hands["Computer 1"] + moved.stock) == sorted(SET_OF)
    assert players == list(moved.hands)


# ----------------------------------------------------------------------------------------------------
# In class: a naming is a review of hers; a miss comes back in the next deal
# ----------------------------------------------------------------------------------------------------
def class_table(app, **options):
    """A class of Anna and Boris; a table of the class (the 1861 deck, a prompt for each card received)
    where Anna plays two computers. Returns the teacher, Anna's client, the code and Anna's roster id."""
    teacher = teacher_client(app)
    make_class(teacher, names="Anna\nBoris")
    class_id, students = class_ids(app)
    response = teacher.post("/api/tables", json={
        "seats": [{"kind": "human"}, {"kind": "computer"}, {"kind": "computer"}], "class_id": class_id,
        "rules": "standard", "deck": "authors-1861", "match": {"format": "hands", "value": 3},
        "options": {"name_the_work": True, **options}})
    assert response.status_code == 201, response.get_json()
    code = response.get_json()["code"]
    anna = app.test_client()
    assert anna.post(f"/api/tables/{code}/join", json={"student": students["Anna"]}).status_code == 201
    assert teacher.post(f"/api/tables/{code}/start").status_code == 200
    return teacher, anna, code, students["Anna"]


def _titles(app, code):
    from .web_support import server_game

    with app.app_context():
        game = server_game(Table.query.filter_by(code=code).one().current_deal)
        return game, {c.id: c.title for c in game.deck.cards}


def answer_first_prompt(app, anna, code, right: bool, limit: int = 300, name: str = "Anna"):
    """Anna (or `name`) plays (asking the first set and player she is offered) until a card comes to her and she is
    asked to name it; she names it right or wrong. Returns the card's id."""
    from .web_support import choose_move, deck_of, tick

    rng = random.Random(5)
    for _ in range(limit):
        state = get_state(anna, code)
        assert state["status"] == "playing"
        if state["game"]["turn"] != name:
            tick(app)  # the computers' moves, as the server's clock plays them
            continue
        if state["game"]["prompts"]:
            game, titles = _titles(app, code)
            card = list(game.prompts(name))[0]
            typed = titles[card] if right else "Moby-Dick"
            response = anna.post(f"/api/tables/{code}/moves", json={"move": {"answer": typed}})
            assert response.status_code == 200, response.get_json()
            return card
        move = choose_move(state, deck_of(anna, code), rng)
        assert anna.post(f"/api/tables/{code}/moves", json={"move": move}).status_code == 200
    raise AssertionError(f"no card came to {name}")


@pytest.mark.database
def test_a_wrong_naming_in_class_puts_the_work_in_a_computers_hand_in_the_next_deal(play_app):
    _teacher, anna, code, anna_id = class_table(play_app, review_deals=True)
    missed = answer_first_prompt(play_app, anna, code, right=False)
    with play_app.app_context():
        review = Review.query.filter_by(student_id=anna_id, card_id=missed).one()
        assert (review.verdict, review.rating, review.deck_key) == ("wrong", 1, "authors-1861")
        schedule = db.session.get(ReviewCard, (anna_id, "authors-1861", missed))
        assert schedule.due <= time.time() + 11 * 60  # again: back within FSRS's first learning steps
        # The next deal, a quarter of an hour later: the missed work is due, and dealt to a computer.
        table = Table.query.filter_by(code=code).one()
        later = time.time() + 15 * 60
        wanted = reviews.due_works([anna_id], "authors-1861", later)
        assert [w.card_id for w in wanted] == [missed]
        original = time.time
        try:
            time.time = lambda: later  # (deals.deal_next reads when it deals)
            dealt = deals.deal_next(table)
        finally:
            time.time = original
        hands = json.loads(dealt.header_json)["hands"]
        db.session.rollback()
    holder = next(name for name, cards in hands.items() if missed in cards)
    assert holder.startswith("Comput"), hands  # the record of the deal shows it in a computer's hand
    assert any(SET_OF[c] == SET_OF[missed] for c in hands["Anna"])  # and Anna can ask for it


@pytest.mark.database
def test_a_right_naming_is_not_due_again_before_its_date_and_the_schedule_replays_from_the_log(play_app):
    _teacher, anna, code, anna_id = class_table(play_app, review_deals=True)
    named = answer_first_prompt(play_app, anna, code, right=True)
    with play_app.app_context():
        schedule = db.session.get(ReviewCard, (anna_id, "authors-1861", named))
        assert (schedule.reviews, schedule.lapses) == (1, 0)
        assert schedule.due > time.time() + 5 * 60  # good: not before its next step
        assert reviews.due_works([anna_id], "authors-1861", time.time()) == []
        log = [(r.reviewed_at, r.rating) for r in Review.query.filter_by(student_id=anna_id, card_id=named)
               .order_by(Review.reviewed_at)]
        assert reviews.replayed(log).to_dict() == json.loads(schedule.state_json)


@pytest.mark.database
def test_a_student_of_a_table_not_of_a_class_has_no_schedule(play_app):
    from .web_support import open_table, seat_student

    teacher = teacher_client(play_app)
    code = open_table(teacher, rules="standard", deck="authors-1861", options={"name_the_work": True},
                      seats=[{"kind": "human"}, {"kind": "computer"}, {"kind": "computer"}])
    fay = seat_student(play_app, code, "Fay")
    assert teacher.post(f"/api/tables/{code}/start").status_code == 200
    answer_first_prompt(play_app, fay, code, right=False, name="Fay")
    with play_app.app_context():
        assert Review.query.count() == 0  # Fay is no roster student: she has no schedule


def test_verdicts_rate_as_fsrs_rates_a_review():
    from fsrs import Rating

    assert {v: reviews.rating_of(v) for v in ("right", "almost", "hinted", "wrong", "passed")} == {
        "right": Rating.Good, "almost": Rating.Hard, "hinted": Rating.Hard, "wrong": Rating.Again,
        "passed": Rating.Again}
