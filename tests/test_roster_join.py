"""A table opened for a class: its students join by picking their name from the roster (no typing, no two
of one name), with the class word when the class has one; the seat remembers the roster student, so a
child's results join up across the class's tables and days in the reports."""
from __future__ import annotations

import re

import pytest

from app.db import db
from app.models import Deal, SchoolClass, Seat, Table

from .test_classes import make_class
from .web_support import choose_move, deck_of, get_state, teacher_client

pytestmark = pytest.mark.database
SEATS = [{"kind": "human"}, {"kind": "human"}, {"kind": "computer"}]


def class_ids(app) -> tuple[int, dict[str, int]]:
    with app.app_context():
        school_class = SchoolClass.query.one()
        return school_class.id, {s.name: s.id for s in school_class.students}


def open_for_class(teacher, class_id, **spec) -> str:
    response = teacher.post("/api/tables", json={"seats": SEATS, "class_id": class_id, **spec})
    assert response.status_code == 201, response.get_json()
    return response.get_json()["code"]


def test_a_student_picks_their_name_and_the_seat_remembers_them(app):
    teacher = teacher_client(app)
    make_class(teacher)
    class_id, students = class_ids(app)
    code = open_for_class(teacher, class_id)
    page = app.test_client().get(f"/j/{code}").get_data(as_text=True)
    assert re.findall(r'name="student" value="(\d+)"', page) == [str(students[n]) for n in ("Anna", "Boris", "Gleb", "Vera")]
    assert 'id="name"' not in page  # nothing to type
    anna = app.test_client()
    response = anna.post(f"/api/tables/{code}/join", json={"student": students["Anna"]})
    assert response.status_code == 201, response.get_json()
    assert response.get_json()["you"]["name"] == "Anna"
    with app.app_context():
        seat = Seat.query.join(Table).filter(Table.code == code, Seat.name == "Anna").one()
        assert seat.student_id == students["Anna"]
    # Anna is playing: nobody else can take her name; tapping it asks the teacher for her seat (issue #33).
    page = app.test_client().get(f"/j/{code}").get_data(as_text=True)
    assert re.search(rf'value="{students["Anna"]}" class="roster-name back">Anna <span class="hint">\(playing: tap', page)
    taken = app.test_client().post(f"/api/tables/{code}/join", json={"student": students["Anna"]})
    assert taken.status_code == 202 and taken.get_json()["asking"]["status"] == "waiting", taken.get_json()
    # Typing a name is no way in at a class's table; a student of another class neither.
    typed = app.test_client().post(f"/api/tables/{code}/join", json={"name": "Mallory"})
    assert typed.status_code == 400 and typed.get_json()["error"]["code"] == "pick-your-name"
    stray = app.test_client().post(f"/api/tables/{code}/join", json={"student": 999999})
    assert stray.status_code == 400 and stray.get_json()["error"]["code"] == "unknown-student"


def test_the_class_word_is_asked_and_shown_only_on_the_teachers_projector(app):
    teacher = teacher_client(app)
    make_class(teacher, word=True)
    class_id, students = class_ids(app)
    with app.app_context():
        word = SchoolClass.query.one().word
    code = open_for_class(teacher, class_id)
    assert 'id="class-word"' in app.test_client().get(f"/j/{code}").get_data(as_text=True)
    wrong = app.test_client().post(f"/api/tables/{code}/join", json={"student": students["Boris"], "word": "ZZZZ"})
    assert wrong.status_code == 400 and wrong.get_json()["error"]["code"] == "wrong-class-word"
    right = app.test_client().post(f"/api/tables/{code}/join", json={"student": students["Boris"], "word": word.lower()})
    assert right.status_code == 201
    assert word in teacher.get(f"/t/{code}/projector").get_data(as_text=True)
    assert word not in app.test_client().get(f"/t/{code}/projector").get_data(as_text=True)  # a stranger's screen


def test_the_join_form_takes_the_pick_and_keeps_the_roster_on_a_refusal(app):
    teacher = teacher_client(app)
    make_class(teacher, word=True)
    class_id, students = class_ids(app)
    code = open_for_class(teacher, class_id)
    refused = app.test_client().post("/join", data={"code": code, "student": students["Vera"], "word": "nope"})
    page = refused.get_data(as_text=True)
    assert refused.status_code == 400 and "class word" in page and 'name="student"' in page
    with app.app_context():
        word = SchoolClass.query.one().word
    joined = app.test_client().post("/join", data={"code": code, "student": students["Vera"], "word": word})
    assert joined.status_code == 303 and joined.headers["Location"].endswith(f"/t/{code}/play")


def test_another_teachers_class_cannot_be_used(app):
    owner = teacher_client(app)
    make_class(owner)
    class_id, _students = class_ids(app)
    other = teacher_client(app, "Mr Other")
    response = other.post("/api/tables", json={"seats": SEATS, "class_id": class_id})
    assert response.status_code == 404 and response.get_json()["error"]["code"] == "unknown-class"
    assert owner.post("/api/tables", json={"seats": SEATS, "class_id": True}).status_code == 400


def play_until_over(app, code, clients, teacher):
    deck = deck_of(teacher, code)
    import random
    rng = random.Random(3)
    for _ in range(2000):
        state = get_state(teacher, code)
        if state["status"] != "playing":
            return
        for client in clients:
            mine = get_state(client, code)
            if mine["status"] == "playing" and mine["game"] and mine["game"]["turn"] == mine["you"]["name"]:
                client.post(f"/api/tables/{code}/moves", json={"version": mine["version"],
                                                                "move": choose_move(mine, deck, rng)})
    raise AssertionError("the hand did not end")


def test_a_childs_results_join_up_across_the_classs_tables_and_days(app):
    app.config.update(BOT_PACE_SECONDS=0, HAND_PAUSE_SECONDS=0, DEAL_SEED=7)
    teacher = teacher_client(app)
    make_class(teacher)
    class_id, students = class_ids(app)
    codes = []
    for _table in range(2):
        code = open_for_class(teacher, class_id, match={"format": "hands", "value": 1})
        anna, boris = app.test_client(), app.test_client()
        assert anna.post(f"/api/tables/{code}/join", json={"student": students["Anna"]}).status_code == 201
        assert boris.post(f"/api/tables/{code}/join", json={"student": students["Boris"]}).status_code == 201
        assert teacher.post(f"/api/tables/{code}/start").status_code == 200
        play_until_over(app, code, [anna, boris], teacher)
        codes.append(code)
    with app.app_context():  # the first table was played yesterday
        deal = Deal.query.join(Table).filter(Table.code == codes[0]).one()
        deal.started_at -= 86400
        db.session.commit()
    page = teacher.get(f"/reports/?class={class_id}").get_data(as_text=True)
    rows = re.findall(r'<tr data-student="Anna">', page)
    assert len(rows) == 1, "Anna is one child at the class's two tables"
    anna_row = page[page.index('<tr data-student="Anna">'):].split("</tr>", 1)[0]
    assert all(code[:3] in anna_row for code in codes)
    assert re.search(r'<td class="num">2</td>', anna_row)  # two hands
    days = teacher.get(f"/reports/?class={class_id}&student=Anna").get_data(as_text=True)
    assert len(re.findall(r'<tr data-day="\d{4}-\d\d-\d\d">', days)) == 2
    # Without the class, two children of one name at two tables are still two rows.
    assert teacher.get("/reports/?class=999999").status_code == 404


def test_the_class_word_is_limited_per_browser_then_per_address(app):
    """The class word could be guessed without limit (every word from one browser in about half an hour).
    Now wrong words count like wrong join codes: per browser, then per address, a 429 with a sentence and
    Retry-After, even for the right word, until the window ends; the teacher's page says so."""
    app.config.update(CLASS_WORD_LIMIT=3, CLASS_WORD_ADDRESS_LIMIT=5)
    school = {"REMOTE_ADDR": "198.51.100.7"}
    teacher = teacher_client(app)
    teacher.environ_base.update(school)
    make_class(teacher, word=True)
    class_id, students = class_ids(app)
    with app.app_context():
        word = SchoolClass.query.one().word
    wrong = "ZZZZ" if word != "ZZZZ" else "YYYY"
    code = open_for_class(teacher, class_id)
    guesser = app.test_client()
    guesser.environ_base.update(school)
    for _ in range(3):
        refused = guesser.post(f"/api/tables/{code}/join", json={"student": students["Boris"], "word": wrong})
        assert refused.status_code == 400 and refused.get_json()["error"]["code"] == "wrong-class-word"
    blocked = guesser.post(f"/api/tables/{code}/join", json={"student": students["Boris"], "word": word})
    assert blocked.status_code == 429, blocked.get_json()
    assert "class words were tried in this browser" in blocked.get_json()["error"]["message"]
    assert 0 < int(blocked.headers["Retry-After"]) <= 600
    page = guesser.post("/join", data={"code": code, "student": students["Boris"], "word": word})
    assert page.status_code == 429 and "in this browser" in page.get_data(as_text=True)
    assert int(page.headers["Retry-After"]) > 0
    # Another browser at the same address goes on joining, until the address has had its five wrong words.
    classmate = app.test_client()
    classmate.environ_base.update(school)
    assert classmate.post(f"/api/tables/{code}/join", json={"student": students["Boris"], "word": word}).status_code == 201
    for _ in range(2):
        other = app.test_client()
        other.environ_base.update(school)
        assert other.post(f"/api/tables/{code}/join", json={"student": students["Vera"], "word": wrong}).status_code == 400
    late = app.test_client()
    late.environ_base.update(school)
    network = late.post(f"/api/tables/{code}/join", json={"student": students["Vera"], "word": word})
    assert network.status_code == 429 and "from this network" in network.get_json()["error"]["message"]
    assert "many wrong codes from this network" in teacher.get(f"/t/{code}").get_data(as_text=True)
    away = app.test_client()
    away.environ_base.update({"REMOTE_ADDR": "203.0.113.5"})
    assert away.post(f"/api/tables/{code}/join", json={"student": students["Vera"], "word": word}).status_code == 201


def test_typing_a_roster_name_seats_her_as_the_tap_would(app):
    """At a class's table the code and her roster name typed (case and spacing aside) seat the roster
    student, as tapping her name does; a name not on the roster is still refused."""
    teacher = teacher_client(app)
    make_class(teacher)
    class_id, students = class_ids(app)
    code = open_for_class(teacher, class_id)
    typed = app.test_client().post("/join", data={"code": code, "name": "  gLEB "})
    assert typed.status_code == 303 and typed.headers["Location"].endswith(f"/t/{code}/play")
    api = app.test_client().post(f"/api/tables/{code}/join", json={"name": "anna"})
    assert api.status_code == 201 and api.get_json()["you"]["name"] == "Anna"
    with app.app_context():
        seats = {s.name: s.student_id for s in Seat.query.join(Table).filter(Table.code == code) if s.student_id}
    assert seats == {"Gleb": students["Gleb"], "Anna": students["Anna"]}
    again = app.test_client().post("/join", data={"code": code, "name": "GLEB"})  # as a second tap on Gleb:
    assert again.status_code == 303 and again.headers["Location"].endswith(f"/j/{code}/waiting")  # asks (#33)
    stranger = app.test_client().post("/join", data={"code": code, "name": "Mallory"})
    assert stranger.status_code == 400 and "pick your name from the class list" in stranger.get_data(as_text=True)


def test_a_typed_roster_name_needs_the_class_word_too(app):
    teacher = teacher_client(app)
    make_class(teacher, word=True)
    class_id, _students = class_ids(app)
    with app.app_context():
        word = SchoolClass.query.one().word
    code = open_for_class(teacher, class_id)
    bare = app.test_client().post("/join", data={"code": code, "name": "Vera"})
    page = bare.get_data(as_text=True)
    assert bare.status_code == 400 and "Type the class word shown on the projector" in page and 'id="class-word"' in page
    wrong = app.test_client().post(f"/api/tables/{code}/join", json={"name": "Vera", "word": "ZZZZ"})
    assert wrong.status_code == 400 and wrong.get_json()["error"]["code"] == "wrong-class-word"
    right = app.test_client().post(f"/api/tables/{code}/join", json={"name": "vera", "word": word})
    assert right.status_code == 201 and right.get_json()["you"]["name"] == "Vera"
