"""The server keeps the game's time (issue #32): computer players move at their pace, a turn's time runs
out, a computer stands in for an away student and the pause between hands ends with no screen open and
no request at all, on the clock of app/services/clock.py. Two processes' clocks never both play one due
move; a read (a screen's poll, the teacher's page, the projector) writes nothing."""
from __future__ import annotations

import logging
import threading
import time

import pytest
from sqlalchemy import update
from sqlalchemy.exc import OperationalError

from app import create_app, create_served_app
from app import store
from app.db import db
from app.models import Deal, MoveRow, Seat, Table
from app.services import clock, tables
from app.store import timing

from .test_presence import poll, seen_back
from .web_support import (Statements, for_play, make_teacher, open_table, seat_student, teacher_client, tick,
                          writes)

pytestmark = pytest.mark.database

COMPUTERS = [{"kind": "computer"}] * 3
CARA_AND_COMPUTERS = [{"kind": "human"}, {"kind": "computer"}, {"kind": "computer"}]
PACE = 0.05


def wait_until(condition, seconds: float, what: str):
    """Ask `condition` again and again until it answers something true; fail after `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = condition()
        if found:
            return found
        time.sleep(0.02)
    pytest.fail(f"{what}: not within {seconds} s")


def computers_table(app, hands: int = 1) -> str:
    """A table of computer players, opened and started by the services alone: no request, no screen."""
    teacher_id = make_teacher(app)
    with app.app_context():
        table, _here = tables.create({"seats": COMPUTERS, "match": {"format": "hands", "value": hands}}, teacher_id)
        tables.start(table)
        code: str = table.code
        db.session.remove()
        return code


def status_of(app, code) -> str:
    with app.app_context():
        try:
            status: str = db.session.query(Table.status).filter_by(code=code).scalar()
            return status
        finally:
            db.session.remove()


def move_rows(app, code) -> list[tuple[int, int, float, dict]]:
    """(deal number, seq, played_at, move) of every move at the table, in the order played."""
    with app.app_context():
        try:
            table = Table.query.filter_by(code=code).one()
            return [(deal.number, row.seq, row.played_at, row.data)
                    for deal in sorted(table.deals, key=lambda d: d.number)
                    for row in MoveRow.query.filter_by(deal_id=deal.id).order_by(MoveRow.seq)]
        finally:
            db.session.remove()


def set_table(app, code, **values) -> None:
    """Change the table's row as the clock sees it, its version kept (a Core UPDATE: no version bump)."""
    with app.app_context():
        db.session.execute(update(Table).where(Table.code == code).values(**values)
                           .execution_options(synchronize_session=False))
        db.session.commit()
        db.session.remove()


def table_row(app, code):
    """The table as it is now (a frozen snapshot of the store's)."""
    with app.app_context():
        try:
            return store.read(code)
        finally:
            db.session.remove()


@pytest.fixture
def running(app):
    """Start a Clock on an app (as create_served_app does, at a test's interval); stopped at the end."""
    clocks = []

    def start(on=None, interval: float = 0.02) -> clock.Clock:
        started = clock.Clock(interval).start(on or app)
        clocks.append(started)
        return started

    yield start
    for started in clocks:
        started.stop()
        assert not started.running


def test_a_table_of_computers_plays_a_whole_hand_at_its_pace_with_no_request(app, running):
    app.config.update(BOT_PACE_SECONDS=PACE, HAND_PAUSE_SECONDS=0, DEAL_SEED=7)
    code = computers_table(app)
    assert move_rows(app, code) == []  # started: the first computer waits its pace
    running()
    wait_until(lambda: status_of(app, code) == "finished", 60, "the hand was not played to its end")
    rows = move_rows(app, code)
    assert len(rows) >= 10 and [seq for _deal, seq, _at, _move in rows] == list(range(len(rows)))
    gaps = [later[2] - earlier[2] for earlier, later in zip(rows, rows[1:])]
    assert min(gaps) >= PACE - 1e-6  # never faster than the pace ...
    assert sorted(gaps)[len(gaps) // 2] < PACE + 0.5  # ... and kept: no screen needed to move it on


def test_the_pause_between_hands_ends_with_no_screen(app, running):
    pause = 0.6
    app.config.update(BOT_PACE_SECONDS=0.02, HAND_PAUSE_SECONDS=pause, DEAL_SEED=7)
    code = computers_table(app, hands=2)
    running()
    wait_until(lambda: status_of(app, code) == "finished", 60, "the second hand was not played")
    rows = move_rows(app, code)
    last_of_first = max(at for deal, _seq, at, _move in rows if deal == 1)
    first_of_second = min(at for deal, _seq, at, _move in rows if deal == 2)
    assert pause <= first_of_second - last_of_first < pause + 1.0


def test_a_turn_runs_out_on_time_with_no_screen_open(app, running):
    for_play(app)  # the computers move at once: it is soon Cara's turn
    teacher = teacher_client(app)
    code = open_table(teacher, seats=CARA_AND_COMPUTERS, options={"turn_seconds": 10})
    seat_student(app, code, "Cara")  # her device joins, and never asks for the table again
    assert teacher.post(f"/api/tables/{code}/start").status_code == 200
    table = table_row(app, code)
    assert table.current_deal is not None and table.status == "playing"
    before = len(move_rows(app, code))
    # Her turn began 8.5 s ago (as if): 1.5 s are left of her 10, and the table's next moment is then
    started = time.time() - 8.5
    deadline = started + 10
    set_table(app, code, changed_at=started, next_bot_at=deadline)
    running(interval=clock.TICK_SECONDS)  # as a served worker's
    made = wait_until(lambda: [row for row in move_rows(app, code)[before:] if row[3].get("timed_out")], 10,
                      "her time ran out and nothing moved")[0]
    assert made[3]["player"] == "Cara" and made[3]["computer"] is True
    assert deadline <= made[2] <= deadline + 1.0


def test_a_computer_stands_in_after_stand_in_after_with_no_screen_open(app, running):
    for_play(app)
    teacher = teacher_client(app)
    code = open_table(teacher, seats=CARA_AND_COMPUTERS, options={"stand_in_after": 1})
    seat_student(app, code, "Cara")
    assert teacher.post(f"/api/tables/{code}/start").status_code == 200
    before = len(move_rows(app, code))
    # Her screen was last seen 58.5 s ago (as if): the minute is up 1.5 s from now, the table's next moment
    seen = time.time() - 58.5
    with app.app_context():
        db.session.execute(update(Seat).where(Seat.name == "Cara").values(seen_at=seen)
                           .execution_options(synchronize_session=False))
        db.session.commit()
        db.session.remove()
    set_table(app, code, next_bot_at=seen + 60)
    running(interval=clock.TICK_SECONDS)
    made = wait_until(lambda: [row for row in move_rows(app, code)[before:] if row[3]["player"] == "Cara"], 10,
                      "no computer stood in for her")[0]
    assert made[3]["computer"] is True and "timed_out" not in made[3]
    assert seen + 60 <= made[2] <= seen + 61
    cara = next(seat for seat in table_row(app, code).seats if seat.name == "Cara")
    assert cara.stand_in and cara.kind == "computer"


def test_two_processes_clocks_never_both_play_one_due_move(app):
    """Two app instances (two processes' worth of engines and sessions) on one database tick as fast as
    they can over many due tables at once. Every move is counted by exactly one of them, every deal's log
    is 0..n-1, and no two moves of a table came closer than the pace: a move played twice would be."""
    app.config.update(BOT_PACE_SECONDS=PACE, HAND_PAUSE_SECONDS=0, DEAL_SEED=5)
    pool = {"pool_size": 2, "max_overflow": 0, "pool_timeout": 10}
    twin = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"],
                       "SECRET_KEY": app.config["SECRET_KEY"], "BOT_PACE_SECONDS": PACE, "HAND_PAUSE_SECONDS": 0,
                       "DEAL_SEED": 5, "SQLALCHEMY_ENGINE_OPTIONS": pool})
    codes = [computers_table(app) for _ in range(8)]
    moved = {"app": 0, "twin": 0}
    errors: list[BaseException] = []
    gate = threading.Barrier(2)

    def runner(name, instance):
        try:
            gate.wait()
            deadline = time.monotonic() + 90
            while time.monotonic() < deadline and not all(status_of(instance, code) == "finished" for code in codes):
                with instance.app_context():
                    moved[name] += clock.tick()
        except BaseException as exc:  # noqa: BLE001 - reported by the test's thread
            errors.append(exc)

    try:
        threads = [threading.Thread(target=runner, args=("app", app)),
                   threading.Thread(target=runner, args=("twin", twin))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(120)
        assert not errors, errors
        assert all(status_of(app, code) == "finished" for code in codes)
        total = 0
        for code in codes:
            rows = move_rows(app, code)
            assert [seq for _deal, seq, _at, _move in rows] == list(range(len(rows))), f"{code}: gap or duplicate"
            gaps = [later[2] - earlier[2] for earlier, later in zip(rows, rows[1:])]
            assert min(gaps) >= PACE - 1e-6, f"{code}: two moves within one pace"
            with app.app_context():
                table = Table.query.filter_by(code=code).one()
                deals = Deal.query.filter_by(table_id=table.id).count()
                # each move one version, then the start and the deal's end
                assert table.version == len(rows) + 1 + deals, (table.version, len(rows), deals)
                db.session.remove()
            total += len(rows)
        assert moved["app"] + moved["twin"] == total  # each move made once, by one of them
        assert moved["app"] > 0 and moved["twin"] > 0, moved  # (both really played)
    finally:
        with twin.app_context():
            db.session.remove()
            db.engine.dispose()


def test_a_read_writes_nothing_whatever_is_due(app):
    """Every read of the table, while everything a read used to do is due at once: a computer player's
    move, the seats' presence, a student back while a computer stands in. The clock's next beat does it."""
    app = for_play(app)
    teacher = teacher_client(app)
    code = open_table(teacher, seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "computer"}])
    cara, dan = seat_student(app, code, "Cara"), seat_student(app, code, "Dan")
    assert teacher.post(f"/api/tables/{code}/start").status_code == 200
    seen_back(app, code, "Dan", 120)
    assert teacher.post(f"/api/tables/{code}/seats/1/stand-in").status_code == 200  # Dan is away
    app.config.update(BOT_PACE_SECONDS=60)
    seen_back(app, code, "Cara", 60)
    set_table(app, code, next_bot_at=0)  # whoever is to move is due now
    projector = app.test_client()
    version = table_row(app, code).version
    with Statements(app, writes) as written:
        for who, reader in (("Cara", cara), ("Dan", dan), ("the teacher", teacher), ("the projector", projector)):
            first = poll(reader, code)
            assert first.status_code == 200, (who, first.get_json())
            assert poll(reader, code, first.headers["ETag"]).status_code == 304, who
        for page in (f"/t/{code}", f"/t/{code}/projector", f"/t/{code}/play", "/api/tables"):
            assert (dan if page.endswith("/play") else teacher).get(page).status_code == 200, page
        assert teacher.get(f"/api/tables/{code}/hands").status_code == 200
    assert written.statements == []
    assert table_row(app, code).version == version
    # what the reads noted and what was due, the clock does at its next beat
    with Statements(app, writes) as written:
        tick(app)
    assert any(s.upper().startswith("UPDATE PLAY_SEATS SET SEEN_AT") for s in written.statements), written.statements
    after = table_row(app, code)
    assert after.version > version
    assert not next(seat for seat in after.seats if seat.name == "Dan").stand_in  # his screen was back


def test_a_due_table_with_nothing_to_do_is_put_off_not_looked_at_every_tick(app):
    app = for_play(app)
    teacher = teacher_client(app)
    code = open_table(teacher, seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "computer"}])
    seat_student(app, code, "Cara"), seat_student(app, code, "Dan")
    assert teacher.post(f"/api/tables/{code}/start").status_code == 200
    now = time.time()
    set_table(app, code, next_bot_at=now - 1)  # a person to move, no timer, no stand-in: nothing to do
    version = table_row(app, code).version
    tick(app, now)
    after = table_row(app, code)
    assert after.version == version and after.next_bot_at > now  # put off, nothing changed
    with app.app_context():
        assert after.id not in timing.due(now + 1)
        db.session.remove()


def test_a_table_that_cannot_go_on_is_looked_at_again_later_and_the_others_go_on(app, monkeypatch, caplog):
    app.config.update(BOT_PACE_SECONDS=PACE, HAND_PAUSE_SECONDS=0, DEAL_SEED=7)
    broken, fine = computers_table(app), computers_table(app)
    broken_id = table_row(app, broken).id
    real_advance = clock.deals.advance

    def advance(table, now=None):
        if table.id == broken_id:
            raise RuntimeError("a table that cannot go on")
        return real_advance(table, now)

    monkeypatch.setattr(clock.deals, "advance", advance)
    later = time.time() + 1
    with caplog.at_level(logging.ERROR, logger="authors.clock"):
        assert tick(app, later) == 1  # the other table's computer moved
    assert "cannot go on" in caplog.text
    assert table_row(app, broken).next_bot_at >= later + clock.RETRY_SECONDS - 1
    assert len(move_rows(app, fine)) == 1 and move_rows(app, broken) == []


def test_a_clock_goes_on_when_the_database_does_not_answer_for_a_while(app, running, monkeypatch, caplog):
    app.config.update(BOT_PACE_SECONDS=PACE, HAND_PAUSE_SECONDS=0, DEAL_SEED=7)
    code = computers_table(app)
    real_due = timing.due
    failures = []

    def due(now):
        if len(failures) < 3:
            failures.append(now)
            raise OperationalError("SELECT ...", {}, Exception("the database did not answer"))
        return real_due(now)

    monkeypatch.setattr(timing, "due", due)
    with caplog.at_level(logging.ERROR, logger="authors.clock"):
        ticking = running(interval=0.02)
        wait_until(lambda: len(move_rows(app, code)) >= 3, 30, "the clock did not go on after the failures")
    assert len(failures) == 3 and ticking.running and ticking.failures == 3
    assert caplog.text.count("the clock's tick failed") == 3


def test_the_served_app_runs_a_clock_and_the_app_of_the_tests_none(tmp_path, monkeypatch):
    monkeypatch.setenv("AUTHORS_INSTANCE_PATH", str(tmp_path / "instance"))
    config = {"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'served.sqlite3'}"}
    import gc

    assert clock.running_clock(create_app(config)) is None
    served = create_served_app(config)
    try:
        ticking = clock.running_clock(served)
        assert ticking is not None and ticking.running
        wait_until(lambda: ticking.ticks >= 2, 10, "the served app's clock did not tick")
        assert ticking.failures == 0
        ticking.stop()
        assert not ticking.running
    finally:
        gc.unfreeze()
        with served.app_context():
            db.engine.dispose()


def test_the_due_query_has_its_index(app):
    with app.app_context():
        from sqlalchemy import inspect

        indexes = {index["name"]: index["column_names"] for index in inspect(db.engine).get_indexes("play_tables")}
    assert indexes.get("ix_play_tables_due") == ["status", "next_bot_at"]

