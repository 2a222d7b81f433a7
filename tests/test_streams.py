"""The state stream, GET /api/tables/<code>/events, against real `authors serve` servers: two processes on
one database (as a district runs them behind a load balancer), the stream read raw from a socket as an
EventSource reads it.

- it opens at once, with the same state the GET gives the same browser (a seat, a stranger's public
  view, the teacher's), then sends each change as its next event, on the server that made the move within
  WATCH_SECONDS and on the other process too;
- every event a browser is sent is the GET's answer to that browser at that version: a seat never
  receives what its GET would not show it (the leak tests check the GET itself: tests/test_web_leaks.py);
- Last-Event-ID naming the current version skips the first state; `: ping` comments keep it open;
- a wrong code is the GET's 404, counted as a wrong guess; too many streams from one browser are a 429
  with a sentence in the reader's language; open streams hold none of the app's threads.

On PostgreSQL (AUTHORS_TEST_DATABASE_URL=postgresql...) the servers share a database of the test's own;
otherwise one SQLite file (WAL).
"""
from __future__ import annotations

import json
import os
import queue
import random
import socket
import statistics
import threading
import time

import pytest

from .conftest import SERVER_DATABASE
from .server_support import Browser, Server, drop_postgres_database, fresh_postgres_database
from .web_support import choose_move

PING_SECONDS = 0.5    # the servers' ping interval here (AUTHORS_STREAM_PING_SECONDS), 15 s when served
LATENCY = 0.2         # a move's state on every stream, from either process, within this (the median of each)
LATENCY_WORST = 1.0   # and never later than this, on a machine that other work shares
STREAMS_PER_BROWSER = 4  # app/web/events.py
STUDENTS = ("Anna", "Boris", "Vera")

pytestmark = pytest.mark.database  # (on PostgreSQL too: the watcher's one query for many tables)


class EventStream:
    """A text/event-stream read from a raw socket, as an EventSource reads it: the answer's status and
    headers, then each block (an event or a comment) with the moment it arrived, from a reader thread."""

    def __init__(self, port: int, path: str, cookies: dict | None = None, headers: dict | None = None,
                 timeout: float = 10):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        sent = {"Host": f"127.0.0.1:{port}", "Accept": "text/event-stream", "Cache-Control": "no-cache",
                **(headers or {})}
        if cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in cookies.items())
        self.opened = time.monotonic()
        self.sock.sendall((f"GET {path} HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in sent.items())
                           + "\r\n").encode())
        self.raw = b""
        while b"\r\n\r\n" not in self.raw:
            piece = self.sock.recv(65536)
            if not piece:
                raise ConnectionError("the server closed the connection before answering")
            self.raw += piece
        self.first_byte = time.monotonic() - self.opened
        head, self.raw = self.raw.split(b"\r\n\r\n", 1)
        status_line, *lines = head.decode("latin-1").split("\r\n")
        self.status = int(status_line.split()[1])
        self.headers: dict[str, str] = {}
        self.cookies: list[str] = []
        for line in lines:
            name, _, value = line.partition(":")
            self.headers[name.strip().lower()] = value.strip()
            if name.strip().lower() == "set-cookie":
                self.cookies.append(value.strip())
        self.blocks: queue.Queue = queue.Queue()
        self.body = b""
        self.finished = False  # the server ended the stream (its last, empty chunk), not just the connection
        if self.status != 200:
            length = int(self.headers.get("content-length", "0"))
            while len(self.raw) < length:
                self.raw += self.sock.recv(65536)
            self.body = self.raw[:length]
            self.close()
            return
        assert self.headers.get("transfer-encoding") == "chunked", self.headers
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def json(self) -> dict:
        return json.loads(self.body)

    def _read(self) -> None:
        """Undo the chunked encoding and cut the text into blocks (a blank line ends each), timestamped."""
        text = b""
        try:
            while True:
                while b"\r\n" not in self.raw:
                    piece = self.sock.recv(65536)
                    if not piece:
                        return
                    self.raw += piece
                size_line, rest = self.raw.split(b"\r\n", 1)
                size = int(size_line.split(b";")[0], 16)
                if size == 0:
                    self.finished = True
                    return
                while len(rest) < size + 2:
                    piece = self.sock.recv(65536)
                    if not piece:
                        return
                    rest += piece
                text += rest[:size]
                self.raw = rest[size + 2:]
                now = time.monotonic()
                while b"\r\n\r\n" in text:
                    block, text = text.split(b"\r\n\r\n", 1)
                    self.blocks.put((now, block.decode()))
        except OSError:
            return
        finally:
            self.blocks.put((time.monotonic(), None))  # the end of the stream

    def block(self, timeout: float = 5) -> tuple[float, dict | None]:
        """The next block as its fields: {"comments": [...], "event", "id", "data", "retry"}; None at the end."""
        arrived, text = self.blocks.get(timeout=timeout)
        if text is None:
            self.blocks.put((arrived, None))
            return arrived, None
        fields: dict = {"comments": []}
        for line in text.split("\r\n"):
            if line.startswith(":"):
                fields["comments"].append(line[1:].strip())
            else:
                name, _, value = line.partition(":")
                value = value[1:] if value.startswith(" ") else value
                fields[name] = fields[name] + "\n" + value if name == "data" and "data" in fields else value
        return arrived, fields

    def state(self, timeout: float = 5) -> tuple[float, int, dict]:
        """The next state event (comments before it passed over): when it arrived, its id, its data."""
        deadline = time.monotonic() + timeout
        while True:
            arrived, fields = self.block(max(0.01, deadline - time.monotonic()))
            assert fields is not None, "the stream ended"
            if "data" in fields:
                assert fields.get("event") == "state", fields
                return arrived, int(fields["id"]), json.loads(fields["data"])

    def close(self) -> None:
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()


def without_clock(data: dict) -> dict:
    """A streamed state less the server's clock the stream adds: the GET's JSON."""
    assert abs(data["server_time"] - time.time()) < 5, data["server_time"]
    return {k: v for k, v in data.items() if k != "server_time"}


def events_path(code: str, seat: int | None = None) -> str:
    return f"/api/tables/{code}/events" + (f"?seat={seat}" if seat is not None else "")


def get(browser: Browser, code: str, seat: int | None = None) -> dict:
    status, data = browser.json("GET", f"/api/tables/{code}" + (f"?seat={seat}" if seat is not None else ""))
    assert status == 200, (status, data)
    return data


@pytest.fixture(scope="module")
def database(tmp_path_factory):
    """The URL both servers use: a fresh PostgreSQL database of this module's own, or one SQLite file."""
    if SERVER_DATABASE and SERVER_DATABASE.startswith("postgresql"):
        from sqlalchemy.exc import OperationalError

        try:
            url = fresh_postgres_database(SERVER_DATABASE, f"authors_streams_{os.getpid()}")
        except OperationalError as exc:
            pytest.skip(f"PostgreSQL ({SERVER_DATABASE}) is not reachable: {str(exc).splitlines()[0]}")
        yield url
        drop_postgres_database(url)
    else:
        yield f"sqlite:///{tmp_path_factory.mktemp('streams') / 'shared.sqlite3'}"


@pytest.fixture(scope="module")
def servers(database, tmp_path_factory):
    """Two `authors serve --prod` processes on one database, one worker of two threads each."""
    work = tmp_path_factory.mktemp("stream-servers")
    env = {"AUTHORS_STREAM_PING_SECONDS": str(PING_SECONDS)}
    first = Server(database, work / "a", workers=1, threads=2, env=env).start()
    try:
        second = Server(database, work / "b", workers=1, threads=2, env=env).start()
    except Exception:
        first.stop()
        raise
    yield first, second
    for server in (first, second):
        server.stop()
        log = server.log.read_text(errors="replace")
        assert "Traceback" not in log, log[-3000:]


@pytest.fixture(scope="module")
def table(servers):
    """A started table of three students (all people: nothing moves but the test), seated through server A."""
    a, _ = servers
    teacher = Browser(a.port)
    code = teacher.open_table({"seats": [{"kind": "human"}] * 3, "name": "Streams"})
    students = {}
    for name in STUDENTS:
        student = Browser(a.port)
        status, _ = student.json("POST", f"/api/tables/{code}/join", {"name": name})
        assert status == 201
        students[name] = student
    status, _ = teacher.json("POST", f"/api/tables/{code}/start", {})
    assert status == 200
    _, deck = teacher.json("GET", f"/api/tables/{code}/deck")
    return {"code": code, "teacher": teacher, "students": students, "deck": deck, "rng": random.Random(32)}


def play_one(table) -> tuple[float, float, int]:
    """The move of whoever's turn it is (a legal one, as the play screen offers it), through server A:
    when it was sent and when its answer came (monotonic), and the version it made."""
    turn = get(table["teacher"], table["code"])["game"]["turn"]
    student = table["students"][turn]
    state = get(student, table["code"])
    move = choose_move(state, table["deck"], table["rng"])
    sent = time.monotonic()
    status, answer = student.json("POST", f"/api/tables/{table['code']}/moves",
                                  {"version": state["version"], "move": move})
    answered = time.monotonic()
    assert status == 200, answer
    return sent, answered, answer["state"]["version"]


def readers(table) -> dict[str, Browser]:
    """Every kind of reader of the table: its three seats, the teacher, a stranger (the public view)."""
    return {**table["students"], "teacher": table["teacher"], "stranger": Browser(table["teacher"].port)}


def test_a_stream_opens_at_once_with_the_state_the_get_gives_that_browser(servers, table):
    a, b = servers
    code = table["code"]
    for server in (a, b):
        for who, browser in readers(table).items():
            browser = browser.twin(server.port)
            stream = EventStream(server.port, events_path(code), browser.cookies)
            try:
                assert stream.status == 200, (who, stream.body)
                assert stream.headers["content-type"].startswith("text/event-stream")
                assert stream.headers["cache-control"] == "no-store"
                assert "script-src 'self'" in stream.headers["content-security-policy"]  # the app's own headers
                assert stream.first_byte < 1.0, (who, stream.first_byte)
                _, opening = stream.block(1.0)
                assert opening["comments"] and "data" not in opening, opening  # a byte at once, before any state
                assert int(opening["retry"]) > 0
                _, version, data = stream.state(1.0)
                expected = get(browser, code)
                assert without_clock(data) == expected, who
                assert version == expected["version"]
                if who in STUDENTS:
                    assert data["you"]["name"] == who
                else:
                    assert data["you"] is None
                    assert data["teacher"] is (who == "teacher")
            finally:
                stream.close()


def test_a_move_reaches_every_stream_on_both_processes_as_the_next_event(servers, table):
    a, b = servers
    code = table["code"]
    streams = {}
    try:
        for server, label in ((a, "same process"), (b, "other process")):
            for who, browser in readers(table).items():
                browser = browser.twin(server.port)
                stream = EventStream(server.port, events_path(code), browser.cookies)
                assert stream.status == 200
                stream.state()
                streams[(label, who)] = (stream, browser)
        latencies: dict[str, list[float]] = {"same process": [], "other process": []}
        for _ in range(4):
            sent, answered, version = play_one(table)
            arrivals = {}
            for (label, who), (stream, _) in streams.items():
                arrived, event_id, data = stream.state(5)
                assert event_id == data["version"] == version, (label, who, event_id, version)
                arrivals[(label, who)] = data
                latencies[label].append(max(0.0, arrived - answered))
            # The table rests: each event is exactly what the GET answers that browser now.
            for (label, who), data in arrivals.items():
                browser = streams[(label, who)][1]
                assert without_clock(data) == get(browser, code), (label, who)
        figures = {label: (statistics.median(values), max(values)) for label, values in latencies.items()}
        print("a move's state on the streams, after its answer (median, worst):", figures)
        for label, (median, worst) in figures.items():
            assert median < LATENCY, (label, figures)
            assert worst < LATENCY_WORST, (label, figures)
    finally:
        for stream, _ in streams.values():
            stream.close()


def test_each_seat_is_streamed_its_own_view_only(servers, table):
    """While moves are made, every seat's stream carries its own hand and none of another seat's cards
    that the GET of that seat does not show it."""
    a, b = servers
    code = table["code"]
    streams = {}
    try:
        for name, browser in table["students"].items():
            for server in (a, b):
                stream = EventStream(server.port, events_path(code), browser.cookies)
                stream.state()
                streams[(name, server.port)] = stream
        for _ in range(3):
            _, _, version = play_one(table)
            hands = {name: set(get(browser, code)["game"]["hand"]) for name, browser in table["students"].items()}
            for (name, _), stream in streams.items():
                _, _, data = stream.state(5)
                assert data["version"] == version
                assert set(data["game"]["hand"]) == hands[name]
                others = set().union(*(hand for other, hand in hands.items() if other != name))
                shown = set(json.dumps(data["game"]).replace('"', " ").split()) & others
                seen = set(json.dumps(get(table["students"][name], code)["game"]).replace('"', " ").split())
                assert shown <= seen, (name, shown - seen)
    finally:
        for stream in streams.values():
            stream.close()


def test_last_event_id_resumes_after_the_version_it_names_and_pings_keep_it_open(servers, table):
    a, _ = servers
    code = table["code"]
    anna = table["students"]["Anna"]
    version = get(anna, code)["version"]
    behind = EventStream(a.port, events_path(code), anna.cookies, {"Last-Event-ID": str(version - 1)})
    resumed = EventStream(a.port, events_path(code), anna.cookies, {"Last-Event-ID": str(version)})
    try:
        assert behind.state(1.0)[1] == version  # an older version: the state at once
        assert resumed.status == 200
        # Nothing newer: only comments, the opening one and then pings, PING_SECONDS apart.
        pings = 0
        deadline = time.monotonic() + 3 * PING_SECONDS
        while time.monotonic() < deadline:
            _, fields = resumed.block(2 * PING_SECONDS)
            assert fields is not None and "data" not in fields, fields
            pings += fields["comments"] == ["ping"]
        assert pings >= 2
        _, _, made = play_one(table)
        _, event_id, data = resumed.state(5)
        assert event_id == made == version + 1
        assert data["you"]["name"] == "Anna"
    finally:
        behind.close()
        resumed.close()


def test_a_wrong_code_is_the_gets_404_and_counts_as_a_wrong_guess(servers, table):
    a, _ = servers
    guesser = Browser(a.port)
    for n in range(20):  # JOIN_GUESS_LIMIT (app/config.py)
        wrong = "".join(random.Random(n).choice("ACEFHKMNPRTWXY34679") for _ in range(6))
        stream = EventStream(a.port, events_path(wrong), guesser.cookies)
        assert stream.status == 404, stream.body
        assert stream.json()["error"]["code"] == "unknown-code"
        for cookie in stream.cookies:  # the browser id its first wrong guess is given
            name, _, value = cookie.split(";", 1)[0].partition("=")
            guesser.cookies[name] = value
    blocked = EventStream(a.port, events_path(table["code"]), guesser.cookies)
    assert blocked.status == 429, blocked.body
    assert "join codes" in blocked.json()["error"]["message"]
    assert int(blocked.headers["retry-after"]) > 0
    other = EventStream(a.port, events_path(table["code"]))  # another browser (no cookie) is not blocked
    try:
        assert other.status == 200
    finally:
        other.close()


def test_too_many_streams_from_one_browser_are_refused_with_a_sentence(servers, table):
    a, _ = servers
    code = table["code"]
    browser = Browser(a.port)
    browser.request("GET", "/api/csrf-token")  # a session cookie of its own
    assert browser.cookies
    held = [EventStream(a.port, events_path(code), browser.cookies) for _ in range(STREAMS_PER_BROWSER)]
    try:
        assert [stream.status for stream in held] == [200] * STREAMS_PER_BROWSER
        # (a table's answers are in its language unless the browser chose one: here, French)
        refused = EventStream(a.port, events_path(code) + "?lang=fr", browser.cookies)
        assert refused.status == 429
        error = refused.json()["error"]
        assert error["code"] == "too-many-streams"
        assert "navigateur" in error["message"], error  # in the reader's language
        # The same header the front sets cannot be sent to it from outside (it is not a header at all).
        spoofed = EventStream(a.port, events_path(code), browser.cookies, {"X-Authors-Open-Streams": "0"})
        assert spoofed.status == 429
        other = EventStream(a.port, events_path(code), table["students"]["Boris"].cookies)
        assert other.status == 200  # another browser is not refused
        other.close()
        held.pop().close()
        deadline = time.monotonic() + 5
        while True:  # the server counts the closed stream out once it sees the disconnect
            again = EventStream(a.port, events_path(code), browser.cookies)
            if again.status == 200 or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        held.append(again)
        assert again.status == 200
    finally:
        for stream in held:
            stream.close()


def test_open_streams_hold_none_of_the_app_threads(servers, table):
    a, _ = servers
    code = table["code"]
    strangers = [Browser(a.port) for _ in range(3)]
    held = [EventStream(a.port, events_path(code), {"x": str(n)}) for n in range(3)]  # 3 browsers' streams
    held += [EventStream(a.port, events_path(code), table["students"][name].cookies) for name in STUDENTS]
    try:
        assert all(stream.status == 200 for stream in held)
        for stranger in strangers:  # two threads, six streams open: the app still answers at once
            started = time.monotonic()
            status, _, _ = stranger.request("GET", f"/api/tables/{code}")
            assert status == 200
            assert time.monotonic() - started < 1.0
    finally:
        for stream in held:
            stream.close()


def test_a_worker_told_to_stop_ends_its_streams_at_once(tmp_path):
    """granian waits for a worker's connections before it stops it (and kills it 10 s later): the streams
    end at the signal, so a restart is not held up by the phones watching."""
    server = Server(f"sqlite:///{tmp_path / 'db.sqlite3'}", tmp_path / "instance", workers=1, threads=2).start()
    try:
        teacher = Browser(server.port)
        code = teacher.open_table({"seats": [{"kind": "human"}] * 3})
        streams = [EventStream(server.port, events_path(code), cookies) for cookies in (teacher.cookies, None)]
        for stream in streams:
            stream.state()
        stopping = time.monotonic()
        server.stop()
        assert time.monotonic() - stopping < 5
        for stream in streams:
            assert stream.block(1)[1] is None
            assert stream.finished  # ended by the server, not cut
    finally:
        server.stop()
