"""Presence (issue #19): each seat's last poll, noted from the polls the screens already make and written
down by the clock, at most once per presence.WRITE_EVERY seconds a seat (never one write per poll), shown
to the teacher alone in words ("here", "away for 3 min")."""
from __future__ import annotations

import pytest

from app.db import db
from app.models import Table
from app.store import presence

from .web_support import Statements, flush_presence, for_play, open_table, seat_student, teacher_client

pytestmark = pytest.mark.database

THREE_STUDENTS = [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}]


def seen_back(app, code, name, seconds):
    """Move a seat's clock: its last poll `seconds` earlier than recorded (as if nothing polled since)."""
    with app.app_context():
        table = Table.query.filter_by(code=code).one()
        seat = next(s for s in table.seats if s.name == name)
        seat.seen_at = (seat.seen_at or 0) - seconds
        db.session.commit()


def seen_at(app, code, name):
    with app.app_context():
        table = Table.query.filter_by(code=code).one()
        return next(s.seen_at for s in table.seats if s.name == name)


def seen_at_updates(line: str) -> bool:
    return line.lower().startswith("update play_seats set seen_at")


def poll(client, code, etag=None):
    headers = {"If-None-Match": etag} if etag else {}
    return client.get(f"/api/tables/{code}", headers=headers)


def test_presence_is_written_at_most_once_per_interval_however_often_the_screen_polls(app):
    app = for_play(app)
    teacher = teacher_client(app)
    code = open_table(teacher, seats=THREE_STUDENTS)
    anna = seat_student(app, code, "Anna")
    first = poll(anna, code)
    etag = first.headers["ETag"]
    joined = seen_at(app, code, "Anna")
    with Statements(app, seen_at_updates) as updates:
        for _ in range(30):  # thirty polls in a row: the fast poll's 304s
            assert poll(anna, code, etag).status_code == 304
    assert updates.count == 0  # seen at the join, moments ago: nothing to write
    assert seen_at(app, code, "Anna") == joined
    seen_back(app, code, "Anna", presence.WRITE_EVERY + 1)
    with Statements(app, seen_at_updates) as updates:
        for _ in range(30):
            assert poll(anna, code, etag).status_code == 304
        assert updates.count == 0  # a poll writes nothing: it notes the seat for the clock
        assert flush_presence(app) == 1
        assert flush_presence(app) == 0  # (nothing noted since)
    assert updates.count == 1  # one write, then the stored time is fresh again
    assert seen_at(app, code, "Anna") > joined - 1
    with Statements(app, seen_at_updates) as updates:
        for _ in range(30):
            assert poll(anna, code, etag).status_code == 304
        flush_presence(app)
    assert updates.count == 0  # fresh: not even noted
    # the full answer (no ETag) records presence the same way
    seen_back(app, code, "Anna", presence.WRITE_EVERY + 1)
    with Statements(app, seen_at_updates) as updates:
        for _ in range(5):
            assert poll(anna, code).status_code == 200
        flush_presence(app)
    assert updates.count == 1


def test_the_teacher_sees_away_for_n_minutes_and_students_see_no_presence(app):
    app = for_play(app)
    teacher = teacher_client(app)
    code = open_table(teacher, seats=THREE_STUDENTS)
    anna, _boris = seat_student(app, code, "Anna"), seat_student(app, code, "Boris")
    seen_back(app, code, "Boris", 3 * 60 + 10)
    poll(anna, code)
    seats = poll(teacher, code).get_json()["seats"]
    assert seats[0]["presence"] == "here" and seats[0]["away_seconds"] is None
    assert seats[1]["presence"] == "away" and 3 * 60 <= seats[1]["away_seconds"] < 4 * 60
    assert seats[2]["presence"] is None  # a free seat: no device
    for seat in poll(anna, code).get_json()["seats"]:  # a student: nobody's presence
        assert not {"presence", "away_seconds", "asks_back"} & set(seat)
    # the teacher's page says it in words
    html = teacher.get(f"/t/{code}").get_data(as_text=True)
    assert "manage.js" in html
    from pathlib import Path
    script = (Path(__file__).resolve().parents[1] / "app/static/js/manage.js").read_text()
    assert 'gettext("away for %(minutes)d min"' in script and 'gettext("here")' in script


def test_the_teachers_poll_changes_when_a_student_goes_away(app):
    """Presence changes no version; the teacher's ETag carries it, so the page redraws when it changes."""
    app = for_play(app)
    teacher = teacher_client(app)
    code = open_table(teacher, seats=THREE_STUDENTS)
    seat_student(app, code, "Anna")
    first = poll(teacher, code)
    etag = first.headers["ETag"]
    assert poll(teacher, code, etag).status_code == 304
    seen_back(app, code, "Anna", 2 * 60)
    again = poll(teacher, code, etag)
    assert again.status_code == 200 and again.get_json()["seats"][0]["presence"] == "away"
    assert again.get_json()["version"] == first.get_json()["version"]
