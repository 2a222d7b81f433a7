"""Times in the teacher's time zone: the browser's, sent once to POST /account/time-zone, checked with
zoneinfo and kept in the account (migration 0010). The reports (the page, the period's days and the answers
CSV's `local time`) use it and say which zone; without one, times are UTC as before, and the page says so;
a name that is no zone is a 400 with a sentence."""
from __future__ import annotations

import csv
import io
from datetime import datetime, timezone

import pytest

from app.db import db
from app.models import Deal, MoveRow, Table, Teacher

from .test_reports import played_table
from .web_support import for_play, teacher_client

pytestmark = pytest.mark.database

NOON = datetime(2026, 1, 15, 12, 0, tzinfo=timezone.utc).timestamp()  # winter: 13:00 in Paris, 07:00 in New York
DAY = "from=2026-01-15&to=2026-01-15"


def played_at(app, code, moment: float) -> None:
    """Every hand and move of the table, and the table itself, as if played at this moment."""
    with app.app_context():
        table = Table.query.filter_by(code=code).one()
        table.created_at = moment
        for deal in Deal.query.filter_by(table_id=table.id):
            deal.started_at = moment
            for row in MoveRow.query.filter_by(deal_id=deal.id):
                row.played_at = moment
        db.session.commit()


def answers(teacher, query=DAY):
    text = teacher.get(f"/reports/answers.csv?{query}").get_data(as_text=True).lstrip("\ufeff")
    return list(csv.DictReader(io.StringIO(text)))


def codes_of(app):
    with app.app_context():
        return [t.code for t in Table.query.all()]


@pytest.fixture
def noon_report(app):
    """A match played to its end, every move of it at 12:00 UTC on 15 January 2026."""
    play_app = for_play(app)
    teacher = teacher_client(play_app)
    played_table(play_app, teacher)
    for code in codes_of(play_app):
        played_at(play_app, code, NOON)
    return play_app, teacher


def test_without_a_zone_times_are_utc_and_the_page_says_so(noon_report):
    _app, teacher = noon_report
    page = teacher.get(f"/reports/?{DAY}&lang=en").get_data(as_text=True)
    assert "Times in UTC: your browser's time zone is not known yet." in page
    assert "When (UTC)" in page and "(UTC), from the move log" in page
    assert "Jan 15, 2026, 12:00\u202fPM" in page or "Jan 15, 2026, 12:00 PM" in page
    rows = answers(teacher)
    assert rows and {r["time (UTC)"] for r in rows} == {"2026-01-15 12:00:00"}
    assert {r["local time"] for r in rows} == {"2026-01-15 12:00:00+00:00"}


def test_a_teacher_in_paris_sees_the_utc_noon_at_one(noon_report):
    app, teacher = noon_report
    response = teacher.post("/account/time-zone", json={"time_zone": "Europe/Paris"})
    assert response.status_code == 200 and response.get_json() == {"time_zone": "Europe/Paris"}
    with app.app_context():
        assert Teacher.query.filter_by(name="Ms Teacher").one().time_zone == "Europe/Paris"
    page = teacher.get(f"/reports/?{DAY}&lang=fr").get_data(as_text=True)
    assert "Europe/Paris" in page and "When (UTC)" not in page and "(UTC)" not in page
    assert "15 janv. 2026, 13:00" in page and "12:00" not in page
    english = teacher.get(f"/reports/?{DAY}&lang=en").get_data(as_text=True)
    assert "Times in Europe/Paris" in english and "When (Europe/Paris)" in english
    assert "1:00\u202fPM" in english or "1:00 PM" in english
    # The CSV keeps its UTC column for programs, and adds the local time with its offset.
    rows = answers(teacher)
    assert rows and {r["time (UTC)"] for r in rows} == {"2026-01-15 12:00:00"}
    assert {r["local time"] for r in rows} == {"2026-01-15 13:00:00+01:00"}
    # Another zone, another hour: the zone is remembered, and can change.
    assert teacher.post("/account/time-zone", json={"time_zone": "America/New_York"}).status_code == 200
    assert {r["local time"] for r in answers(teacher)} == {"2026-01-15 07:00:00-05:00"}


def test_the_reports_days_are_the_teachers(noon_report):
    """A hand started at 23:30 UTC on 15 January is on 16 January in Paris: the period's days follow the zone."""
    app, teacher = noon_report
    late = datetime(2026, 1, 15, 23, 30, tzinfo=timezone.utc).timestamp()
    for code in codes_of(app):
        played_at(app, code, late)
    assert answers(teacher, "from=2026-01-15&to=2026-01-15")  # UTC: the 15th
    assert not answers(teacher, "from=2026-01-16&to=2026-01-16")
    teacher.post("/account/time-zone", json={"time_zone": "Europe/Paris"})
    assert not answers(teacher, "from=2026-01-15&to=2026-01-15")
    rows = answers(teacher, "from=2026-01-16&to=2026-01-16")
    assert rows and {r["local time"] for r in rows} == {"2026-01-16 00:30:00+01:00"}


@pytest.mark.parametrize("body", [{"time_zone": "Mars/Olympus_Mons"}, {"time_zone": "../../etc/passwd"},
                                  {"time_zone": "/usr/share/zoneinfo/UTC"}, {"time_zone": ""},
                                  {"time_zone": 42}, {"time_zone": None}, {"time_zone": "Europe/Paris" * 10},
                                  {"zone": "Europe/Paris"}, ["Europe/Paris"]])
def test_a_name_that_is_no_zone_is_a_400_with_a_sentence(app, body):
    teacher = teacher_client(app)
    response = teacher.post("/account/time-zone", json=body, headers={"Accept": "application/json"})
    assert response.status_code == 400
    error = response.get_json()["error"]
    assert error["code"] == "bad-time-zone" and "Europe/Paris" in error["message"]
    with app.app_context():
        assert Teacher.query.filter_by(name="Ms Teacher").one().time_zone is None


def test_a_body_that_is_not_json_is_a_400_and_a_student_cannot_set_one(app):
    teacher = teacher_client(app)
    response = teacher.post("/account/time-zone", data="Europe/Paris", headers={"Accept": "application/json"})
    assert response.status_code == 400 and response.get_json()["error"]["message"]
    anonymous = app.test_client()
    response = anonymous.post("/account/time-zone", json={"time_zone": "Europe/Paris"},
                              headers={"Accept": "application/json"})
    assert response.status_code == 401
    no_token = teacher_client(app)
    no_token.csrf = False
    assert no_token.post("/account/time-zone", json={"time_zone": "Europe/Paris"}).status_code == 400


def test_the_migration_adds_the_column(tmp_path, monkeypatch):
    """0010: teachers.time_zone, empty for the accounts from before it (UTC)."""
    import flask_migrate
    from sqlalchemy import inspect

    from app import create_app
    from app.factory import MIGRATIONS

    monkeypatch.setenv("AUTHORS_INSTANCE_PATH", str(tmp_path / "instance"))
    app = create_app({"TESTING": True, "USE_MIGRATIONS": True,
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'zone.sqlite3'}"})
    with app.app_context():
        try:
            assert "time_zone" in {c["name"] for c in inspect(db.engine).get_columns("teachers")}
            flask_migrate.downgrade(directory=str(MIGRATIONS), revision="0009")
            assert "time_zone" not in {c["name"] for c in inspect(db.engine).get_columns("teachers")}
            flask_migrate.upgrade(directory=str(MIGRATIONS))
            assert "time_zone" in {c["name"] for c in inspect(db.engine).get_columns("teachers")}
        finally:
            db.engine.dispose()


def test_a_zone_is_kept_when_another_writer_committed_since_the_teacher_was_read(app):
    """The clock and other requests write all through a lesson: on SQLite a read transaction that then
    writes fails at once ("database is locked") when another connection committed in between, so a write
    begins as one (db.begin_write)."""
    import sqlite3

    from app.services import time_zones

    teacher_client(app)
    with app.app_context():
        if db.engine.dialect.name != "sqlite":
            pytest.skip("SQLite's snapshot rule (PostgreSQL reads the latest row in READ COMMITTED)")
        teacher = Teacher.query.first()  # the request's read transaction begins here
        other = sqlite3.connect(db.engine.url.database)  # another writer (another process) commits meanwhile
        other.execute("UPDATE teachers SET time_zone = 'UTC' WHERE id = ?", (teacher.id,))
        other.commit()
        other.close()
        assert time_zones.remember(teacher, "Europe/Paris") == "Europe/Paris"
        db.session.expire_all()
        assert db.session.get(Teacher, teacher.id).time_zone == "Europe/Paris"
