"""A computer's moves are never a student's: a computer put in a student's seat for good names no work
under her name for the rest of the match (no bonus of hers), its rows say `computer`, and the report keeps
her for the hand she played, with her own answers; each deal keeps who played it as a student (renames
included); deals dealt before that was kept fall back on the seats as they are now."""
from __future__ import annotations

import csv
import io
import json
import random

import pytest

from app.db import db
from app.models import MoveRow, Table
from app.store import presence

from .test_presence import poll, seen_back
from .web_support import choose_move, deck_of, for_play, open_table, seat_student, server_game, teacher_client

pytestmark = pytest.mark.database


def started(app, hands=1):
    """Cara, Dan and a computer at a recall table (name-the-work), a match of `hands` hands."""
    app = for_play(app)
    teacher = teacher_client(app)
    code = open_table(teacher, rules="standard", deck="authors-1861", options={"name_the_work": True},
                      seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "computer"}],
                      match={"format": "hands", "value": hands})
    students = {name: seat_student(app, code, name) for name in ("Cara", "Dan")}
    assert teacher.post(f"/api/tables/{code}/start").status_code == 200
    return teacher, code, students


def play(code, students, rng, until=lambda state: False):
    """The students to move move (a screen's choices) until play ends or `until(public state)`."""
    deck = deck_of(next(iter(students.values())), code)
    for _ in range(1000):
        state = poll(next(iter(students.values())), code).get_json()
        if state["status"] != "playing" or until(state):
            return state
        client = students[state["game"]["turn"]]
        mine = poll(client, code).get_json()
        response = client.post(f"/api/tables/{code}/moves", json={"move": choose_move(mine, deck, rng)})
        assert response.status_code == 200, response.get_json()
    pytest.fail("play did not end")


def deal_rows(app, code):
    """Each deal's students (as kept) and its moves' rows, and each deal's bonus by player."""
    with app.app_context():
        table = Table.query.filter_by(code=code).one()
        return [(json.loads(deal.students_json), [row.data for row in MoveRow.query.filter_by(deal_id=deal.id)
                                                  .order_by(MoveRow.seq)], server_game(deal).replay_state()["bonus"])
                for deal in table.deals]


def moves_of(app, code, name):
    return sum(1 for _students, rows, _bonus in deal_rows(app, code) for row in rows if row["player"] == name)


def csv_rows(teacher, path):
    return list(csv.DictReader(io.StringIO(teacher.get(path).get_data(as_text=True).lstrip("\ufeff"))))


def test_a_computer_put_in_a_students_seat_names_no_work_under_her_name(app):
    teacher, code, students = started(app, hands=2)
    rng = random.Random(4)
    play(code, students, rng, until=lambda state: moves_of(app, code, "Cara") >= 2)
    own = moves_of(app, code, "Cara")
    response = teacher.patch(f"/api/tables/{code}/seats/0", json={"kind": "computer"})
    assert response.status_code == 200 and response.get_json()["seats"][0]["name"] == "Cara"
    assert play(code, {"Dan": students["Dan"]}, rng)["status"] == "finished"

    (first_students, first, _), (second_students, second, second_bonus) = deal_rows(app, code)
    assert first_students == ["Cara", "Dan"] and second_students == ["Dan"]
    cara = [row for row in first + second if row["player"] == "Cara"]
    assert [row.get("computer") for row in cara[:own]] == [None] * own  # hers
    replacing = cara[own:]
    assert replacing and all(row.get("computer") is True for row in replacing)
    assert all(row["answer"] is None for row in replacing if "answer" in row)
    assert any("answer" in row for row in second if row["player"] == "Cara")  # it had works to name
    assert second_bonus["Cara"] == 0 and not any(row.get("computer") for row in first + second
                                                 if row["player"] != "Cara")

    students_csv = {r["student"]: r for r in csv_rows(teacher, f"/reports/students.csv?table={code}")}
    assert set(students_csv) == {"Cara", "Dan"}
    assert students_csv["Cara"]["hands"] == "1" and students_csv["Dan"]["hands"] == "2"
    answers = csv_rows(teacher, f"/reports/answers.csv?table={code}")
    assert {r["student"] for r in answers} <= {"Cara", "Dan", "computer for Cara"}
    assert int(students_csv["Cara"]["answers"]) == sum(1 for r in answers if r["student"] == "Cara")
    # the computer's passes in the hand she began are listed for her; the hand it played alone is no hand
    # of hers: there it is left out, as any computer player
    passes = sum(1 for row in first if row["player"] == "Cara" and row.get("computer") and "answer" in row)
    assert passes and [r["hand"] for r in answers if r["student"] == "computer for Cara"] == ["1"] * passes


def test_a_rename_renames_the_student_in_the_deal_being_played(app):
    teacher, code, _students = started(app)
    assert teacher.patch(f"/api/tables/{code}/seats/0", json={"name": "Cora"}).status_code == 200
    [(names, _rows, _bonus)] = deal_rows(app, code)
    assert names == ["Cora", "Dan"]


def test_a_deal_dealt_before_its_students_were_kept_takes_the_seats_as_they_are(app):
    """A deal of before revision 0015 (no students kept) and rows of before `computer` (a timed-out move
    said only `timed_out`, and named the work): a student a computer stands in for is still a student,
    and the computer's answer is listed apart, in no figure of hers."""
    teacher, code, students = started(app)
    seen_back(app, code, "Cara", presence.AWAY_AFTER + 5)
    assert teacher.post(f"/api/tables/{code}/seats/0/stand-in").status_code == 200
    assert play(code, {"Dan": students["Dan"]}, random.Random(2))["status"] == "finished"
    passes = [r for r in csv_rows(teacher, f"/reports/answers.csv?table={code}") if r["student"] == "computer for Cara"]
    assert passes and all(r["result"] == "passed" for r in passes)
    title = passes[0]["work"]  # the first of them, named right as the timer's computer did before
    with app.app_context():
        deal = Table.query.filter_by(code=code).one().deals[0]
        deal.students_json = None
        row = next(r for r in MoveRow.query.filter_by(deal_id=deal.id).order_by(MoveRow.seq)
                   if r.data["player"] == "Cara" and "answer" in r.data)
        row.data_json = json.dumps({"player": "Cara", "answer": title, "timed_out": True})
        db.session.commit()
    answers = csv_rows(teacher, f"/reports/answers.csv?table={code}")
    assert [(r["student"], r["work"], r["result"]) for r in answers if r["student"] != "Dan"] == [
        ("computer for Cara", title, "right")] + [("computer for Cara", r["work"], "passed") for r in passes[1:]]
    students_csv = {r["student"]: r for r in csv_rows(teacher, f"/reports/students.csv?table={code}")}
    assert students_csv["Cara"]["hands"] == "1" and students_csv["Cara"]["answers"] == "0"
