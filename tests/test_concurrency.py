"""Moves under concurrency: many threads, each with its own client and database session, submit
conflicting moves to one table at the same instant. Exactly one move is applied per version, the move
log has no gap and no duplicate, replaying it gives the stored state, a retried request with the same
Idempotency-Key is applied once, and computer players played on by many workers at once move once.

These use the `app` fixture, so `make test-postgres` runs them on PostgreSQL too (FOR UPDATE there,
BEGIN IMMEDIATE on SQLite)."""
from __future__ import annotations

import random
import threading
import time
import uuid

import pytest

from app.db import db
from app.engine.record import load_record_text
from app.engine.replay import replay
from app.models import Deal, MoveRow, Table
from app import store
from app.engine.moves import move_from_dict
from app.services import deals

from .web_support import server_game, choose_move, deck_of, get_state, open_table, seat_student, teacher_client, tick

THREADS = 50
ROUNDS = 25
SEATS = [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}, {"kind": "human"}, {"kind": "computer"}]
STUDENTS = ["Anna", "Boris", "Vera", "Gleb"]

# Fewer connections than threads, and (busy_app) presence written at every poll: a request that held a
# connection and waited for a second one would empty the pool and wait for itself (tests/test_pool_waits.py).
pytestmark = pytest.mark.app_config(SQLALCHEMY_ENGINE_OPTIONS={"pool_size": 3, "max_overflow": 0})


@pytest.fixture
def busy_app(app, monkeypatch):
    monkeypatch.setattr("app.store.presence.WRITE_EVERY", 0.0)  # every poll writes its seat's presence
    app.config.update(BOT_PACE_SECONDS=0, HAND_PAUSE_SECONDS=0, DEAL_SEED=11)
    return app


def clone(app, source):
    """Another client (its own cookie jar, so its own thread) holding the same seat as `source`."""
    client = app.test_client()
    client.set_cookie("session", source.get_cookie("session").value)
    return client


def run_threads(count, target):
    errors = []

    def guarded(i):
        try:
            target(i)
        except BaseException as exc:  # noqa: BLE001 - reported by the main thread
            errors.append(exc)

    threads = [threading.Thread(target=guarded, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert not any(thread.is_alive() for thread in threads), "a thread hung"
    if errors:
        raise errors[0]


def check_log_and_replay(app, code):
    """Every hand's log is 0..n-1 without a gap or a duplicate, and replaying it from the stored header
    (nothing cached) gives the state the server shows and the result it stored."""
    with app.app_context():
        store.games.forget_all()
        table = Table.query.filter_by(code=code).one()
        total = 0
        for deal in Deal.query.filter_by(table_id=table.id).order_by(Deal.number):
            rows = MoveRow.query.filter_by(deal_id=deal.id).order_by(MoveRow.seq).all()
            assert [row.seq for row in rows] == list(range(len(rows))), f"deal {deal.number}: gap or duplicate"
            fresh = store.game_from_header(deal.header)
            for row in rows:
                fresh.apply(move_from_dict(row.data))
            served = server_game(deal)
            assert fresh.replay_state() == served.replay_state()
            assert fresh.public_view().to_dict() == served.public_view().to_dict()
            if deal.result_json:
                assert fresh.finished and deal.result == fresh.outcome().to_dict()
            total += len(rows)
        db.session.remove()
    return total


def test_fifty_threads_racing_for_each_version_apply_exactly_one_move(busy_app):
    app = busy_app
    teacher = teacher_client(app)
    code = open_table(teacher, rules="standard", seats=SEATS, match={"format": "hands", "value": 3})
    students = {name: seat_student(app, code, name) for name in STUDENTS}
    assert teacher.post(f"/api/tables/{code}/start").status_code == 200
    deck = deck_of(teacher, code)
    clients = [clone(app, students[STUDENTS[i % len(STUDENTS)]]) for i in range(THREADS)]
    seen = [None] * THREADS         # the state each thread drew its move from, this round
    answers = [None] * THREADS      # (status, version sent, response) of this round's move
    start_gate, done_gate = threading.Barrier(THREADS + 1), threading.Barrier(THREADS + 1)
    stop = threading.Event()

    def racer(i):
        rng = random.Random(i)
        client = clients[i]
        while True:
            start_gate.wait()
            if stop.is_set():
                return
            state = seen[i] = get_state(client, code)
            answers[i] = None
            if state["status"] == "playing" and state["game"]["turn"] == state["you"]["name"]:
                move = choose_move(state, deck, rng)
            else:  # not this seat's turn: a move anyway (refused), to add to the crowd at the lock
                move = {"answer": None}
            response = client.post(f"/api/tables/{code}/moves", json={"version": state["version"], "move": move})
            answers[i] = (response.status_code, state["version"], response.get_json())
            done_gate.wait()

    runner = threading.Thread(target=run_threads, args=(THREADS, racer))
    runner.start()
    applied: dict[int, int] = {}
    rounds = 0
    try:
        for rounds in range(1, ROUNDS + 1):
            start_gate.wait(60)
            done_gate.wait(60)
            statuses = [a[0] for a in answers]
            assert all(s in (200, 409) for s in statuses), [a for a in answers if a[0] not in (200, 409)]
            winners = [a for a in answers if a[0] == 200]
            drawn_from = {s["version"] for s in seen}
            if len(drawn_from) == 1 and seen[0]["status"] == "playing":
                assert len(winners) == 1, f"round {rounds}: {len(winners)} moves applied to version {drawn_from}"
            for _status, version, body in winners:
                assert version not in applied, f"two moves applied to version {version}"
                applied[version] = body["state"]["version"]
                assert body["state"]["version"] > version
            for status, _version, body in answers:
                if status == 409:
                    assert body["error"]["code"] and body["error"]["message"]
            if seen[0]["status"] != "playing":
                break
    finally:
        stop.set()
        try:
            start_gate.wait(10)
        except threading.BrokenBarrierError:
            pass
        runner.join(60)
    assert len(applied) >= min(rounds, 10)
    logged = check_log_and_replay(app, code)
    with app.app_context():
        table = Table.query.filter_by(code=code).one()
        human = {name for name in STUDENTS}
        by_people = MoveRow.query.join(Deal).filter(Deal.table_id == table.id).all()
        assert sum(1 for row in by_people if row.data["player"] in human) == len(applied)
        db.session.remove()
    assert logged >= len(applied)


def test_a_retry_with_the_same_idempotency_key_is_applied_once(busy_app):
    app = busy_app
    teacher = teacher_client(app)
    code = open_table(teacher, rules="standard", seats=SEATS)
    students = {name: seat_student(app, code, name) for name in STUDENTS}
    teacher.post(f"/api/tables/{code}/start")
    state = get_state(students["Anna"], code)
    assert state["game"]["turn"] == "Anna"
    move = choose_move(state, deck_of(teacher, code), random.Random(1))
    key = str(uuid.uuid4())
    body = {"version": state["version"], "move": move}
    clients = [clone(app, students["Anna"]) for _ in range(20)]
    gate = threading.Barrier(len(clients))
    answers = [None] * len(clients)

    def retry(i):
        gate.wait()
        response = clients[i].post(f"/api/tables/{code}/moves", json=body, headers={"Idempotency-Key": key})
        answers[i] = (response.status_code, response.headers.get("Idempotent-Replayed"), response.get_json())

    run_threads(len(clients), retry)
    assert [a[0] for a in answers] == [200] * len(clients), answers
    assert sum(1 for a in answers if a[1] is None) == 1  # applied once; every other try got the stored answer
    assert len({str(a[2]["result"]) for a in answers}) == 1
    with app.app_context():
        table = Table.query.filter_by(code=code).one()
        rows = MoveRow.query.filter_by(deal_id=table.current_deal.id).all()
        assert [row.data["player"] for row in rows] == ["Anna"]  # (Boris is next: nobody else moved)
        db.session.remove()
    again = students["Anna"].post(f"/api/tables/{code}/moves", json=body, headers={"Idempotency-Key": key})
    assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"
    other = students["Anna"].post(f"/api/tables/{code}/moves", json={**body, "version": body["version"] + 1},
                                  headers={"Idempotency-Key": key})
    assert other.status_code == 422 and other.get_json()["error"]["code"] == "idempotency-key-reused"
    bad = students["Anna"].post(f"/api/tables/{code}/moves", json=body, headers={"Idempotency-Key": "x" * 500})
    assert bad.status_code == 400 and bad.get_json()["error"]["code"] == "bad-idempotency-key"
    # another seat cannot use Anna's key to learn her answer
    stolen = students["Boris"].post(f"/api/tables/{code}/moves", json=body, headers={"Idempotency-Key": key})
    assert stolen.status_code == 422
    check_log_and_replay(app, code)


def test_computer_players_polled_by_many_workers_at_once_move_once_per_pace(app):
    app.config.update(BOT_PACE_SECONDS=30, HAND_PAUSE_SECONDS=30, DEAL_SEED=5)
    teacher = teacher_client(app)
    code = open_table(teacher, seats=[{"kind": "computer"}] * 4)
    teacher.post(f"/api/tables/{code}/start")
    moved = []
    gate = threading.Barrier(30)

    def poll(i):
        gate.wait()
        with app.app_context():
            table = Table.query.filter_by(code=code).one()
            moved.append(deals.advance(table))
            db.session.remove()

    for expected_moves in (1, 2, 3):
        with app.app_context():
            Table.query.filter_by(code=code).one().next_bot_at = 0  # the pace has passed
            db.session.commit()
            db.session.remove()
        moved.clear()
        gate.reset()
        run_threads(30, poll)
        assert sorted(moved) == [0] * 29 + [1]
        with app.app_context():  # the next move waits for the pace again
            assert Table.query.filter_by(code=code).one().next_bot_at > time.time() + 25
            db.session.remove()
        assert check_log_and_replay(app, code) == expected_moves


def test_students_joining_at_the_same_moment_all_get_seats(app):
    teacher = teacher_client(app)
    code = open_table(teacher, seats=[{"kind": "human"}] * 6)
    clients = [app.test_client() for _ in range(6)]
    answers = [None] * 6
    gate = threading.Barrier(6)

    def join(i):
        gate.wait()
        answers[i] = clients[i].post(f"/api/tables/{code}/join", json={"name": f"Student {i}"}).status_code

    run_threads(6, join)
    assert answers == [201] * 6
    state = get_state(teacher, code)
    assert sorted(seat["name"] for seat in state["seats"]) == sorted(f"Student {i}" for i in range(6))


def test_a_finished_match_replays_from_its_records(app):
    """Computer players moved by ten racing clocks (a process's tick each): the exported records replay
    to the stored scores."""
    app.config.update(BOT_PACE_SECONDS=60, HAND_PAUSE_SECONDS=0, DEAL_SEED=3)
    teacher = teacher_client(app)
    code = open_table(teacher, seats=[{"kind": "computer"}] * 3, match={"format": "hands", "value": 2})
    teacher.post(f"/api/tables/{code}/start")
    app.config.update(BOT_PACE_SECONDS=0)
    with app.app_context():
        Table.query.filter_by(code=code).one().next_bot_at = 0
        db.session.commit()
        db.session.remove()
    gate = threading.Barrier(10)

    def clock(i):
        gate.wait()
        for _ in range(3):
            tick(app)

    run_threads(10, clock)
    state = get_state(teacher, code)
    assert state["status"] == "finished"
    for number, result in enumerate(state["hands"], 1):
        record = load_record_text(teacher.get(f"/api/tables/{code}/hands/{number}/record").data)
        assert replay(record).game.scores() == result["scores"]
    check_log_and_replay(app, code)


def test_a_table_opens_while_another_connection_writes(app, monkeypatch):
    """Opening a table reads first (the deck, whether a code is free), then writes. On SQLite a read
    transaction cannot become a write once another connection has written since it began ("database is
    locked", at once): the write must begin a transaction of its own. Here another connection writes
    between the reads and the write of this one."""
    teacher = teacher_client(app)
    open_table(teacher)  # a table, so that another connection has something to write to
    real_exists = store.exists
    writes = []

    def exists_then_someone_writes(code):
        found = real_exists(code)  # this request's read transaction has begun
        if not writes:
            with db.engine.connect() as other:
                other.execute(db.text("UPDATE play_tables SET version = version + 1"))
                other.commit()
            writes.append(True)
        return found

    monkeypatch.setattr(store, "exists", exists_then_someone_writes)
    response = teacher.post("/api/tables", json={"seats": [{"kind": "human"}] + [{"kind": "computer"}] * 2})
    assert writes and response.status_code == 201, response.get_json()
