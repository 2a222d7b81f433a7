"""Homework (issue #34): a teacher assigns a deck and rules to a class; a student opens the link, taps
her name and plays against computer players; her missed works come back in her game; the days are the
teacher's, in her time zone (app/services/homework.py, app/web/homework.py)."""
from __future__ import annotations

import json
import random
import time
from datetime import date, datetime, timezone

import pytest

from app.db import db
from app.models import Assignment, ReviewCard, Seat, Table, Teacher
from app.services import deals, homework

from .test_classes import make_class
from .test_reviews import SET_OF, answer_first_prompt, class_table
from .test_roster_join import class_ids
from .web_support import choose_move, deck_of, error_of, get_state, teacher_client, tick

DAY = 86400.0


def _utc(text: str) -> float:
    return datetime.fromisoformat(text).replace(tzinfo=timezone.utc).timestamp()


def _day(offset: int = 0, zone: str = "UTC") -> str:
    return date.fromordinal(homework.today(zone, time.time()).toordinal() + offset).isoformat()


def assign(teacher, class_id, **spec):
    body = {"rules": "standard", "deck": "authors-1861", "due": _day(7), **spec}
    response = teacher.post(f"/api/classes/{class_id}/assignments", json=body)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def start(client, code, student, word=None):
    return client.post(f"/api/homework/{code}", json={"student": student} | ({"word": word} if word else {}))


def _class(app, word=False):
    teacher = teacher_client(app)
    make_class(teacher, names="Anna\nBoris", word=word)
    class_id, students = class_ids(app)
    return teacher, class_id, students


# ----------------------------------------------------------------------------------------------------
# The days: the teacher's calendar, in her time zone
# ----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("zone, due, closes", [
    # A winter day in Berlin ends at 23:00 UTC; the day summer time starts has 23 hours, and ends at 22:00 UTC.
    ("Europe/Berlin", "2027-03-27", "2027-03-27T23:00:00"),
    ("Europe/Berlin", "2027-03-28", "2027-03-28T22:00:00"),
    # New York's summer time ends on 2027-11-07: that day has 25 hours.
    ("America/New_York", "2027-11-06", "2027-11-07T04:00:00"),
    ("America/New_York", "2027-11-07", "2027-11-08T05:00:00"),
    ("UTC", "2027-01-01", "2027-01-02T00:00:00"),
])
def test_a_due_date_closes_at_the_midnight_that_ends_it_in_the_teachers_zone(zone, due, closes):
    opens_at, due_at = homework.window(date.fromisoformat(due), date.fromisoformat(due), zone)
    assert due_at == _utc(closes)
    assert 23 * 3600 <= due_at - opens_at <= 25 * 3600


def test_the_link_is_open_from_the_first_midnight_to_the_last_second_of_the_due_date():
    opens_at, due_at = homework.window(date(2027, 3, 27), date(2027, 3, 28), "Europe/Berlin")
    assignment = Assignment(opens_at=opens_at, due_at=due_at)
    assert opens_at == _utc("2027-03-26T23:00:00")  # midnight in Berlin, winter time
    assert homework.status(assignment, opens_at - 1) == homework.UPCOMING
    assert homework.status(assignment, opens_at) == homework.OPEN
    assert homework.status(assignment, _utc("2027-03-28T21:30:00")) == homework.OPEN  # 23:30 summer time
    assert homework.status(assignment, due_at - 1) == homework.OPEN
    assert homework.status(assignment, due_at) == homework.CLOSED  # 00:00 on the 29th in Berlin
    assert homework.today("Europe/Berlin", _utc("2027-03-28T22:30:00")) == date(2027, 3, 29)


def test_a_teacher_in_another_zone_sets_days_of_her_own_calendar(app):
    teacher = teacher_client(app)
    make_class(teacher, names="Anna")
    class_id, _students = class_ids(app)
    with app.app_context():
        row = Teacher.query.one()
        row.time_zone = "Pacific/Auckland"
        db.session.commit()
    made = assign(teacher, class_id, opens=_day(0, "Pacific/Auckland"), due=_day(1, "Pacific/Auckland"))
    assert made["time_zone"] == "Pacific/Auckland" and made["status"] == "open"
    with app.app_context():
        stored = Assignment.query.one()
        start_day = date.fromisoformat(stored.opens_on)
        assert stored.opens_at == homework.midnight(start_day, "Pacific/Auckland")
        assert datetime.fromtimestamp(stored.due_at, homework.ZoneInfo("Pacific/Auckland")).time().hour == 0


@pytest.mark.parametrize("spec, code", [
    ({"due": "2020-01-01"}, "due-passed"),
    ({"due": "2027-02-30"}, "bad-date"),
    ({"due": "31/12/2027"}, None),
    ({"opens": "2099-01-05", "due": "2099-01-04"}, "due-before-opening"),
    ({"due": "2099-01-04", "deck": "standard-52", "options": {"name_the_work": True}}, None),
])
def test_a_bad_assignment_gets_a_sentence(app, spec, code):
    teacher, class_id, _students = _class(app)
    response = teacher.post(f"/api/classes/{class_id}/assignments", json={"rules": "standard", **spec})
    assert response.status_code == 400, response.get_json()
    error = error_of(response)
    assert error["message"] and "Traceback" not in error["message"]
    if code:
        assert error["code"] == code
    with app.app_context():
        assert Assignment.query.count() == 0


def test_another_teachers_homework_and_class_are_not_found(app):
    teacher, class_id, _students = _class(app)
    made = assign(teacher, class_id)
    other = teacher_client(app, name="Mr Other")
    assert other.get(f"/api/assignments/{made['id']}").status_code == 404
    assert other.get(f"/homework/{made['id']}").status_code == 404
    assert other.post(f"/api/classes/{class_id}/assignments", json={"due": _day(3)}).status_code == 404
    assert other.get(f"/homework/{made['id']}/qr.svg").status_code == 404


def test_the_assignments_qr_code_is_its_link_on_the_public_address(app):
    from app.services.qr import qr_svg

    app.config["PUBLIC_URL"] = "http://192.168.1.20:5000"
    teacher, class_id, _students = _class(app)
    made = assign(teacher, class_id)
    assert made["link"] == f"http://192.168.1.20:5000/h/{made['code']}"
    qr = teacher.get(f"/homework/{made['id']}/qr.svg")
    assert qr.mimetype == "image/svg+xml" and qr.get_data(as_text=True) == qr_svg(made["link"])
    again = teacher.get(f"/homework/{made['id']}/qr.svg", headers={"If-None-Match": qr.headers["ETag"]})
    assert again.status_code == 304


# ----------------------------------------------------------------------------------------------------
# The student: the link, her name, her game
# ----------------------------------------------------------------------------------------------------
@pytest.mark.database
def test_a_student_taps_her_name_and_plays_alone_against_computers_at_a_quick_pace(play_app):
    teacher, class_id, students = _class(play_app)
    made = assign(teacher, class_id, computers=3, bot="expert")
    anna = play_app.test_client()
    page = anna.get(f"/h/{made['code']}").get_data(as_text=True)
    assert "Anna" in page and "Boris" in page
    response = anna.post(f"/h/{made['code']}", data={"student": students["Anna"]})
    assert response.status_code == 303 and "/play" in response.headers["Location"]
    code = response.headers["Location"].split("/t/")[1].split("/")[0]
    state = get_state(anna, code)
    assert state["status"] == "playing" and state["you"]["name"] == "Anna"
    assert state["seats"][0]["name"] == "Anna" and len(state["seats"]) == 4
    with play_app.app_context():
        table = Table.query.filter_by(code=code).one()
        assert table.assignment_id == made["id"] and table.pace_seconds == 1.0 and table.locked
        assert [s.bot for s in table.seats[1:]] == ["expert"] * 3
        assert table.options.name_the_work and table.options.review_deals
    # Her homework game is not one of the teacher's class tables.
    assert teacher.get("/api/tables").get_json()["tables"] == []
    # The play page leads back to her homework page.
    assert f'data-homework="/h/{made["code"]}' in anna.get(f"/t/{code}/play").get_data(as_text=True)


@pytest.mark.database
def test_her_game_is_kept_across_a_closed_browser_and_a_second_device_at_once_is_told(play_app):
    teacher, class_id, students = _class(play_app)
    made = assign(teacher, class_id)
    phone = play_app.test_client()
    first = start(phone, made["code"], students["Anna"]).get_json()
    hand = get_state(phone, first["table"])["game"]["hand"]
    # The same browser, later: the same game and the same cards.
    again = start(phone, made["code"], students["Anna"]).get_json()
    assert (again["table"], again["resumed"]) == (first["table"], True)
    assert get_state(phone, again["table"])["game"]["hand"] == hand
    # Another device while the phone's screen is open: told, and nothing is lost.
    laptop = play_app.test_client()
    refused = start(laptop, made["code"], students["Anna"])
    assert refused.status_code == 409 and error_of(refused)["code"] == "open-elsewhere"
    assert "another device" in error_of(refused)["message"]
    assert get_state(phone, first["table"])["game"]["hand"] == hand
    # The phone closed a minute ago: the laptop goes on with the same game, the same cards.
    with play_app.app_context():
        seat = Seat.query.join(Table).filter(Table.code == first["table"], Seat.position == 0).one()
        seat.seen_at = time.time() - 60
        db.session.commit()
    taken = start(laptop, made["code"], students["Anna"]).get_json()
    assert (taken["table"], taken["resumed"]) == (first["table"], True)
    assert get_state(laptop, taken["table"])["game"]["hand"] == hand
    # The page of the link remembers her in this browser.
    page = laptop.get(f"/h/{made['code']}").get_data(as_text=True)
    assert "Hello, Anna!" in page and "Go on with your game" in page


@pytest.mark.database
def test_a_closed_or_unopened_link_plays_nothing_and_says_so(play_app):
    teacher, class_id, students = _class(play_app)
    made = assign(teacher, class_id, opens=_day(2), due=_day(4))
    anna = play_app.test_client()
    refused = start(anna, made["code"], students["Anna"])
    assert refused.status_code == 409 and error_of(refused)["code"] == "homework-not-open"
    assert "opens on" in error_of(refused)["message"]
    with play_app.app_context():
        row = db.session.get(Assignment, made["id"])
        row.opens_at, row.due_at = time.time() - 3 * DAY, time.time() - 1
        db.session.commit()
    refused = start(anna, made["code"], students["Anna"])
    assert refused.status_code == 409 and error_of(refused)["code"] == "homework-closed"
    page = anna.get(f"/h/{made['code']}").get_data(as_text=True)
    assert "closed at the end of" in page and 'name="student"' not in page
    with play_app.app_context():
        assert Table.query.filter(Table.assignment_id.isnot(None)).count() == 0


@pytest.mark.database
def test_only_the_classes_roster_with_its_word_can_start(play_app):
    teacher, class_id, students = _class(play_app, word=True)
    made = assign(teacher, class_id)
    make_class(teacher, name="8C", names="Zoe")
    with play_app.app_context():
        from app.models import RosterStudent, SchoolClass

        word = db.session.get(SchoolClass, class_id).word
        zoe = RosterStudent.query.filter_by(name="Zoe").one().id
    anna = play_app.test_client()
    assert error_of(start(anna, made["code"], students["Anna"]))["code"] == "class-word-missing"
    assert error_of(start(anna, made["code"], students["Anna"], "WXYZ" if word != "WXYZ" else "ACEF"))["code"] == \
        "wrong-class-word"
    assert error_of(start(anna, made["code"], zoe, word))["code"] == "unknown-student"
    assert anna.post(f"/api/homework/{made['code']}", json={"student": "Anna"}).status_code == 400
    assert start(anna, made["code"], students["Anna"], word.lower()).status_code == 200
    assert anna.get("/h/NOSUCH").status_code == 404
    # Her browser proved the word for her: her next game does not ask it again (the page has no field),
    # but the same browser picking another name does.
    assert 'id="class-word"' not in anna.get(f"/h/{made['code']}").get_data(as_text=True)
    assert start(anna, made["code"], students["Anna"]).status_code == 200
    assert error_of(start(anna, made["code"], students["Boris"]))["code"] == "class-word-missing"
    assert 'id="class-word"' in anna.get(f"/h/{made['code']}?pick=1").get_data(as_text=True)


# ----------------------------------------------------------------------------------------------------
# Missed works come back in her homework game; the teacher sees who has done how much
# ----------------------------------------------------------------------------------------------------
@pytest.mark.database
def test_a_work_missed_in_class_is_in_a_computers_hand_in_her_next_homework_game(play_app):
    teacher, anna, code, anna_id = class_table(play_app, review_deals=True)
    missed = answer_first_prompt(play_app, anna, code, right=False)
    class_id, _students = class_ids(play_app)
    made = assign(teacher, class_id)
    with play_app.app_context():  # a quarter of an hour later: FSRS's first learning step has passed
        stored = db.session.get(ReviewCard, (anna_id, "authors-1861", missed))
        stored.due = time.time() - 1
        db.session.commit()
    home = play_app.test_client()
    game = start(home, made["code"], anna_id).get_json()
    with play_app.app_context():
        hands = json.loads(Table.query.filter_by(code=game["table"]).one().deals[0].header_json)["hands"]
    holder = next(name for name, cards in hands.items() if missed in cards)
    assert holder != "Anna", hands  # the record of the deal shows it in a computer's hand
    assert any(SET_OF[c] == SET_OF[missed] for c in hands["Anna"])  # and she can ask for it


@pytest.mark.database
def test_a_work_named_right_does_not_come_back_before_its_date(play_app):
    from app.engine.game import Game
    from app.store import deck_by_ref

    teacher, anna, code, anna_id = class_table(play_app, review_deals=True)
    named = answer_first_prompt(play_app, anna, code, right=True)
    class_id, _students = class_ids(play_app)
    made = assign(teacher, class_id)
    game = start(play_app.test_client(), made["code"], anna_id).get_json()
    with play_app.app_context():
        assert db.session.get(ReviewCard, (anna_id, "authors-1861", named)).due > time.time() + 60
        table = Table.query.filter_by(code=game["table"]).one()
        header = json.loads(table.deals[0].header_json)
        # Nothing was due: the deal is the one its seed gives, nothing moved.
        plain = Game(deck_by_ref(table.deck_id), table.options, [s.name for s in table.seats],
                     dealer=header["dealer"], seed=deals._deal_seed(table, 1), rules=table.rules)  # (DEAL_SEED fixed)
        assert header["hands"] == {name: list(cards) for name, cards in plain.initial_hands.items()}


def _play_to_the_end(app, client, code, limit=3000):
    rng = random.Random(3)
    for _ in range(limit):
        state = get_state(client, code)
        if state["status"] != "playing":
            return state
        game = state["game"]
        if game["turn"] != state["you"]["name"] and not game["prompts"]:
            tick(app, time.time() + 5)
            continue
        if game["prompts"]:
            response = client.post(f"/api/tables/{code}/moves", json={"move": {"answer": "Hamlet"}})
        else:
            response = client.post(f"/api/tables/{code}/moves", json={"move": choose_move(state, deck_of(client, code), rng)})
        assert response.status_code in (200, 409), response.get_json()
    raise AssertionError("the game did not end")


@pytest.mark.database
def test_a_finished_game_counts_and_her_page_says_what_comes_back_when(play_app):
    teacher, class_id, students = _class(play_app)
    made = assign(teacher, class_id, games=2, computers=2, bot="random")
    anna = play_app.test_client()
    game = start(anna, made["code"], students["Anna"]).get_json()
    assert _play_to_the_end(play_app, anna, game["table"])["status"] == "finished"
    progress = teacher.get(f"/api/assignments/{made['id']}").get_json()["progress"]
    assert {p["name"]: (p["done"], p["wanted"], p["playing"]) for p in progress} == {
        "Anna": (1, 2, False), "Boris": (0, 2, False)}
    me = anna.get(f"/api/homework/{made['code']}").get_json()["me"]
    assert (me["games_done"], me["games_wanted"]) == (1, 2)
    with play_app.app_context():
        schedule = {c.card_id: c.due for c in ReviewCard.query.filter_by(student_id=students["Anna"])}
    assert {n["card"] for n in me["named"]} == set(schedule) and schedule  # every work she named, and when
    assert all(n["again"].startswith("again") for n in me["named"])
    assert me["nudge"]
    page = anna.get(f"/h/{made['code']}").get_data(as_text=True)
    assert "What you named in your last game" in page and "1 game of 2 done" in page
    teacher_page = teacher.get(f"/homework/{made['id']}").get_data(as_text=True)
    assert "1 of 2" in teacher_page and made["link"] in teacher_page
    # A second game is a new deal at a new table.
    second = start(anna, made["code"], students["Anna"]).get_json()
    assert second["table"] != game["table"] and not second["resumed"]


@pytest.mark.database
def test_around_midnight_on_the_due_date_in_the_teachers_zone_the_last_minutes_count(play_app):
    teacher, class_id, students = _class(play_app)
    with play_app.app_context():
        row = Teacher.query.one()
        row.time_zone = "Europe/Berlin"
        db.session.commit()
    made = assign(teacher, class_id, opens=_day(0, "Europe/Berlin"), due=_day(5, "Europe/Berlin"))
    with play_app.app_context():
        assignment = db.session.get(Assignment, made["id"])
        # Move the days to the week summer time starts in Berlin (Sunday 2027-03-28, a 23-hour day).
        assignment.opens_at, assignment.due_at = homework.window(date(2027, 3, 22), date(2027, 3, 28), "Europe/Berlin")
        assignment.opens_on, assignment.due_on = "2027-03-22", "2027-03-28"
        db.session.commit()
        late = _utc("2027-03-28T21:59:00")  # 23:59 in Berlin (summer time), the due date
        started = homework.start(assignment, students["Anna"], now=late)
        assert not started.resumed
        after = _utc("2027-03-28T22:00:00")  # 00:00 on the 29th in Berlin
        with pytest.raises(homework.Conflict) as refused:
            homework.start(assignment, students["Boris"], now=after)
        assert refused.value.code == "homework-closed"
        with pytest.raises(homework.Conflict) as early:
            homework.start(assignment, students["Boris"], now=_utc("2027-03-21T22:59:00"))  # 23:59 on the 21st
        assert early.value.code == "homework-not-open"
        assert homework.start(assignment, students["Boris"], now=_utc("2027-03-21T23:00:00")).table_code


def test_the_pages_say_the_days_in_the_readers_words(app):
    from babel.dates import format_date

    teacher, class_id, _students = _class(app)
    due = _day(30)
    made = assign(teacher, class_id, due=due)
    day = date.fromisoformat(due)
    student_page = app.test_client().get(f"/h/{made['code']}?lang=fr").get_data(as_text=True)
    assert format_date(day, "medium", locale="fr") in student_page and due not in student_page
    english = format_date(day, "medium", locale="en")  # "Mar 4, 2027"
    assert english in teacher.get(f"/homework/{made['id']}").get_data(as_text=True)
    assert english in teacher.get(f"/classes/{class_id}").get_data(as_text=True)


@pytest.mark.database
def test_quartett_homework_against_one_computer_keeps_a_talon_and_deals_her_missed_work_back(play_app):
    from app.decks import get_deck
    from app.services import reviews

    teacher, class_id, students = _class(play_app)
    made = assign(teacher, class_id, rules="quartett", deck="german-writers", computers=1)
    anna_id = students["Anna"]
    card = get_deck("german-writers").sets[2].cards[0].id  # a work of Schiller's
    missed_at = time.time() - 3600
    with play_app.app_context():  # she named it wrong an hour ago: due now
        schedule = reviews.replayed([(missed_at, 1)])
        db.session.add(ReviewCard(student_id=anna_id, deck_key="german-writers", card_id=card,
                                  due=schedule.due.timestamp(), last_review=missed_at, reviews=1, lapses=1,
                                  state_json=json.dumps(schedule.to_dict())))
        db.session.commit()
    game = start(play_app.test_client(), made["code"], anna_id).get_json()
    with play_app.app_context():
        header = json.loads(Table.query.filter_by(code=game["table"]).one().deals[0].header_json)
    hands, stock = header["hands"], header.get("stock") or []
    assert len(hands["Anna"]) == 10 and len(stock) == 32 - 20  # two players: ten each, the rest the talon
    holder = next(name for name, cards in hands.items() if card in cards)
    assert holder != "Anna", hands  # her due work is in the computer's hand
