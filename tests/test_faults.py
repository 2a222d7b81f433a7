"""Faults: the server killed mid-hand (SIGKILL) loses nothing, and a database that does not answer for
a while gets a clear 503 (JSON for the API, a page for people), never a 500, and the app recovers by
itself when the database is back."""
from __future__ import annotations

import http.client
import random
import socket
import sqlite3
import threading
import time

import pytest
from sqlalchemy import create_engine
from sqlalchemy.engine import make_url

from app import create_app
from app.db import db

from .conftest import SERVER_DATABASE
from .server_support import Browser, Server
from .web_support import CSRFClient, choose_move, deck_of, get_state, open_table, seat_student, teacher_client

COMPUTERS = [{"kind": "computer", "bot": "random"}, {"kind": "computer", "bot": "memory"},
             {"kind": "computer", "bot": "random"}, {"kind": "computer", "bot": "expert"}]


def move_log(database: str, code: str) -> list[tuple[int, int, str]]:
    """(deal, seq, move) for every stored move of the table, read straight from the SQLite file."""
    with sqlite3.connect(database) as connection:
        return connection.execute(
            "SELECT d.number, m.seq, m.data_json FROM play_moves m JOIN play_deals d ON d.id = m.deal_id "
            "JOIN play_tables t ON t.id = d.table_id WHERE t.code = ? ORDER BY d.number, m.seq", (code,)).fetchall()


def assert_no_gap(log):
    by_deal: dict[int, list[int]] = {}
    for deal, seq, _ in log:
        by_deal.setdefault(deal, []).append(seq)
    for deal, seqs in by_deal.items():
        assert seqs == list(range(len(seqs))), f"deal {deal}: {seqs}"


def test_a_server_killed_mid_hand_goes_on_from_the_last_committed_move(tmp_path):
    database = tmp_path / "class.sqlite3"
    url = f"sqlite:///{database}"
    pace = {"AUTHORS_BOT_PACE_SECONDS": "0.02", "AUTHORS_HAND_PAUSE_SECONDS": "0.02"}
    server = Server(url, tmp_path / "instance", workers=2, threads=4, env=pace).start()
    try:
        teacher = Browser(server.port)
        code = teacher.open_table({"rules": "standard", "seats": COMPUTERS, "match": {"format": "hands", "value": 3}})
        status, _ = teacher.json("POST", f"/api/tables/{code}/start")
        assert status == 200
        pollers = [Browser(server.port) for _ in range(4)]
        seen = [(0, 0)]  # the furthest (hand, moves in it) any screen was shown

        def watch(browser, stop):
            while not stop.is_set():
                try:
                    status, state = browser.json("GET", f"/api/tables/{code}")
                except (OSError, http.client.HTTPException):
                    return  # the server is gone (killed before, or in the middle of, its answer)
                if status == 200 and state["game"]:
                    seen[0] = max(seen[0], (state["match"]["hand"], state["game"]["version"]))

        stop = threading.Event()
        threads = [threading.Thread(target=watch, args=(b, stop)) for b in pollers]
        for thread in threads:
            thread.start()
        deadline = time.time() + 30
        while time.time() < deadline and seen[0] < (2, 5):
            time.sleep(0.02)
        assert seen[0] >= (2, 5), "the computer players did not get going"
        server.kill()  # mid-hand, with requests in flight
        stop.set()
        for thread in threads:
            thread.join(10)
        hand, version = seen[0]
    finally:
        server.kill()
    before = move_log(str(database), code)
    assert_no_gap(before)
    assert sum(1 for row in before if row[0] == hand) >= version, "a move a screen had seen was lost"

    server = Server(url, tmp_path / "instance", workers=2, threads=4, env=pace).start()
    try:
        watcher = Browser(server.port)
        state = None
        deadline = time.time() + 60
        while time.time() < deadline:
            status, state = watcher.json("GET", f"/api/tables/{code}")
            assert status == 200, state
            if state["status"] == "finished":
                break
            time.sleep(0.01)
        assert state["status"] == "finished", "the game did not go on after the restart"
        assert len(state["hands"]) == 3
    finally:
        server.stop()
    after = move_log(str(database), code)
    assert_no_gap(after)
    assert after[:len(before)] == before, "the restarted server changed moves made before the crash"
    assert len(after) > len(before)


def test_a_write_waits_for_a_locked_sqlite_database_no_longer_than_5_s_by_default(tmp_path, monkeypatch):
    """With the default lock wait, a move that finds the database held by another writer gets its 503
    within 5 s (and after more than a moment's wait: a busy class's writers queue briefly, not fail)."""
    monkeypatch.setenv("AUTHORS_INSTANCE_PATH", str(tmp_path / "instance"))
    database = tmp_path / "locked.sqlite3"
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{database}", "BOT_PACE_SECONDS": 0,
                      "HAND_PAUSE_SECONDS": 0})
    app.test_client_class = CSRFClient
    code = open_table(teacher_client(app))
    blocker = sqlite3.connect(database, isolation_level=None)
    blocker.execute("BEGIN EXCLUSIVE")
    try:
        started = time.perf_counter()
        joined = app.test_client().post(f"/api/tables/{code}/join", json={"name": "Boris"})
        waited = time.perf_counter() - started
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    assert joined.status_code == 503 and 1 < waited < 5, (joined.status_code, waited)
    with app.app_context():
        db.engine.dispose()


# ----------------------------------------------------------------------------------------------------
# SQLite: a database held locked by someone else (a backup, a stuck process)
# ----------------------------------------------------------------------------------------------------
def test_a_locked_sqlite_database_gets_503_then_the_app_recovers(tmp_path, monkeypatch):
    monkeypatch.setenv("AUTHORS_INSTANCE_PATH", str(tmp_path / "instance"))
    database = tmp_path / "locked.sqlite3"
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{database}",
                      "DATABASE_LOCK_TIMEOUT_MS": 200, "BOT_PACE_SECONDS": 0, "HAND_PAUSE_SECONDS": 0,
                      "DEAL_SEED": 7})
    app.test_client_class = CSRFClient
    teacher = teacher_client(app)
    code = open_table(teacher)
    anna = seat_student(app, code, "Anna")
    seat_student(app, code, "Boris")
    teacher.post(f"/api/tables/{code}/start")
    deck = deck_of(anna, code)
    rng = random.Random(1)
    state = get_state(anna, code)

    blocker = sqlite3.connect(database, isolation_level=None)
    blocker.execute("BEGIN EXCLUSIVE")  # nobody else may write until this ends
    try:
        move = anna.post(f"/api/tables/{code}/moves", json={"version": state["version"],
                                                             "move": choose_move(state, deck, rng)})
        assert move.status_code == 503
        assert move.headers["Retry-After"]
        assert move.get_json()["error"]["code"] == "database-unavailable"
        assert "not answering" in move.get_json()["error"]["message"]
        page = app.test_client().post("/join", data={"code": code, "name": "Vera"},
                                      headers={"Accept": "text/html"})
        assert page.status_code == 503 and b"not answering" in page.data
        # reading goes on: WAL lets readers in while a writer holds the lock
        assert anna.get(f"/api/tables/{code}").status_code == 200
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    state = get_state(anna, code)
    again = anna.post(f"/api/tables/{code}/moves", json={"version": state["version"],
                                                         "move": choose_move(state, deck, rng)})
    assert again.status_code == 200
    with app.app_context():
        db.engine.dispose()


# ----------------------------------------------------------------------------------------------------
# PostgreSQL: the database server goes away (a TCP proxy we stop) and comes back
# ----------------------------------------------------------------------------------------------------
class Proxy:
    """A TCP proxy on a loopback port to the database server, that can be cut and restored."""

    def __init__(self, target_host: str, target_port: int):
        self.target = (target_host, target_port)
        self.port = 0
        self.listener: socket.socket | None = None
        self.sockets: list[socket.socket] = []
        self.lock = threading.Lock()
        self.silent = threading.Event()

    def start(self) -> "Proxy":
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(64)
        self.port = listener.getsockname()[1]
        self.listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()
        return self

    def _accept(self, listener):
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return
            if self.silent.is_set():  # taken, and never answered
                with self.lock:
                    self.sockets.append(client)
                continue
            try:
                upstream = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            with self.lock:
                self.sockets += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    def _pipe(self, source, sink):
        try:
            while True:
                data = source.recv(65536)
                if not data:
                    break
                if not self.silent.is_set():  # (silent: read, so the sender's system sees it taken, and dropped)
                    sink.sendall(data)
        except OSError:
            pass
        finally:
            for sock in (source, sink):
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def go_silent(self) -> None:
        """The database stops answering, with no refusal: what is sent is taken and never answered, and
        a new connection is accepted and never answered (a host that hangs, a network that drops)."""
        self.silent.set()

    def speak_again(self) -> None:
        self.silent.clear()

    def cut(self) -> None:
        """The database is unreachable: no new connection, and every open one is dropped."""
        try:
            self.listener.shutdown(socket.SHUT_RDWR)  # (wakes the accepting thread; close alone does not)
        except OSError:
            pass
        self.listener.close()
        with self.lock:
            for sock in self.sockets:
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                sock.close()
            self.sockets.clear()


def _app_through_a_relay(tmp_path, monkeypatch):
    """A relay to the PostgreSQL server, and an app whose database is reached through it."""
    real = make_url(SERVER_DATABASE)
    relay = Proxy(real.host or "127.0.0.1", real.port or 5432).start()
    url = real.set(host="127.0.0.1", port=relay.port).render_as_string(hide_password=False)
    monkeypatch.setenv("AUTHORS_INSTANCE_PATH", str(tmp_path / "instance"))
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": url, "BOT_PACE_SECONDS": 0,
                      "HAND_PAUSE_SECONDS": 0, "DEAL_SEED": 7})
    app.test_client_class = CSRFClient
    return relay, app


def _a_seated_student(app):
    """A table's code, and the client of Anna, seated there and answered."""
    code = open_table(teacher_client(app))
    anna = seat_student(app, code, "Anna")
    assert anna.get(f"/api/tables/{code}").status_code == 200
    return code, anna


def _assert_recovers(app, code, anna, seconds: float) -> None:
    """Once the database answers again, Anna's polls are answered within `seconds`, and Boris can join."""
    deadline = time.time() + seconds
    while True:
        up = anna.get(f"/api/tables/{code}")
        if up.status_code == 200 or time.time() > deadline:
            break
        time.sleep(0.2)
    assert up.status_code == 200
    assert seat_student(app, code, "Boris")


def _close_and_drop(app) -> None:
    """Close the app's connections, then drop the tables it made in the server database."""
    with app.app_context():
        db.session.remove()
        db.engine.dispose()
    cleanup = create_engine(SERVER_DATABASE)
    with cleanup.begin() as connection:
        db.metadata.drop_all(connection)
    cleanup.dispose()


@pytest.mark.database
@pytest.mark.skipif(not SERVER_DATABASE or not SERVER_DATABASE.startswith("postgresql"),
                    reason="needs the PostgreSQL server (make test-postgres)")
def test_postgres_going_away_gets_503_then_the_app_recovers_by_itself(tmp_path, monkeypatch):
    proxy, app = _app_through_a_relay(tmp_path, monkeypatch)
    try:
        code, anna = _a_seated_student(app)

        proxy.cut()
        for _ in range(3):
            down = anna.get(f"/api/tables/{code}")
            assert down.status_code == 503, down.data[:300]
            assert down.get_json()["error"]["code"] == "database-unavailable"
        page = anna.get(f"/t/{code}/play", headers={"Accept": "text/html"})
        assert page.status_code == 503 and b"not answering" in page.data
        joined = app.test_client().post(f"/api/tables/{code}/join", json={"name": "Boris"})
        assert joined.status_code == 503

        proxy.start()  # the same port: the database is back
        _assert_recovers(app, code, anna, seconds=10)
    finally:
        proxy.cut()
        _close_and_drop(app)


@pytest.mark.database
@pytest.mark.skipif(not SERVER_DATABASE or not SERVER_DATABASE.startswith("postgresql"),
                    reason="needs the PostgreSQL server (make test-postgres)")
def test_a_silent_postgres_gets_503_within_5_s_then_the_app_recovers_by_itself(tmp_path, monkeypatch):
    """The database stops answering without refusing (a relay that takes every byte and answers none): a
    request waiting on a statement gets its 503 within 5 s, every request after it at once (the
    database's silence is remembered for a moment), a new connection is given up on too, and the app
    recovers by itself once the database answers again."""
    relay, app = _app_through_a_relay(tmp_path, monkeypatch)
    try:
        code, anna = _a_seated_student(app)

        relay.go_silent()
        waits = []
        for _ in range(4):
            started = time.perf_counter()
            down = anna.get(f"/api/tables/{code}")
            waits.append(time.perf_counter() - started)
            assert down.status_code == 503, down.data[:300]
            assert down.get_json()["error"]["code"] == "database-unavailable"
        assert max(waits) < 5, waits
        assert min(waits[1:]) < 0.5, waits  # once silent, nobody waits for it again at once
        started = time.perf_counter()
        assert app.test_client().get("/healthz").status_code == 200
        assert time.perf_counter() - started < 0.1
        time.sleep(3.2)  # past the moment of silence: a new connection is tried, and given up on in time
        started = time.perf_counter()
        assert app.test_client().post(f"/api/tables/{code}/join", json={"name": "Boris"}).status_code == 503
        assert time.perf_counter() - started < 5

        relay.speak_again()
        _assert_recovers(app, code, anna, seconds=15)
    finally:
        relay.cut()
        _close_and_drop(app)


@pytest.mark.database
@pytest.mark.skipif(not SERVER_DATABASE or not SERVER_DATABASE.startswith("postgresql"),
                    reason="needs the PostgreSQL server (make test-postgres)")
def test_the_served_app_answers_a_class_within_5_s_while_postgres_is_silent(tmp_path):
    """Through the real server (one worker of 2 threads) and a relay that stops answering: twelve screens
    polling at once each get their 503 within 5 s, /healthz answers in under 100 ms throughout, and the
    polls are answered again once the database is back."""
    from concurrent.futures import ThreadPoolExecutor

    from .server_support import fresh_postgres_database, drop_postgres_database

    database = fresh_postgres_database(SERVER_DATABASE, "authors_silent")
    real = make_url(database)
    relay = Proxy(real.host or "127.0.0.1", real.port or 5432).start()
    url = real.set(host="127.0.0.1", port=relay.port).render_as_string(hide_password=False)
    server = Server(url, tmp_path / "instance", workers=1, threads=2).start()
    try:
        teacher = Browser(server.port)
        code = teacher.open_table({"rules": "standard", "seats": [{"kind": "human"}] + [{"kind": "computer"}] * 2})
        screens = [Browser(server.port) for _ in range(12)]
        assert all(screen.json("GET", f"/api/tables/{code}")[0] == 200 for screen in screens)

        def poll(screen):
            started = time.perf_counter()
            status, _ = screen.json("GET", f"/api/tables/{code}")
            return status, time.perf_counter() - started

        relay.go_silent()
        with ThreadPoolExecutor(len(screens)) as pool:
            for _ in range(2):
                answers = list(pool.map(poll, screens))
                assert {status for status, _ in answers} == {503}, answers
                assert max(wait for _, wait in answers) < 5, answers
                started = time.perf_counter()
                assert Browser(server.port).request("GET", "/healthz")[0] == 200
                assert time.perf_counter() - started < 0.1
        relay.speak_again()
        deadline = time.time() + 20
        while poll(screens[0])[0] != 200:
            assert time.time() < deadline, "the app did not recover by itself"
            time.sleep(0.2)
    finally:
        server.stop()
        relay.cut()
        drop_postgres_database(database)


@pytest.mark.database
@pytest.mark.skipif(not SERVER_DATABASE or not SERVER_DATABASE.startswith("postgresql"),
                    reason="needs the PostgreSQL server (make test-postgres)")
def test_a_postgres_connection_that_died_while_idle_is_replaced_before_use(tmp_path, monkeypatch):
    """PostgreSQL restarted, or a proxy closed idle connections: the pool pings a connection that sat idle
    (DATABASE_IDLE_PING_SECONDS) before handing it out and connects afresh, so no request fails; a busy
    connection is not pinged (a round trip saved per request)."""
    from sqlalchemy import text

    monkeypatch.setenv("AUTHORS_INSTANCE_PATH", str(tmp_path / "instance"))
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": SERVER_DATABASE, "DATABASE_IDLE_PING_SECONDS": 0.3})
    app.test_client_class = CSRFClient
    try:
        teacher = teacher_client(app)
        code = open_table(teacher)
        anna = seat_student(app, code, "Anna")
        for _ in range(3):
            assert anna.get(f"/api/tables/{code}").status_code == 200
        time.sleep(0.5)
        killer = create_engine(SERVER_DATABASE)
        with killer.begin() as connection:  # every other connection to the database dies while idle
            killed = connection.execute(text(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid() AND state = 'idle'")).scalar()
        killer.dispose()
        assert killed >= 1
        response = anna.get(f"/api/tables/{code}")
        assert response.status_code == 200, response.data[:300]
        assert seat_student(app, code, "Boris")
    finally:
        _close_and_drop(app)
