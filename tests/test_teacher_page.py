"""The teacher's page runs the period (issue #33): the turn timer set, changed or switched off mid-game
(POST /api/tables/<code>/timer), a table whose turn waits on an away student, or on a seat no device holds,
flagged for the teacher (`away_turn`, on her table's state and on the overview) with the one button that
lets a computer play, "Pause all", and the phone of a student whose seat went to a computer player told
so (`seat_lost`), never anything of another seat's."""
from __future__ import annotations

import pytest

from app.models import Table
from app.store import presence

from .test_presence import poll, seen_back
from .web_support import error_of, for_play, get_state, open_table, seat_student, teacher_client

pytestmark = pytest.mark.database

TWO_STUDENTS_AND_A_COMPUTER = [{"kind": "human"}, {"kind": "human"}, {"kind": "computer"}]


def started(app, **options):
    app = for_play(app)
    teacher = teacher_client(app)
    code = open_table(teacher, seats=TWO_STUDENTS_AND_A_COMPUTER, options=options)
    cara = seat_student(app, code, "Cara")
    dan = seat_student(app, code, "Dan")
    assert teacher.post(f"/api/tables/{code}/start").status_code == 200
    return app, teacher, code, cara, dan


def turn_seconds(app, code):
    with app.app_context():
        return Table.query.filter_by(code=code).one().options.turn_seconds


# ----------------------------------------------------------------------------------------------------
# The turn timer, mid-game
# ----------------------------------------------------------------------------------------------------
def test_the_teacher_sets_changes_and_switches_off_the_timer_mid_game(app):
    app, teacher, code, cara, _dan = started(app)
    assert turn_seconds(app, code) is None
    before = get_state(teacher, code)["version"]
    answer = teacher.post(f"/api/tables/{code}/timer", json={"seconds": 60})
    assert answer.status_code == 200, answer.get_json()
    state = answer.get_json()
    assert state["options"]["turn_seconds"] == 60 and state["version"] > before
    assert turn_seconds(app, code) == 60
    # every screen is told (a new version), and the student to move gets a deadline of the new time, from now
    student = get_state(cara, code)
    assert student["options"]["turn_seconds"] == 60
    if student["game"]["turn"] in ("Cara", "Dan"):
        assert student["turn_deadline"] is not None
    assert teacher.post(f"/api/tables/{code}/timer", json={"seconds": 30}).get_json()["options"]["turn_seconds"] == 30
    off = teacher.post(f"/api/tables/{code}/timer", json={"seconds": None}).get_json()
    assert off["options"]["turn_seconds"] is None and off["turn_deadline"] is None
    assert "turn_seconds" not in off["overrides"]


def test_the_timer_can_be_set_in_the_lobby_and_kept_by_the_first_hand(app):
    app = for_play(app)
    teacher = teacher_client(app)
    code = open_table(teacher, seats=TWO_STUDENTS_AND_A_COMPUTER)
    assert teacher.post(f"/api/tables/{code}/timer", json={"seconds": 45}).status_code == 200
    assert turn_seconds(app, code) == 45


@pytest.mark.parametrize("body, words", [
    ({"seconds": 5}, "between 10 and 600"),
    ({"seconds": 601}, "between 10 and 600"),
    ({"seconds": True}, "whole number"),
    ({"seconds": "soon"}, "whole number"),
    ({"seconds": 12.5}, "whole number"),
    ({}, "missing"),
    ({"seconds": 60, "minutes": 1}, 'unknown field "minutes"'),
])
def test_a_wrong_timer_is_a_400_with_a_sentence(app, body, words):
    app, teacher, code, _cara, _dan = started(app)
    answer = teacher.post(f"/api/tables/{code}/timer", json=body)
    assert answer.status_code == 400
    assert words in error_of(answer)["message"]
    assert turn_seconds(app, code) is None


def test_a_timer_without_a_json_body_is_a_400(app):
    app, teacher, code, _cara, _dan = started(app)
    answer = teacher.post(f"/api/tables/{code}/timer", data="60", content_type="text/plain")
    assert answer.status_code == 400 and error_of(answer)["message"]


def test_only_the_tables_teacher_sets_its_timer(app):
    app, _teacher, code, cara, _dan = started(app)
    assert cara.post(f"/api/tables/{code}/timer", json={"seconds": 60}).status_code in (401, 403)
    other = teacher_client(app, "Mr Other")
    answer = other.post(f"/api/tables/{code}/timer", json={"seconds": 60})
    assert answer.status_code == 403 and error_of(answer)["message"]
    assert turn_seconds(app, code) is None


def test_a_closed_tables_timer_is_a_409_with_a_sentence(app):
    app, teacher, code, _cara, _dan = started(app)
    assert teacher.post(f"/api/tables/{code}/close").status_code == 200
    answer = teacher.post(f"/api/tables/{code}/timer", json={"seconds": 60})
    assert answer.status_code == 409 and "over" in error_of(answer)["message"]


def test_the_timer_refusal_is_said_in_the_tables_language(app):
    app = for_play(app)
    teacher = teacher_client(app)
    code = open_table(teacher, seats=TWO_STUDENTS_AND_A_COMPUTER, language="fr")
    answer = teacher.post(f"/api/tables/{code}/timer", json={"seconds": 5})
    assert answer.status_code == 400
    message = error_of(answer)["message"]
    assert "10" in message and "600" in message and "temps pour un coup" in message


# ----------------------------------------------------------------------------------------------------
# A turn that waits on an away student
# ----------------------------------------------------------------------------------------------------
def away_turn_case(app):
    """A started table where it is a student's turn, and that student's screen has been away 2 minutes."""
    app, teacher, code, cara, dan = started(app)
    turn = get_state(teacher, code)["game"]["turn"]
    assert turn in ("Cara", "Dan"), "the fixed deal seed (for_play) gives a student the first turn"
    seen_back(app, code, turn, 2 * 60 + 5)
    return app, teacher, code, turn


def test_the_teachers_state_flags_a_turn_waiting_on_an_away_student(app):
    app, teacher, code, turn = away_turn_case(app)
    state = poll(teacher, code).get_json()
    flagged = state["away_turn"]
    assert flagged["name"] == turn and flagged["away_seconds"] >= 120
    assert state["seats"][flagged["position"]]["name"] == turn
    # the one button: a computer plays for her until she is back; then the table no longer waits on her
    answer = teacher.post(f"/api/tables/{code}/seats/{flagged['position']}/stand-in")
    assert answer.status_code == 200
    assert answer.get_json()["away_turn"] is None


def test_a_paused_table_is_not_flagged_as_waiting(app):
    app, teacher, code, _turn = away_turn_case(app)
    state = teacher.post(f"/api/tables/{code}/pause", json={"paused": True}).get_json()
    assert state["away_turn"] is None


def test_the_overview_flags_the_table_and_redraws_when_she_goes_away(app):
    app = for_play(app)
    teacher = teacher_client(app)
    code = open_table(teacher, seats=TWO_STUDENTS_AND_A_COMPUTER)
    seat_student(app, code, "Cara")
    seat_student(app, code, "Dan")
    teacher.post(f"/api/tables/{code}/start")
    first = teacher.get("/api/tables")
    row = next(t for t in first.get_json()["tables"] if t["code"] == code)
    assert row["turn"] in ("Cara", "Dan"), "the fixed deal seed (for_play) gives a student the first turn"
    assert row["away_turn"] is None
    etag = first.headers["ETag"]
    assert teacher.get("/api/tables", headers={"If-None-Match": etag}).status_code == 304
    seen_back(app, code, row["turn"], presence.AWAY_AFTER + 5)
    again = teacher.get("/api/tables", headers={"If-None-Match": etag})
    assert again.status_code == 200  # presence changes no version: the overview's ETag carries it
    row = next(t for t in again.get_json()["tables"] if t["code"] == code)
    assert row["away_turn"]["name"] == row["turn"]


def test_students_are_never_sent_the_away_flag(app):
    app, _teacher, code, turn = away_turn_case(app)
    student = app.test_client()
    assert "away_turn" not in get_state(student, code)


# ----------------------------------------------------------------------------------------------------
# A turn that waits on a seat no device holds
# ----------------------------------------------------------------------------------------------------
def empty_turn_case(app):
    """A started table where it is a student's turn, and the teacher disconnected that student's device:
    nobody holds her seat."""
    app, teacher, code, cara, dan = started(app)
    turn = get_state(teacher, code)["game"]["turn"]
    assert turn in ("Cara", "Dan"), "the fixed deal seed (for_play) gives a student the first turn"
    position = next(s["position"] for s in get_state(teacher, code)["seats"] if s["name"] == turn)
    assert get_state(teacher, code)["away_turn"] is None  # her screen is here: nothing to flag yet
    assert teacher.delete(f"/api/tables/{code}/seats/{position}").status_code == 200
    return app, teacher, code, turn, position, {"Cara": cara, "Dan": dan}[turn]


def test_a_turn_waiting_on_a_seat_no_device_holds_is_flagged(app):
    app, teacher, code, turn, position, _phone = empty_turn_case(app)
    state = get_state(teacher, code)
    seat = state["seats"][position]
    assert seat["vacant"] and seat["device"] is False and seat["name"] == turn
    assert state["away_turn"] == {"position": position, "name": turn, "away_seconds": None, "empty": True}
    row = next(t for t in teacher.get("/api/tables").get_json()["tables"] if t["code"] == code)
    assert row["away_turn"] == state["away_turn"]  # the overview flags it too
    paused = teacher.post(f"/api/tables/{code}/pause", json={"paused": True}).get_json()
    assert paused["away_turn"] is None  # paused: nobody is waited for


def test_the_one_button_lets_a_computer_play_the_empty_seat_until_she_is_let_back_in(app):
    app, teacher, code, turn, position, phone = empty_turn_case(app)
    answer = teacher.post(f"/api/tables/{code}/seats/{position}/stand-in")
    assert answer.status_code == 200, answer.get_json()
    state = answer.get_json()
    assert state["away_turn"] is None
    seat = state["seats"][position]
    assert seat["stand_in"] and seat["kind"] == "computer" and seat["name"] == turn and seat["device"] is False
    again = teacher.post(f"/api/tables/{code}/seats/{position}/stand-in")
    assert again.status_code == 409 and error_of(again)["code"] == "already-stand-in"
    # the seat is kept for her: a new student cannot take it, she asks for it back and the teacher decides
    stranger = app.test_client().post(f"/api/tables/{code}/join", json={"name": "Eve"})
    assert stranger.status_code == 409 and error_of(stranger)["code"] == "table-full"
    asked = phone.post(f"/api/tables/{code}/join", json={"name": turn})
    assert asked.status_code == 202, asked.get_json()
    assert teacher.post(f"/api/tables/{code}/seats/{position}/let-in").status_code == 200
    assert phone.get(f"/api/tables/{code}/ask").get_json()["asking"]["status"] == "let-in"
    assert get_state(phone, code)["you"] == {"position": position, "name": turn}
    seat = get_state(teacher, code)["seats"][position]
    assert (seat["kind"], seat["stand_in"], seat["device"]) == ("human", False, True)  # the computer stopped


def test_a_computer_stands_in_for_no_seat_that_is_not_a_students(app):
    app, teacher, code, _cara, _dan = started(app)
    computer = next(s["position"] for s in get_state(teacher, code)["seats"] if s["kind"] == "computer")
    answer = teacher.post(f"/api/tables/{code}/seats/{computer}/stand-in")
    assert answer.status_code == 409 and error_of(answer)["code"] == "seat-empty" and error_of(answer)["message"]


# ----------------------------------------------------------------------------------------------------
# Pause all
# ----------------------------------------------------------------------------------------------------
def test_pause_all_pauses_and_resumes_every_table_of_the_teacher(app):
    app = for_play(app)
    teacher = teacher_client(app)
    codes = [open_table(teacher, seats=TWO_STUDENTS_AND_A_COMPUTER) for _ in range(2)]
    other = teacher_client(app, "Mr Other")
    theirs = open_table(other, seats=TWO_STUDENTS_AND_A_COMPUTER)
    answer = teacher.post("/api/tables/pause", json={"paused": True})
    assert answer.get_json() == {"paused": True, "changed": 2}
    listed = teacher.get("/api/tables").get_json()["tables"]
    assert all(t["paused"] for t in listed) and {t["code"] for t in listed} == set(codes)
    assert not get_state(other, theirs)["paused"]
    assert teacher.post("/api/tables/pause", json={"paused": False}).get_json()["changed"] == 2
    assert error_of(teacher.post("/api/tables/pause", json={"paused": "yes"}))["message"]


# ----------------------------------------------------------------------------------------------------
# Her phone is told
# ----------------------------------------------------------------------------------------------------
def test_her_phone_is_told_when_her_seat_goes_to_a_computer(app):
    app, teacher, code, cara, dan = started(app)
    assert get_state(cara, code)["you"]["name"] == "Cara"
    assert get_state(cara, code)["seat_lost"] is None
    answer = teacher.patch(f"/api/tables/{code}/seats/0", json={"kind": "computer", "bot": "random"})
    assert answer.status_code == 200
    told = get_state(cara, code)
    assert told["you"] is None
    assert told["seat_lost"] == "Your teacher gave your seat to a computer player. Ask your teacher what to do."
    assert told["game"] is not None and "hand" not in told["game"]  # the public view: nobody's cards
    assert get_state(dan, code)["seat_lost"] is None  # the others are not told anything


def test_her_phone_is_told_in_the_tables_language(app):
    app = for_play(app)
    teacher = teacher_client(app)
    code = open_table(teacher, seats=TWO_STUDENTS_AND_A_COMPUTER, language="ru")
    cara = seat_student(app, code, "Cara")
    seat_student(app, code, "Dan")
    teacher.patch(f"/api/tables/{code}/seats/0", json={"kind": "computer", "bot": "random"})
    assert get_state(cara, code)["seat_lost"] == "Учитель отдал твоё место компьютеру. Спроси учителя, что делать."


def test_her_phone_is_told_when_she_is_taken_off_for_the_match(app):
    app, teacher, code, cara, _dan = started(app)
    assert teacher.delete(f"/api/tables/{code}/seats/0?for_good=1").status_code == 200
    assert "taken you off" in get_state(cara, code)["seat_lost"]


def test_a_phone_that_never_held_the_seat_is_told_nothing(app):
    app, teacher, code, _cara, _dan = started(app)
    teacher.patch(f"/api/tables/{code}/seats/0", json={"kind": "computer", "bot": "random"})
    assert get_state(app.test_client(), code)["seat_lost"] is None
    assert get_state(teacher, code)["seat_lost"] is None
