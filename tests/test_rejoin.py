"""Re-joining by name with the teacher's one-click approval (issue #19): a student whose seat is away
types the same name from any device, waits, and the teacher lets her in (same hand, same cards; the old
device loses the seat) or refuses; a present seat's name is still refused."""
from __future__ import annotations

import pytest

from app.db import db
from app.models import Seat, SeatClaim
from app.store import presence

from .test_presence import poll, seen_back
from .web_support import for_play, open_table, teacher_client

pytestmark = pytest.mark.database

SEATS = [{"kind": "human"}, {"kind": "human"}, {"kind": "computer"}]


def started(app):
    app = for_play(app)
    teacher = teacher_client(app)
    code = open_table(teacher, seats=SEATS)
    cara = app.test_client()
    assert cara.post(f"/api/tables/{code}/join", json={"name": "Cara"}).status_code == 201
    dan = app.test_client()
    assert dan.post(f"/api/tables/{code}/join", json={"name": "Dan"}).status_code == 201
    assert teacher.post(f"/api/tables/{code}/start").status_code == 200
    return app, teacher, code, cara, dan


def test_an_away_seat_is_let_back_in_from_a_new_browser_with_the_same_hand(app):
    app, teacher, code, cara, dan = started(app)
    before = poll(cara, code).get_json()
    hand = sorted(before["game"]["hand"])
    seen_back(app, code, "Cara", presence.AWAY_AFTER + 5)
    phone = app.test_client()  # a fresh browser: no cookie, no token
    asked = phone.post(f"/api/tables/{code}/join", json={"name": "cara"})
    assert asked.status_code == 202
    assert asked.get_json()["asking"]["status"] == "waiting"
    assert "Your teacher has been asked to let you back in" in asked.get_json()["asking"]["message"]
    assert "game" not in asked.get_json() and "seats" not in asked.get_json()  # nothing of the table yet
    assert phone.get(f"/api/tables/{code}").get_json()["you"] is None  # no seat until let in
    state = poll(teacher, code).get_json()
    assert state["seats"][0]["asks_back"] is True
    assert phone.get(f"/api/tables/{code}/ask").get_json()["asking"]["status"] == "waiting"
    assert teacher.post(f"/api/tables/{code}/seats/0/let-in").status_code == 200
    let_in = phone.get(f"/api/tables/{code}/ask").get_json()["asking"]
    assert let_in["status"] == "let-in" and let_in["play"] == f"/t/{code}/play"
    now = poll(phone, code).get_json()
    assert now["you"] == {"position": 0, "name": "Cara"}
    assert sorted(now["game"]["hand"]) == hand and now["match"]["hand"] == before["match"]["hand"]
    assert poll(teacher, code).get_json()["seats"][0]["asks_back"] is False
    # the old browser lost the seat: no state of it, and its move is refused
    old = poll(cara, code).get_json()
    assert old["you"] is None and old["game"].get("hand") is None
    refused = cara.post(f"/api/tables/{code}/moves", json={"move": {"pass_to": "Dan"}})
    assert refused.status_code == 403
    # the new browser plays (it is Cara's turn or not: the move is Cara's either way, never a 403)
    move = phone.post(f"/api/tables/{code}/moves", json={"move": {"ask": "Dan", "set": now["game"]["asks"]["sets"][0]}}
                      if now["game"]["asks"] else {"move": {"pass_to": "Dan"}})
    assert move.status_code in (200, 409) and move.status_code != 403


def test_the_teacher_refuses_and_the_waiting_page_says_so(app):
    app, teacher, code, cara, dan = started(app)
    seen_back(app, code, "Cara", presence.AWAY_AFTER + 5)
    phone = app.test_client()
    assert phone.post(f"/api/tables/{code}/join", json={"name": "Cara"}).status_code == 202
    assert teacher.post(f"/api/tables/{code}/seats/0/refuse").status_code == 200
    status = phone.get(f"/api/tables/{code}/ask").get_json()["asking"]
    assert status["status"] == "refused" and "did not let you back in" in status["message"]
    assert poll(phone, code).get_json()["you"] is None
    assert poll(teacher, code).get_json()["seats"][0]["asks_back"] is False
    # nothing waits any more: letting in is a 409 with a sentence, and the old device still plays
    again = teacher.post(f"/api/tables/{code}/seats/0/let-in")
    assert again.status_code == 409 and again.get_json()["error"]["code"] == "no-request"
    assert poll(cara, code).get_json()["you"]["name"] == "Cara"


def test_a_present_seats_name_asks_at_once_and_the_teacher_sees_the_screen_is_open(app):
    """Issue #33: no wait for the old screen to go away (a dead phone may look here for 45 s): the new
    device asks at once, and the teacher's list says the seat's screen is still open (a prank is refused)."""
    app, teacher, code, cara, dan = started(app)
    poll(cara, code)
    phone = app.test_client()
    asked = phone.post(f"/api/tables/{code}/join", json={"name": "Cara"})
    assert asked.status_code == 202 and asked.get_json()["asking"]["status"] == "waiting", asked.get_json()
    state = poll(teacher, code).get_json()
    assert state["seats"][0]["asks_back"] is True
    [ask] = state["asks"]
    assert ask["name"] == "Cara" and ask["screen"] == "here" and ask["screen_away_seconds"] is None
    assert teacher.post(f"/api/tables/{code}/seats/0/refuse").status_code == 200
    assert poll(cara, code).get_json()["you"]["name"] == "Cara"  # the open screen plays on


def test_a_request_expires(app):
    app, teacher, code, cara, dan = started(app)
    seen_back(app, code, "Cara", presence.AWAY_AFTER + 5)
    phone = app.test_client()
    assert phone.post(f"/api/tables/{code}/join", json={"name": "Cara"}).status_code == 202
    with app.app_context():
        for claim in SeatClaim.query.all():
            claim.asked_at -= presence.CLAIM_LIFETIME + 1
        seat = Seat.query.filter_by(name="Cara").one()
        seat.claim_at -= presence.CLAIM_LIFETIME + 1
        db.session.commit()
    assert phone.get(f"/api/tables/{code}/ask").get_json()["asking"]["status"] == "expired"
    assert teacher.post(f"/api/tables/{code}/seats/0/let-in").status_code == 409
    assert phone.get(f"/api/tables/{code}/ask").status_code == 404  # forgotten: it joins again


def test_bad_requests_are_4xx_with_a_sentence(app):
    app, teacher, code, cara, dan = started(app)
    for path in ("/seats/9/let-in", "/seats/x/refuse", "/seats/0/let-in", "/seats/1/stand-in"):
        response = teacher.post(f"/api/tables/{code}{path}")
        assert 400 <= response.status_code < 500 and response.get_json()["error"]["message"], path
    # only the teacher lets anyone in
    seen_back(app, code, "Cara", presence.AWAY_AFTER + 5)
    phone = app.test_client()
    assert phone.post(f"/api/tables/{code}/join", json={"name": "Cara"}).status_code == 202
    assert dan.post(f"/api/tables/{code}/seats/0/let-in").status_code == 403
    assert phone.post(f"/api/tables/{code}/seats/0/let-in").status_code == 403
    assert app.test_client().get(f"/api/tables/{code}/ask").status_code == 404


def test_the_join_page_waits_and_opens_the_game_once_let_in(app):
    app, teacher, code, cara, dan = started(app)
    seen_back(app, code, "Cara", presence.AWAY_AFTER + 5)
    phone = app.test_client()
    form = phone.post("/join", data={"code": code, "name": "Cara"})
    assert form.status_code == 303 and form.headers["Location"].endswith(f"/j/{code}/waiting")
    page = phone.get(f"/j/{code}/waiting").get_data(as_text=True)
    assert "Your teacher has been asked to let you back in" in page and "js/join.js" in page
    assert teacher.post(f"/api/tables/{code}/seats/0/let-in").status_code == 200
    assert phone.get(f"/api/tables/{code}/ask").get_json()["asking"]["status"] == "let-in"
    assert phone.get(f"/j/{code}/waiting").headers["Location"].endswith(f"/t/{code}/play")


def test_a_name_taken_off_for_the_match_cannot_come_back(app):
    """The teacher takes a student off for the rest of the match: the seat keeps her name for the game,
    and neither a new device nor her own can take it or ask for it back."""
    from .web_support import open_table, seat_student, teacher_client

    app.config.update(BOT_PACE_SECONDS=0, HAND_PAUSE_SECONDS=0, DEAL_SEED=7)
    teacher = teacher_client(app)
    code = open_table(teacher, seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "computer"}])
    cara = seat_student(app, code, "Cara")
    seat_student(app, code, "Dan")
    assert teacher.post(f"/api/tables/{code}/start").status_code == 200
    position = next(s["position"] for s in teacher.get(f"/api/tables/{code}").get_json()["seats"] if s["name"] == "Cara")
    assert cara.post(f"/api/tables/{code}/join", json={"name": "Cara"}).status_code == 200  # still hers
    removed = teacher.delete(f"/api/tables/{code}/seats/{position}?for_good=1")
    assert removed.status_code == 200
    seat = next(s for s in removed.get_json()["seats"] if s["position"] == position)
    assert seat["barred"] and seat["name"] == "Cara"  # the game goes on with her name on the seat
    for device, why in ((app.test_client(), "name-removed"), (cara, "taken-off")):
        again = device.post(f"/api/tables/{code}/join", json={"name": "cara"})
        assert again.status_code == 409 and again.get_json()["error"]["code"] == why, again.get_json()
    # A plain Remove (not for good) lets her ask for the seat back, as before.
    dan = next(s["position"] for s in removed.get_json()["seats"] if s["name"] == "Dan")
    assert teacher.delete(f"/api/tables/{code}/seats/{dan}").status_code == 200
    assert app.test_client().post(f"/api/tables/{code}/join", json={"name": "Dan"}).status_code == 202
