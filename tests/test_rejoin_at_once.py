"""Rejoining at once (issue #33): a student on a new device asks for her seat back whatever her old
screen's presence (the teacher decides, told whether that screen is still open), her own name on a class
roster is tappable and says so, the waiting page says each step from the server's first answer on, every
protection stays (taken off, the class word, one request per device), and ?lang= is kept on every
redirect to and from the join page."""
from __future__ import annotations

import re

import pytest

from app.db import db
from app.models import SchoolClass, SeatClaim

from .test_classes import make_class
from .test_presence import poll, seen_back
from .test_rejoin import started
from .test_roster_join import class_ids, open_for_class
from .web_support import for_play, teacher_client

pytestmark = pytest.mark.database


def asks_of(teacher, code) -> list[dict]:
    return poll(teacher, code).get_json()["asks"]


def test_the_teachers_list_says_where_the_seats_own_screen_is(app):
    app, teacher, code, cara, dan = started(app)
    poll(cara, code)
    phone = app.test_client()
    assert phone.post(f"/api/tables/{code}/join", json={"name": "Cara"}).status_code == 202
    [ask] = asks_of(teacher, code)
    assert (ask["screen"], ask["screen_away_seconds"]) == ("here", None)  # a prank looks like this
    seen_back(app, code, "Cara", 3 * 60 + 5)
    [ask] = asks_of(teacher, code)
    assert ask["screen"] == "away" and 180 <= ask["screen_away_seconds"] < 240
    # A seat the teacher emptied during play has no screen at all.
    assert teacher.delete(f"/api/tables/{code}/seats/1").status_code == 200
    other = app.test_client()
    assert other.post(f"/api/tables/{code}/join", json={"name": "Dan"}).status_code == 202
    dans = [a for a in asks_of(teacher, code) if a["name"] == "Dan"]
    assert [(a["screen"], a["screen_away_seconds"]) for a in dans] == [(None, None)]
    # Nobody but the teacher reads the list.
    assert poll(phone, code).get_json().get("asks") is None and poll(cara, code).get_json().get("asks") is None


def test_one_request_per_device_and_a_device_that_joins_under_another_name_gives_its_request_up(app):
    app = for_play(app)
    teacher = teacher_client(app)
    code = teacher.post("/api/tables", json={"seats": [{"kind": "human"}] * 3}).get_json()["code"]
    cara = app.test_client()
    assert cara.post(f"/api/tables/{code}/join", json={"name": "Cara"}).status_code == 201
    poll(cara, code)
    phone = app.test_client()  # a second Cara in the class, say
    for _ in range(3):
        assert phone.post(f"/api/tables/{code}/join", json={"name": "cara"}).status_code == 202
    assert len(asks_of(teacher, code)) == 1
    joined = phone.post(f"/api/tables/{code}/join", json={"name": "Cara B"})
    assert joined.status_code == 201 and joined.get_json()["you"]["name"] == "Cara B"
    assert asks_of(teacher, code) == []
    assert poll(teacher, code).get_json()["seats"][0]["asks_back"] is False
    with app.app_context():
        assert [c.status for c in SeatClaim.query.all()] == ["withdrawn"]


def test_a_seat_taken_off_for_the_match_stays_refused_whatever_its_screen(app):
    app, teacher, code, cara, dan = started(app)
    poll(cara, code)
    assert teacher.delete(f"/api/tables/{code}/seats/0?for_good=1").status_code == 200
    refused = app.test_client().post(f"/api/tables/{code}/join", json={"name": "Cara"})
    assert refused.status_code == 409 and refused.get_json()["error"]["code"] == "name-removed"
    assert "taken" in refused.get_json()["error"]["message"]
    assert asks_of(teacher, code) == []


def _class_table(app, word=False):
    app = for_play(app)
    teacher = teacher_client(app)
    make_class(teacher, word=word)
    class_id, students = class_ids(app)
    code = open_for_class(teacher, class_id)
    return app, teacher, code, students


def test_her_own_name_on_the_roster_is_tappable_and_asks_the_teacher(app):
    app, teacher, code, students = _class_table(app)
    anna = app.test_client()
    assert anna.post(f"/api/tables/{code}/join", json={"student": students["Anna"]}).status_code == 201
    poll(anna, code)  # her screen is here: no waiting 45 s for it to look away
    phone = app.test_client()
    page = phone.get(f"/j/{code}").get_data(as_text=True)
    button = re.search(rf'<button type="submit" name="student" value="{students["Anna"]}"[^>]*>', page).group(0)
    assert "disabled" not in button and "back" in button
    assert "(playing: tap to come back)" in page
    assert "your teacher will let you back into your seat" in page
    tapped = phone.post("/join", data={"code": code, "student": students["Anna"]})
    assert tapped.status_code == 303 and tapped.headers["Location"].endswith(f"/j/{code}/waiting")
    waiting = phone.get(f"/j/{code}/waiting").get_data(as_text=True)
    assert "Your teacher has been asked to let you back in" in waiting and 'data-status="waiting"' in waiting
    assert "Not Anna?" in waiting and "Boris" not in waiting  # her own name, nobody else's
    [ask] = asks_of(teacher, code)
    assert ask["name"] == "Anna" and ask["screen"] == "here"
    assert teacher.post(f"/api/tables/{code}/seats/0/let-in").status_code == 200
    assert phone.get(f"/j/{code}/waiting").headers["Location"].endswith(f"/t/{code}/play")  # a reload goes to play
    assert poll(phone, code).get_json()["you"]["name"] == "Anna"
    assert poll(anna, code).get_json()["you"] is None


def test_the_class_word_is_still_needed_to_ask_for_a_seat_back(app):
    app, teacher, code, students = _class_table(app, word=True)
    with app.app_context():
        word = SchoolClass.query.one().word
    anna = app.test_client()
    assert anna.post(f"/api/tables/{code}/join", json={"student": students["Anna"], "word": word}).status_code == 201
    phone = app.test_client()
    for sent, why in (({}, "class-word-missing"), ({"word": "WRONG"}, "wrong-class-word")):
        answer = phone.post(f"/api/tables/{code}/join", json={"student": students["Anna"], **sent})
        assert answer.status_code == 400 and answer.get_json()["error"]["code"] == why
    page = phone.post("/join", data={"code": code, "student": students["Anna"], "word": "WRONG"})
    assert page.status_code == 400 and "not the class word" in page.get_data(as_text=True)
    assert asks_of(teacher, code) == []
    asked = phone.post(f"/api/tables/{code}/join", json={"student": students["Anna"], "word": word.lower()})
    assert asked.status_code == 202


def test_the_waiting_page_says_each_step_from_the_first_answer(app):
    app, teacher, code, cara, dan = started(app)
    phone = app.test_client()
    assert phone.post("/join", data={"code": code, "name": "Cara"}).status_code == 303
    page = phone.get(f"/j/{code}/waiting").get_data(as_text=True)
    assert 'data-status="waiting"' in page and 'id="ask-hint" hidden' not in page
    assert teacher.post(f"/api/tables/{code}/seats/0/refuse").status_code == 200
    page = phone.get(f"/j/{code}/waiting").get_data(as_text=True)
    assert 'data-status="refused"' in page and 'class="waiting ended"' in page
    assert "did not let you back in" in page and 'id="ask-hint" hidden' in page and "Not Cara?" not in page
    # Asked again, then the request runs out: the page says it ended, and the next look finds no request.
    assert phone.post("/join", data={"code": code, "name": "Cara"}).status_code == 303
    with app.app_context():
        for claim in SeatClaim.query.filter_by(status="waiting"):
            claim.asked_at -= 3600
        db.session.commit()
    page = phone.get(f"/j/{code}/waiting").get_data(as_text=True)
    assert 'data-status="expired"' in page and "This request has ended" in page
    assert phone.get(f"/j/{code}/waiting").headers["Location"].endswith(f"/j/{code}")


def test_bad_requests_around_waiting_are_4xx_with_a_sentence(app):
    app, teacher, code, cara, dan = started(app)
    stranger = app.test_client()
    for url in ("/j/NOPE99/waiting", "/api/tables/NOPE99/ask", f"/api/tables/{code}/ask"):
        answer = stranger.get(url, headers={"Accept": "application/json"})
        assert answer.status_code == 404 and answer.get_json()["error"]["message"], url
    assert stranger.get(f"/j/{code}/waiting").status_code == 302  # nothing asked: the join page
    refused = stranger.post(f"/api/tables/{code}/join", json={"name": "Cara", "student": "x"})
    assert 400 <= refused.status_code < 500 and refused.get_json()["error"]["message"]


def test_lang_is_kept_from_the_join_link_to_the_play_screen(app):
    app, teacher, code, cara, dan = started(app)
    phone = app.test_client()
    page = phone.get(f"/j/{code}?lang=ru").get_data(as_text=True)
    assert 'action="/join?lang=ru"' in page and 'lang="ru"' in page
    phone.delete_cookie("lang")  # a phone that keeps no cookie: the address alone carries the language
    asked = phone.post("/join?lang=ru", data={"code": code, "name": "Cara"})
    assert asked.status_code == 303 and asked.headers["Location"].endswith(f"/j/{code}/waiting?lang=ru")
    phone.delete_cookie("lang")
    waiting = phone.get(f"/j/{code}/waiting?lang=ru").get_data(as_text=True)
    assert f'data-ask="/api/tables/{code}/ask?lang=ru"' in waiting
    assert f'href="/j/{code}?lang=ru"' in waiting and "Учителя попросили впустить тебя обратно" in waiting
    assert "Ты не Cara?" in waiting and "Ждём учителя" in waiting
    assert teacher.post(f"/api/tables/{code}/seats/0/let-in").status_code == 200
    phone.delete_cookie("lang")
    told = phone.get(f"/api/tables/{code}/ask?lang=ru").get_json()["asking"]
    assert told["status"] == "let-in" and told["play"] == f"/t/{code}/play?lang=ru"
    assert "Учитель впустил тебя обратно" in told["message"]
    assert phone.get(f"/j/{code}/waiting?lang=ru").headers["Location"].endswith(f"/t/{code}/play?lang=ru")
    assert phone.get(f"/j/{code}?lang=ru").headers["Location"].endswith(f"/t/{code}/play?lang=ru")
    # A new student: the table's page and the play screen send her to the join page in her language.
    stranger = app.test_client()
    assert stranger.get(f"/t/{code}?lang=fr").headers["Location"].endswith(f"/j/{code}?lang=fr")
    assert stranger.get(f"/t/{code}/play?lang=it").headers["Location"].endswith(f"/j/{code}?lang=it")
    typed = stranger.post("/join?lang=pt", data={"code": code, "name": "Eva"})
    assert typed.status_code == 409 and 'action="/join?lang=pt"' in typed.get_data(as_text=True)  # (the table is full)
    # Only a language of ours is carried on; none given, none added.
    assert stranger.get(f"/t/{code}?lang=xx").headers["Location"].endswith(f"/j/{code}")
    assert stranger.get(f"/t/{code}").headers["Location"].endswith(f"/j/{code}")
    new = app.test_client().post("/join?lang=fr", data={"code": code, "name": "Dan"})
    assert new.headers["Location"].endswith(f"/j/{code}/waiting?lang=fr")
