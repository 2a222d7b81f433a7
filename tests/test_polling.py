"""The fast version poll (app/web/polling.py) answers exactly what the full answer would: a 304 only
when the screen shows the current version, for a browser whose seat is still its own; everything
else goes on to the view."""
from __future__ import annotations

from app.db import db
from app.models import Table
from app.web.security import HEADERS

from .web_support import for_play, open_table, seat_student, teacher_client


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


def test_a_computer_player_due_is_not_kept_waiting_by_a_304(app):
    app.config.update(BOT_PACE_SECONDS=60, HAND_PAUSE_SECONDS=0, DEAL_SEED=7)
    teacher = teacher_client(app)
    code = open_table(teacher, seats=[{"kind": "computer"}, {"kind": "computer"}, {"kind": "human"}])
    anna = seat_student(app, code, "Anna")
    teacher.post(f"/api/tables/{code}/start")
    state = anna.get(f"/api/tables/{code}")
    assert state.get_json()["game"]["turn"] == "Computer 1"  # who waits for the pace
    etag = state.headers["ETag"]
    assert anna.get(f"/api/tables/{code}", headers={"If-None-Match": etag}).status_code == 304
    with app.app_context():  # the pace has passed
        Table.query.filter_by(code=code).one().next_bot_at = 0
        db.session.commit()
        db.session.remove()
    moved = anna.get(f"/api/tables/{code}", headers={"If-None-Match": etag})
    assert moved.status_code == 200 and moved.headers["ETag"] != etag
    assert moved.get_json()["game"]["version"] == 1
