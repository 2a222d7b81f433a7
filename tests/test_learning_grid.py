"""What the class remembers (issue #34): the teacher's grid of a class's students × a deck's works, each
cell recalled, due, missed or never seen with when it is due again; the days each student practised on
her teacher's calendar; what is due for each now; the CSV safe to open; the JSON as documented
(app/services/learning.py, app/web/learning.py)."""
from __future__ import annotations

import csv
import io
import time
from datetime import datetime, timezone

import pytest

from app.db import db
from app.decks import builtin_decks
from app.models import Deal, Review, ReviewCard, RosterStudent, SchoolClass
from app.services import learning, reviews
from app.services.namings import Naming

from .test_classes import make_class
from .test_reviews import answer_first_prompt, class_table
from .test_roster_join import class_ids
from .web_support import error_of, teacher_client

DECK = builtin_decks()["authors-1861"]
WORKS = [card.id for card_set in DECK.sets for card in card_set.cards]
KEY = "authors-1861"
DAY = 86400.0


def _utc(text: str) -> float:
    return datetime.fromisoformat(text).replace(tzinfo=timezone.utc).timestamp()


def _seed(app, student_id: int, card: str, verdict: str, at: float, seq: int) -> None:
    """One graded naming of `card` by the student at `at`, as a move of the class table's deal would store it."""
    with app.app_context():
        deal = Deal.query.order_by(Deal.id).first()
        reviews._review(student_id, KEY, Naming("x", card, "typed", verdict, "answer"), deal.id, seq, at)
        db.session.commit()


def _grid(app, zone=None, now=None, deck=None):
    with app.app_context():
        school_class = SchoolClass.query.one()
        teacher_id = school_class.teacher_id
        return learning.build(school_class, teacher_id, deck, now or time.time(), zone)


@pytest.fixture
def seeded(play_app):
    """Anna and Boris of a class whose table has one deal (a class table of the 1861 deck)."""
    teacher, anna_client, code, anna_id = class_table(play_app)
    with play_app.app_context():
        boris_id = RosterStudent.query.filter_by(name="Boris").one().id
    play_app.anna, play_app.code = anna_client, code  # (for the test that plays through the game)
    return teacher, anna_id, boris_id


def _cell(grid, name, card):
    row = next(r for r in grid.rows if r.name == name)
    return row, row.cells[[w.card_id for w in grid.works].index(card)]


# ----------------------------------------------------------------------------------------------------
# The states
# ----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("due, rating, now, state", [
    (None, None, 100.0, "never"),
    (50.0, 1, 100.0, "missed"),    # wrong or passed the last time: missed, whenever it is due
    (500.0, 1, 100.0, "missed"),
    (50.0, 3, 100.0, "due"),       # right the last time, and due again by now
    (100.0, 2, 100.0, "due"),
    (500.0, 3, 100.0, "recalled"),
])
def test_a_cells_state_is_its_last_rating_and_its_due_time(due, rating, now, state):
    assert learning.state_of(due, rating, now) == state


def test_the_grid_shows_each_students_works_and_what_is_due_now(seeded, play_app):
    _teacher, anna, boris = seeded
    now = time.time()
    _seed(play_app, anna, WORKS[0], "wrong", now - 3600, 1)
    _seed(play_app, anna, WORKS[1], "right", now - 60, 2)
    _seed(play_app, anna, WORKS[2], "right", now - 40 * DAY, 3)  # right long ago: due again by now
    _seed(play_app, boris, WORKS[1], "passed", now - 120, 4)
    grid = _grid(play_app, now=now)

    assert grid.deck.key == KEY and grid.deck.reviews == 4
    assert [w.card_id for w in grid.works] == WORKS  # every work of the deck, in its order
    assert [g.name for g in grid.groups] == [s.name for s in DECK.sets]
    assert [r.name for r in grid.rows] == ["Anna", "Boris"]
    row, missed = _cell(grid, "Anna", WORKS[0])
    assert missed.state == "missed" and missed.due is not None and missed.reviews == 1
    assert _cell(grid, "Anna", WORKS[1])[1].state == "recalled"
    assert _cell(grid, "Anna", WORKS[1])[1].due > now
    assert _cell(grid, "Anna", WORKS[2])[1].state == "due"
    assert _cell(grid, "Anna", WORKS[3])[1].state == "never"
    assert row.counts == {"recalled": 1, "due": 1, "missed": 1, "never": len(WORKS) - 3}
    assert [w.card_id for w in row.due_now] == [WORKS[0], WORKS[2]]  # the missed work is due within minutes
    boris_row, boris_cell = _cell(grid, "Boris", WORKS[1])
    assert boris_cell.state == "missed" and boris_row.counts["never"] == len(WORKS) - 1


def test_the_last_naming_decides_missed_after_a_right_one_and_recalled_after_a_wrong_one(seeded, play_app):
    _teacher, anna, _boris = seeded
    now = time.time()
    _seed(play_app, anna, WORKS[0], "right", now - 7200, 1)
    _seed(play_app, anna, WORKS[0], "wrong", now - 3600, 2)
    _seed(play_app, anna, WORKS[1], "wrong", now - 7200, 3)
    _seed(play_app, anna, WORKS[1], "right", now - 3600, 4)
    grid = _grid(play_app, now=now)
    assert _cell(grid, "Anna", WORKS[0])[1].state == "missed"
    assert _cell(grid, "Anna", WORKS[0])[1].reviews == 2
    assert _cell(grid, "Anna", WORKS[1])[1].state in ("recalled", "due")  # right the last time
    assert _cell(grid, "Anna", WORKS[1])[1].state != "missed"


def test_a_work_named_in_the_real_game_shows_in_the_grid(seeded, play_app):
    """Through the game itself: Anna names a prompt's work wrong at the class table."""
    teacher, _anna_id, _boris = seeded
    missed = answer_first_prompt(play_app, play_app.anna, play_app.code, right=False)
    body = teacher.get(f"/api/classes/{_class_id(play_app)}/learning").get_json()
    row = next(s for s in body["students"] if s["name"] == "Anna")
    cell = next(c for c in row["cells"] if c["card"] == missed)
    assert cell["state"] == "missed" and cell["reviews"] == 1 and cell["due"] and cell["due_day"]
    assert missed in row["due_now"] or cell["due"] > body["now"]


def _class_id(app):
    with app.app_context():
        return SchoolClass.query.one().id


# ----------------------------------------------------------------------------------------------------
# Days practised, on the teacher's calendar
# ----------------------------------------------------------------------------------------------------
def test_days_practised_are_counted_on_the_teachers_calendar(seeded, play_app):
    _teacher, anna, boris = seeded
    # 22:30 and 23:30 UTC on 1 March: one day in London, two in Berlin (23:30 and 00:30 there).
    _seed(play_app, anna, WORKS[0], "right", _utc("2027-03-01T22:30:00"), 1)
    _seed(play_app, anna, WORKS[1], "right", _utc("2027-03-01T23:30:00"), 2)
    _seed(play_app, anna, WORKS[2], "wrong", _utc("2027-03-01T23:40:00"), 3)
    _seed(play_app, boris, WORKS[0], "right", _utc("2027-03-05T10:00:00"), 4)
    now = _utc("2027-03-06T12:00:00")
    london = {r.name: r.days_practised for r in _grid(play_app, "Europe/London", now).rows}
    berlin = {r.name: r.days_practised for r in _grid(play_app, "Europe/Berlin", now).rows}
    assert london == {"Anna": 1, "Boris": 1}
    assert berlin == {"Anna": 2, "Boris": 1}
    # Auckland (UTC+13 in March): 11:30, 12:30 and 12:40 on 2 March; one day.
    assert {r.name: r.days_practised for r in _grid(play_app, "Pacific/Auckland", now).rows}["Anna"] == 1


# ----------------------------------------------------------------------------------------------------
# The page, the CSV, the JSON and who may see them
# ----------------------------------------------------------------------------------------------------
def test_the_page_shows_states_in_words_and_when_each_is_due(seeded, play_app):
    teacher, anna, _boris = seeded
    now = time.time()
    _seed(play_app, anna, WORKS[0], "wrong", now - 60, 1)
    class_id = _class_id(play_app)
    page = teacher.get(f"/classes/{class_id}/learning").get_data(as_text=True)
    title = DECK.cards[0].title if DECK.cards[0].id == WORKS[0] else next(c.title for c in DECK.cards
                                                                          if c.id == WORKS[0])
    assert "What 7B remembers" in page and 'id="learning-grid"' in page
    assert f"Anna · {title}: missed · due " in page  # the tooltip: state and its day, in words
    assert "never seen" in page and 'id="due-now-list"' in page
    assert f'href="/classes/{class_id}/learning"' in teacher.get(f"/classes/{class_id}").get_data(as_text=True)
    ru = teacher.get(f"/classes/{class_id}/learning?lang=ru").get_data(as_text=True)
    assert "пропущено" in ru


def test_the_csv_is_safe_to_open_and_says_each_state_with_its_day(seeded, play_app):
    teacher, anna, _boris = seeded
    now = time.time()
    _seed(play_app, anna, WORKS[0], "wrong", now - 60, 1)
    class_id = _class_id(play_app)
    with play_app.app_context():  # a student's name a spreadsheet would run as a formula
        row = RosterStudent.query.filter_by(name="Boris").one()
        row.name = "=HYPERLINK(\"http://x\")"
        db.session.commit()
    response = teacher.get(f"/classes/{class_id}/learning.csv")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    assert "attachment" in response.headers["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.get_data(as_text=True).lstrip("\ufeff"))))
    assert rows[0][:4] == ["student", "on the roster", "days practised", "due now"]
    assert len(rows[0]) == 4 + len(WORKS)
    by_name = {r[0]: r for r in rows[1:]}
    assert by_name["Anna"][4].startswith("missed ") and by_name["Anna"][3] == "1"
    assert datetime.strptime(by_name["Anna"][4].split()[1], "%Y-%m-%d")
    assert "'=HYPERLINK(\"http://x\")" in by_name


def test_the_json_lists_every_student_and_work_and_is_documented(seeded, play_app):
    teacher, anna, _boris = seeded
    _seed(play_app, anna, WORKS[5], "right", time.time() - 60, 1)
    class_id = _class_id(play_app)
    body = teacher.get(f"/api/classes/{class_id}/learning?deck={KEY}").get_json()
    assert body["deck"]["key"] == KEY and [w["card"] for w in body["works"]] == WORKS
    assert {s["name"] for s in body["students"]} == {"Anna", "Boris"}
    anna_row = next(s for s in body["students"] if s["name"] == "Anna")
    assert anna_row["counts"]["recalled"] == 1 and len(anna_row["cells"]) == len(WORKS)
    assert body["decks"] == [{"key": KEY, "title": DECK.title, "reviews": 1}]
    spec = teacher.get("/api/openapi.json").get_json()
    assert "get" in spec["paths"]["/api/classes/{number}/learning"]


def test_a_deck_with_no_namings_shows_an_empty_grid_and_an_unknown_deck_a_sentence(seeded, play_app):
    teacher, _anna, _boris = seeded
    class_id = _class_id(play_app)
    body = teacher.get(f"/api/classes/{class_id}/learning?deck=standard-52").get_json()
    assert body["deck"]["key"] == "standard-52"
    assert all(c["state"] == "never" for s in body["students"] for c in s["cells"])
    response = teacher.get(f"/api/classes/{class_id}/learning?deck=no-such-deck")
    assert response.status_code == 404 and error_of(response)["code"] == "unknown-deck"
    page = teacher.get(f"/classes/{class_id}/learning?deck=studio:99999")
    assert page.status_code == 404 and "no-such" not in page.get_data(as_text=True)


def test_another_teacher_and_a_student_cannot_see_the_grid(seeded, play_app):
    _teacher, _anna, _boris = seeded
    class_id = _class_id(play_app)
    other = teacher_client(play_app, name="Mr Other")
    assert other.get(f"/api/classes/{class_id}/learning").status_code == 404
    assert other.get(f"/classes/{class_id}/learning.csv").status_code == 404
    student = play_app.test_client()
    assert student.get(f"/api/classes/{class_id}/learning").status_code in (401, 403)


def test_a_student_taken_off_the_roster_stays_while_she_has_namings(seeded, play_app):
    teacher, anna, _boris = seeded
    _seed(play_app, anna, WORKS[0], "wrong", time.time() - 60, 1)
    with play_app.app_context():
        for student in RosterStudent.query.all():
            student.removed = True
        db.session.commit()
    rows = _grid(play_app).rows
    assert [(r.name, r.removed) for r in rows] == [("Anna", True)]  # Boris, with nothing named, is not shown


def test_the_grid_is_read_in_a_few_queries_whatever_the_class_size(app):
    """Thirty students with a review each: the queries do not grow with the class."""
    from sqlalchemy import event

    teacher = teacher_client(app)
    make_class(teacher, names="\n".join(f"Student {n:02d}" for n in range(30)))
    _class_id_, students = class_ids(app)
    ids = sorted(students.values())
    # A review belongs to a move of a deal: one table of the class, started, gives the deal.
    response = teacher.post("/api/tables", json={
        "seats": [{"kind": "human"}, {"kind": "computer"}, {"kind": "computer"}], "class_id": _class_id_,
        "rules": "standard", "deck": KEY, "options": {"name_the_work": True}})
    code = response.get_json()["code"]
    student = app.test_client()
    assert student.post(f"/api/tables/{code}/join", json={"student": ids[0]}).status_code == 201
    assert teacher.post(f"/api/tables/{code}/start").status_code == 200
    now = time.time()
    for n, student_id in enumerate(ids):
        _seed(app, student_id, WORKS[n % len(WORKS)], "right" if n % 2 else "wrong", now - 60 - n, n + 1)
    with app.app_context():
        statements = []
        engine = db.engine
        listener = lambda *args: statements.append(args[2])  # noqa: E731
        event.listen(engine, "before_cursor_execute", listener)
        try:
            school_class = SchoolClass.query.one()
            grid = learning.build(school_class, school_class.teacher_id, None, now, "Europe/Paris")
        finally:
            event.remove(engine, "before_cursor_execute", listener)
    assert len(grid.rows) == 30 and sum(r.counts["never"] < len(WORKS) for r in grid.rows) == 30
    assert len(statements) <= 8, statements
    with app.app_context():
        assert Review.query.count() == 30 and ReviewCard.query.count() == 30


def test_a_number_too_big_for_the_database_is_not_found(seeded, play_app):
    teacher, _anna, _boris = seeded
    huge = "9" * 40  # (SQLite refuses such an int outright: it must never reach the driver)
    for path in (f"/api/classes/{huge}/learning", f"/classes/{huge}/learning.csv", f"/api/assignments/{huge}",
                 f"/homework/{huge}"):
        assert teacher.get(path).status_code == 404, path


def test_a_work_missed_a_moment_ago_is_due_now(seeded, play_app):
    _teacher, anna, _boris = seeded
    now = time.time()
    _seed(play_app, anna, WORKS[0], "wrong", now - 1, 1)  # FSRS: due again a minute or so later
    row, cell = _cell(_grid(play_app, now=now), "Anna", WORKS[0])
    assert cell.state == "missed" and cell.due > now
    assert [w.card_id for w in row.due_now] == [WORKS[0]]
