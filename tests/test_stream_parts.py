"""The state stream's parts that need no server of their own (tests/test_streams.py has real ones):

- under a plain WSGI server the events URL asks the state's own view first (a wrong code is its 404,
  counted as a guess), then says in the reader's language that streams need `authors serve`;
- every commit that changes a table is published to this process's listeners, a rolled-back one never,
  a move's with the table as it left it; the streams build from that table until another write is seen;
- the watcher's fingerprint of a table changes with what the states' ETags depend on;
- the watcher asks whether another process committed less often once nothing has been for a while;
- a Flight builds one state at a time (a change during a build makes one more build, not a queue), and a
  stream that reads slowly is sent the latest state, never a backlog;
- a send the screen does not take within its time ends the stream.
"""
from __future__ import annotations

import asyncio
import json
import random
import time

import orjson
import pytest

from app import store
from app.services import deals
from app.streaming import Flight, State, Streams, Watched

from .web_support import choose_move, deck_of, get_state, open_table, seat_student, teacher_client


def test_a_plain_wsgi_server_answers_the_events_url_as_the_get_then_says_streams_need_authors_serve(app):
    teacher = teacher_client(app)
    code = open_table(teacher)
    student = seat_student(app, code, "Anna")
    for browser in (teacher, student, app.test_client()):
        answer = browser.get(f"/api/tables/{code}/events", headers={"Accept": "text/event-stream"})
        assert answer.status_code == 406
        assert answer.get_json()["error"]["code"] == "streams-unavailable"
        assert "authors serve" in answer.get_json()["error"]["message"]
    french = student.get(f"/api/tables/{code}/events?lang=fr").get_json()["error"]["message"]
    assert "authors serve" in french and "chaque seconde" in french
    assert student.get(f"/api/tables/{code}/events?seat=2").status_code == 403  # not hers: the GET's refusal


def test_a_wrong_code_on_the_events_url_counts_as_a_wrong_guess(app):
    teacher = teacher_client(app)
    code = open_table(teacher)
    guesser = app.test_client()
    for n in range(app.config["JOIN_GUESS_LIMIT"]):
        wrong = f"XXXX{'ACEFHKMNPRTWXY34679'[n % 19]}{'ACEFHKMNPRTWXY34679'[n // 19]}"
        answer = guesser.get(f"/api/tables/{wrong}/events")
        assert answer.status_code == 404 and answer.get_json()["error"]["code"] == "unknown-code"
    assert guesser.get(f"/api/tables/{code}").status_code == 429  # blocked, the GET as well
    assert app.test_client().get(f"/api/tables/{code}").status_code == 200  # not another browser


def fields(table) -> tuple:
    """What a state is built from of a table snapshot (its presence aside, which a move does not read)."""
    from dataclasses import fields as of, replace

    def plain(value, skip=()):
        return tuple((f.name, getattr(value, f.name)) for f in of(value) if f.name not in skip)

    return (plain(table, ("seats", "deals")), tuple(plain(replace(seat, seen_at=None)) for seat in table.seats),
            tuple(plain(deal, ("table",)) for deal in table.deals))


def test_every_commit_that_changes_a_table_is_published(play_app):
    app = play_app
    published: list[str] = []
    moved: list = []

    def listener(code, table):
        published.append(code)
        if table is not None:
            moved.append(table)

    unsubscribe = store.changes.subscribe(listener)
    try:
        teacher = teacher_client(app)
        code = open_table(teacher)
        students = {name: seat_student(app, code, name) for name in ("Anna", "Boris")}
        assert published and set(published) == {code}  # a join: `changing`
        published.clear()
        assert teacher.post(f"/api/tables/{code}/start").status_code == 200
        assert published.count(code) >= 1
        published.clear()
        turn = get_state(teacher, code)["game"]["turn"]
        if turn in students:  # a move: `moving`, then `commit_move`
            state = get_state(students[turn], code)
            move = choose_move(state, deck_of(teacher, code), random.Random(1))
            answer = students[turn].post(f"/api/tables/{code}/moves", json={"version": state["version"], "move": move})
            assert answer.status_code == 200, answer.get_json()
        else:
            with app.app_context():
                assert deals.advance(store.read(code)) >= 1
        told = len(published)
        assert told >= 1 and set(published) == {code}
        with app.app_context():
            # a move's commit tells the table as it left it: the table as read after it, field for field
            assert moved and moved[-1].code == code and fields(moved[-1]) == fields(store.read(code))
            with pytest.raises(RuntimeError):
                with store.changing(store.read(code)) as row:
                    row.name = "Renamed"
                    raise RuntimeError("changed my mind")
            assert len(published) == told  # rolled back: nothing to tell
            assert store.read(code).name != "Renamed"
    finally:
        unsubscribe()
    published.clear()
    seat_student(app, open_table(teacher_client(app, "Other")), "Boris")
    assert not published  # unsubscribed


def test_the_watchers_look_follows_what_the_etags_depend_on(play_app):
    app = play_app
    teacher = teacher_client(app)
    code = open_table(teacher)
    read = store.watch_reader(app)
    first = read([code, "ZZZZZZ"])
    assert set(first) == {code}  # a code with no table is left out
    seat_student(app, code, "Anna")  # a seat's token
    joined = read([code])[code]
    assert joined.tokens != first[code].tokens
    assert read([code])[code] == joined  # nothing changed: the same
    anna = next(seat for seat in joined.seats if seat[3])
    seat_student(app, code, "Boris")
    seated = read([code])[code]
    assert teacher.post(f"/api/tables/{code}/start").status_code == 200
    assert read([code])[code].version > seated.version
    with app.app_context():
        table = store.read(code)
        assert read([code])[code].version == table.version
        row = next(seat for seat in table.seats if seat.position == anna[0])
        assert anna[1:4] == (table.id, row.id, row.token_hash)  # what a stream notes of her presence
    # her presence changes the teacher's look alone
    before = read([code])[code]
    with app.app_context():
        from app.db import db
        from app.models import Seat
        db.session.query(Seat).filter_by(id=anna[2]).update({"seen_at": 1.0})
        db.session.commit()
    away = read([code])[code]
    assert away[:2] == before[:2] and away.teacher != before.teacher


# ----------------------------------------------------------------------------------------------------
# A Flight and its streams, with a stand-in for the ServedApp
# ----------------------------------------------------------------------------------------------------
class Answers:
    """The state view as a Flight asks it: a 304 for the ETag it holds, else the table at `version`; each
    build waits for `gate` when one is set."""

    def __init__(self):
        self.version, self.builds, self.gate = 1, 0, None

    def state(self) -> State:
        return State(self.version, f'"v{self.version}"'.encode(), self.body(), "ACEFHK")

    def body(self) -> bytes:
        return orjson.dumps({"code": "ACEFHK", "version": self.version, "you": None})

    async def respond(self, scope, body=b"", outcome="whole", environ_extra=None):
        self.builds += 1
        if self.gate is not None:
            await self.gate.wait()
        etag = f'"v{self.version}"'.encode()
        if dict(scope["headers"]).get(b"if-none-match") == etag:
            return 304, [(b"etag", etag)], b""
        return 200, [(b"etag", etag), (b"content-type", b"application/json")], self.body() + b"\n"


class Host:
    """What a Flight asks of its Streams: the served app, and a task run on the loop."""

    def __init__(self, served):
        self.served, self.tasks = served, set()

    def spawn(self, work):
        task = asyncio.get_running_loop().create_task(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)


def flight_of(answers: Answers) -> Flight:
    scope = {"type": "http", "method": "GET", "path": "/api/tables/ACEFHK", "query_string": b"", "headers": []}
    flight = Flight(Host(answers), Watched("ACEFHK"), ("key",), scope)
    flight.adopt(answers.state())
    return flight


class Event:
    """An event as an EventSource reads it, from what the stream yields (an event written out as bytes,
    or sse-starlette's ServerSentEvent)."""

    def __init__(self, sent):
        text = sent if isinstance(sent, bytes) else sent.encode()
        assert text.endswith(b"\r\n\r\n")
        self.comment = self.retry = self.event = self.id = self.data = None
        for line in text.decode().split("\r\n")[:-2]:
            field, _, value = line.partition(": ")
            if field == "":
                self.comment = value
            else:
                setattr(self, field, value)


async def next_event(stream):
    return Event(await stream.__anext__())


def events_of(flight: Flight, first: State, skip: bool = False):
    return Streams._events(None, flight, first, skip)  # (uses nothing of its Streams)


async def settle(flight: Flight) -> None:
    while flight.building:
        await asyncio.sleep(0.001)


def test_a_flight_builds_once_at_a_time_and_once_more_for_changes_during_a_build():
    async def run():
        answers = Answers()
        flight = flight_of(answers)
        answers.gate = asyncio.Event()
        answers.version = 2
        flight.refresh()
        await asyncio.sleep(0.01)
        for _ in range(4):  # four more changes told while that build runs
            flight.refresh()
        await asyncio.sleep(0.01)
        assert answers.builds == 1
        answers.gate.set()
        await settle(flight)
        assert answers.builds == 2  # the first, and one more for the changes told during it
        assert flight.state.version == 2
        answers.gate = None
        flight.refresh()
        await settle(flight)
        assert answers.builds == 3 and flight.state.version == 2  # unchanged: a 304, the state kept

    asyncio.run(run())


def test_a_slow_reader_is_sent_the_latest_state_never_a_backlog():
    async def run():
        answers = Answers()
        flight = flight_of(answers)
        stream = events_of(flight, flight.state)
        opening = await next_event(stream)
        assert opening.comment and opening.retry
        first = await next_event(stream)
        assert first.event == "state" and first.id == "1"
        data = json.loads(first.data)
        assert data.pop("server_time") > 0 and data == json.loads(answers.body())
        for version in (2, 3, 4):  # the table moves three times; the reader reads none of it
            answers.version = version
            flight.refresh()
            await settle(flight)
        latest = await next_event(stream)
        assert latest.id == "4"
        following = asyncio.ensure_future(next_event(stream))
        await asyncio.sleep(0.01)
        assert not following.done()  # nothing older is queued
        flight.end()
        with pytest.raises(StopAsyncIteration):
            await following

    asyncio.run(run())


def test_last_event_id_of_the_current_version_skips_the_first_state():
    async def run():
        answers = Answers()
        flight = flight_of(answers)
        stream = events_of(flight, flight.state, skip=True)
        assert (await next_event(stream)).comment
        waiting = asyncio.ensure_future(next_event(stream))
        await asyncio.sleep(0.01)
        assert not waiting.done()
        answers.version = 2
        flight.refresh()
        assert (await waiting).id == "2"

    asyncio.run(run())


def test_a_screen_that_opens_on_an_older_state_than_the_flights_is_sent_the_newer():
    async def run():
        answers = Answers()
        old = answers.state()
        answers.version = 3
        flight = flight_of(answers)
        stream = events_of(flight, old)
        await next_event(stream)
        assert (await next_event(stream)).id == "1"  # its own opening answer first
        assert (await next_event(stream)).id == "3"  # then the Flight's newer one at once
        flight.adopt(old)  # an older build never replaces a newer state
        assert flight.state.version == 3

    asyncio.run(run())


# ----------------------------------------------------------------------------------------------------
# Other processes' commits (app/store/changes.py)
# ----------------------------------------------------------------------------------------------------
def test_sqlites_data_version_tells_another_connections_commit_and_nothing_else(app):
    if app.config["SQLALCHEMY_DATABASE_URI"].startswith("postgresql"):
        pytest.skip("on PostgreSQL other processes' commits come by NOTIFY (the next test)")
    others = store.changes.others(app)
    others.committed()  # the first look
    assert not others.committed() and not others.committed()
    teacher = teacher_client(app)  # a teacher's account, written on the app's own connection
    assert others.committed()
    assert not others.committed()
    open_table(teacher)
    assert others.committed()
    assert others.listen(lambda code: None)() is None  # nothing to listen to on SQLite


def test_postgresql_commits_are_told_by_notify_at_most_once_a_table_per_gap(app):
    if not app.config["SQLALCHEMY_DATABASE_URI"].startswith("postgresql"):
        pytest.skip("needs PostgreSQL (make test-postgres): SQLite's processes ask data_version instead")
    import queue
    import time

    from app.store import changes

    told: queue.Queue[tuple[float, str]] = queue.Queue()
    others = changes.others(app)
    assert not others.committed()  # PostgreSQL's Listener tells instead
    stop = others.listen(lambda code: told.put((time.monotonic(), code)))
    with app.app_context():
        from app.db import db
        notifier = changes.Notifier(changes._conninfo(db.engine))
    try:
        time.sleep(0.5)  # the Listener has connected
        started = time.monotonic()
        for _ in range(40):  # a table changing every 5 ms for 0.2 s
            notifier("ACEFHK")
            time.sleep(0.005)
        notifier("MNPRTW")
        time.sleep(0.5)
        heard = []
        while not told.empty():
            heard.append(told.get())
        ace = [at for at, code in heard if code == "ACEFHK"]
        assert [code for _, code in heard].count("MNPRTW") == 1
        assert 2 <= len(ace) <= 4, heard  # 0.2 s of changes: told at once, then once per 0.1 s gap at most
        assert ace[0] - started < 0.1  # the first at once
        assert all(later - earlier >= changes.NOTIFY_GAP * 0.9 for earlier, later in zip(ace, ace[1:]))
    finally:
        notifier.close()
        stop()


# ----------------------------------------------------------------------------------------------------
# A state built for its reader without a request (app/web/events.py state_builder) is the view's own
# ----------------------------------------------------------------------------------------------------
def opened_viewer(browser, code: str, query: str = "", answers: list | None = None):
    """The reader a stream's opening finds for this browser (the events view, as the front asks it)."""
    from app.web import events

    holder: dict = {}
    answer = browser.get(f"/api/tables/{code}/events{query}",
                         environ_overrides={events.OPEN_STREAMS: 0, events.VIEWER: holder})
    assert answer.status_code == 200, answer.get_json()
    if answers is not None:
        answers.append(answer.get_json())
    return holder["viewer"]


def test_a_state_built_for_its_reader_is_what_its_get_answers_whoever_reads(play_app):
    from app.web import events

    app = play_app
    teacher = teacher_client(app)
    code = open_table(teacher, name="Built", language="fr", options={"name_the_work": True},
                      seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "human"}, {"kind": "computer"}])
    anna, boris = seat_student(app, code, "Anna"), seat_student(app, code, "Boris")
    both = seat_student(app, code, "Vera")  # then her browser takes Anna's seat too: two seats, no one chosen
    assert teacher.post(f"/api/tables/{code}/start").status_code == 200
    stranger = app.test_client()
    readers = {"teacher": (teacher, ""), "anna": (anna, ""), "boris": (boris, "?lang=ru"),
               "stranger": (stranger, ""), "vera": (both, "?seat=2")}
    viewers = {name: opened_viewer(browser, code, query) for name, (browser, query) in readers.items()}
    assert viewers["teacher"].teacher and viewers["stranger"].seat is None and viewers["anna"].seat == 0
    # Boris's device is lost: a new one asks for his seat back (the teacher's state lists the request)
    other = app.test_client()
    assert other.post(f"/api/tables/{code}/join", json={"name": "Boris"}).status_code in (201, 202)
    build = events.state_builder(app)
    moved: list = []  # the table as each move left it, as its commit told it: built from, it answers the same
    unsubscribe = store.changes.subscribe(lambda told, table: moved.append(table) if table is not None else None)
    for _ in range(3):  # and after moves, whatever they were
        built = build(code, [(viewer, b"") for viewer in viewers.values()])
        from_move = build(code, [(viewer, b"") for viewer in viewers.values()], moved[-1]) \
            if moved and moved[-1].version == built[0][3] else built
        for (name, (browser, query)), answer, answer_from_move in zip(readers.items(), built, from_move):
            assert answer is not None and answer[0] == 200, name
            got = browser.get(f"/api/tables/{code}{query}")
            assert orjson.loads(answer[2]) == got.get_json(), name  # every field, the teacher's requests too
            assert answer[1] == got.headers["ETag"].encode() and answer[3] == got.get_json()["version"], name
            assert answer_from_move == answer, name
        again = build(code, [(viewer, answer[1]) for viewer, answer in zip(viewers.values(), built)])
        assert [answer[0] for answer in again] == [304] * len(viewers)  # unchanged: nothing to send
        with app.app_context():
            assert deals.advance(store.read(code)) >= 0
        state = get_state(teacher, code)
        turn = state["game"]["turn"] if state["game"] else None
        mover = {"Anna": anna, "Boris": boris, "Vera": both}.get(turn)
        if mover is not None:
            mine = get_state(mover, code, seat=next(s["position"] for s in state["seats"] if s["name"] == turn))
            move = choose_move(mine, deck_of(teacher, code), random.Random(3))
            mover.post(f"/api/tables/{code}/moves", json={"seat": mine["you"]["position"],
                                                        "version": mine["version"], "move": move})
    unsubscribe()
    assert moved, "no move was played"
    # Anna's seat is given to a computer player for good: her reader's seat changed hands, so the view decides
    assert teacher.patch(f"/api/tables/{code}/seats/0", json={"kind": "computer"}).status_code == 200
    after = build(code, [(viewers["anna"], b""), (viewers["boris"], b"")])
    assert after[0] is None and after[1] is not None and after[1][0] == 200
    # and her stream, opened again from that browser, is told why by the view (never built without it)
    opening: list = []
    lost = opened_viewer(anna, code, answers=opening)
    assert lost.lost and build(code, [(lost, b"")]) == [None]
    assert "ordinateur" in opening[0]["seat_lost"]  # (the view's sentence, in the table's language)


def test_a_screen_that_opens_as_a_change_is_told_is_built_again_at_once(play_app):
    """A stream's first state is read before the stream joins its table's Flights: a change committed in
    between was told to the Flights there were, so the new one is built once more as it joins."""
    from app.web import events

    async def run():
        streams = Streams(None, play_app, ping=15)
        streams.loop = asyncio.get_running_loop()  # (as after a first stream: no signal handlers here)
        streams.watcher = asyncio.get_running_loop().create_future()  # (no watcher: changes are told below)
        current = {"version": 2}
        asked_for = []

        async def build(code, asked, moved=None):
            asked_for.append(len(asked))
            version = current["version"]
            return [(200, f'"v{version}"'.encode(), orjson.dumps({"code": code, "version": version}), version)
                    for _ in asked]

        streams.build = build

        def opened(cookie: bytes, version: int):
            scope = {"type": "http", "method": "GET", "path": "/api/tables/ACEFHK/events", "query_string": b"",
                     "headers": [(b"cookie", cookie)]}
            viewer = events.Viewer("ACEFHK", None, (), (), False, "")
            first = State(version, f'"v{version}"'.encode(), orjson.dumps({"code": "ACEFHK", "version": version}),
                          "ACEFHK")
            return streams._join(first, scope, viewer)

        async def settle():
            while any(table.building for table in streams.tables.values()):
                await asyncio.sleep(0.001)

        anna = opened(b"anna", 2)
        await settle()
        current["version"] = 3  # a move: told to the table's Flights (Anna's)
        streams._changed("ACEFHK")
        await settle()
        assert anna.state.version == 3
        boris = opened(b"boris", 2)  # his first state was read before that move
        await settle()
        assert boris.state.version == 3
        streams.watcher.cancel()

    asyncio.run(run())


def test_a_move_of_this_process_is_built_from_the_table_it_left_until_another_write_is_seen(play_app):
    """The states after this process's move are built from the table the move's commit told (no read),
    but never once the watcher has read a newer version, whichever of the two the loop hears first, nor
    after a write that told no table (a join, the teacher's change)."""
    from types import SimpleNamespace

    from app.web import events

    async def run():
        streams = Streams(None, play_app, ping=15)
        streams.loop = asyncio.get_running_loop()
        streams.watcher = asyncio.get_running_loop().create_future()  # (no watcher task: looks are made below)
        current = {"version": 2}
        given: list = []

        async def build(code, asked, moved=None):
            given.append(moved.version if moved is not None else None)
            version = current["version"]
            return [(200, f'"v{version}"'.encode(), orjson.dumps({"code": code, "version": version}), version)
                    for _ in asked]

        def looks(codes):
            return {code: events.Look(current["version"], "tokens", "", ()) for code in codes}

        streams.build, streams.looks = build, looks
        scope = {"type": "http", "method": "GET", "path": "/api/tables/ACEFHK/events", "query_string": b"",
                 "headers": [(b"cookie", b"anna")]}
        first = State(2, b'"v2"', orjson.dumps({"code": "ACEFHK", "version": 2}), "ACEFHK")
        anna = streams._join(first, scope, events.Viewer("ACEFHK", 0, (0,), ((0, "h"),), False, ""))

        async def told(moved=None, looked=False):
            given.clear()
            if looked:
                await streams._look(asyncio.get_running_loop(), False)
            if moved is not None or not looked:
                current["version"] = max(current["version"], moved or 0)
                streams._changed("ACEFHK", SimpleNamespace(version=moved) if moved else None)
            while any(table.building for table in streams.tables.values()):
                await asyncio.sleep(0.001)
            return given

        await told(looked=True)  # (the watcher's first look)
        assert await told(3) == [3]  # this process's move: built from the table it left
        current["version"] = 4  # another process's write, which the watcher finds
        assert await told(looked=True) == [None]
        current["version"] = 6  # another's write, read by the watcher before this process's older move is heard
        assert await told(looked=True) == [None] and await told(5) in ([], [None])
        assert await told(7) == [7]
        assert await told() == [None]  # a write that told no table: read
        assert anna.state.version == 7
        streams.watcher.cancel()

    asyncio.run(run())


def test_the_watcher_asks_less_often_once_nothing_has_been_committed_for_a_while(play_app, monkeypatch):
    """A tick of the watcher wakes the worker: on tables where nobody moves it asks every
    WATCH_QUIET_SECONDS, not every WATCH_SECONDS, and goes back to the faster pace at the next commit."""
    from app import streaming

    monkeypatch.setattr(streaming, "WATCH_SECONDS", 0.01)
    monkeypatch.setattr(streaming, "WATCH_QUIET_SECONDS", 0.1)
    monkeypatch.setattr(streaming, "QUIET_SECONDS", 0.3)
    asked: list[float] = []
    commits = {0.0, 1.2}  # seconds after the start at which another process commits (once each)

    class Others:
        def committed(self) -> bool:
            now = time.monotonic() - started
            asked.append(now)
            due = [at for at in commits if at <= now]
            for at in due:
                commits.discard(at)
            return bool(due)

        def listen(self, told):
            return lambda: None

    async def run():
        streams = Streams(None, play_app, ping=15)
        streams.others = Others()
        streams.full_at = time.monotonic()  # (no full look in the test's 1.6 s)
        looked: list[float] = []

        async def look(loop, full):
            looked.append(time.monotonic() - started)

        streams._look = look
        streams.tables = {"ACEFHK": Watched("ACEFHK")}
        watcher = asyncio.get_running_loop().create_task(streams._watch())
        await asyncio.sleep(1.6)
        streams.tables.clear()
        await watcher
        return looked

    started = time.monotonic()
    looked = asyncio.run(run())
    assert len(looked) == 2 and looked[1] >= 1.2  # each commit is looked at
    fast = [t for t in asked if t < 0.25]  # within QUIET_SECONDS of the first commit
    quiet = [t for t in asked if 0.4 <= t < 1.2]  # nothing committed for a while
    after = [t for t in asked if looked[1] + 0.01 <= t < looked[1] + 0.25]  # the next commit
    assert len(fast) >= 8, asked
    assert 4 <= len(quiet) <= 10, asked  # every 0.1 s, not every 0.01 s
    assert len(after) >= 8, asked
    assert looked[1] - 1.2 <= 0.1 + 0.05, looked  # a commit in the quiet is seen within one quiet tick


def test_a_send_the_screen_does_not_take_in_time_ends_its_stream_and_a_taken_one_goes_through():
    """A phone gone from the Wi-Fi takes no byte: the send waits `send_timeout`, then the stream ends with
    sse-starlette's SendTimeoutError (its cleanup then runs as for any failed send)."""
    from sse_starlette.sse import SendTimeoutError

    from app.streaming import Stream

    async def nothing():
        yield b""

    async def run():
        sent = []

        async def taken(message):
            sent.append(message)

        async def never(message):
            await asyncio.sleep(60)

        stream = Stream(nothing(), closed=lambda: None, ping=15)
        stream.send_timeout = 0.05
        await stream._send_with_timeout(taken, {"type": "http.response.body", "body": b"x", "more_body": True})
        assert sent and not stream._send_interrupted
        started = time.monotonic()
        with pytest.raises(SendTimeoutError):
            await stream._send_with_timeout(never, {"type": "http.response.body", "body": b"y", "more_body": True})
        assert time.monotonic() - started < 5 and stream._send_interrupted

        # cancelled from outside (the screen left): the cancellation goes through, not a timeout
        other = Stream(nothing(), closed=lambda: None, ping=15)
        task = asyncio.ensure_future(other._send_with_timeout(never, {"type": "http.response.body", "body": b"z"}))
        await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert other._send_interrupted

    asyncio.run(run())
