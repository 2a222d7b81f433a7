"""The teacher in control: a paused table takes no move, from students or computer players, until it is
resumed, and every screen's state says so; a locked table refuses new joins with a sentence while its
students keep their seats; one request pauses all of a teacher's tables."""
from __future__ import annotations

from .web_support import error_of, for_play, get_state, open_table, seat_student, teacher_client, tick


def started(app, seats=None):
    teacher = teacher_client(app)
    code = open_table(teacher, seats=seats or [{"kind": "human"}, {"kind": "computer"}, {"kind": "computer"}])
    anna = seat_student(app, code, "Anna")
    assert teacher.post(f"/api/tables/{code}/start").status_code == 200
    return teacher, anna, code


def test_a_paused_table_takes_no_move_until_it_is_resumed(app):
    for_play(app)
    teacher, anna, code = started(app)
    state = get_state(anna, code)
    assert state["game"]["turn"] == "Anna" and state["paused"] is False
    assert teacher.post(f"/api/tables/{code}/pause", json={"paused": True}).status_code == 200
    for client in (anna, teacher, app.test_client()):
        assert get_state(client, code)["paused"] is True  # every screen says so
    ask = {"ask": state["game"]["asks"]["targets"][0], "set": state["game"]["asks"]["sets"][0]}
    refused = anna.post(f"/api/tables/{code}/moves", json={"move": ask})
    assert refused.status_code == 409 and error_of(refused)["code"] == "paused"
    assert "paused" in error_of(refused)["message"]
    assert teacher.post(f"/api/tables/{code}/pause", json={"paused": False}).status_code == 200
    assert anna.post(f"/api/tables/{code}/moves", json={"move": ask}).status_code == 200


def test_computer_players_wait_while_the_table_is_paused(app):
    for_play(app)  # no pace: unpaused, the computers would play within the very request that starts
    teacher = teacher_client(app)
    code = open_table(teacher, seats=[{"kind": "computer"}, {"kind": "human"}, {"kind": "computer"}])
    seat_student(app, code, "Anna")
    teacher.post(f"/api/tables/{code}/pause", json={"paused": True})
    teacher.post(f"/api/tables/{code}/start")
    state = get_state(teacher, code)
    assert state["game"]["turn"] == state["seats"][0]["name"]  # the first computer is to ask, and waits
    for _ in range(3):
        tick(app)
        assert get_state(teacher, code)["version"] == state["version"]  # the clock lets no computer move
    teacher.post(f"/api/tables/{code}/pause", json={"paused": False})
    tick(app)
    assert get_state(teacher, code)["version"] > state["version"] + 1  # resumed: the computers play on


def test_a_locked_table_refuses_new_joins_but_keeps_its_students(app):
    teacher = teacher_client(app)
    code = open_table(teacher)
    anna = seat_student(app, code, "Anna")
    assert teacher.post(f"/api/tables/{code}/lock", json={"locked": True}).get_json()["locked"] is True
    late = app.test_client().post(f"/api/tables/{code}/join", json={"name": "Zoe"})
    assert late.status_code == 409 and error_of(late)["code"] == "table-locked"
    assert "locked" in error_of(late)["message"]
    again = anna.post(f"/api/tables/{code}/join", json={"name": "Anna"})
    assert again.status_code == 200 and again.get_json()["rejoined"] is True
    page = app.test_client().post("/join", data={"code": code, "name": "Zoe"})
    assert page.status_code == 409 and "locked" in page.get_data(as_text=True)
    teacher.post(f"/api/tables/{code}/lock", json={"locked": False})
    assert app.test_client().post(f"/api/tables/{code}/join", json={"name": "Zoe"}).status_code == 201


def test_only_the_teacher_pauses_or_locks_and_the_body_is_checked(app):
    teacher, anna, code = started(app)
    for url, body in ((f"/api/tables/{code}/pause", {"paused": True}), (f"/api/tables/{code}/lock", {"locked": True})):
        refused = anna.post(url, json=body)
        assert refused.status_code == 403 and error_of(refused)["code"] == "not-teacher"
        assert teacher.post(url, json={"paused": "yes", "locked": "yes"}).status_code == 400


def test_one_request_pauses_every_table_of_the_teacher(app):
    teacher = teacher_client(app)
    codes = [open_table(teacher) for _ in range(3)]
    answer = teacher.post("/api/tables/pause", json={"paused": True}).get_json()
    assert answer == {"paused": True, "changed": 3}
    assert all(get_state(teacher, code)["paused"] for code in codes)
    assert teacher.post("/api/tables/pause", json={"paused": False}).get_json()["changed"] == 3
    other = teacher_client(app, "Mr Other")
    assert other.post("/api/tables/pause", json={"paused": True}).get_json()["changed"] == 0
