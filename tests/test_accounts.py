"""Teacher accounts: sign-up open or by invitation, log in and out, password change, the log-in rate
limit held in the database, `authors teacher create`, CSRF refusals, and tables owned by teachers."""
from __future__ import annotations

import re
import threading
import time

import pytest
from click.testing import CliRunner

from app import create_app
from app.cli import cli
from app.db import db
from app.models import Invitation, Teacher, TeacherLogin
from app.services import accounts
from app.web.accounts import DEVICE_COOKIE

from .web_support import TEACHER_PASSWORD, CSRFClient, make_teacher, open_table, seat_student, teacher_client


def sign_up(client, name="Ms Rivera", password="a fine long password", repeat=None, **extra):
    return client.post("/signup", data={"name": name, "password": password,
                                        "repeat": password if repeat is None else repeat, **extra})


def log_in(client, name="Ms Teacher", password=TEACHER_PASSWORD, **extra):
    return client.post("/login", data={"name": name, "password": password, **extra})


def logged_in(client) -> bool:
    return client.get("/teacher").status_code == 200


# ----------------------------------------------------------------------------------------------------
# Sign-up, log-in, log-out, password
# ----------------------------------------------------------------------------------------------------
def test_sign_up_is_open_by_default_and_stores_a_scrypt_hash(app):
    client = app.test_client()
    assert client.get("/signup").status_code == 200
    response = sign_up(client)
    assert response.status_code == 303 and logged_in(client)
    with app.app_context():
        teacher = Teacher.query.one()
        assert teacher.password_hash.startswith("scrypt:") and "a fine long password" not in teacher.password_hash
    again = sign_up(app.test_client(), name="ms  RIVERA")
    assert again.status_code == 409 and "already a teacher called" in again.get_data(as_text=True)
    for bad, message in [({"password": "short"}, "at least 8 characters"), ({"repeat": "different password"}, "differ"),
                         ({"name": "x"}, "2 to 60 characters"), ({"name": "a\x07b"}, "control characters")]:
        response = sign_up(app.test_client(), **{"name": "Someone", **bad})
        assert response.status_code == 400 and message in response.get_data(as_text=True), bad


def test_log_in_and_out(app):
    make_teacher(app)
    client = app.test_client()
    wrong = log_in(client, password="not the password")
    assert wrong.status_code == 401 and "The name or the password is wrong." in wrong.get_data(as_text=True)
    nobody = log_in(client, name="Nobody")
    assert nobody.status_code == 401 and "The name or the password is wrong." in nobody.get_data(as_text=True)
    assert not logged_in(client)
    response = log_in(client, name="  ms teacher ", next="/studio/")
    assert response.status_code == 303 and response.headers["Location"] == "/studio/"
    assert logged_in(client)
    assert "Ms Teacher" in client.get("/").get_data(as_text=True)
    assert client.get("/logout").status_code == 405  # logging out changes something: POST only
    assert client.post("/logout").status_code == 303 and not logged_in(client)


def test_the_header_offers_students_only_what_they_use(app, client):
    links = lambda page: re.findall(r'<nav class="site">(.*?)</nav>', page, re.S)[0]  # noqa: E731
    student = links(client.get("/").get_data(as_text=True))
    assert 'href="/join"' in student and 'href="/rules' in student and 'id="login-link"' in student
    assert 'href="/tables/new"' not in student and 'href="/teacher"' not in student
    make_teacher(app)
    log_in(client)
    teacher = links(client.get("/").get_data(as_text=True))
    assert 'href="/tables/new"' in teacher and 'href="/teacher"' in teacher and 'href="/join"' in teacher


@pytest.mark.parametrize("target", ["//evil.example/", "https://evil.example/", "/\\evil.example", "javascript:x"])
def test_log_in_never_sends_the_teacher_to_another_site(app, target):
    make_teacher(app)
    response = log_in(app.test_client(), next=target)
    assert response.status_code == 303 and response.headers["Location"] == "/teacher"


def test_a_page_for_teachers_sends_to_the_log_in_and_back(app):
    client = app.test_client()
    response = client.get("/tables/new?deck=standard-52")
    assert response.status_code == 302
    assert response.headers["Location"] == "/login?next=/tables/new?deck%3Dstandard-52"
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert 'name="next" value="/tables/new?deck=standard-52"' in page


def test_a_password_change_ends_the_other_sessions(app):
    make_teacher(app)
    here, elsewhere = app.test_client(), app.test_client()
    log_in(here)
    log_in(elsewhere)
    form = {"current": TEACHER_PASSWORD, "new": "a brand new password", "repeat": "a brand new password"}
    wrong = here.post("/account/password", data={**form, "current": "nope nope nope"})
    assert wrong.status_code == 400 and "current password is wrong" in wrong.get_data(as_text=True)
    differ = here.post("/account/password", data={**form, "repeat": "something else"})
    assert differ.status_code == 400 and "differ" in differ.get_data(as_text=True)
    done = here.post("/account/password", data=form)
    assert done.status_code == 200 and "password is changed" in done.get_data(as_text=True)
    assert logged_in(here) and not logged_in(elsewhere)
    with app.app_context():  # one log-in is left: the browser the password was changed in
        assert TeacherLogin.query.count() == 1
    assert log_in(app.test_client(), password="a brand new password").status_code == 303


def test_a_log_out_ends_that_log_in_wherever_its_cookie_was_saved(app):
    make_teacher(app)
    here, elsewhere = app.test_client(), app.test_client()
    log_in(here)
    log_in(elsewhere)
    saved = here.get_cookie("session").value
    with app.app_context():  # the database holds the log-ins' hashes, the cookies their tokens
        hashes = {row.token_hash for row in TeacherLogin.query}
        assert len(hashes) == 2 and not any(h in saved for h in hashes)
    assert here.post("/logout").status_code == 303 and not logged_in(here)
    replayed = app.test_client()
    replayed.set_cookie("session", saved)  # the cookie as it was before the log-out
    page = replayed.get("/account")
    assert page.status_code == 302 and page.headers["Location"].startswith("/login")
    api = replayed.get("/api/tables")
    assert api.status_code == 401 and api.get_json()["error"]["code"] == "login-required"
    # the teacher's other browser is still logged in
    assert elsewhere.get("/account").status_code == 200 and elsewhere.get("/api/tables").status_code == 200
    with app.app_context():
        assert TeacherLogin.query.count() == 1
    # a new log-in in the same browser is a new log-in: the old cookie stays worth nothing
    log_in(here)
    assert logged_in(here) and not logged_in(replayed)


def test_a_log_in_not_used_for_a_sessions_lifetime_is_over(app, monkeypatch):
    make_teacher(app)
    client = app.test_client()
    log_in(client)
    later = time.time() + accounts.SEEN_EVERY + 1
    monkeypatch.setattr(time, "time", lambda: later)
    assert logged_in(client)  # used: its last use is written down (once an hour at most)
    with app.app_context():
        assert TeacherLogin.query.one().seen_at == later
    lifetime = app.permanent_session_lifetime.total_seconds()
    monkeypatch.setattr(time, "time", lambda: later + lifetime + 1)
    assert not logged_in(client)
    log_in(app.test_client())  # a new log-in clears away the stale one
    with app.app_context():
        assert TeacherLogin.query.count() == 1


# ----------------------------------------------------------------------------------------------------
# Invitations and closed sign-up
# ----------------------------------------------------------------------------------------------------
def test_closed_sign_up_takes_a_one_use_invitation(app):
    app.config["ALLOW_SIGNUP"] = False
    closed = app.test_client()
    assert closed.get("/signup").status_code == 403
    response = sign_up(closed)
    assert response.status_code == 403 and "Sign-up is closed" in response.get_data(as_text=True)
    inviter = teacher_client(app)
    page = inviter.post("/account/invitations").get_data(as_text=True)
    link = re.search(r'<code id="invitation-link">([^<]+)</code>', page).group(1)
    token = link.split("invite=", 1)[1]
    guest = app.test_client()
    assert guest.get(f"/signup?invite={token}").status_code == 200
    assert sign_up(guest, password="short", invite=token).status_code == 400  # a refusal does not spend it
    assert sign_up(guest, invite=token).status_code == 303 and logged_in(guest)
    used = sign_up(app.test_client(), name="Mr Second", invite=token)
    assert used.status_code == 409 and "already been used" in used.get_data(as_text=True)
    with app.app_context():
        invitation = Invitation.query.one()
        assert invitation.used_by == accounts.find_by_name("Ms Rivera").id and token not in invitation.token_hash
        invitation.expires_at = time.time() - 1
        invitation.used_at = None
        db.session.commit()
    expired = sign_up(app.test_client(), name="Mr Third", invite=token)
    assert expired.status_code == 409 and "expired" in expired.get_data(as_text=True)
    assert app.test_client().get("/signup?invite=made-up-token-123").status_code == 404
    assert "Make an invitation link" in inviter.get("/account").get_data(as_text=True)


def test_allow_signup_comes_from_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("AUTHORS_INSTANCE_PATH", str(tmp_path))
    monkeypatch.setenv("ALLOW_SIGNUP", "0")
    closed = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'db.sqlite3'}"})
    assert closed.config["ALLOW_SIGNUP"] is False
    assert closed.test_client().get("/signup").status_code == 403
    with closed.app_context():
        db.engine.dispose()


# ----------------------------------------------------------------------------------------------------
# The log-in rate limit: in the database, so it holds across processes
# ----------------------------------------------------------------------------------------------------
def test_too_many_failed_log_ins_are_refused_with_429_in_every_process(app, monkeypatch):
    assert (accounts.LOGIN_FAILURES, accounts.LOGIN_WINDOW) == (10, 15 * 60)
    monkeypatch.setattr(accounts, "LOGIN_FAILURES", 3)  # fewer tries: each costs a scrypt hash
    make_teacher(app)
    client = app.test_client()
    for _ in range(3):
        assert log_in(client, password="wrong password").status_code == 401
    refused = log_in(client)  # even the right password, until the window is over
    assert refused.status_code == 429
    text = refused.get_data(as_text=True)
    assert "Too many failed log-ins" in text and "a browser you have used before" in text and "15 minutes" in text
    # another process on the same database refuses too, and so does another address
    other = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"],
                        "SECRET_KEY": app.config["SECRET_KEY"]})
    other.test_client_class = CSRFClient
    assert log_in(other.test_client()).status_code == 429
    with other.app_context():
        db.engine.dispose()
    elsewhere = app.test_client()
    elsewhere.environ_base["REMOTE_ADDR"] = "10.0.0.9"
    assert log_in(elsewhere).status_code == 429
    # once the window has passed the account may log in again
    monkeypatch.setattr(time, "time", lambda real=time.time: real() + 15 * 60 + 1)
    assert log_in(client).status_code == 303


def device_cookie(client):
    cookie = client.get_cookie(DEVICE_COOKIE, path="/login")
    return cookie.value if cookie else None


def test_a_browser_that_logged_in_before_is_not_locked_out_by_other_browsers_failures(app):
    make_teacher(app)
    make_teacher(app, "Mr Other")
    mine = app.test_client()
    assert log_in(mine).status_code == 303 and device_cookie(mine)
    assert mine.post("/logout").status_code == 303 and device_cookie(mine)  # the device cookie stays
    for _ in range(10):  # someone else, anywhere, guessing the teacher's password
        assert log_in(app.test_client(), password="a wrong guess").status_code == 401
    stranger = log_in(app.test_client())
    assert stranger.status_code == 429 and "a browser you have used before" in stranger.get_data(as_text=True)
    assert log_in(mine).status_code == 303  # the teacher's own browser logs in
    # a device cookie vouches for the accounts it names only, and only as the server signed it
    assert log_in(mine, name="Mr Other").status_code == 303
    forged = app.test_client()
    forged.set_cookie(DEVICE_COOKIE, device_cookie(mine)[:-2] + "xx", path="/login")
    assert log_in(forged).status_code == 429
    # a known browser's own failures lock it out alone, with its own sentence
    for _ in range(10):
        assert log_in(mine, password="my own typo").status_code == 401
    own = log_in(mine)
    assert own.status_code == 429 and "in this browser" in own.get_data(as_text=True)
    other_known = app.test_client()
    other_known.set_cookie(DEVICE_COOKIE, device_cookie(mine), path="/login")  # (the same nonce: the same count)
    assert log_in(other_known).status_code == 429


def test_parallel_wrong_log_ins_check_no_more_passwords_than_the_limit(app, monkeypatch):
    """The attempt is counted in the database before its password is checked, in one UPDATE that counts
    only under the limit: 24 wrong log-ins at the same instant check at most 10 passwords."""
    make_teacher(app)
    checked, lock = [], threading.Lock()
    real_check = accounts.check_password_hash

    def counting_check(stored, password):
        with lock:
            checked.append(password)
        return real_check(stored, password)

    monkeypatch.setattr(accounts, "check_password_hash", counting_check)
    clients = [app.test_client() for _ in range(24)]
    tokens = [c.csrf_token() for c in clients]
    gate, statuses = threading.Barrier(len(clients)), [None] * len(clients)

    def attempt(i):
        gate.wait()
        statuses[i] = clients[i].post("/login", data={"name": "Ms Teacher", "password": f"guess {i}"},
                                      headers={"X-CSRFToken": tokens[i]}).status_code

    threads = [threading.Thread(target=attempt, args=(i,)) for i in range(len(clients))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert sorted(set(statuses)) == [401, 429], statuses
    assert statuses.count(401) == len(checked) <= accounts.LOGIN_FAILURES, (statuses, len(checked))
    assert statuses.count(401) == accounts.LOGIN_FAILURES  # no attempt was refused while there was room


def test_the_rate_limit_counts_every_hit_of_a_key(app):
    from app.services import ratelimit

    with app.app_context():
        for _ in range(4):
            ratelimit.hit("join:10.0.0.1", 60, now=1000.0)
        assert ratelimit.blocked("join:10.0.0.1", 5, 60, now=1001.0) == 0
        ratelimit.hit("join:10.0.0.1", 60, now=1002.0)
        assert ratelimit.blocked("join:10.0.0.1", 5, 60, now=1003.0) == pytest.approx(57.0)
        assert ratelimit.blocked("join:10.0.0.1", 5, 60, now=1061.0) == 0  # a new window
        ratelimit.hit("join:10.0.0.1", 60, now=1061.0)
        assert ratelimit.blocked("join:10.0.0.1", 1, 60, now=1062.0) > 0


def test_taking_an_attempt_counts_it_only_while_there_is_room(app):
    from app.services import ratelimit

    with app.app_context():
        assert [ratelimit.take("login:x", 3, 60, now=1000.0 + i) for i in range(3)] == [0, 0, 0]
        assert ratelimit.take("login:x", 3, 60, now=1010.0) == pytest.approx(50.0)
        assert ratelimit.blocked("login:x", 3, 60, now=1010.0) == pytest.approx(50.0)  # the refusal took nothing
        ratelimit.give_back("login:x", 60, now=1011.0)  # one went right
        assert ratelimit.take("login:x", 3, 60, now=1012.0) == 0
        assert ratelimit.take("login:x", 3, 60, now=1013.0) > 0
        assert ratelimit.take("login:x", 3, 60, now=1061.0) == 0  # a new window
        assert ratelimit.blocked("login:x", 2, 60, now=1062.0) == 0


# ----------------------------------------------------------------------------------------------------
# The command line
# ----------------------------------------------------------------------------------------------------
def test_authors_teacher_create(app, monkeypatch):
    monkeypatch.setenv("DATABASE_URL", app.config["SQLALCHEMY_DATABASE_URI"])
    runner = CliRunner()
    result = runner.invoke(cli, ["teacher", "create", "Ms Lovelace", "--password-stdin"],
                           input="analytical engine\n")
    assert result.exit_code == 0, result.output
    assert 'Teacher "Ms Lovelace" can now log in.' in result.output
    short = runner.invoke(cli, ["teacher", "create", "Mr Babbage", "--password-stdin"], input="short\n")
    assert short.exit_code == 1 and "at least 8 characters" in short.output
    taken = runner.invoke(cli, ["teacher", "create", "ms lovelace", "--password-stdin"], input="long enough pass\n")
    assert taken.exit_code == 1 and "already a teacher" in taken.output
    prompted = runner.invoke(cli, ["teacher", "create", "Mr Turing"], input="enigma machine\nenigma machine\n")
    assert prompted.exit_code == 0, prompted.output
    assert log_in(app.test_client(), name="Ms Lovelace", password="analytical engine").status_code == 303


# ----------------------------------------------------------------------------------------------------
# CSRF
# ----------------------------------------------------------------------------------------------------
def test_a_request_without_its_csrf_token_is_a_clear_400(app):
    make_teacher(app)
    bare = app.test_client(csrf=False)
    page = bare.post("/login", data={"name": "Ms Teacher", "password": TEACHER_PASSWORD})
    assert page.status_code == 400 and "CSRF token is missing" in page.get_data(as_text=True)
    api = bare.post("/api/tables/ACEFHK/join", json={"name": "Anna"})
    assert api.status_code == 400
    assert api.get_json()["error"]["code"] == "csrf-token" and "X-CSRFToken" in api.get_json()["error"]["message"]
    forged = bare.post("/api/tables/ACEFHK/join", json={"name": "Anna"}, headers={"X-CSRFToken": "forged"})
    assert forged.status_code == 400 and "not valid" in forged.get_json()["error"]["message"]
    for method, url in [("patch", "/api/tables/ACEFHK/seats/0"), ("delete", "/api/tables/ACEFHK/seats/0"),
                        ("post", "/logout"), ("post", "/studio/new"), ("post", "/join")]:
        response = getattr(bare, method)(url)
        assert response.status_code == 400, url
    # a form carries the token of its page's session
    client = app.test_client(csrf=False)
    form = client.get("/login").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', form).group(1)
    assert re.search(r'<meta name="csrf-token" content="[^"]+">', form)
    response = client.post("/login", data={"name": "Ms Teacher", "password": TEACHER_PASSWORD, "csrf_token": token})
    assert response.status_code == 303


# ----------------------------------------------------------------------------------------------------
# Tables belong to the teacher who opened them
# ----------------------------------------------------------------------------------------------------
def test_opening_tables_needs_a_teacher_who_then_owns_them(app):
    anonymous = app.test_client()
    refused = anonymous.post("/api/tables", json={"seats": [{}, {}, {}]})
    assert refused.status_code == 401 and refused.get_json()["error"]["code"] == "login-required"
    assert anonymous.get("/api/tables").status_code == 401
    assert anonymous.get("/teacher").status_code == 302
    mine, theirs = teacher_client(app), teacher_client(app, "Mr Other")
    code = open_table(mine)
    seat_student(app, code, "Anna")
    assert [t["code"] for t in mine.get("/api/tables").get_json()["tables"]] == [code]
    assert theirs.get("/api/tables").get_json()["tables"] == []
    assert theirs.post(f"/api/tables/{code}/close").status_code == 403
    assert theirs.get(f"/t/{code}").status_code == 302  # the teacher's page is not theirs
    assert mine.get(f"/t/{code}").status_code == 200
    assert mine.post(f"/api/tables/{code}/close").status_code == 200


def test_allow_signup_is_a_flag_of_the_environment(monkeypatch, tmp_path):
    from app.config import from_environment

    monkeypatch.setenv("SECRET_KEY", "a-real-secret-key-of-enough-length-123")
    for value, expected in ((None, True), ("", True), ("0", False), ("off", False), ("1", True), ("yes", True)):
        if value is None:
            monkeypatch.delenv("ALLOW_SIGNUP", raising=False)
        else:
            monkeypatch.setenv("ALLOW_SIGNUP", value)
        assert from_environment(str(tmp_path))["ALLOW_SIGNUP"] is expected, value
