"""The state stream in Chromium, served by a real `authors serve` process (the served_app fixture): phones
at 390 x 844 and the projector at 1920 x 1080.

- a move reaches the other phones and the projector through their streams, with no poll sent;
- when the stream cannot be had (its URL aborted), the page polls and still follows the table;
- a hidden tab holds no stream and sends no poll, and asks at once when shown again;
- a stream that drops is opened again by the browser with Last-Event-ID, and goes on.
"""
from __future__ import annotations

import random
import socket
import threading
import time
from urllib.parse import urlsplit

import pytest

from ..web_support import choose_move
from .a11y_support import call, join, log_in

PHONE = {"width": 390, "height": 844}
WALL = {"width": 1920, "height": 1080}
STUDENTS = ("Anna", "Boris", "Vera")


class Requests:
    """A page's requests to its table's state: polls (GET /api/tables/<code>) and streams (…/events), and
    the Last-Event-ID each stream request carried."""

    def __init__(self, page, code: str):
        self.state, self.code = f"/api/tables/{code}", code
        self.polls: list[float] = []
        self.streams: list[dict] = []
        page.on("request", self._seen)

    def _seen(self, request) -> None:
        path = urlsplit(request.url).path
        if path == self.state and request.method == "GET":
            self.polls.append(time.monotonic())
        elif path == self.state + "/events":
            self.streams.append({"at": time.monotonic(), "last_event_id": request.headers.get("last-event-id")})

    def since(self, moment: float) -> tuple[int, int]:
        return (sum(at >= moment for at in self.polls), sum(s["at"] >= moment for s in self.streams))


def version_of(page, root: str = "#play") -> int | None:
    value = page.get_attribute(root, "data-version")
    return int(value) if value not in (None, "") else None


def wait_for_version(page, version: int, root: str = "#play", timeout: float = 5000) -> None:
    page.wait_for_function("([root, v]) => Number(document.querySelector(root).dataset.version) >= v",
                           arg=[root, version], timeout=timeout)


def open_classroom(served_app, new_page, options=None) -> dict:
    """A table of three students (people only: nothing moves but the test), not started yet, and the
    teacher's page (for the API). Each student's phone is made by `phone(name)` and opens the play page,
    so a test can set a page up first (a route, a script)."""
    base = served_app.base_url
    teacher = new_page(viewport=WALL)
    log_in(teacher, base)
    code = call(teacher, "POST", "/api/tables", {"rules": "standard", "seats": [{"kind": "human"}] * 3,
                                                 "options": options or {}, "match": {"format": "hands", "value": 1}})["code"]
    phones = {}

    def phone(name, setup=None, through=None):
        page = new_page(viewport=PHONE)
        if setup:
            setup(page)
        join(page, through or base, code, name)
        phones[name] = page
        return page

    return {"base": base, "code": code, "teacher": teacher, "phone": phone, "phones": phones}


@pytest.fixture
def classroom(served_app, new_page):
    return open_classroom(served_app, new_page)


def start(classroom) -> int:
    return call(classroom["teacher"], "POST", f"/api/tables/{classroom['code']}/start")["version"]


def move_by_whoever_plays(classroom, rng: random.Random) -> int:
    """A legal move by the student whose turn it is, through the API from her phone: the version it made."""
    code = classroom["code"]
    turn = call(classroom["teacher"], "GET", f"/api/tables/{code}")["game"]["turn"]
    page = classroom["phones"][turn]
    state = call(page, "GET", f"/api/tables/{code}")
    move = choose_move(state, call(page, "GET", f"/api/tables/{code}/deck"), rng)
    answer = call(page, "POST", f"/api/tables/{code}/moves", {"version": state["version"], "move": move})
    return answer["state"]["version"]


def test_a_move_reaches_the_other_phones_and_the_projector_through_the_stream(classroom, new_page):
    code = classroom["code"]
    seen = {}
    for name in STUDENTS:
        classroom["phone"](name, setup=lambda page, name=name: seen.__setitem__(name, Requests(page, code)))
    wall = new_page(viewport=WALL)
    seen["projector"] = Requests(wall, code)
    wall.goto(f"{classroom['base']}/t/{code}/projector")
    version = start(classroom)
    for name in STUDENTS:
        wait_for_version(classroom["phones"][name], version)
    wait_for_version(wall, version, "#projector")
    rng = random.Random(7)
    for _ in range(3):
        moment = time.monotonic()
        made = move_by_whoever_plays(classroom, rng)
        for name in STUDENTS:
            wait_for_version(classroom["phones"][name], made, timeout=2000)
        wait_for_version(wall, made, "#projector", timeout=2000)
        took = time.monotonic() - moment
        for who, requests in seen.items():
            polls, streams = requests.since(moment)
            assert polls == 0, f"{who} polled instead of reading its stream"
            assert streams == 0, f"{who} opened its stream again"
        assert took < 2.0
    for who, requests in seen.items():
        assert len(requests.streams) == 1, (who, requests.streams)  # one stream since the page opened
        assert not requests.polls, (who, len(requests.polls))
    # What the phones show comes from the stream: their own seat, with the turn the table has.
    turn = call(classroom["teacher"], "GET", f"/api/tables/{code}")["game"]["turn"]
    assert turn in wall.inner_text("#status")


def test_when_the_stream_fails_the_page_polls_and_follows_the_table(classroom):
    code = classroom["code"]
    def no_stream(page):  # every request for the stream fails as a network error (not events.js, the script)
        page.route(lambda url: urlsplit(url).path == f"/api/tables/{code}/events", lambda route: route.abort())

    broken = classroom["phone"]("Anna", setup=no_stream)
    requests = Requests(broken, code)
    for name in STUDENTS[1:]:
        classroom["phone"](name)
    version = start(classroom)
    wait_for_version(broken, version, timeout=10_000)  # within the stream's 5 s, then the first poll
    rng = random.Random(3)
    made = move_by_whoever_plays(classroom, rng)
    wait_for_version(broken, made, timeout=5000)
    assert requests.polls, "the page did not poll"
    assert requests.streams, "the page never tried its stream"


def hide(page, hidden: bool) -> None:
    """What the browser does when the tab goes to the background (or comes back): the Page Visibility API."""
    page.evaluate("""hidden => {
        Object.defineProperty(document, "visibilityState", {configurable: true, get: () => hidden ? "hidden" : "visible"});
        Object.defineProperty(document, "hidden", {configurable: true, get: () => hidden});
        document.dispatchEvent(new Event("visibilitychange"));
    }""", hidden)


def watching_phone(classroom, made):
    """The phone of a student whose turn it is not (it only watches), once it shows version `made`."""
    turn = call(classroom["teacher"], "GET", f"/api/tables/{classroom['code']}")["game"]["turn"]
    page = classroom["phones"][next(name for name in STUDENTS if name != turn)]
    wait_for_version(page, made)
    return page


def test_a_hidden_tab_sends_nothing_and_asks_at_once_when_shown(classroom):
    code = classroom["code"]
    for name in STUDENTS:
        classroom["phone"](name)
    start(classroom)
    rng = random.Random(5)
    made = move_by_whoever_plays(classroom, rng)
    page = watching_phone(classroom, made)
    requests = Requests(page, code)
    hide(page, True)
    moment = time.monotonic()
    made = move_by_whoever_plays(classroom, rng)
    page.wait_for_timeout(2500)  # longer than a poll's second: nothing may be sent meanwhile
    assert requests.since(moment) == (0, 0)
    assert version_of(page) < made  # no stream delivered it either
    shown = time.monotonic()
    hide(page, False)
    wait_for_version(page, made, timeout=2000)
    assert time.monotonic() - shown < 2.0
    assert requests.since(shown)[1] == 1  # its stream, opened again at once


class Relay:
    """A TCP relay in front of the server, as the school's Wi-Fi is: `drop()` cuts every connection through
    it at once (the server sees its streams go); what browsers send through it is kept (`sent`)."""

    def __init__(self, port: int):
        self.port, self.sent, self.open = port, bytearray(), []
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.address = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            server = socket.create_connection(("127.0.0.1", self.port))
            with self.lock:
                self.open += [client, server]
            threading.Thread(target=self._pump, args=(client, server, True), daemon=True).start()
            threading.Thread(target=self._pump, args=(server, client, False), daemon=True).start()

    def _pump(self, source, target, upstream: bool) -> None:
        try:
            while piece := source.recv(65536):
                if upstream:
                    with self.lock:
                        self.sent += piece
                target.sendall(piece)
        except OSError:
            pass
        for end in (source, target):
            try:
                end.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def drop(self) -> None:
        with self.lock:
            cut, self.open = self.open, []
        for end in cut:
            try:
                end.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def close(self) -> None:
        self.listener.close()
        self.drop()


def test_a_dropped_stream_is_opened_again_with_last_event_id(classroom, served_app):
    code = classroom["code"]
    relay = Relay(served_app.server.port)
    try:
        for name in STUDENTS:
            classroom["phone"](name, through=relay.address)
        start(classroom)
        rng = random.Random(9)
        made = move_by_whoever_plays(classroom, rng)
        page = watching_phone(classroom, made)
        requests = Requests(page, code)
        moment = time.monotonic()
        relay.sent.clear()
        relay.drop()  # the Wi-Fi drops every connection
        asked = f"GET /api/tables/{code}/events HTTP/1.1".encode()
        deadline = time.monotonic() + 6
        while asked not in relay.sent and time.monotonic() < deadline:
            page.wait_for_timeout(100)
        again = bytes(relay.sent)
        assert asked in again, "the browser did not open its stream again"
        head = again[again.index(asked):].split(b"\r\n\r\n", 1)[0].decode("latin-1").lower()
        assert f"last-event-id: {made}" in head, head
        made = move_by_whoever_plays(classroom, rng)  # (through the server itself, not the relay)
        wait_for_version(page, made, timeout=3000)
        assert requests.since(moment)[0] == 0  # back on its stream: no poll
    finally:
        relay.close()


def test_the_turn_timer_counts_on_the_servers_clock_not_the_phones(served_app, new_page):
    """A phone whose clock is an hour ahead still shows the seconds the server gives the turn: the stream's
    states carry the server's time (an EventSource cannot read the Date header a poll's answer has)."""
    classroom = open_classroom(served_app, new_page, options={"turn_seconds": 120})

    def hour_ahead(page):
        page.add_init_script("(() => { const now = Date.now.bind(Date); Date.now = () => now() + 3600 * 1000; })()")

    seen = {}
    for name in STUDENTS:
        page = classroom["phone"](name, setup=hour_ahead)
        seen[name] = Requests(page, classroom["code"])
    start(classroom)
    turn = call(classroom["teacher"], "GET", f"/api/tables/{classroom['code']}")["game"]["turn"]
    page = classroom["phones"][turn]
    assert page.evaluate("() => Date.now() - new Date().getTime()") > 3500 * 1000  # the phone's clock is ahead
    page.wait_for_selector("#turn-timer:not([hidden])")
    page.wait_for_timeout(1100)  # (the timer's text is drawn once a second)
    left = int(page.inner_text("#turn-timer").split()[0])
    assert 100 <= left <= 120, page.inner_text("#turn-timer")
    assert not seen[turn].polls  # what it counts on came by the stream
