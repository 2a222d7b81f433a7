"""Class reports: per table and per student, the sets won and every name-the-work answer over a period,
the works named least, CSV exports with formula cells neutralised; a teacher sees only their tables."""
from __future__ import annotations

import csv
import io
import random
from datetime import date, timedelta

import pytest

from app.services import reports

from .web_support import choose_move, deck_of, get_state, seat_student, teacher_client, titles_of

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


# ----------------------------------------------------------------------------------------------------
# Recall tables: right / almost / right with a hint / wrong / passed, and named asks count as answers
# ----------------------------------------------------------------------------------------------------
def _truth(app, code, name):
    from app.models import Table
    from .web_support import server_game

    with app.app_context():
        game = server_game(Table.query.filter_by(code=code).one().current_deal)
        return (set(game.replay_state()["hands"][name]), list(game.prompts(name)),
                {c.id: c.title for c in game.deck.cards}, {c.id: c.set_id for c in game.deck.cards})


def _typo(title: str) -> str:
    return title[:-1] + ("x" if title[-1] != "x" else "y")


def recall_table(app, teacher, rules, options, roles):
    """A recall table of three students (and a computer) played until each student has named in their
    role: "almost" (a typo), "hint" (the right title after a hint), "wrong", "right". Returns the code
    and each naming made (student, work, typed, verdict the move answered)."""
    from .web_support import open_table

    code = open_table(teacher, rules=rules, deck="authors-1861", options=options,
                      seats=[{"kind": "human"}] * len(roles) + [{"kind": "computer"}])
    students = {name: seat_student(app, code, name) for name in roles}
    assert teacher.post(f"/api/tables/{code}/start").status_code == 200
    rng, made = random.Random(3), []
    for _ in range(400):
        public = get_state(teacher, code)
        if public["status"] != "playing" or {m[0] for m in made if m[3] != "refused"} >= set(roles) and len(made) >= 6:
            break
        name = public["game"]["turn"]
        client = students[name]
        state = get_state(client, code)
        held, prompts, titles, set_of = _truth(app, code, name)
        role = roles[name]
        if state["game"]["prompts"]:
            title = titles[prompts[0]]
            if role == "almost" and len(title) >= 8:
                move = {"answer": _typo(title)}
            elif role == "hint":
                assert client.post(f"/api/tables/{code}/hint", json={"level": 1}).status_code == 200
                move = {"answer": title, "hint": 1}
            elif role == "wrong":
                move = {"answer": "Moby-Dick"}
            else:
                move = {"answer": title}
            work, typed = title, move["answer"]
        elif state["game"]["asks"]["by"] == "card":
            asks = state["game"]["asks"]
            set_id = rng.choice(asks["sets"])
            lacking = [c for c in titles if c not in held and set_of[c] == set_id]
            title = rng.choice([titles[c] for c in lacking])
            move = {"ask": rng.choice(asks["targets"]), "set": set_id, "named": title}
            if role == "almost" and len(title) >= 8:
                move["named"] = _typo(title)
            elif role == "hint":
                move["hint"] = 1
            work, typed = title, move["named"]
        else:
            move, work = choose_move(state, deck_of(client, code), rng), None
        response = client.post(f"/api/tables/{code}/moves", json={"move": move})
        assert response.status_code == 200, response.get_json()
        if work is not None:
            event = response.get_json()["result"][0]
            verdict = "hinted" if "hint" in move and event["verdict"] != "wrong" else event["verdict"]
            made.append((name, work, typed, verdict))
    return code, made


RESULT_WORDS = {"right": "right", "almost": "almost", "hinted": "right with a hint", "wrong": "wrong"}


def _csv_rows(teacher, path):
    return list(csv.DictReader(io.StringIO(teacher.get(path).get_data(as_text=True).lstrip("\ufeff"))))


def _check_report(teacher, code, made, kind):
    rows = _csv_rows(teacher, f"/reports/answers.csv?table={code}")
    assert [(r["student"], r["work"], r["typed"], r["result"], r["named in"]) for r in rows] == [
        (name, work, typed, RESULT_WORDS[verdict], kind) for name, work, typed, verdict in made]
    students = {r["student"]: r for r in _csv_rows(teacher, f"/reports/students.csv?table={code}")}
    html = teacher.get(f"/reports/tables/{code}").get_data(as_text=True)
    for name in {m[0] for m in made}:
        mine = [m for m in made if m[0] == name]
        count = {v: sum(1 for m in mine if m[3] == v) for v in ("right", "almost", "hinted", "wrong")}
        line = students[name]
        assert (int(line["answers"]), int(line["right"]), int(line["almost"]), int(line["hinted"]),
                int(line["wrong"]), int(line["passed"])) == (len(mine), count["right"], count["almost"],
                                                             count["hinted"], count["wrong"], 0), name
        assert int(line["recalled"]) == count["right"] + count["almost"]
        row = html.split(f'data-student="{name}">', 1)[1].split("</tr>", 1)[0]
        assert f'data-count="almost">{count["almost"]}<' in row and f'data-count="hinted">{count["hinted"]}<' in row
        assert f'data-count="recalled">{count["right"] + count["almost"]}/{len(mine)}' in row
    answers = html.split('id="report-answers"', 1)[1]
    for verdict, shown in RESULT_WORDS.items():
        if any(m[3] == verdict for m in made):
            assert f'data-verdict="{verdict}"' in answers and f"<td>{shown}</td>" in answers, verdict
    for _name, _work, typed, _v in made:
        assert typed in answers
    if kind == "ask":
        assert "named in the ask" in answers
    return rows


def test_a_recall_table_reports_almost_hinted_and_wrong_answers(play_app):
    teacher = teacher_client(play_app)
    code, made = recall_table(play_app, teacher, "standard", {"name_the_work": True, "hints": True},
                              {"Anna": "almost", "Boris": "hint", "Cleo": "wrong"})
    assert {m[3] for m in made} >= {"almost", "hinted", "wrong"}, made
    _check_report(teacher, code, made, "answer")
    with play_app.app_context():
        report = reports.build(teacher_id_of(play_app), reports.period(None, None), table_code=code)
    for work in report.decks[0].works.values():
        mine = [m for m in made if m[1] == work.work]
        assert (work.asked, work.recalled) == (len(mine), sum(1 for m in mine if m[3] in ("right", "almost")))


def test_named_asks_are_reported_as_answers(play_app):
    teacher = teacher_client(play_app)
    code, made = recall_table(play_app, teacher, "classic", {"name_the_work": True, "hints": True},
                              {"Anna": "almost", "Boris": "hint", "Cleo": "right"})
    assert {m[3] for m in made} >= {"almost", "hinted", "right"}, made
    rows = _check_report(teacher, code, made, "ask")
    assert all(r["named in"] == "ask" for r in rows)


# ----------------------------------------------------------------------------------------------------
# A computer holding a student's seat: she stays in the report, its moves are listed apart, in no figure
# ----------------------------------------------------------------------------------------------------
def held_by_computer(app, teacher, holder):
    """A recall table of Anna, Boris and a computer: each names every work right until Anna has named
    two, then a computer holds her seat to the end of the deal ("stand-in": standing in while she is
    away; "replacement": put in it for good). Returns the code and the students' own namings (student,
    work) in order."""
    from .test_presence import seen_back
    from .web_support import open_table
    from app.store import presence

    code = open_table(teacher, rules="standard", deck="authors-1861", options={"name_the_work": True},
                      seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "computer"}])
    students = {name: seat_student(app, code, name) for name in ("Anna", "Boris")}
    assert teacher.post(f"/api/tables/{code}/start").status_code == 200
    deck, rng, made, held = deck_of(teacher, code), random.Random(11), [], False
    for _ in range(600):
        if not held and sum(1 for name, _work in made if name == "Anna") >= 2:
            if holder == "stand-in":
                seen_back(app, code, "Anna", presence.AWAY_AFTER + 5)
                response = teacher.post(f"/api/tables/{code}/seats/0/stand-in")
            else:
                response = teacher.patch(f"/api/tables/{code}/seats/0", json={"kind": "computer"})
            assert response.status_code == 200, response.get_json()
            held = True
        public = get_state(teacher, code)
        if public["status"] != "playing":
            break
        name = public["game"]["turn"]
        assert not held or name == "Boris"
        state = get_state(students[name], code)
        prompts = state["game"]["prompts"]
        if prompts:
            title = titles_of(app, code)[prompts[0]]
            move = {"answer": title}
            made.append((name, title))
        else:
            move = choose_move(state, deck, rng)
        response = students[name].post(f"/api/tables/{code}/moves", json={"move": move})
        assert response.status_code == 200, response.get_json()
    assert held and get_state(teacher, code)["status"] == "finished"
    return code, made


@pytest.mark.parametrize("holder", ["stand-in", "replacement"])
def test_a_student_whose_seat_a_computer_holds_stays_in_the_report(play_app, holder):
    """The report keeps Anna with her hand and her own answers, whatever holds her seat now; the
    computer's passes for her are listed as "computer for Anna" and counted in no figure, hers or the
    works'."""
    teacher = teacher_client(play_app)
    code, made = held_by_computer(play_app, teacher, holder)
    seat = get_state(teacher, code)["seats"][0]
    assert seat["name"] == "Anna" and seat["kind"] == "computer" and seat["stand_in"] is (holder == "stand-in")

    rows = _csv_rows(teacher, f"/reports/answers.csv?table={code}")
    own = [(r["student"], r["work"], r["result"]) for r in rows if not r["student"].startswith("computer for ")]
    assert own == [(name, work, "right") for name, work in made]
    computer = [r for r in rows if r["student"].startswith("computer for ")]
    assert computer and all(r["student"] == "computer for Anna" and r["result"] == "passed" and r["typed"] == ""
                            for r in computer)
    students = {r["student"]: r for r in _csv_rows(teacher, f"/reports/students.csv?table={code}")}
    assert set(students) == {"Anna", "Boris"}
    anna = sum(1 for name, _work in made if name == "Anna")
    assert (students["Anna"]["hands"], students["Anna"]["answers"], students["Anna"]["right"],
            students["Anna"]["passed"], students["Anna"]["recalled %"]) == ("1", str(anna), str(anna), "0", "100")

    html = teacher.get(f"/reports/tables/{code}").get_data(as_text=True)
    row = html.split('data-student="Anna">', 1)[1].split("</tr>", 1)[0]
    assert f'data-count="recalled">{anna}/{anna} ' in row
    answers = html.split('id="report-answers"', 1)[1]
    assert answers.count('data-by="computer"') == len(computer) and "<i>computer for Anna</i>" in answers
    with play_app.app_context():
        report = reports.build(teacher_id_of(play_app), reports.period(None, None), table_code=code)
    assert sum(work.asked for work in report.decks[0].works.values()) == len(made)


def test_a_students_page_lists_only_her_tables_and_answers_fold_per_student(play_app):
    """Anna played Room 12, Fay another table: Anna's page lists Room 12 alone; the class report folds
    every answer into one closed block per student (her page opens hers), and the CSV is as before."""
    from .test_web_play import play_out
    from .web_support import for_play, open_table

    teacher = teacher_client(play_app)
    code, answers, _final = played_table(play_app, teacher)
    for_play(play_app)
    other = open_table(teacher, seats=[{"kind": "human"}, {"kind": "computer"}, {"kind": "computer"}])
    fay = seat_student(play_app, other, "Fay")
    teacher.post(f"/api/tables/{other}/start")
    play_out(other, {"Fay": fay}, deck_of(teacher, other), random.Random(1))

    everyone = teacher.get("/reports/").get_data(as_text=True)
    listed = everyone.split('id="report-tables"', 1)[1].split("</table>", 1)[0]
    assert f'data-code="{code}"' in listed and f'data-code="{other}"' in listed
    anna = teacher.get("/reports/?student=anna").get_data(as_text=True)
    listed = anna.split('id="report-tables"', 1)[1].split("</table>", 1)[0]
    assert f'data-code="{code}"' in listed and f'data-code="{other}"' not in listed

    folded = everyone.split('id="report-answers"', 1)[1]
    blocks = folded.split("<details")[1:]
    assert [b.split('data-answers-of="', 1)[1].split('"', 1)[0] for b in blocks] == ["Anna", "Boris"]
    for block in blocks:
        head = block.split(">", 1)[0]
        assert " open" not in head  # closed by default
        name = block.split('data-answers-of="', 1)[1].split('"', 1)[0]
        mine = [a for a in answers if a[0] == name]
        assert block.count("<tr class=") == len(mine)
        summary = block.split("<summary>", 1)[1].split("</summary>", 1)[0]
        assert summary.startswith(f"{name}: {len(mine)} answer") and f"{sum(a[3] for a in mine)} recalled" in summary
    own = anna.split('id="report-answers"', 1)[1]
    assert own.count("<details") == 1 and 'data-answers-of="Anna" open' in own
    rows = _csv_rows(teacher, "/reports/answers.csv")
    assert len(rows) == len(answers) and {r["student"] for r in rows} == {"Anna", "Boris"}
