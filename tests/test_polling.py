"""The state's quick 304 (app/web/api.py, from the version's rows) answers exactly what the full answer
would: a 304 only when the screen shows the current version, for a browser whose seat is still its own;
everything else gets the full answer."""
from __future__ import annotations

from app.db import db
from app.models import Table
from app.web.security import HEADERS

from .web_support import for_play, open_table, seat_student, teacher_client, tick


def test_the_fast_304_is_the_views_304(app):
    app = for_play(app)
    teacher = teacher_client(app)
    code = open_table(teacher, seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "human"}])
    anna = seat_student(app, code, "Anna")
    first = anna.get(f"/api/tables/{code}")
    etag = first.headers["ETag"]
    again = anna.get(f"/api/tables/{code}", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.headers["ETag"] == etag and again.data == b""
    for name in HEADERS:
        assert again.headers[name] == first.headers[name]
    assert again.headers["Cache-Control"] == first.headers["Cache-Control"]
    # the seat asked for must be this browser's: not a 304, the view's 403
    assert anna.get(f"/api/tables/{code}?seat=1", headers={"If-None-Match": etag}).status_code == 403
    assert anna.get(f"/api/tables/{code}?seat=0", headers={"If-None-Match": etag}).status_code == 304
    # a change: the full answer
    seat_student(app, code, "Boris")
    changed = anna.get(f"/api/tables/{code}", headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag
    etag = changed.headers["ETag"]
    # the teacher takes Anna's seat away: her old screen's ETag gets no 304, and no seat any more
    assert teacher.delete(f"/api/tables/{code}/seats/0").status_code == 200
    gone = anna.get(f"/api/tables/{code}", headers={"If-None-Match": etag})
    assert gone.status_code == 200 and gone.get_json()["you"] is None
    # a tampered cookie is no seat
    thief = app.test_client()
    thief.set_cookie("session", "x" + anna.get_cookie("session").value)
    assert thief.get(f"/api/tables/{code}", headers={"If-None-Match": etag}).status_code == 200


def test_a_computer_player_due_moves_on_the_clock_and_the_next_poll_shows_it(app):
    app.config.update(BOT_PACE_SECONDS=60, HAND_PAUSE_SECONDS=0, DEAL_SEED=7)
    teacher = teacher_client(app)
    code = open_table(teacher, seats=[{"kind": "computer"}, {"kind": "computer"}, {"kind": "human"}])
    anna = seat_student(app, code, "Anna")
    teacher.post(f"/api/tables/{code}/start")
    state = anna.get(f"/api/tables/{code}")
    assert state.get_json()["game"]["turn"] == "Computer 1"  # who waits for the pace
    etag = state.headers["ETag"]
    assert anna.get(f"/api/tables/{code}", headers={"If-None-Match": etag}).status_code == 304
    with app.app_context():  # the pace has passed (the table's version stays, as the clock sees it)
        db.session.execute(Table.__table__.update().where(Table.code == code).values(next_bot_at=0))
        db.session.commit()
        db.session.remove()
    # the poll moves nobody (a read writes nothing): the clock does, and the next poll shows it
    assert anna.get(f"/api/tables/{code}", headers={"If-None-Match": etag}).status_code == 304
    assert tick(app) == 1
    moved = anna.get(f"/api/tables/{code}", headers={"If-None-Match": etag})
    assert moved.status_code == 200 and moved.headers["ETag"] != etag
    assert moved.get_json()["game"]["version"] == 1


def test_a_log_out_leaves_the_browsers_seats_to_the_fast_poll_and_its_old_cookie_no_teacher(app):
    """The fast poll leaves logged-in teachers to the view (which checks the log-in); a log-out takes the
    teacher out of the cookie, so the browser's seat is polled fast again, and a cookie saved before the
    log-out is answered by the view as nobody's teacher."""
    teacher = teacher_client(app)
    code = open_table(teacher, seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "computer"}])
    assert teacher.post(f"/api/tables/{code}/join", json={"name": "Miss"}).status_code == 201
    as_teacher = teacher.get(f"/api/tables/{code}")
    assert as_teacher.headers["ETag"].endswith('-1-0"')  # the teacher, at seat 0
    saved = teacher.get_cookie("session").value
    assert teacher.post("/logout").status_code == 303
    state = teacher.get(f"/api/tables/{code}")
    assert state.status_code == 200 and state.get_json()["you"]["position"] == 0
    etag = state.headers["ETag"]
    assert etag != as_teacher.headers["ETag"]
    assert teacher.get(f"/api/tables/{code}", headers={"If-None-Match": etag}).status_code == 304
    replayed = app.test_client()
    replayed.set_cookie("session", saved)
    old = replayed.get(f"/api/tables/{code}", headers={"If-None-Match": as_teacher.headers["ETag"]})
    assert old.status_code == 200 and old.headers["ETag"] == etag
    assert replayed.get("/api/tables").status_code == 401
