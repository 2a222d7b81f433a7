"""Seat tokens cannot be forged or swapped; player names are escaped on every page and in every export;
request bodies are bounded (413 with a message)."""
from __future__ import annotations

import csv
import io
import secrets

import pytest
import yaml
from flask.sessions import SecureCookieSessionInterface

from app import create_app
from app.store.codes import token_hash

from .web_support import get_state, open_table, seat_student, teacher_client


def started_table(app, names=("Anna", "Boris")):
    teacher = teacher_client(app)
    code = open_table(teacher, seats=[{"kind": "human"}] * len(names) + [{"kind": "computer"}])
    students = {name: seat_student(app, code, name) for name in names}
    assert teacher.post(f"/api/tables/{code}/start").status_code == 200
    return code, teacher, students


def seat_tokens(client) -> dict:
    with client.session_transaction() as session:
        return {code: dict(held) for code, held in session.get("seats", {}).items()}


def forged(app, seats: dict):
    """A browser whose (validly signed) session claims these seat tokens."""
    client = app.test_client()
    with client.session_transaction() as session:
        session["seats"] = seats
    return client


def refused(client, code, seat=None):
    """Neither the seat's view nor a move is given to this browser."""
    url = f"/api/tables/{code}" + (f"?seat={seat}" if seat is not None else "")
    state = client.get(url)
    if seat is None:
        assert state.status_code == 200 and state.get_json()["you"] is None and "hand" not in state.get_json()["game"]
    else:
        assert state.status_code == 403 and state.get_json()["error"]["code"] == "not-your-seat"
    move = client.post(f"/api/tables/{code}/moves", json={"seat": seat, "move": {"answer": None}} if seat is not None
                       else {"move": {"answer": None}})
    assert move.status_code == 403 and move.get_json()["error"]["code"] == "not-your-seat"


def test_seat_tokens_cannot_be_forged_or_swapped(play_app):
    app = play_app
    code, teacher, students = started_table(app)
    other, _, other_students = started_table(app, names=("Vera", "Gleb"))
    anna = seat_tokens(students["Anna"])[code]["0"]
    boris = seat_tokens(students["Boris"])[code]["1"]
    vera = seat_tokens(other_students["Vera"])[other]["0"]
    assert get_state(students["Anna"], code)["you"]["name"] == "Anna"  # the real token works

    refused(forged(app, {code: {"0": vera}}), code, 0)                       # another table's token
    refused(forged(app, {code: {"1": anna}}), code, 1)                       # Anna's token on Boris's seat
    refused(forged(app, {code: {"0": boris}}), code, 0)                      # Boris's token on Anna's seat
    refused(forged(app, {code: {"0": secrets.token_urlsafe(24)}}), code, 0)  # a random token
    refused(forged(app, {code: {"0": ""}}), code, 0)
    refused(forged(app, {code: {"0": anna[:-1] + ("A" if anna[-1] != "A" else "B")}}), code, 0)
    refused(forged(app, {code: {"0": {"token": anna}}}), code, 0)            # not even text
    refused(forged(app, {code.lower(): {"0": anna}}), code, 0)               # not this table's entry

    # a tampered cookie is no session at all: a changed payload, a changed signature, another key
    cookie = students["Anna"].get_cookie("session").value
    payload, _, signature = cookie.rpartition(".")
    for bad in (payload[:-2] + ("AA" if payload[-2:] != "AA" else "BB") + "." + signature,
                payload + "." + signature[:-2] + ("AA" if signature[-2:] != "AA" else "BB"),
                "x" + cookie, cookie.split(".", 1)[-1]):
        thief = app.test_client()
        thief.set_cookie("session", bad)
        refused(thief, code, 0)
        refused(thief, code)
    elsewhere = create_app({"TESTING": True, "SECRET_KEY": "another server's secret key, long enough",
                            "SQLALCHEMY_DATABASE_URI": "sqlite://"})
    serializer = SecureCookieSessionInterface().get_signing_serializer(elsewhere)
    thief = app.test_client()
    thief.set_cookie("session", serializer.dumps({"seats": {code: {"0": anna}}}))
    refused(thief, code, 0)

    # the tokens and their hashes never leave the server
    for client in (*students.values(), teacher, app.test_client()):
        for url in (f"/api/tables/{code}", f"/t/{code}/projector", "/api/tables"):
            body = client.get(url).get_data(as_text=True)
            for token in (anna, boris):
                assert token not in body and token_hash(token) not in body


NASTY = ['<img src=x onerror=f()>', '"><svg onload=f()>', "</b>&amp;{{7*7}}", "=HYPERLINK(\"x\")",
         "Zoë's <i>"]


def test_player_names_are_escaped_on_every_page_and_export(play_app):
    app = play_app
    teacher = teacher_client(app)
    code = open_table(teacher, rules="classic", deck="authors-1861", options={"name_the_work": True},
                      seats=[{"kind": "human"}] * len(NASTY), match={"format": "hands", "value": 1})
    students = {name: seat_student(app, code, name) for name in NASTY}
    assert teacher.post(f"/api/tables/{code}/start").status_code == 200
    anna = students[NASTY[0]]
    state = get_state(anna, code)
    assert {s["name"] for s in state["seats"]} == set(NASTY)  # JSON carries the names as typed
    pages = [f"/t/{code}", f"/t/{code}/projector", f"/t/{code}/play", "/teacher", "/reports/",
             f"/reports/tables/{code}", f"/j/{code}"]
    for client in (teacher, anna):
        for url in pages:
            response = client.get(url, headers={"Accept": "text/html"})
            if response.status_code != 200 or response.mimetype != "text/html":
                continue
            html = response.get_data(as_text=True)
            for raw in ("<img src=x", "<svg onload", "</b>&amp;", "<i>"):
                assert raw not in html, (url, raw)
    # a join form that echoes a refused name escapes it
    echo = app.test_client().post("/join", data={"code": code, "name": NASTY[1]}, headers={"Accept": "text/html"})
    assert "<svg onload" not in echo.get_data(as_text=True)
    # CSV reports: cells a spreadsheet would run as a formula are neutralised, and names come back intact
    for url in ("/reports/students.csv", "/reports/answers.csv"):
        response = teacher.get(url + f"?table={code}")
        if response.status_code != 200:
            continue
        rows = list(csv.reader(io.StringIO(response.get_data(as_text=True))))
        for row in rows[1:]:
            for cell in row:
                assert not cell.startswith(("=", "+", "-", "@")), (url, cell)
    # the record (YAML) gives every name back exactly
    state = get_state(teacher, code)
    if state["status"] == "finished":
        record = yaml.safe_load(teacher.get(f"/api/tables/{code}/hands/1/record").data)
        assert set(record["players"]) == set(NASTY)


@pytest.mark.parametrize("url,kind", [("/api/tables", "json"), ("/tables/new", "form"), ("/join", "form"),
                                      ("/api/tables/ACEFHK/join", "json")])
def test_bodies_over_the_limit_are_413_with_a_message(app, url, kind):
    client = teacher_client(app)
    big = "x" * (app.config["MAX_CONTENT_LENGTH"] + 1)
    if kind == "json":
        response = client.post(url, data='{"name": "' + big + '"}', content_type="application/json")
        assert response.status_code == 413, response.data[:300]
        error = response.get_json()["error"]
        assert error["code"] == "too-large" and "MB" in error["message"]
    else:
        response = client.post(url, data={"name": big}, headers={"Accept": "text/html"})
        assert response.status_code == 413, response.data[:300]
        assert b"larger than" in response.data


def test_a_body_without_a_length_is_bounded_too(app):
    """A chunked body has no length to refuse up front: it is read no further than the limit."""
    client = teacher_client(app)
    chunks = (b"x" * 65536 for _ in range(64))  # 4 MB, chunked: no Content-Length to refuse early
    response = client.post("/api/tables", input_stream=io.BytesIO(b"".join(chunks)),
                           headers={"Content-Type": "application/json", "Transfer-Encoding": "chunked"},
                           environ_overrides={"wsgi.input_terminated": True})  # (as gunicorn says of chunked bodies)
    assert response.status_code == 413, response.data[:300]  # read no further than the limit, and refused
    assert response.get_json()["error"]["code"] == "too-large"
    form = client.post("/tables/new", input_stream=io.BytesIO(b"name=" + b"x" * (3 * 1024 * 1024)),
                       headers={"Content-Type": "application/x-www-form-urlencoded", "Accept": "text/html",
                                "Transfer-Encoding": "chunked"}, environ_overrides={"wsgi.input_terminated": True})
    assert form.status_code == 413 and b"larger than" in form.data
    small = client.post("/api/tables", input_stream=io.BytesIO(b'{"seats": [{"kind": "human"}, {"kind": "computer"}, {"kind": "computer"}]}'),
                        headers={"Content-Type": "application/json", "Transfer-Encoding": "chunked"},
                        environ_overrides={"wsgi.input_terminated": True})
    assert small.status_code == 201, small.get_json()  # a chunked body within the limit is read whole
