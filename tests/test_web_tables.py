"""Tables: opening, joining, the teacher's controls, the pages around a table."""
from __future__ import annotations

import re

import pytest

from app.models import Seat, Table
from app.services import accounts
from app.store.codes import CODE_ALPHABET, is_valid_code, normalize_code

from .web_support import error_of, get_state, open_table, seat_student, teacher_client



# A new table with the bonus forgives typos, keeps the bonus apart and, with card asks, names the work in
# the ask (issue 17: the app's defaults, not the engine's).
NEW_TABLE_BONUS = {"answers": "typos", "bonus_in_score": False, "named_asks": True}


# ----------------------------------------------------------------------------------------------------
# Opening a table
# ----------------------------------------------------------------------------------------------------
def test_open_a_table_gives_a_code_without_look_alikes_and_a_join_link(play_app):
    teacher = teacher_client(play_app)
    response = teacher.post("/api/tables", json={"rules": "classic", "deck": "authors-1861",
                                                  "options": {"name_the_work": True},
                                                  "seats": [{"kind": "human"}, {"kind": "computer", "bot": "random"}],
                                                  "match": {"format": "target", "value": 10}})
    assert response.status_code == 201
    state = response.get_json()
    code = state["code"]
    assert is_valid_code(code) and not set(code) & set("0O1IL2Z5S8BUVDQGJ")
    assert state["join_url"].endswith(f"/j/{code}")
    assert state["teacher"] is True and state["status"] == "lobby"
    assert state["options"]["name_the_work"] is True and state["overrides"] == {"name_the_work": True, **NEW_TABLE_BONUS}
    assert state["match"]["format"] == "target" and state["match"]["value"] == 10
    assert [s["kind"] for s in state["seats"]] == ["human", "computer"]
    assert state["seats"][1]["name"] == "Computer 1" and state["seats"][0]["name"] is None
    with play_app.app_context():
        table = Table.query.filter_by(code=code).one()
        assert table.teacher_id == accounts.find_by_name("Ms Teacher").id  # the teacher's account owns it


def test_codes_are_typed_forgivingly():
    assert normalize_code(" ace-479 ") == "ACE479"
    assert all(ch in CODE_ALPHABET for ch in "ACE479")


@pytest.mark.parametrize("spec, message", [
    ({"rules": "poker", "seats": [{}]}, "unknown rules"),
    ({"deck": "no-such-deck", "seats": [{}, {}, {}]}, "unknown deck"),
    ({"options": {"teleport": True}, "seats": [{}, {}, {}]}, 'unknown option "teleport"'),
    ({"options": {"stock": "maybe"}, "seats": [{}, {}, {}]}, "true or false"),
    ({"options": ["stock"], "seats": [{}, {}, {}]}, '"options" is an object'),
    ({"seats": []}, '"seats" is a list'),
    ({"seats": [{}, {}]}, "3 to 6 players"),
    ({"rules": "literature", "seats": [{}] * 7}, "even number of players"),
    ({"seats": [{"kind": "dragon"}, {}, {}]}, 'kind is "human" or "computer"'),
    ({"seats": [{"kind": "computer", "bot": "genius"}, {}, {}]}, 'unknown computer player "genius"'),
    ({"seats": [{"kind": "human", "here": True}, {}, {}]}, "needs a name"),
    ({"seats": [{"kind": "human", "here": True, "name": "Anna"}, {"kind": "computer", "name": "anna"}, {}]},
     "given twice"),
    ({"seats": [{}, {}, {}], "match": {"format": "hands", "value": 0}}, "between 1 and 20"),
    ({"seats": [{}, {}, {}], "match": {"format": "target", "value": "ten"}}, "whole number"),
    ({"seats": [{}, {}, {}], "match": {"format": "forever"}}, 'not "forever"'),
    ({"seats": [{}, {}, {}], "match": "three"}, '"match" is an object'),
])
def test_a_table_that_cannot_be_played_is_a_400_with_the_reason(play_app, spec, message):
    response = teacher_client(play_app).post("/api/tables", json=spec)
    assert response.status_code == 400
    assert message in error_of(response)["message"]


def test_the_new_table_form_opens_a_table_and_shows_its_code_and_qr(play_app):
    teacher = teacher_client(play_app)
    page = teacher.get("/tables/new")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "name_the_work" in html and "a right naming scores 1" in html  # each option explained
    assert "<script>" not in html and "onclick=" not in html              # no inline scripts
    form = {"rules": "standard", "deck": "authors-1861", "seat0": "student", "seat1": "here", "seat1_name": "Vera",
            "seat2": "computer:random", "seat3": "", "match_format": "hands", "match_value": "2",
            "opt_name_the_work": "yes", "opt_public_log": ""}
    response = teacher.post("/tables/new", data=form)
    assert response.status_code == 303
    code = response.headers["Location"].rsplit("/", 1)[1]
    manage = teacher.get(f"/t/{code}")
    assert manage.status_code == 200
    html = manage.get_data(as_text=True)
    assert f"/j/{code}" in html and f"/t/{code}/qr.svg" in html
    state = get_state(teacher, code)
    assert [s["name"] for s in state["seats"]] == [None, "Vera", "Computer 1"]
    assert state["seats"][1]["here"] is True and state["match"]["value"] == 2
    assert state["options"]["name_the_work"] is True
    qr = teacher.get(f"/t/{code}/qr.svg")
    assert qr.status_code == 200 and qr.mimetype == "image/svg+xml"
    assert b"<svg" in qr.data and f"/j/{code}".encode() in qr.data


def test_the_new_table_form_shows_a_refusal_on_the_form(play_app):
    response = teacher_client(play_app).post("/tables/new", data={"rules": "standard", "seat0": "student"})
    assert response.status_code == 400
    assert "3 to 6 players" in response.get_data(as_text=True)


# ----------------------------------------------------------------------------------------------------
# Joining
# ----------------------------------------------------------------------------------------------------
def test_a_student_joins_by_code_and_name_and_a_refresh_finds_the_same_seat(play_app):
    teacher = teacher_client(play_app)
    code = open_table(teacher)
    student = play_app.test_client()
    response = student.post("/join", data={"code": code.lower()[:3] + "-" + code.lower()[3:], "name": " Anna  "})
    assert response.status_code == 303 and response.headers["Location"].endswith(f"/t/{code}/play")
    state = get_state(student, code)
    assert state["you"] == {"position": 0, "name": "Anna"}
    assert student.get(f"/t/{code}/play").status_code == 200
    again = student.post(f"/api/tables/{code}/join", json={"name": "Someone else"})
    assert again.status_code == 200 and again.get_json()["rejoined"] is True
    assert again.get_json()["you"]["name"] == "Anna"
    assert student.get(f"/j/{code}").status_code == 302  # the join link takes a seated student to the seat
    with play_app.app_context():
        seat = Seat.query.filter_by(name="Anna").one()
        assert seat.token_hash and len(seat.token_hash) == 64
        cookie = student.get_cookie("session")
        assert seat.token_hash not in cookie.value


def test_join_refusals_are_clear(play_app):
    teacher = teacher_client(play_app)
    code = open_table(teacher, seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "human"}])
    seat_student(play_app, code, "Anna")
    unknown = play_app.test_client().post("/api/tables/ZZZZZZ/join", json={"name": "Boris"})
    assert unknown.status_code == 404 and error_of(unknown)["code"] == "unknown-code"
    page = play_app.test_client().post("/join", data={"code": "NOCODE", "name": "Boris"})
    assert page.status_code == 404 and "There is no table" in page.get_data(as_text=True)
    taken = play_app.test_client().post(f"/api/tables/{code}/join", json={"name": "ANNA"})  # asks for her seat (#33)
    assert taken.status_code == 202 and taken.get_json()["asking"]["status"] == "waiting"
    empty = play_app.test_client().post(f"/api/tables/{code}/join", json={"name": "   "})
    assert empty.status_code == 400
    long = play_app.test_client().post(f"/api/tables/{code}/join", json={"name": "x" * 40})
    assert long.status_code == 400
    not_text = play_app.test_client().post(f"/api/tables/{code}/join", json={"name": 42})
    assert not_text.status_code == 400
    seat_student(play_app, code, "Boris")
    seat_student(play_app, code, "Vera")
    full = play_app.test_client().post(f"/api/tables/{code}/join", json={"name": "Gleb"})
    assert full.status_code == 409 and error_of(full)["code"] == "table-full"
    assert "full" in error_of(full)["message"]


def test_a_computer_yields_its_seat_before_play_but_not_after(play_app):
    teacher = teacher_client(play_app)
    code = open_table(teacher, seats=[{"kind": "human"}, {"kind": "computer"}, {"kind": "computer"}])
    seat_student(play_app, code, "Anna")
    seat_student(play_app, code, "Boris")  # takes Computer 1's seat
    state = get_state(teacher, code)
    assert [(s["name"], s["kind"]) for s in state["seats"]] == [("Anna", "human"), ("Boris", "human"),
                                                                 ("Computer 2", "computer")]
    assert teacher.post(f"/api/tables/{code}/start").status_code == 200
    late = play_app.test_client().post(f"/api/tables/{code}/join", json={"name": "Vera"})
    assert late.status_code == 409 and error_of(late)["code"] == "table-full"


# ----------------------------------------------------------------------------------------------------
# The teacher's controls
# ----------------------------------------------------------------------------------------------------
def test_only_the_teacher_manages_a_table(play_app):
    teacher = teacher_client(play_app)
    code = open_table(teacher)
    anna = seat_student(play_app, code, "Anna")
    for method, url, body in [("post", "start", None), ("post", "close", None),
                              ("patch", "seats/0", {"name": "Annie"}), ("delete", "seats/0", None)]:
        response = getattr(anna, method)(f"/api/tables/{code}/{url}", json=body)
        assert response.status_code == 403, url
        assert error_of(response)["code"] == "not-teacher"
    assert anna.get(f"/t/{code}").status_code == 302  # the teacher's page sends a student to their seat


def test_start_needs_every_seat_filled(play_app):
    teacher = teacher_client(play_app)
    code = open_table(teacher)
    response = teacher.post(f"/api/tables/{code}/start")
    assert response.status_code == 409 and "Seat 0 is still empty" in error_of(response)["message"]
    teacher.patch(f"/api/tables/{code}/seats/0", json={"kind": "computer"})
    teacher.patch(f"/api/tables/{code}/seats/1", json={"kind": "computer", "bot": "random"})
    assert teacher.post(f"/api/tables/{code}/start").status_code == 200
    again = teacher.post(f"/api/tables/{code}/start")
    assert again.status_code == 409 and error_of(again)["code"] == "already-started"


def test_rename_remove_and_computer_in_the_lobby(play_app):
    teacher = teacher_client(play_app)
    code = open_table(teacher)
    anna = seat_student(play_app, code, "Anna")
    seat_student(play_app, code, "Boris")
    assert teacher.patch(f"/api/tables/{code}/seats/0", json={"name": "Anya"}).status_code == 200
    assert get_state(anna, code)["you"]["name"] == "Anya"
    clash = teacher.patch(f"/api/tables/{code}/seats/0", json={"name": "boris"})
    assert clash.status_code == 409 and error_of(clash)["code"] == "name-taken"
    assert teacher.delete(f"/api/tables/{code}/seats/0").status_code == 200
    assert get_state(anna, code)["you"] is None  # the removed student's token no longer opens the seat
    forbidden = anna.get(f"/api/tables/{code}?seat=0")
    assert forbidden.status_code == 403 and error_of(forbidden)["code"] == "not-your-seat"
    nobody = teacher.delete(f"/api/tables/{code}/seats/0")
    assert nobody.status_code == 409
    assert teacher.patch(f"/api/tables/{code}/seats/1", json={"kind": "computer"}).status_code == 200
    state = get_state(teacher, code)
    assert state["seats"][1]["kind"] == "computer" and state["seats"][1]["name"].startswith("Computer")
    assert teacher.patch(f"/api/tables/{code}/seats/2", json={"kind": "human"}).status_code == 200
    assert get_state(teacher, code)["seats"][2] == {"position": 2, "name": None, "kind": "human", "bot": None,
                                                     "vacant": True, "here": False, "stand_in": False, "barred": False,
                                                     "presence": None, "away_seconds": None, "asks_back": False,
                                                     "device": False, "passed_around": False}
    for bad in ({"kind": "wizard"}, {}, {"kind": "computer", "bot": "genius"}, {"name": ""}):
        assert teacher.patch(f"/api/tables/{code}/seats/1", json=bad).status_code == 400, bad
    assert teacher.patch(f"/api/tables/{code}/seats/9", json={"name": "X"}).status_code == 404
    assert teacher.patch(f"/api/tables/{code}/seats/x", json={"name": "X"}).status_code == 400
    assert teacher.patch(f"/api/tables/{code}/seats/2", json={"name": "X"}).status_code == 409  # empty seat


def test_a_rename_during_play_rewrites_the_log_and_the_game_goes_on(play_app):
    teacher = teacher_client(play_app)
    code = open_table(teacher, seats=[{"kind": "human"}, {"kind": "computer"}, {"kind": "computer"}])
    anna = seat_student(play_app, code, "Anna")
    teacher.post(f"/api/tables/{code}/start")
    before = get_state(anna, code)
    assert teacher.patch(f"/api/tables/{code}/seats/0", json={"name": "Anya"}).status_code == 200
    after = get_state(anna, code)
    assert after["you"]["name"] == "Anya" and "Anna" not in after["game"]["players"]
    assert sorted(after["game"]["hand"]) == sorted(before["game"]["hand"])
    assert after["game"]["hand_counts"]["Anya"] == before["game"]["hand_counts"]["Anna"]


def test_removing_a_player_during_play_leaves_the_seat_for_someone_else_or_a_computer(play_app):
    teacher = teacher_client(play_app)
    code = open_table(teacher, seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "computer"}])
    anna = seat_student(play_app, code, "Anna")
    seat_student(play_app, code, "Boris")
    teacher.post(f"/api/tables/{code}/start")
    hand = get_state(anna, code)["game"]["hand"]
    teacher.delete(f"/api/tables/{code}/seats/0")
    state = get_state(teacher, code)
    assert state["seats"][0]["vacant"] and state["seats"][0]["name"] == "Anna"
    vera = seat_student(play_app, code, "Vera")  # takes over Anna's seat and her cards
    mine = get_state(vera, code)
    assert mine["you"] == {"position": 0, "name": "Vera"} and sorted(mine["game"]["hand"]) == sorted(hand)
    assert teacher.patch(f"/api/tables/{code}/seats/0", json={"kind": "computer"}).status_code == 200
    assert get_state(teacher, code)["seats"][0]["kind"] == "computer"


def test_close_takes_the_table_off_the_overview(play_app):
    teacher = teacher_client(play_app)
    code = open_table(teacher, name="Room 12")
    listing = teacher.get("/api/tables").get_json()["tables"]
    assert [t["code"] for t in listing] == [code] and listing[0]["name"] == "Room 12"
    assert teacher.post(f"/api/tables/{code}/close").status_code == 200
    assert teacher.get("/api/tables").get_json()["tables"] == []
    late = play_app.test_client().post(f"/api/tables/{code}/join", json={"name": "Anna"})
    assert late.status_code == 409


# ----------------------------------------------------------------------------------------------------
# Pages
# ----------------------------------------------------------------------------------------------------
def test_every_page_renders_without_inline_scripts(play_app):
    teacher = teacher_client(play_app)
    code = open_table(teacher)
    anna = seat_student(play_app, code, "Anna")
    pages = [(teacher, "/tables/new"), (teacher, f"/t/{code}"), (teacher, f"/t/{code}/projector"),
             (teacher, "/teacher"), (teacher, "/join"), (teacher, f"/j/{code}"), (anna, f"/t/{code}/play")]
    for client, url in pages:
        response = client.get(url)
        assert response.status_code == 200, url
        html = response.get_data(as_text=True)
        # scripts come from files; a JSON data block (type="application/json") is data, never run
        assert not re.search(r"<script(?![^>]*\bsrc=)(?![^>]*type=\"application/json\")[^>]*>", html), url
        assert not re.search(r"\son[a-z]+=", html), url


def test_pages_of_unknown_tables_are_404_pages(play_app):
    client = play_app.test_client()
    for url in ("/t/ACEFHK", "/t/ACEFHK/play", "/t/ACEFHK/projector", "/j/ACEFHK", "/t/ACEFHK/qr.svg", "/t/nope"):
        response = client.get(url)
        assert response.status_code == 404, url
        assert "There is no table" in response.get_data(as_text=True)


def test_the_play_page_sends_a_stranger_to_the_join_form(play_app):
    teacher = teacher_client(play_app)
    code = open_table(teacher)
    stranger = play_app.test_client()
    response = stranger.get(f"/t/{code}/play")
    assert response.status_code == 302 and response.headers["Location"].endswith(f"/j/{code}")
    assert teacher.get(f"/t/{code}/play").headers["Location"].endswith(f"/t/{code}")


def test_the_form_says_the_bonus_and_recall_choices_in_words(play_app):
    html = teacher_client(play_app).get("/tables/new").get_data(as_text=True)
    assert "sets decide the winner; the bonus is counted apart" in html and "the bonus counts as a set" in html
    assert "recall: every work is named from memory" in html and "recognition: the works are listed" in html
