"""A hand a student played keeps their name: replacing them with a computer, renaming their seat or
letting someone else take it never rewrites a finished hand, its record, the reports or the CSVs; the
match's totals follow the seat."""
from __future__ import annotations

import csv
import io
import random

from .web_support import deck_of, for_play, get_state, open_table, seat_student, teacher_client
from .test_web_play import play_out


def test_a_replaced_student_keeps_their_name_in_every_finished_hand(app):
    for_play(app)
    teacher = teacher_client(app)
    code = open_table(teacher, rules="standard", match={"format": "hands", "value": 3},
                      seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "computer"}])
    students = {"Anna": seat_student(app, code, "Anna"), "Dan": seat_student(app, code, "Dan")}
    teacher.post(f"/api/tables/{code}/start")
    deck, rng = deck_of(teacher, code), random.Random(2)
    play_out(code, students, deck, rng, stop=lambda public: len(public["hands"]) >= 1)
    first = get_state(teacher, code)["hands"][0]
    dan_total = next(row["total"] for row in get_state(teacher, code)["standings"] if row["name"] == "Dan")

    # Dan leaves: a computer stands in under his name; then the teacher renames the seat
    assert teacher.patch(f"/api/tables/{code}/seats/1", json={"kind": "computer"}).status_code == 200
    assert get_state(teacher, code)["seats"][1]["name"] == "Dan"
    assert teacher.patch(f"/api/tables/{code}/seats/1", json={"name": "Robo"}).status_code == 200
    state = get_state(teacher, code)
    assert state["hands"][0] == first and "Dan" in state["hands"][0]["scores"]
    assert next(row["total"] for row in state["standings"] if row["name"] == "Robo") == dan_total

    play_out(code, {"Anna": students["Anna"]}, deck, rng)
    record = teacher.get(f"/api/tables/{code}/hands/1/record?format=json").get_json()
    assert "Dan" in record["players"] and "Robo" not in record["players"]
    assert any(move["player"] == "Dan" for move in record["moves"])
    last = teacher.get(f"/api/tables/{code}/hands/3/record?format=json").get_json()
    assert "Robo" in last["players"] and "Dan" not in last["players"]
    overview = teacher.get(f"/reports/tables/{code}").get_data(as_text=True)
    assert "Dan" in overview
    students_csv = teacher.get("/reports/students.csv").get_data(as_text=True).lstrip("\ufeff")
    assert "Dan" in {row["student"] for row in csv.DictReader(io.StringIO(students_csv))}
