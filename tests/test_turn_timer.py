"""An optional turn timer (`turn_seconds`, off by default): a student who has not moved in time has a
computer make that one move for them (the seat stays theirs, the move's row says so), naming no work: a
prompt is passed, an ask goes without `named`, no bonus is hers; the state names the moment the time runs
out; paused tables wait; the classroom options stay out of the game records."""
from __future__ import annotations

import pytest

from app.db import db
from app.models import MoveRow, Table

from .web_support import get_state, open_table, seat_student, server_game, teacher_client, tick

pytestmark = pytest.mark.database
SEATS = [{"kind": "human"}, {"kind": "human"}, {"kind": "computer"}]


def started(app, rules="standard", **options):
    app.config.update(BOT_PACE_SECONDS=0, HAND_PAUSE_SECONDS=0, DEAL_SEED=7)
    teacher = teacher_client(app)
    code = open_table(teacher, rules=rules, seats=SEATS, options=options, match={"format": "hands", "value": 1})
    students = {name: seat_student(app, code, name) for name in ("Anna", "Boris")}
    assert teacher.post(f"/api/tables/{code}/start").status_code == 200
    return teacher, code, students


def rewind(app, code, seconds: float) -> None:
    """As if the table had last moved `seconds` earlier (and was to be looked at again by now)."""
    with app.app_context():
        table = Table.query.filter_by(code=code).one()
        table.changed_at -= seconds
        table.next_bot_at = min(table.next_bot_at, table.changed_at + seconds - 1)
        db.session.commit()


def moves(app, code) -> list[dict]:
    with app.app_context():
        table = Table.query.filter_by(code=code).one()
        return [row.data for row in MoveRow.query.filter_by(deal_id=table.current_deal.id).order_by(MoveRow.seq)]


def test_a_student_out_of_time_has_a_computer_make_the_move(app):
    teacher, code, students = started(app, turn_seconds=10)
    state = get_state(teacher, code)
    actor = state["game"]["turn"]
    assert actor in students, "a student is to move (the computers moved at once)"
    with app.app_context():
        changed = Table.query.filter_by(code=code).one().changed_at
    assert state["turn_deadline"] == pytest.approx(changed + 10)
    before = len(moves(app, code))
    tick(app)  # in time: nothing happens
    assert len(moves(app, code)) == before
    rewind(app, code, 11)
    get_state(teacher, code)  # (a read changes nothing)
    assert len(moves(app, code)) == before
    tick(app)
    made = moves(app, code)[before]
    assert made["timed_out"] is True and made["computer"] is True and made.get("player", actor) == actor
    seat = next(s for s in get_state(teacher, code)["seats"] if s["name"] == actor)
    assert seat["kind"] == "human" and not seat["stand_in"]  # the seat stays the student's


@pytest.mark.parametrize("rules, options, naming", [("standard", {"name_the_work": True}, "answer"),
                                                    ("classic", {"named_asks": True}, "ask")])
def test_a_computer_moving_for_a_student_out_of_time_names_no_work(app, rules, options, naming):
    """The students never move: every move of theirs is the timer's, the whole deal long. A prompt is
    passed (`answer: null`), an ask carries no `named`, and neither student ends with a bonus point."""
    teacher, code, students = started(app, rules, turn_seconds=10, **options)
    for _ in range(400):
        state = get_state(teacher, code)
        if state["status"] != "playing":
            break
        assert state["game"]["turn"] in students
        rewind(app, code, 11)
        tick(app)
    else:
        pytest.fail("the deal did not end")
    with app.app_context():
        deal = Table.query.filter_by(code=code).one().current_deal
        rows = [row.data for row in MoveRow.query.filter_by(deal_id=deal.id).order_by(MoveRow.seq)]
        bonus = server_game(deal).replay_state()["bonus"]
    theirs = [row for row in rows if row["player"] in students]
    assert theirs and all(row.get("timed_out") is True and row.get("computer") is True for row in theirs)
    namings = [row for row in theirs if naming in row]
    assert len(namings) >= 3, namings
    if naming == "answer":
        assert all(row["answer"] is None for row in namings), namings
    else:
        assert all("named" not in row for row in namings), namings
    assert bonus["Anna"] == bonus["Boris"] == 0, bonus


def test_without_the_option_or_while_paused_nobody_moves_for_a_student(app):
    teacher, code, _students = started(app)
    assert get_state(teacher, code)["turn_deadline"] is None
    before = len(moves(app, code))
    rewind(app, code, 3600)
    tick(app)
    assert len(moves(app, code)) == before
    teacher, code, _students = started(app, turn_seconds=10)
    assert teacher.post(f"/api/tables/{code}/pause", json={"paused": True}).status_code == 200
    assert get_state(teacher, code)["turn_deadline"] is None
    before = len(moves(app, code))
    rewind(app, code, 60)
    tick(app)
    assert len(moves(app, code)) == before


@pytest.mark.parametrize("seconds", [9, 601, "x", True])
def test_a_time_limit_out_of_range_is_a_400(app, seconds):
    teacher = teacher_client(app)
    response = teacher.post("/api/tables", json={"seats": SEATS, "options": {"turn_seconds": seconds}})
    assert response.status_code == 400, response.get_json()


def test_the_classroom_options_stay_out_of_the_game_record(app):
    teacher, code, _students = started(app, turn_seconds=30, hide_scores=True, stand_in_after=5, name_the_work=True)
    with app.app_context():
        header = Table.query.filter_by(code=code).one().current_deal.header
    assert header["options"].get("name_the_work") is True  # a rule of the game: written down
    assert not {"turn_seconds", "hide_scores", "stand_in_after"} & set(header["options"])
