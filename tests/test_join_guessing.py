"""Guessing join codes is limited per browser (its session cookie) and, at a level no class reaches by
mistyping, per client address, by counters in the database, so the limits hold across processes: two
app instances sharing one database count the same wrong guesses. One student mistyping codes does not
stop the rest of the class behind the same school address from joining."""
from __future__ import annotations

import time

import pytest

from app import create_app
from app.db import db
from app.services import ratelimit

from .web_support import CSRFClient, open_table, seat_student, teacher_client

GUESSER = {"REMOTE_ADDR": "198.51.100.7"}
NEIGHBOUR = {"REMOTE_ADDR": "198.51.100.8"}


@pytest.fixture
def twin(app):
    """A second instance of the app (another process or host) on the same database."""
    other = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"],
                        "SECRET_KEY": app.config["SECRET_KEY"]})
    other.test_client_class = CSRFClient
    yield other
    with other.app_context():
        db.session.remove()
        db.engine.dispose()


def client(app, environ):
    c = app.test_client()
    c.environ_base.update(environ)
    return c


def same_browser(source, other):
    """`other` (a client of another instance) carries `source`'s session cookie: one browser."""
    other.set_cookie("session", source.get_cookie("session").value)
    return other


def test_twenty_wrong_codes_block_that_browser_on_every_instance_and_not_its_classmates(app, twin):
    real = open_table(teacher_client(app))
    seated = seat_student(app, real, "Anna")
    seated.environ_base.update(GUESSER)  # Anna sits behind the same school address as the guesser
    first, second = client(app, GUESSER), client(twin, GUESSER)
    assert first.get("/api/tables/WRNGAA").status_code == 404
    assert first.get_cookie("session") is not None  # a browser without a session got one
    for i in range(1, 20):  # wrong codes, alternately on each instance, through the API and the pages
        guesser = same_browser(first, second) if i % 2 else same_browser(second, first)
        code = f"WRNG{i:02d}"
        url = (f"/api/tables/{code}", f"/t/{code}/projector", f"/api/tables/{code}/deck")[i % 3]
        assert guesser.get(url).status_code == 404, (i, url)
    same_browser(second, first)
    for guesser in (first, same_browser(first, second)):
        blocked = guesser.get("/api/tables/ACEFHK")
        assert blocked.status_code == 429
        error = blocked.get_json()["error"]
        assert error["code"] == "too-many-attempts" and "in this browser" in error["message"]
        assert 0 < int(blocked.headers["Retry-After"]) <= 600
        # a right code is refused too: the limit is no oracle of which codes exist
        assert guesser.get(f"/api/tables/{real}").status_code == 429
        assert guesser.post(f"/api/tables/{real}/join", json={"name": "Mallory"}).status_code == 429
        page = guesser.post("/join", data={"code": real, "name": "Mallory"}, headers={"Accept": "text/html"})
        assert page.status_code == 429 and b"Too many join codes" in page.data
    # a student already seated at a table keeps playing from the same address
    assert seated.get(f"/api/tables/{real}").status_code == 200
    # the other browsers behind the same address join, and their own wrong codes are 404s
    classmate = client(twin, GUESSER)
    assert classmate.get("/api/tables/ACEFHK").status_code == 404
    assert classmate.post(f"/api/tables/{real}/join", json={"name": "Boris"}).status_code == 201
    assert client(app, GUESSER).post("/join", data={"code": real, "name": "Vera"}).status_code in (302, 303)
    # another address is not affected
    assert client(twin, NEIGHBOUR).get("/api/tables/ACEFHK").status_code == 404


def test_a_guesser_who_drops_its_cookies_meets_the_address_limit(app, twin):
    assert app.config["JOIN_GUESS_ADDRESS_LIMIT"] == 300
    for instance in (app, twin):
        instance.config.update(JOIN_GUESS_ADDRESS_LIMIT=5)
    real = open_table(teacher_client(app))
    seated = seat_student(app, real, "Anna")
    seated.environ_base.update(GUESSER)
    for i in range(5):  # a new browser for every guess
        assert client((app, twin)[i % 2], GUESSER).get(f"/api/tables/WRNG{i:02d}").status_code == 404
    blocked = client(twin, GUESSER).post(f"/api/tables/{real}/join", json={"name": "Mallory"})
    assert blocked.status_code == 429 and "from this network" in blocked.get_json()["error"]["message"]
    assert seated.get(f"/api/tables/{real}").status_code == 200
    assert client(app, NEIGHBOUR).post(f"/api/tables/{real}/join", json={"name": "Boris"}).status_code == 201


def join_wrong(guesser, code="WRNG09"):
    """A new join with a code (the only request the address limit refuses)."""
    return guesser.post(f"/api/tables/{code}/join", json={"name": "Mallory"})


def test_the_address_limit_counts_an_ipv6_host_by_its_64(app):
    app.config.update(JOIN_GUESS_ADDRESS_LIMIT=3)
    for i in range(3):  # one host's addresses in its /64
        guesser = client(app, {"REMOTE_ADDR": f"2001:db8:7:1::{i + 1:x}"})
        assert guesser.get(f"/api/tables/WRNG{i:02d}").status_code == 404
    assert join_wrong(client(app, {"REMOTE_ADDR": "2001:db8:7:1:ffff::9"})).status_code == 429
    assert join_wrong(client(app, {"REMOTE_ADDR": "2001:db8:7:2::1"})).status_code == 404
    # an IPv4 address written as IPv6 is that IPv4 address, not everyone's ::ffff:0:0/64
    for i in range(3):
        assert client(app, {"REMOTE_ADDR": f"::ffff:198.51.100.{i + 1}"}).get("/api/tables/WRNG01").status_code == 404
    assert join_wrong(client(app, {"REMOTE_ADDR": "::ffff:198.51.100.1"})).status_code == 404
    assert join_wrong(client(app, {"REMOTE_ADDR": "198.51.100.1"})).status_code == 404


def test_right_codes_and_missing_hands_are_not_guesses(app):
    real = open_table(teacher_client(app))
    visitor = client(app, GUESSER)
    for _ in range(30):
        assert visitor.get(f"/api/tables/{real}").status_code == 200
        assert visitor.get(f"/api/tables/{real}/hands/9/record").status_code == 404  # a real table
    assert visitor.get("/api/tables/ACEFHK").status_code == 404


def test_the_block_ends_with_its_window(app, twin, monkeypatch):
    for instance in (app, twin):
        instance.config.update(JOIN_GUESS_LIMIT=3, JOIN_GUESS_ADDRESS_LIMIT=4, JOIN_GUESS_WINDOW=1)
    guesser = client(app, GUESSER)
    for code in ("WRONG1", "WRONG2", "WRONG3"):
        assert guesser.get(f"/api/tables/{code}").status_code == 404
    assert same_browser(guesser, client(twin, GUESSER)).get("/api/tables/WRONG4").status_code == 429
    assert client(twin, GUESSER).get("/api/tables/WRONG4").status_code == 404  # the address's 4th
    assert join_wrong(client(twin, GUESSER), "WRONG5").status_code == 429
    later = time.time() + 1.2  # the window (1 s) has passed: the counters' clock, moved on
    monkeypatch.setattr(ratelimit.time, "time", lambda: later)
    assert join_wrong(client(twin, GUESSER), "WRONG5").status_code == 404
    assert guesser.get("/api/tables/WRONG6").status_code == 404


def _proxied_app(app, proxies: int):
    other = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"],
                        "SECRET_KEY": app.config["SECRET_KEY"], "TRUSTED_PROXIES": proxies,
                        "JOIN_GUESS_ADDRESS_LIMIT": 3})
    other.test_client_class = CSRFClient
    return other


@pytest.mark.parametrize("proxies", [0, 1])
def test_behind_a_proxy_the_limit_counts_each_students_address(app, proxies):
    """With TRUSTED_PROXIES=1 (one proxy in front) the address limit counts the address the proxy
    forwards, so one guesser does not lock a whole school out; with 0, X-Forwarded-For is not believed,
    so a guesser cannot dodge the limit by inventing addresses."""
    behind = _proxied_app(app, proxies)
    try:
        proxy = {"REMOTE_ADDR": "10.0.0.1"}
        guesser = client(behind, proxy)
        for i, code in enumerate(("WRONG1", "WRONG2", "WRONG3")):
            forwarded = {"X-Forwarded-For": f"203.0.113.{i + 1}" if not proxies else "203.0.113.9"}
            assert guesser.get(f"/api/tables/{code}", headers=forwarded).status_code == 404
        other_student = client(behind, proxy).post("/api/tables/WRONG4/join", json={"name": "Mallory"},
                                                  headers={"X-Forwarded-For": "203.0.113.50"})
        same_student = client(behind, proxy).post("/api/tables/WRONG5/join", json={"name": "Mallory"},
                                                 headers={"X-Forwarded-For": "203.0.113.9"})
        assert same_student.status_code == 429
        assert other_student.status_code == (404 if proxies else 429)
    finally:
        with behind.app_context():
            db.session.remove()
            db.engine.dispose()


def test_trusted_proxies_must_be_a_small_count(monkeypatch, tmp_path):
    from app.config import ConfigError, from_environment

    monkeypatch.setenv("TRUSTED_PROXIES", "yes")
    with pytest.raises(ConfigError, match="TRUSTED_PROXIES"):
        from_environment(str(tmp_path))
    monkeypatch.setenv("TRUSTED_PROXIES", "2")
    assert from_environment(str(tmp_path))["TRUSTED_PROXIES"] == 2


def test_the_address_limit_comes_from_the_environment(monkeypatch, tmp_path):
    from app.config import ConfigError, from_environment

    assert "JOIN_GUESS_ADDRESS_LIMIT" not in from_environment(str(tmp_path))  # (its default in app/config.py, 300)
    monkeypatch.setenv("JOIN_GUESS_ADDRESS_LIMIT", "2000")
    assert from_environment(str(tmp_path))["JOIN_GUESS_ADDRESS_LIMIT"] == 2000
    for wrong in ("0", "lots"):
        monkeypatch.setenv("JOIN_GUESS_ADDRESS_LIMIT", wrong)
        with pytest.raises(ConfigError, match="JOIN_GUESS_ADDRESS_LIMIT"):
            from_environment(str(tmp_path))


def test_a_guesser_behind_the_teachers_address_never_locks_out_the_table_or_its_people(app):
    """The issue: 300 wrong codes from one address (a script dropping its cookies) locked the teacher out of
    their own table and every student behind that address. Now the teacher and the table's seated or
    waiting browsers are never refused; the address limit refuses new joins only, and the teacher's page
    says so."""
    app.config.update(JOIN_GUESS_ADDRESS_LIMIT=5, BOT_PACE_SECONDS=0, HAND_PAUSE_SECONDS=0, DEAL_SEED=7)
    teacher = teacher_client(app)
    teacher.environ_base.update(GUESSER)
    code = open_table(teacher)
    seated = seat_student(app, code, "Anna")
    seated.environ_base.update(GUESSER)
    for i in range(5):  # a new browser for every wrong code, from the teacher's own address
        assert client(app, GUESSER).get(f"/api/tables/WRNG{i:02d}").status_code == 404
    for i in range(25):  # and the teacher's own browser mistypes codes past its browser limit too
        teacher.get(f"/api/tables/TYPO{i:02d}")
    assert teacher.get("/api/tables/TYPO99").status_code == 429  # another code is still refused
    assert teacher.get(f"/t/{code}").status_code == 200
    assert "many wrong codes from this network" in teacher.get(f"/t/{code}").get_data(as_text=True)
    network = teacher.get("/api/network").get_json()
    assert network["limited"] and "many wrong codes from this network" in network["message"]
    assert 0 < network["retry_after"] <= 600
    assert teacher.get(f"/api/tables/{code}").status_code == 200
    assert teacher.get(f"/t/{code}/projector").status_code == 200
    assert teacher.get(f"/reports/tables/{code}").status_code == 200
    assert seated.get(f"/api/tables/{code}").get_json()["you"]["name"] == "Anna"
    # A student not yet seated behind that address still opens the join page and sees the table; her
    # join is refused with a sentence and Retry-After, and a join from another address goes through.
    newcomer = client(app, GUESSER)
    assert newcomer.get(f"/j/{code}").status_code == 200
    assert newcomer.get(f"/api/tables/{code}").status_code == 200
    refused = newcomer.post(f"/api/tables/{code}/join", json={"name": "Boris"})
    assert refused.status_code == 429 and "from this network" in refused.get_json()["error"]["message"]
    assert 0 < int(refused.headers["Retry-After"]) <= 600
    page = newcomer.post("/join", data={"code": code, "name": "Boris"}, headers={"Accept": "text/html"})
    assert page.status_code == 429 and "from this network" in page.get_data(as_text=True)
    assert client(app, NEIGHBOUR).post(f"/api/tables/{code}/join", json={"name": "Boris"}).status_code == 201
    # The teacher may take a seat of their own table from there (played on the teacher's device).
    assert teacher.post(f"/api/tables/{code}/join", json={"name": "Ms T"}).status_code == 201
    assert teacher.post(f"/api/tables/{code}/start").status_code == 200


def test_a_waiting_device_is_not_refused_by_the_limit(app):
    """A device waiting to be let back into its seat polls its request: no guessing limit stops it."""
    from app.store import presence

    from .test_presence import seen_back

    app.config.update(JOIN_GUESS_LIMIT=2, BOT_PACE_SECONDS=0, HAND_PAUSE_SECONDS=0, DEAL_SEED=7)
    teacher = teacher_client(app)
    code = open_table(teacher, seats=[{"kind": "human"}, {"kind": "computer"}, {"kind": "computer"}])
    seat_student(app, code, "Anna")
    assert teacher.post(f"/api/tables/{code}/start").status_code == 200
    seen_back(app, code, "Anna", presence.AWAY_AFTER + 5)
    phone = client(app, GUESSER)
    assert phone.post(f"/api/tables/{code}/join", json={"name": "Anna"}).status_code == 202
    for i in range(2):
        assert phone.get(f"/api/tables/WRNG{i:02d}").status_code == 404
    assert phone.get("/api/tables/WRNG09").status_code == 429
    assert phone.get(f"/api/tables/{code}/ask").get_json()["asking"]["status"] == "waiting"
    assert phone.get(f"/j/{code}/waiting").status_code == 200


def test_the_network_notice_is_the_teachers_and_quiet_without_guessing(app):
    teacher = teacher_client(app)
    code = open_table(teacher)
    assert teacher.get("/api/network").get_json() == {"limited": False, "retry_after": 0, "message": None}
    assert "many wrong codes" not in teacher.get(f"/t/{code}").get_data(as_text=True)
    anonymous = client(app, GUESSER).get("/api/network")
    assert anonymous.status_code == 401 and anonymous.get_json()["error"]["message"]
