"""What a request does once: the session cookie verified once (a cookie seen before is not verified
again), the seats a browser holds found once per read of the
table; the access log line of `authors serve`, and the app its workers build. Costs themselves are
bench/load.py's."""
from __future__ import annotations

import logging
import re
import sys
import time

from itsdangerous import URLSafeTimedSerializer

from app.store import codes

from .web_support import for_play, open_table, seat_student, teacher_client


def test_a_changed_poll_verifies_the_cookie_once(app, monkeypatch):
    app = for_play(app)
    teacher = teacher_client(app)
    code = open_table(teacher, seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "human"}])
    anna = seat_student(app, code, "Anna")
    etag = anna.get(f"/api/tables/{code}").headers["ETag"]
    seat_student(app, code, "Boris")  # the table changes: Anna's next poll goes on to the full answer
    loads = []
    real = URLSafeTimedSerializer.loads
    monkeypatch.setattr(URLSafeTimedSerializer, "loads", lambda self, *a, **k: loads.append(1) or real(self, *a, **k))
    app.session_interface._verified.forget()  # (a cookie seen before is not verified again: below)
    changed = anna.get(f"/api/tables/{code}", headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.get_json()["you"]["name"] == "Anna"
    assert len(loads) == 1
    # with no ETag sent (no quick 304 to try), once too
    loads.clear()
    app.session_interface._verified.forget()
    assert anna.get(f"/api/tables/{code}").get_json()["you"]["name"] == "Anna"
    assert len(loads) == 1


def test_a_cookie_seen_before_is_not_verified_again_but_its_age_still_counts(app, monkeypatch):
    app = for_play(app)
    teacher = teacher_client(app)
    code = open_table(teacher, seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "human"}])
    anna = seat_student(app, code, "Anna")
    assert anna.get(f"/api/tables/{code}").get_json()["you"]["name"] == "Anna"
    loads = []
    real = URLSafeTimedSerializer.loads
    monkeypatch.setattr(URLSafeTimedSerializer, "loads", lambda self, *a, **k: loads.append(1) or real(self, *a, **k))
    for etag in (None, "\"x\""):  # the full answer, and the quick 304's try first
        headers = {"If-None-Match": etag} if etag else {}
        assert anna.get(f"/api/tables/{code}", headers=headers).get_json()["you"]["name"] == "Anna"
    assert loads == []
    # a cookie past the session's lifetime is refused as before, remembered or not
    lifetime = app.permanent_session_lifetime.total_seconds()
    later = time.time() + lifetime + 5
    monkeypatch.setattr(time, "time", lambda: later)
    assert anna.get(f"/api/tables/{code}").get_json()["you"] is None


def test_flask_changes_its_own_copy_of_a_remembered_session(app):
    from app.web.sessions import CookieSessions

    app = for_play(app)
    teacher = teacher_client(app)
    code = open_table(teacher, seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "human"}])
    anna = seat_student(app, code, "Anna")
    cookie = anna.get_cookie("session").value
    interface: CookieSessions = app.session_interface
    remembered = interface.decode(app, cookie)
    with app.test_request_context(headers={"Cookie": f"session={cookie}"}):
        from flask import request

        opened = interface.open_session(app, request)
        opened["seats"][code]["9"] = "a token of another seat"
    assert "9" not in interface.decode(app, cookie)["seats"][code] and remembered == interface.decode(app, cookie)


def test_a_tampered_cookie_is_not_taken_from_the_hand_over(app):
    app = for_play(app)
    teacher = teacher_client(app)
    code = open_table(teacher, seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "human"}])
    anna = seat_student(app, code, "Anna")
    etag = anna.get(f"/api/tables/{code}").headers["ETag"]
    thief = app.test_client()
    thief.set_cookie("session", anna.get_cookie("session").value[:-2] + "xx")
    answer = thief.get(f"/api/tables/{code}", headers={"If-None-Match": etag})
    assert answer.status_code == 200 and answer.get_json()["you"] is None


def test_the_seats_a_browser_holds_are_checked_once_a_state(app, monkeypatch):
    app = for_play(app)
    teacher = teacher_client(app)
    code = open_table(teacher, seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "human"}])
    anna = seat_student(app, code, "Anna")
    checks = []
    real = codes.token_matches
    monkeypatch.setattr("app.web.seating.token_matches", lambda *a: checks.append(1) or real(*a))
    assert anna.get(f"/api/tables/{code}").get_json()["you"]["name"] == "Anna"
    assert len(checks) == 3  # one per seat of the table, though the view asks three times


def test_the_access_log_line_names_the_client_the_request_and_its_status():
    from granian.log import access_logger, log_request_builder

    from app.cli import ACCESS_LOG_FORMAT

    lines = []

    class Kept(logging.Handler):
        def emit(self, record):
            lines.append(record.getMessage())

    handler = Kept()
    access_logger.addHandler(handler)
    level = access_logger.level
    access_logger.setLevel(logging.INFO)
    try:
        log = log_request_builder(ACCESS_LOG_FORMAT)
        log(time.time(), time.perf_counter() - 0.012, {"addr_remote": "10.0.0.7", "path": "/api/tables/ABC",
                                                       "qs": "", "method": "GET", "scheme": "http",
                                                       "protocol": "HTTP/1.1"}, 503)
    finally:
        access_logger.removeHandler(handler)
        access_logger.setLevel(level)
    assert re.fullmatch(r'10\.0\.0\.7 - - \[[^]]+\] "GET /api/tables/ABC HTTP/1\.1" 503 1\d\.\dms', lines[0]), lines


def test_a_served_worker_sets_its_app_aside_from_the_garbage_collector(tmp_path):
    """Each worker of `authors serve` builds its app with create_served_app, which freezes what the app
    holds (gc.freeze): a full collection then walks only what requests made since. create_app does not."""
    import gc

    from app import create_app, create_served_app
    from app.services import clock

    config = {"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'served.sqlite3'}"}
    def collected(thing) -> bool:  # (a frozen object is in no generation the collector walks)
        return any(found is thing for found in gc.get_objects())

    gc.unfreeze()
    try:
        plain = create_app(config)
        assert gc.get_freeze_count() == 0 and collected(plain.url_map)
        served = create_served_app(config)
        clock.running_clock(served).stop()  # (its game clock: tests/test_clock.py)
        assert gc.get_freeze_count() > 0 and not collected(served.url_map) and not collected(served.view_functions)
    finally:
        gc.unfreeze()


def test_authors_serve_runs_the_served_app(monkeypatch):
    from app import cli

    ran = {}
    monkeypatch.setattr(cli.os, "execve", lambda path, args, env: ran.update(args=args, env=env))
    cli._exec_server("127.0.0.1", 0, 1, 3, access_log=False)
    # (the ASGI front builds its Flask app with create_served_app: app/serving.py)
    assert ran["args"][-1] == "app.serving:create_served_asgi" and "asgi" in ran["args"]
    assert ran["env"]["AUTHORS_SERVER_THREADS"] == "3"
    # each worker's event loop: uvloop where the platform has it (pyproject.toml installs it but on Windows)
    loop = ran["args"][ran["args"].index("--loop") + 1]
    assert loop == ("uvloop" if sys.platform != "win32" else "asyncio")
