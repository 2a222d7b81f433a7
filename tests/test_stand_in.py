"""A computer stands in for an away student and hands the seat back (issue #19): the teacher's one
click, or by itself after the table's `stand_in_after` minutes (the clock's doing: app/services/clock.py);
her name stays on the seat and in the records; her next poll makes the seat hers again (noted, and
handed back by the clock's next beat). Its moves are its own: they name no work (no bonus of
hers) and their rows say a computer made them."""
from __future__ import annotations

import random

import pytest

from app.db import db
from app.models import MoveRow, Table
from app.store import presence

from .test_presence import poll, seen_back
from .web_support import choose_move, deck_of, for_play, open_table, server_game, teacher_client, tick

pytestmark = pytest.mark.database

SEATS = [{"kind": "human"}, {"kind": "human"}]


def started(app, rules="standard", **options):
    app = for_play(app)
    teacher = teacher_client(app)
    code = open_table(teacher, rules=rules, seats=SEATS + [{"kind": "computer"}], options=options)
    cara, dan = app.test_client(), app.test_client()
    assert cara.post(f"/api/tables/{code}/join", json={"name": "Cara"}).status_code == 201
    assert dan.post(f"/api/tables/{code}/join", json={"name": "Dan"}).status_code == 201
    assert teacher.post(f"/api/tables/{code}/start").status_code == 200
    return app, teacher, code, cara, dan


def moves_by(app, code, name):
    with app.app_context():
        table = Table.query.filter_by(code=code).one()
        rows = MoveRow.query.filter_by(deal_id=table.deals[0].id).all()
        return sum(1 for row in rows if row.data.get("player") == name)


def play_until_turn_of(client, code, name, other, rounds=80):
    """Dan moves (asks Cara for a set he holds) until it is Cara's turn."""
    for _ in range(rounds):
        state = poll(client, code).get_json()
        if state["game"]["turn"] == name or state["status"] != "playing":
            return state
        if state["game"]["turn"] == other and state["game"]["asks"]:
            asks = state["game"]["asks"]
            client.post(f"/api/tables/{code}/moves", json={"move": {"ask": asks["targets"][0], "set": asks["sets"][0]}})
    return poll(client, code).get_json()


def test_the_teacher_stands_a_computer_in_and_her_poll_takes_the_seat_back(app):
    app, teacher, code, cara, dan = started(app)
    poll(cara, code)
    assert teacher.post(f"/api/tables/{code}/seats/0/stand-in").get_json()["error"]["code"] == "student-here"
    seen_back(app, code, "Cara", presence.AWAY_AFTER + 5)
    seats = poll(teacher, code).get_json()["seats"]
    assert seats[0]["presence"] == "away"
    before = moves_by(app, code, "Cara")
    stood = teacher.post(f"/api/tables/{code}/seats/0/stand-in")
    assert stood.status_code == 200
    seat = stood.get_json()["seats"][0]
    assert seat["stand_in"] is True and seat["kind"] == "computer" and seat["name"] == "Cara"
    # the computer plays Cara's turns (no pace in tests): Dan moves until the turn comes round to her
    state = play_until_turn_of(dan, code, "nobody", "Dan", rounds=30)
    assert moves_by(app, code, "Cara") > before  # the computer moved as Cara
    assert any(s["stand_in"] and s["name"] == "Cara" for s in poll(dan, code).get_json()["seats"])  # screens say it
    # her device polls again: the seat is hers, the computer stops
    assert poll(cara, code).get_json()["seats"][0]["stand_in"] is True  # (the poll itself changes nothing)
    tick(app)
    back = poll(cara, code).get_json()
    assert back["you"]["name"] == "Cara" and back["seats"][0]["kind"] == "human"
    assert back["seats"][0]["stand_in"] is False and back["game"]["hand"] is not None
    moved = moves_by(app, code, "Cara")
    play_until_turn_of(dan, code, "Cara", "Dan")
    state = poll(teacher, code).get_json()
    if state["status"] == "playing" and state["game"]["turn"] == "Cara":
        assert moves_by(app, code, "Cara") == moved  # her turn waits for her: no computer moves for her
    assert state["seats"][0]["name"] == "Cara" and state["seats"][0]["presence"] == "here"
    del state


def test_a_computer_stands_in_by_itself_after_n_minutes_away(app):
    app, teacher, code, cara, dan = started(app, stand_in_after=2)
    state = play_until_turn_of(dan, code, "Cara", "Dan")
    assert state["game"]["turn"] == "Cara"
    # away for one minute: nothing yet
    seen_back(app, code, "Cara", 60)
    with app.app_context():  # the moment to look again has come (as if the clock had moved)
        table = Table.query.filter_by(code=code).one()
        table.next_bot_at = 0
        db.session.commit()
    tick(app)
    assert poll(teacher, code).get_json()["seats"][0]["stand_in"] is False
    with app.app_context():
        assert Table.query.filter_by(code=code).one().next_bot_at > 1e9 - 1  # put off, to when 2 min are up
    before = moves_by(app, code, "Cara")
    seen_back(app, code, "Cara", 61)  # two minutes away
    with app.app_context():
        table = Table.query.filter_by(code=code).one()
        table.next_bot_at = 0
        db.session.commit()
    assert poll(teacher, code).get_json()["seats"][0]["stand_in"] is False  # (a read changes nothing)
    tick(app)
    state = poll(teacher, code).get_json()
    assert state["seats"][0]["stand_in"] is True and state["seats"][0]["name"] == "Cara"
    assert moves_by(app, code, "Cara") > before
    # she is back: the seat is hers again
    poll(cara, code)
    tick(app)
    assert poll(cara, code).get_json()["seats"][0]["stand_in"] is False


def test_stand_in_after_is_an_option_from_1_to_10_minutes(app):
    teacher = teacher_client(for_play(app))
    for bad in (0, 11, "soon"):
        response = teacher.post("/api/tables", json={"seats": SEATS * 2, "options": {"stand_in_after": bad}})
        assert response.status_code == 400 and "stand_in_after" in response.get_json()["error"]["message"]
    code = open_table(teacher, seats=SEATS * 2, options={"stand_in_after": 5})
    assert poll(teacher, code).get_json()["options"]["stand_in_after"] == 5


@pytest.mark.parametrize("rules, options, naming", [("standard", {"name_the_work": True}, "answer"),
                                                    ("classic", {"named_asks": True}, "ask")])
def test_a_computer_standing_in_names_no_work_and_its_rows_say_so(app, rules, options, naming):
    """A computer stands in for Cara from the first move to the last: it passes every prompt (`answer:
    null`) and asks without `named`, each row says `computer`, and she ends the deal with no bonus."""
    app, teacher, code, _cara, dan = started(app, rules, **options)
    seen_back(app, code, "Cara", presence.AWAY_AFTER + 5)
    assert teacher.post(f"/api/tables/{code}/seats/0/stand-in").status_code == 200
    deck, rng = deck_of(dan, code), random.Random(5)
    for _ in range(400):
        state = poll(dan, code).get_json()  # (Dan's device: Cara's seat stays the computer's)
        if state["status"] != "playing":
            break
        assert state["game"]["turn"] == "Dan"
        response = dan.post(f"/api/tables/{code}/moves", json={"move": choose_move(state, deck, rng)})
        assert response.status_code == 200, response.get_json()
    else:
        pytest.fail("the deal did not end")
    with app.app_context():
        deal = Table.query.filter_by(code=code).one().deals[0]
        rows = [row.data for row in MoveRow.query.filter_by(deal_id=deal.id).order_by(MoveRow.seq)]
        bonus = server_game(deal).replay_state()["bonus"]
    cara = [row for row in rows if row["player"] == "Cara"]
    assert cara and all(row.get("computer") is True and "timed_out" not in row for row in cara)
    assert not any(row.get("computer") for row in rows if row["player"] != "Cara")  # Dan's, and Computer 1's own
    namings = [row for row in cara if naming in row]
    assert len(namings) >= 3, namings
    if naming == "answer":
        assert all(row["answer"] is None for row in namings), namings
    else:
        assert all("named" not in row for row in namings), namings
    assert bonus["Cara"] == 0 and bonus["Dan"] > 0, bonus
