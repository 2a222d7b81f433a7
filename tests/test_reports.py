"""Class reports: per table and per student, the sets won and every name-the-work answer over a period,
the works named least, CSV exports with formula cells neutralised; a teacher sees only their tables."""
from __future__ import annotations

import csv
import io
import random
from datetime import date, timedelta

import pytest

from app.services import reports

from .web_support import choose_move, deck_of, for_play, get_state, seat_student, teacher_client, titles_of

SHEET = ("Charles Dickens\tOliver Twist\tOliver\n"
         "Charles Dickens\tBleak House\n"
         "Charles Dickens\tHard Times\n"
         "Edgar Allan Poe\tThe Raven\n"
         "Edgar Allan Poe\tThe Gold-Bug\n"
         "Edgar Allan Poe\tUlalume\n"
         "Jane Austen\tEmma\n"
         "Jane Austen\tPersuasion\n"
         "Jane Austen\tMansfield Park\n"
         "Mark Twain\tRoughing It\n"
         "Mark Twain\tThe Prince and the Pauper\n"
         "Mark Twain\tLife on the Mississippi\n")
HOSTILE = ["<script>alert(1)</script>", "=HYPERLINK(\"http://evil.example\",\"x\")", None, "@SUM(A1)", "+1+2", "-3"]


def played_table(app, teacher, name="Room 12"):
    """A studio deck, a two-hand match of Anna, Boris and a computer, played to its end: Anna names
    every work right, Boris types hostile text or passes. Returns the code and each answer made."""
    made = teacher.post("/studio/paste", data={"title": "Four writers", "rows": SHEET, "action": "create"})
    number = made.headers["Location"].rsplit("/", 1)[1]
    response = teacher.post("/api/tables", json={"name": name, "deck": f"studio:{number}", "rules": "standard",
                                                 "options": {"name_the_work": True}, "match": {"format": "hands", "value": 2},
                                                 "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "computer"}]})
    assert response.status_code == 201, response.get_json()
    code = response.get_json()["code"]
    students = {"Anna": seat_student(app, code, "Anna"), "Boris": seat_student(app, code, "Boris")}
    assert teacher.post(f"/api/tables/{code}/start").status_code == 200
    deck = deck_of(teacher, code)
    rng, made_answers, hostile = random.Random(7), [], iter(HOSTILE * 20)
    for _ in range(1000):
        public = get_state(teacher, code)
        if public["status"] != "playing":
            break
        player = public["game"]["turn"]
        client = students[player]
        state = get_state(client, code)
        prompts = state["game"]["prompts"]
        titles = titles_of(app, code)  # the cards behind the tokens a recall table sends: the test's oracle
        if prompts:
            typed = titles[prompts[0]] if player == "Anna" else next(hostile)
            move = {"answer": typed}
        else:
            move = choose_move(state, deck, rng)
        result = client.post(f"/api/tables/{code}/moves", json={"move": move})
        assert result.status_code == 200, result.get_json()
        if prompts:
            event = result.get_json()["result"][0]
            made_answers.append((player, titles[prompts[0]], typed, event["correct"]))
    final = get_state(teacher, code)
    assert final["status"] == "finished"
    return code, made_answers, final


@pytest.fixture
def play_app(app):
    return for_play(app)


def test_a_report_shows_every_answer_and_the_sets_won(play_app):
    teacher = teacher_client(play_app)
    code, answers, final = played_table(play_app, teacher)
    assert {a[0] for a in answers} == {"Anna", "Boris"} and any(a[2] is None for a in answers)
    page = teacher.get("/reports/")
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and "Room 12" in html and "Four writers" in html
    assert "<script>alert(1)</script>" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    for name in ("Anna", "Boris"):
        mine = [a for a in answers if a[0] == name]
        sets_won = sum(len(hand["books"].get(name, [])) for hand in final["hands"])
        row = html.split(f'data-student="{name}">', 1)[1].split("</tr>", 1)[0]
        cells = [c.split("</td>")[0] for c in row.split('class="num">')[1:]]
        assert cells == [str(x) for x in (len(final["hands"]), sets_won, len(mine), sum(a[3] for a in mine),
                                           sum(1 for a in mine if not a[3] and a[2] is not None),
                                           sum(1 for a in mine if a[2] is None))], name
    assert "Computer 1" not in html.split("<h2>Students</h2>", 1)[1]

    table_page = teacher.get(f"/reports/tables/{code}").get_data(as_text=True)
    assert "Report of table" in table_page and table_page.count("<tr class=") >= len(answers)
    student = teacher.get("/reports/?student=boris").get_data(as_text=True)
    assert 'data-student="Boris"' in student and 'data-student="Anna"' not in student


def test_the_answers_csv_holds_every_answer_with_formulas_neutralised(play_app):
    teacher = teacher_client(play_app)
    code, answers, _ = played_table(play_app, teacher)
    response = teacher.get("/reports/answers.csv")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    assert "attachment" in response.headers["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(response.get_data(as_text=True).lstrip("\ufeff"))))
    assert [(r["student"], r["work"], r["result"]) for r in rows] == [
        (name, work, "passed" if typed is None else ("right" if right else "wrong")) for name, work, typed, right in answers]
    typed = [r["typed"] for r in rows if r["student"] == "Boris" and r["result"] == "wrong"]
    assert typed and all(not t.startswith(("=", "+", "-", "@")) for t in typed)
    assert "'=HYPERLINK(\"http://evil.example\",\"x\")" in typed
    assert {r["table"] for r in rows} == {code}
    students = list(csv.DictReader(io.StringIO(teacher.get("/reports/students.csv").get_data(as_text=True).lstrip("\ufeff"))))
    assert sorted(r["student"] for r in students) == ["Anna", "Boris"]
    anna = next(r for r in students if r["student"] == "Anna")
    assert int(anna["answers"]) == int(anna["right"]) == sum(1 for a in answers if a[0] == "Anna")
    one = teacher.get(f"/reports/answers.csv?table={code}&student=Anna").get_data(as_text=True)
    assert one.count("\r\n") == 1 + sum(1 for a in answers if a[0] == "Anna")


def test_the_works_named_least_come_first(play_app):
    teacher = teacher_client(play_app)
    _, answers, _ = played_table(play_app, teacher)
    with play_app.app_context():
        teacher_id = teacher_id_of(play_app)
        report = reports.build(teacher_id, reports.period(None, None))
    [deck] = report.decks
    assert deck.title == "Four writers"
    least = deck.least_named()
    assert [w.rate for w in least] == sorted(w.rate for w in least)
    for work in least:
        asked = [a for a in answers if a[1] == work.work]
        assert (work.asked, work.right) == (len(asked), sum(a[3] for a in asked))


def teacher_id_of(app, name="Ms Teacher"):
    from app.services import accounts

    return accounts.find_by_name(name).id


def test_periods_and_owners(play_app):
    teacher = teacher_client(play_app)
    code, _, _ = played_table(play_app, teacher)
    today = date.today()
    earlier = teacher.get(f"/reports/?from={today - timedelta(days=9)}&to={today - timedelta(days=2)}")
    assert earlier.status_code == 200 and "No hand was played" in earlier.get_data(as_text=True)
    for query, message in [("from=yesterday", "YYYY-MM-DD"), ("from=2026-02-30", "YYYY-MM-DD"),
                           (f"from={today}&to={today - timedelta(days=1)}", "comes after"),
                           ("from=2000-01-01&to=2020-01-01", "at most")]:
        response = teacher.get(f"/reports/?{query}")
        assert response.status_code == 400 and message in response.get_data(as_text=True), query
        assert teacher.get(f"/reports/answers.csv?{query}").status_code == 400
    other = teacher_client(play_app, "Mr Other")
    assert "No hand was played" in other.get("/reports/").get_data(as_text=True)
    assert other.get(f"/reports/tables/{code}").status_code == 404
    assert other.get(f"/reports/answers.csv?table={code}").status_code == 404
    assert other.get("/reports/answers.csv").get_data(as_text=True).count("\r\n") == 1  # the header only
    anonymous = play_app.test_client()
    assert anonymous.get("/reports/").status_code == 302
    assert anonymous.get("/reports/answers.csv", headers={"Accept": "application/json"}).status_code == 401


@pytest.mark.parametrize("value, shown", [("=1+2", "'=1+2"), ("+1", "'+1"), ("-1", "'-1"), ("@A1", "'@A1"),
                                          ("\tx", "'\tx"), ("\rx", "'\rx"), ("Emma", "Emma"), ("", ""),
                                          (" =1+2", "' =1+2"), ("\n=1", "'\n=1"), ("\x00=1", "'\x00=1"),
                                          ("\u200b=1", "'\u200b=1"), ("\ufeff@A1", "'\ufeff@A1"),
                                          ("\u00a0-1", "'\u00a0-1"), ("\u2028=1", "'\u2028=1"),
                                          (None, ""), (3, "3"), ("a=b", "a=b")])
def test_csv_cells_that_start_a_formula_are_neutralised(value, shown):
    assert reports.safe_cell(value) == shown
