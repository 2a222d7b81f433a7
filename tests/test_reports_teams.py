"""In Literature the sets are the team's: the report counts them for each of its players, and says so."""
from __future__ import annotations

import csv
import io
import random

from .test_web_play import play_out
from .web_support import deck_of, for_play, open_table, seat_student, teacher_client


def test_a_literature_player_is_counted_the_sets_of_their_team(app):
    for_play(app)
    teacher = teacher_client(app)
    code = open_table(teacher, rules="literature", seats=[{"kind": "human"}, {"kind": "human"}] +
                      [{"kind": "computer"}] * 4)
    students = {"Anna": seat_student(app, code, "Anna"), "Boris": seat_student(app, code, "Boris")}
    teacher.post(f"/api/tables/{code}/start")
    final = play_out(code, students, deck_of(teacher, code), random.Random(3))
    hand = final["hands"][0]
    team_sets = {name: len(books) for team, books in zip(hand["teams"], hand["team_books"]) for name in team}
    rows = csv.DictReader(io.StringIO(teacher.get("/reports/students.csv").get_data(as_text=True).lstrip("\ufeff")))
    won = {row["student"]: int(row["sets won"]) for row in rows}
    assert won == {"Anna": team_sets["Anna"], "Boris": team_sets["Boris"]}
    assert sum(team_sets.values()) > 0
    assert "each player is counted the sets their team won" in teacher.get("/reports/").get_data(as_text=True)


def test_two_children_of_one_name_at_two_tables_are_two_rows(app):
    for_play(app)
    teacher = teacher_client(app)
    for _ in range(2):
        code = open_table(teacher, seats=[{"kind": "human"}, {"kind": "computer"}, {"kind": "computer"}])
        fay = seat_student(app, code, "Fay")
        teacher.post(f"/api/tables/{code}/start")
        play_out(code, {"Fay": fay}, deck_of(teacher, code), random.Random(1))
    rows = list(csv.DictReader(io.StringIO(teacher.get("/reports/students.csv").get_data(as_text=True)
                                           .lstrip("\ufeff"))))
    fays = [row for row in rows if row["student"] == "Fay"]
    assert len(fays) == 2 and fays[0]["tables"] != fays[1]["tables"]
    assert all(int(row["hands"]) == 1 for row in fays)
