"""Two servers, one database: two `authors serve --prod` (granian) processes on two ports, as a district
runs them behind a load balancer, play one table together.

Four students at a table of four human seats: Anna and Vera talk to server A, Boris and Gleb to server B
(each a browser of its own: cookies, CSRF token, keep-alive connection). They poll as the play screen
does (If-None-Match) and move the moment it is their turn, until a match of two hands is over. Now and
then a turn is played twice at once, through both servers: the seat's own move and the same seat's
other window (its cookies, on the other server) sending another move for the same version; one is
applied and the other gets a 409 (stale-version, or the rule that now refuses it), never a 500 (or both
get a 409 when the screen was behind already: the table had moved on by a move answered 200). Or the
same move with the same Idempotency-Key through both (a retry a load balancer sent elsewhere): both get
the same answer, one move is stored.

Then there is one history: each hand's record is the same from both servers, its moves replay with the
engine, and they are exactly the moves that were answered 200 (none lost, none twice, none that was
refused); and both servers show every viewer (the public, the teacher, each student) the same state, at
the end and at checkpoints during play (the students held between two moves).

On PostgreSQL (AUTHORS_TEST_DATABASE_URL=postgresql..., as `make test-postgres` sets) the servers share
a database of the test's own on that server; otherwise one SQLite file (WAL) that both processes write.
"""
from __future__ import annotations

import itertools
import json
import os
import random
import re
import threading
import time
import uuid
from collections import Counter

import pytest

from app.engine.record import load_record_text
from app.engine.replay import replay

from .conftest import SERVER_DATABASE
from .server_support import Browser, Server, drop_postgres_database, fresh_postgres_database
from .web_support import choose_move

STUDENTS = ["Anna", "Boris", "Vera", "Gleb"]  # Anna, Vera on server A; Boris, Gleb on server B
DEALS = 2
CHECKPOINTS = (6, 25, 50)  # after this many applied moves the students are held and both servers compared
DUEL_EVERY = 3             # one turn in three is sent twice at once, through both servers
DEADLINE_SECONDS = 60      # the whole match (a hand takes some 50 moves; the match a few seconds)
STALL_SECONDS = 10         # no move for this long: the play has stuck
PLAY = {"AUTHORS_BOT_PACE_SECONDS": "0", "AUTHORS_HAND_PAUSE_SECONDS": "0"}
# A traceback in a server's log, or a 5xx line of its access log (app/cli.py ACCESS_LOG_FORMAT).
SERVER_ERROR = re.compile(rb'" 5\d\d |Traceback')


@pytest.fixture
def shared_database(tmp_path):
    """The URL both servers use: a fresh PostgreSQL database of this test's own, or one SQLite file."""
    if SERVER_DATABASE and SERVER_DATABASE.startswith("postgresql"):
        from sqlalchemy.exc import OperationalError

        try:
            url = fresh_postgres_database(SERVER_DATABASE, f"authors_two_servers_{os.getpid()}")
        except OperationalError as exc:
            reason = f"PostgreSQL ({SERVER_DATABASE}) is not reachable: {str(exc).splitlines()[0]}"
            print(reason)
            pytest.skip(reason)
        yield url
        drop_postgres_database(url)
    else:
        yield f"sqlite:///{tmp_path / 'shared.sqlite3'}"


class Gate:
    """Holds the students between two moves so that both servers can be compared on a table at rest."""

    def __init__(self, players: int):
        self.condition = threading.Condition()
        self.paused = False
        self.waiting = 0
        self.players = players

    def passage(self) -> None:
        with self.condition:
            if not self.paused:
                return
            self.waiting += 1
            self.condition.notify_all()
            self.condition.wait_for(lambda: not self.paused)
            self.waiting -= 1

    def leave(self) -> None:
        with self.condition:
            self.players -= 1
            self.condition.notify_all()

    def hold(self, timeout: float) -> bool:
        with self.condition:
            self.paused = True
            return self.condition.wait_for(lambda: self.waiting >= self.players, timeout)

    def release(self) -> None:
        with self.condition:
            self.paused = False
            self.condition.notify_all()


class Play:
    """What the students saw: every move answered 200, every refusal, every unexpected answer."""

    def __init__(self):
        self.lock = threading.Lock()
        self.applied: list[tuple[int, int | None, dict]] = []  # (version sent, version made, the move as recorded)
        self.refused: list[tuple[int, str]] = []          # (version sent, "single:<code>", "duel:<code>" ...)
        self.duels = self.retries = 0  # turns sent twice at once through both servers, one of them applied
        self.behind = 0                # turns whose every request was refused (the screen was behind)
        self.problems: list[str] = []
        self.stop = threading.Event()

    def problem(self, text: str) -> None:
        with self.lock:
            self.problems.append(text)
        self.stop.set()


def error_code(payload: bytes) -> str | None:
    try:
        return json.loads(payload)["error"]["code"]
    except (ValueError, KeyError, TypeError):
        return None


def send_move(browser: Browser, code: str, version: int, move: dict, key: str):
    return browser.request("POST", f"/api/tables/{code}/moves", body={"version": version, "move": move},
                           headers={"Idempotency-Key": key})


def at_once(*moves: tuple[Browser, int, dict, str], code: str) -> list:
    """Send the moves (browser, version, move, Idempotency-Key) from threads that start together; their
    answers (or the exception a request raised), in order."""
    barrier = threading.Barrier(len(moves))
    answers: list = [None] * len(moves)

    def run(i, sent):
        browser, version, move, key = sent
        barrier.wait(5)
        try:
            answers[i] = send_move(browser, code, version, move, key)
        except Exception as exc:  # noqa: BLE001 - reported as the answer
            answers[i] = exc

    threads = [threading.Thread(target=run, args=(i, sent)) for i, sent in enumerate(moves)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return answers


def student(name: str, browser: Browser, twin: Browser, code: str, deck: dict, play: Play, gate: Gate,
            rng: random.Random, deadline: float) -> None:
    """Poll as play.js does; on this seat's turn, move at once (now and then twice at once, through both
    servers) until the match is over."""
    url = f"/api/tables/{code}"
    etag, state, turns = None, None, 0
    try:
        while not play.stop.is_set():
            if time.time() > deadline:
                play.problem(f"{name}: the match was not over in {DEADLINE_SECONDS} s")
                return
            gate.passage()
            status, headers, payload = browser.request("GET", url, headers={"If-None-Match": etag} if etag else {})
            if status == 200:
                state, etag = json.loads(payload), headers.get("etag")
            elif status != 304:
                play.problem(f"{name}: GET {url} answered {status}: {payload[:300]!r}")
                return
            if state["status"] == "finished":
                return
            game = state["game"]
            if state["status"] != "playing" or game is None or game["turn"] != name:
                time.sleep(0.002)
                continue
            turns += 1
            version = state["version"]
            move = choose_move(state, deck, rng)
            if turns % DUEL_EVERY:
                answers = [send_move(browser, code, version, move, uuid.uuid4().hex)]
                kind = "single"
            elif (turns // DUEL_EVERY) % 2:  # two moves for one turn, one through each server
                other = choose_move(state, deck, rng)
                twin.cookies, twin.token = dict(browser.cookies), browser.token
                answers = at_once((browser, version, move, uuid.uuid4().hex), (twin, version, other, uuid.uuid4().hex),
                                  code=code)
                kind = "duel"
            else:  # one move, sent through both servers with one Idempotency-Key
                key = uuid.uuid4().hex
                twin.cookies, twin.token = dict(browser.cookies), browser.token
                answers = at_once((browser, version, move, key), (twin, version, move, key), code=code)
                kind = "retry"
            sent = [move] if kind == "single" else [move, other if kind == "duel" else move]
            record_answers(name, kind, version, sent, answers, play)
            etag = None  # the next poll takes the table as it is now
    except Exception as exc:  # noqa: BLE001 - any failure ends the play and is reported
        play.problem(f"{name}: {type(exc).__name__}: {exc}")
    finally:
        gate.leave()


def record_answers(name: str, kind: str, version: int, sent: list[dict], answers: list, play: Play) -> None:
    """Check the answers to one turn's request(s) and keep what they say. The version a screen sends may
    be behind already (a state can show a move its `version` does not count yet: the move committed
    between the server's read of the table and its read of the moves), so a turn may find all its
    requests refused as stale; but the table moved on from every version a move was refused at by a move
    answered 200 (checked at the end)."""
    for answer in answers:
        if isinstance(answer, Exception):
            play.problem(f"{name} ({kind} at version {version}): {type(answer).__name__}: {answer}")
            return
    statuses = [status for status, _, _ in answers]
    bodies = [payload[:300] for _, _, payload in answers]
    if any(status not in (200, 409) for status in statuses):
        play.problem(f"{name} ({kind} at version {version}) answered {statuses}: {bodies}")
        return
    fresh = [status == 200 and headers.get("idempotent-replayed") != "true" for status, headers, _ in answers]
    if kind == "duel" and statuses.count(200) > 1:
        play.problem(f"{name}: two moves for version {version} through two servers answered {statuses}: {bodies}")
        return
    if kind == "retry" and (statuses[0] != statuses[1] or sum(fresh) > 1):
        play.problem(f"{name}: one move (one Idempotency-Key) through two servers at version {version} answered "
                     f"{statuses}, {sum(fresh)} of them as a new move: {bodies}")
        return
    if kind == "retry" and 200 in statuses:
        results = [json.loads(payload)["result"] for _, _, payload in answers]
        if results[0] != results[1]:
            play.problem(f"{name}: a retry through the other server got another answer: {results}")
            return
    codes = [error_code(payload) for status, _, payload in answers if status == 409]
    if not all(codes):
        play.problem(f"{name}: a 409 without an error code: {bodies}")
        return
    # A key answered 200 is one move applied, whether its answer was the first or a replay (Browser sends a
    # request again, with its key, on a connection the server had closed). A replay's state is the table
    # as it is at the replay, not as the move left it: the version the move made is known from a first answer.
    if kind == "retry":  # one key: one move at most
        first = fresh.index(True) if any(fresh) else 0
        answers, fresh = [answers[first]], [fresh[first]]
    with play.lock:
        for status, _, payload in answers:
            if status == 409:
                play.refused.append((version, f"{kind}:{error_code(payload)}"))
        applied = [i for i, (status, _, _) in enumerate(answers) if status == 200]
        for i in applied:
            answered = json.loads(answers[i][2])["state"]["version"] if fresh[i] else None
            play.applied.append((version, answered, {"player": name, **sent[i]}))
        if applied:
            play.duels += kind == "duel"
            play.retries += kind == "retry"
        else:
            play.behind += 1


def comparable(state: dict) -> dict:
    """A state as both servers must give it: all of it but the join link, which names the server's port."""
    return {key: value for key, value in state.items() if key != "join_url"}


def assert_same_state(code: str, viewers: dict[str, tuple[Browser, Browser]], when: str) -> int:
    """Each viewer's state through both servers is the same; returns the table's version."""
    versions = set()
    for who, (on_a, on_b) in viewers.items():
        status_a, state_a = on_a.json("GET", f"/api/tables/{code}")
        status_b, state_b = on_b.json("GET", f"/api/tables/{code}")
        assert (status_a, status_b) == (200, 200), (when, who, status_a, status_b)
        assert comparable(state_a) == comparable(state_b), f"{when}: {who} is shown different states: " \
            f"A {json.dumps(comparable(state_a))[:1500]} B {json.dumps(comparable(state_b))[:1500]}"
        versions.add(state_a["version"])
    assert len(versions) == 1, (when, versions)
    return versions.pop()


def server_errors(server: Server) -> list[str]:
    text = server.log.read_bytes() if server.log.exists() else b""
    return [line.decode(errors="replace") for line in text.splitlines()
            if SERVER_ERROR.search(line)]


@pytest.mark.database
def test_two_servers_on_one_database_play_one_table(shared_database, tmp_path):
    started = time.perf_counter()
    server_a = Server(shared_database, tmp_path / "a", workers=2, threads=2, env=PLAY)
    server_b = Server(shared_database, tmp_path / "b", workers=2, threads=2, env=PLAY)
    opened: list[Browser] = []

    def keep(browser: Browser) -> Browser:
        opened.append(browser)
        return browser

    try:
        server_a.start()  # (the schema is made by the first server's start: its migrations)
        server_b.start()
        ports = {"A": server_a.port, "B": server_b.port}
        teacher = keep(Browser(ports["A"])).sign_up()
        code = teacher.open_table({"rules": "standard", "deck": "standard-52", "seats": [{"kind": "human"}] * 4,
                                   "match": {"format": "hands", "value": DEALS}})
        browsers, twins = {}, {}
        for i, name in enumerate(STUDENTS):
            own, other = ("A", "B") if i % 2 == 0 else ("B", "A")
            browser = keep(Browser(ports[own]))
            status, data = browser.json("POST", f"/api/tables/{code}/join", {"name": name})
            assert status == 201, (name, status, data)
            browsers[name], twins[name] = browser, keep(browser.twin(ports[other]))
        status, data = teacher.json("POST", f"/api/tables/{code}/start")
        assert status == 200, data
        _, deck = keep(Browser(ports["B"])).json("GET", f"/api/tables/{code}/deck")

        viewers = {"the public": (keep(Browser(ports["A"])), keep(Browser(ports["B"]))),
                   "the teacher": (teacher, keep(teacher.twin(ports["B"])))}
        for name in STUDENTS:  # each student through their own server and through the other one
            viewers[name] = (browsers[name], keep(twins[name].twin())) if browsers[name].port == ports["A"] \
                else (keep(twins[name].twin()), browsers[name])
        first = assert_same_state(code, viewers, "before the first move")

        play, gate = Play(), Gate(len(STUDENTS))
        deadline = time.time() + DEADLINE_SECONDS
        rng = random.Random(2024)
        threads = [threading.Thread(target=student, daemon=True,
                                    args=(name, browsers[name], twins[name], code, deck, play, gate,
                                          random.Random(rng.random()), deadline)) for name in STUDENTS]
        for thread in threads:
            thread.start()

        def playing() -> bool:
            return any(thread.is_alive() for thread in threads) and not play.stop.is_set()

        def wait_until(condition) -> None:
            """Until condition() or the play stops; a play that makes no move for STALL_SECONDS is stopped."""
            seen, since = -1, time.time()
            while playing() and not condition():
                if len(play.applied) != seen:
                    seen, since = len(play.applied), time.time()
                elif time.time() - since > STALL_SECONDS:
                    play.problem(f"no move was applied for {STALL_SECONDS} s (after {seen} moves)")
                time.sleep(0.002)

        checked = []
        for checkpoint in CHECKPOINTS:
            wait_until(lambda checkpoint=checkpoint: len(play.applied) >= checkpoint)
            if not playing():
                break
            assert gate.hold(30), "the students were not held"
            try:
                checked.append(assert_same_state(code, viewers, f"after {len(play.applied)} moves"))
            finally:
                gate.release()
        wait_until(lambda: False)
        for thread in threads:
            thread.join(30)
        if play.problems:  # where the two servers disagree, if they do, says most
            assert_same_state(code, viewers, f"when play stopped ({play.problems})")
        assert not play.problems, play.problems
        assert not any(thread.is_alive() for thread in threads), "a student was still playing"

        # One end, shown alike by both servers to everyone.
        end = assert_same_state(code, viewers, "at the end")
        status, final = viewers["the public"][0].json("GET", f"/api/tables/{code}")
        assert final["status"] == "finished" and final["match"]["hands_played"] == DEALS, final["match"]
        assert len(checked) >= 2 and checked == sorted(set(checked)) and checked[-1] < end, checked
        assert play.duels >= 3 and play.retries >= 3, (play.duels, play.retries)
        lists = [viewer.json("GET", f"/api/tables/{code}/hands") for viewer in viewers["the public"]]
        assert lists[0] == lists[1] and lists[0][0] == 200, lists

        # One history: the same records from both servers, which replay, and hold exactly the moves answered 200.
        recorded = []
        for number in range(1, DEALS + 1):
            path = f"/api/tables/{code}/hands/{number}/record?format=json"
            (status_a, record_a), (status_b, record_b) = (viewer.json("GET", path) for viewer in viewers["the teacher"])
            assert (status_a, status_b) == (200, 200), (number, record_a, record_b)
            assert record_a == record_b, f"hand {number}: the servers' records differ"
            record = load_record_text(json.dumps(record_a), source=f"hand {number}")
            result = replay(record)
            assert result.error is None, (number, result.error_move, result.error)
            assert result.applied == len(record.moves) and result.game.finished, (number, result.applied)
            shown = final["hands"][number - 1]
            assert shown["number"] == number and shown["scores"] == dict(result.game.public_view().scores), shown
            recorded += record_a["moves"]
        applied = sorted(play.applied, key=lambda move: move[0])
        sent = [version for version, _, _ in applied]
        assert len(set(sent)) == len(sent), "two moves were applied for one version"
        for (_, answered, _), (following, _, _) in itertools.pairwise(applied):
            assert answered in (following, None), f"the table moved from {answered} to {following} by no move answered 200"
        assert applied[0][0] == first and applied[-1][1] in (end, None), (first, applied[0], applied[-1], end)
        stale = [(version, why) for version, why in play.refused if version not in sent]
        assert not stale, f"moves refused at versions the table never moved on from: {stale}"
        assert len(recorded) == len(applied), (len(recorded), len(applied))
        assert recorded == [move for _, _, move in applied], "the records are not the moves answered 200, in order"

        for server in (server_a, server_b):
            errors = server_errors(server)
            assert not errors, errors[:5]
        print(f"two servers on {shared_database.split(':')[0]}: {len(recorded)} moves in {DEALS} hands, "
              f"{play.duels} turns played twice at once, {play.retries} retries through the other server, "
              f"{play.behind} turns refused whole (the screen behind), refusals "
              f"{dict(Counter(why for _, why in play.refused))}, checkpoints at versions {checked}, end at version {end}, "
              f"{time.perf_counter() - started:.1f} s")
    finally:
        for browser in opened:
            browser.close()
        stopping = [threading.Thread(target=server.stop) for server in (server_a, server_b)]
        for thread in stopping:
            thread.start()
        for thread in stopping:
            thread.join(60)


@pytest.mark.database
def test_two_servers_started_together_on_an_empty_database_both_serve(shared_database, tmp_path):
    """A district's servers start at the same moment: one prepares the schema, the others wait for it
    (app/db.py schema_lock), and every one of them comes up and logs its requests."""
    servers = [Server(shared_database, tmp_path / name, workers=1, threads=2, env=PLAY) for name in "abc"]
    failures: list[str] = []

    def start(server: Server) -> None:
        try:
            server.start(timeout=60)
        except RuntimeError as exc:
            failures.append(str(exc)[-600:])

    threads = [threading.Thread(target=start, args=(server,)) for server in servers]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(90)
        assert not failures, failures
        for server in servers:
            status, _, _ = Browser(server.port).request("GET", "/api/catalog")
            assert status == 200
        time.sleep(0.5)  # the access log line of the last request is written after the answer
        for server in servers:
            log = server.log.read_text(errors="replace")
            assert '"GET /api/catalog' in log, f"no access log line in {server.log}:\n{log[-1500:]}"
            assert "Traceback" not in log
    finally:
        for server in servers:
            server.stop()
