"""The play door (app/web/play_door.py) answers a student's state and move exactly as the views would,
answers them itself (the views are not asked), and leaves everything else to Flask: refusals, errors
and sentences are said by Flask, and a move is never played twice."""
from __future__ import annotations

import random
import uuid
from contextlib import contextmanager

import pytest
from flask import session
from flask_wtf.csrf import CSRFError, ValidationError, validate_csrf
from itsdangerous import TimestampSigner, URLSafeTimedSerializer
from sqlalchemy.exc import OperationalError

from app.web import api, csrf
from app.web.play_door import ANSWERED, PlayDoor

from .web_support import choose_move, deck_of, for_play, open_table, seat_student, teacher_client

ANSWER_HEADERS = ("Content-Type", "Content-Length", "ETag", "Cache-Control", "Vary", "Idempotent-Replayed")


@contextmanager
def door_stepped_over(app):
    """The app's WSGI chain without the play door, for the block: what the views alone answer."""
    holder = app
    while not isinstance(holder.wsgi_app, PlayDoor):
        holder = holder.wsgi_app
    door = holder.wsgi_app
    holder.wsgi_app = door.wsgi_app
    try:
        yield
    finally:
        holder.wsgi_app = door


@contextmanager
def answers(app):
    """The door's answer to each request of the block, in order (None: Flask's view answered)."""
    seen: list[str | None] = []

    class Recording:
        def __init__(self, wsgi_app):
            self.wsgi_app = wsgi_app

        def __call__(self, environ, start_response):
            try:
                return self.wsgi_app(environ, start_response)
            finally:
                seen.append(environ.get(ANSWERED))

    app.wsgi_app = Recording(app.wsgi_app)
    try:
        yield seen
    finally:
        app.wsgi_app = app.wsgi_app.wsgi_app


def headers_of(response) -> dict[str, str | None]:
    return {name: response.headers.get(name) for name in ANSWER_HEADERS}


def seated(app, rules: str, seats: int, **spec):
    teacher = teacher_client(app)
    code = open_table(teacher, rules=rules, seats=[{"kind": "human"}] * seats, **spec)
    students = [seat_student(app, code, f"Student {n + 1}") for n in range(seats)]
    assert teacher.post(f"/api/tables/{code}/start").status_code == 200
    return code, teacher, students


TABLES = {
    "authors": ("standard", 4, {}),
    "go-fish": ("go-fish", 3, {}),
    "literature": ("literature", 6, {}),
    "classic, recall with hints": ("classic", 3, {"options": {"name_the_work": True, "hints": True}}),
    "classic, named asks": ("classic", 3, {"options": {"named_asks": True}}),
}


@pytest.mark.parametrize("kind", list(TABLES))
def test_the_doors_states_and_moves_are_the_views(app, kind):
    rules, seats, spec = TABLES[kind]
    app = for_play(app)
    code, _, students = seated(app, rules, seats, **spec)
    url = f"/api/tables/{code}"
    deck = deck_of(students[0], code)
    rng = random.Random(kind)
    moves = 0
    with answers(app) as seen:
        for _ in range(30):
            states = []
            for student in students:
                by_door = student.get(url)
                with door_stepped_over(app):
                    by_view = student.get(url)
                    prefixed = student.get(url, base_url="http://localhost/class")
                assert by_door.status_code == by_view.status_code == 200
                assert by_door.get_json() == by_view.get_json()
                assert headers_of(by_door) == headers_of(by_view)
                assert prefixed.get_json()["links"]["play"] == f"/class/t/{code}/play"
                assert student.get(url, base_url="http://localhost/class").get_json() == prefixed.get_json()
                states.append(by_door.get_json())
            if states[0]["status"] != "playing":
                break
            mover = next(i for i, s in enumerate(states) if s["game"]["turn"] == s["you"]["name"])
            body = {"version": states[mover]["version"], "move": choose_move(states[mover], deck, rng)}
            key = uuid.uuid4().hex
            by_door = students[mover].post(f"{url}/moves", json=body, headers={"Idempotency-Key": key})
            with door_stepped_over(app):  # the same request again: the view answers it from the stored move
                by_view = students[mover].post(f"{url}/moves", json=body, headers={"Idempotency-Key": key})
            assert by_door.status_code == by_view.status_code == 200, by_door.get_json()
            assert by_door.get_json() == by_view.get_json()
            assert by_view.headers["Idempotent-Replayed"] == "true"
            assert {**headers_of(by_door), "Idempotent-Replayed": "true"} == headers_of(by_view)
            moves += 1
    assert moves >= 10
    # every state and move the students asked of the door was its own answer; the views only the steps
    door_asked = [s for s in seen if s is not None]
    assert door_asked.count("move") == moves and "move-by-flask" not in door_asked
    assert door_asked.count("state") >= moves * seats


def test_the_views_are_not_asked_for_a_students_state_or_move(app, monkeypatch):
    app = for_play(app)
    code, _, (anna, boris, cleo) = seated(app, "standard", 3)
    url = f"/api/tables/{code}"
    deck = deck_of(anna, code)

    def view_asked(**_):
        raise AssertionError("the view was asked")

    monkeypatch.setitem(app.view_functions, "api.table_state", view_asked)
    monkeypatch.setitem(app.view_functions, "api.move", view_asked)
    states = [s.get(url).get_json() for s in (anna, boris, cleo)]
    mover = next(i for i, s in enumerate(states) if s["game"]["turn"] == s["you"]["name"])
    body = {"version": states[mover]["version"], "move": choose_move(states[mover], deck, random.Random(1))}
    moved = (anna, boris, cleo)[mover].post(f"{url}/moves", json=body)
    assert moved.status_code == 200 and moved.get_json()["state"]["version"] == states[mover]["version"] + 1
    etag = moved.get_json()["state_etag"]
    assert (anna, boris, cleo)[mover].get(url, headers={"If-None-Match": etag}).status_code == 304


def test_what_is_not_a_students_plain_request_goes_on_to_flask(app):
    app = for_play(app)
    code, teacher, (anna, boris, cleo) = seated(app, "standard", 3)
    url = f"/api/tables/{code}"
    state = anna.get(url).get_json()
    with answers(app) as seen:
        assert teacher.get(url).status_code == 200  # a teacher
        assert anna.get(f"{url}?lang=fr").status_code == 200  # a language to remember
        assert anna.get(f"{url}?seat=1").status_code == 403  # a seat that is not hers
        no_token = app.test_client(csrf=False)
        no_token.set_cookie("session", anna.get_cookie("session").value)
        refused = no_token.post(f"{url}/moves", json={"version": state["version"], "move": {"pass_to": "x"}})
        assert refused.status_code == 400 and refused.get_json()["error"]["code"] == "csrf-token"
        not_json = anna.post(f"{url}/moves", data="{", content_type="application/json")
        assert not_json.status_code == 400 and not_json.get_json()["error"]["code"] == "malformed-json"
        plain = anna.post(f"{url}/moves", data='{"move": {}}', content_type="text/plain")
        assert plain.status_code == 400 and plain.get_json()["error"]["code"] == "malformed-json"
    assert len(seen) >= 6 and set(seen) == {None}  # (and the CSRF tokens the test client asks for)
    assert anna.get(url).get_json()["version"] == state["version"]  # nothing was played


def test_a_refused_move_is_said_by_flask_in_the_tables_language_and_changes_nothing(app):
    app = for_play(app)
    code, _, students = seated(app, "standard", 3, language="fr")
    url = f"/api/tables/{code}"
    states = [s.get(url).get_json() for s in students]
    mover = next(i for i, s in enumerate(states) if s["game"]["turn"] == s["you"]["name"])
    me = states[mover]["you"]["name"]
    with answers(app) as seen:
        refused = students[mover].post(f"{url}/moves", json={"version": states[mover]["version"],
                                                               "move": {"ask": me, "set": "A"}})
    assert refused.status_code in (409, 422) and seen[-1:] == ["move-by-flask"]
    french = refused.get_json()["error"]["message"]
    students[mover].set_cookie("lang", "en")  # the reader's own choice of language outranks the table's
    english = students[mover].post(f"{url}/moves", json={"version": states[mover]["version"],
                                                          "move": {"ask": me, "set": "A"}}).get_json()["error"]
    assert english["code"] == refused.get_json()["error"]["code"] and english["message"] != french
    assert students[mover].get(url).get_json()["version"] == states[mover]["version"]


def _mover(app, students, url):
    states = [s.get(url).get_json() for s in students]
    mover = next(i for i, s in enumerate(states) if s["game"]["turn"] == s["you"]["name"])
    return students[mover], states[mover]


def test_an_answer_that_fails_after_the_move_is_stored_is_made_by_flask_and_the_move_played_once(app, monkeypatch):
    app = for_play(app)
    code, _, students = seated(app, "standard", 3)
    url = f"/api/tables/{code}"
    student, state = _mover(app, students, url)
    real, failures = api.state_answer, []

    def fails_once(*args, **kwargs):
        if not failures:
            failures.append(1)
            raise OperationalError("SELECT", {}, Exception("the database went away for a moment"))
        return real(*args, **kwargs)

    monkeypatch.setattr(api, "state_answer", fails_once)
    body = {"version": state["version"], "move": choose_move(state, deck_of(student, code), random.Random(2))}
    with answers(app) as seen:
        moved = student.post(f"{url}/moves", json=body)
    assert seen[-1:] == ["move-by-flask"] and failures == [1]
    assert moved.status_code == 200 and moved.get_json()["state"]["version"] == state["version"] + 1
    assert student.get(url).get_json()["version"] == state["version"] + 1  # played once


def test_a_database_that_fails_during_the_move_is_flasks_503(app, monkeypatch):
    app = for_play(app)
    code, _, students = seated(app, "standard", 3)
    url = f"/api/tables/{code}"
    student, state = _mover(app, students, url)

    def unavailable(*args, **kwargs):
        raise OperationalError("BEGIN", {}, Exception("database is locked"))

    monkeypatch.setattr("app.services.deals.play", unavailable)
    body = {"version": state["version"], "move": choose_move(state, deck_of(student, code), random.Random(3))}
    with answers(app) as seen:
        moved = student.post(f"{url}/moves", json=body)
    assert seen[-1:] == ["move-by-flask"]
    assert moved.status_code == 503 and moved.get_json()["error"]["code"] == "database-unavailable"
    assert moved.headers["Retry-After"]


class PastSigner(TimestampSigner):
    def get_timestamp(self) -> int:
        return super().get_timestamp() - 7200


def test_the_doors_csrf_check_gives_flask_wtfs_verdicts(app):
    app.config["WTF_CSRF_TIME_LIMIT"] = 3600
    key = app.secret_key
    secret = "3" * 40
    good = URLSafeTimedSerializer(key, salt="wtf-csrf-token").dumps(secret)
    other = URLSafeTimedSerializer(key, salt="wtf-csrf-token").dumps("4" * 40)
    old = URLSafeTimedSerializer(key, salt="wtf-csrf-token", signer=PastSigner).dumps(secret)
    forged = URLSafeTimedSerializer("not the key", salt="wtf-csrf-token").dumps(secret)
    cases = [({"csrf_token": secret}, good), ({"csrf_token": secret}, other), ({"csrf_token": secret}, old),
             ({"csrf_token": secret}, forged), ({"csrf_token": secret}, None), ({}, good),
             ({"csrf_token": secret}, good[:-1])]
    for data, token in cases:
        with app.test_request_context():
            session.update(data)
            try:
                validate_csrf(token)
                flask_wtf_says = True
            except ValidationError:
                flask_wtf_says = False
        environ = {"wsgi.url_scheme": "http", "HTTP_HOST": "localhost"}
        if token is not None:
            environ["HTTP_X_CSRFTOKEN"] = token
        assert csrf.door_check(app, data, environ) is flask_wtf_says, (data, token)
    assert [csrf.door_check(app, {"csrf_token": secret}, {"HTTP_X_CSRF_TOKEN": good})] == [True]
    # over HTTPS, Flask-WTF also wants a Referer of this host
    for referrer in (None, "https://localhost/play/ABCDE", "https://elsewhere.example/"):
        headers = {"X-CSRFToken": good, **({"Referer": referrer} if referrer else {})}
        with app.test_request_context(base_url="https://localhost", method="POST", headers=headers):
            session.update({"csrf_token": secret})
            try:
                csrf.csrf.protect()
                flask_wtf_says = True
            except CSRFError:
                flask_wtf_says = False
        environ = {"wsgi.url_scheme": "https", "HTTP_HOST": "localhost", "HTTP_X_CSRFTOKEN": good}
        if referrer:
            environ["HTTP_REFERER"] = referrer
        assert csrf.door_check(app, {"csrf_token": secret}, environ) is flask_wtf_says, referrer


def test_a_move_played_is_not_played_again_when_even_flasks_answer_fails(app, monkeypatch):
    app = for_play(app)  # (a test app propagates exceptions: Flask's own answer raises, as a 500 would)
    code, _, students = seated(app, "standard", 3)
    url = f"/api/tables/{code}"
    student, state = _mover(app, students, url)

    def broken(*args, **kwargs):
        raise RuntimeError("a bug in building the answer")

    monkeypatch.setattr(api, "state_answer", broken)
    body = {"version": state["version"], "move": choose_move(state, deck_of(student, code), random.Random(4))}
    with pytest.raises(RuntimeError):  # not the view's 409 for a move it would have tried again
        student.post(f"{url}/moves", json=body)
    monkeypatch.undo()
    assert student.get(url).get_json()["version"] == state["version"] + 1
