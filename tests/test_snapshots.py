"""Snapshots (app/store/snapshots.py) read a table as the ORM does: the same columns, the same values,
the same properties, and the deal only when a game is built from it."""
from __future__ import annotations

import dataclasses

from sqlalchemy import event

from app.db import db
from app.models import Deal, Seat, Table
from app.services import tables
from app.store import snapshots

from .web_support import for_play, open_table, seat_student, teacher_client


def test_every_column_of_the_models_is_a_field_of_the_snapshots():
    for model, snapshot, left_out in ((Table, snapshots.TableSnapshot, set()),
                                      (Seat, snapshots.SeatSnapshot, set()),
                                      (Deal, snapshots.DealSnapshot, {"header_json"})):
        fields = {f.name for f in dataclasses.fields(snapshot)}
        columns = {c.name for c in model.__table__.c}
        assert columns - left_out <= fields, (model.__name__, columns - left_out - fields)
    assert "header_json" not in snapshots.DEAL_COLUMNS  # read on demand (a cached property)


def started_for_two(app) -> str:
    """A table of Anna and Boris, started; its code."""
    for_play(app)
    teacher = teacher_client(app)
    code = open_table(teacher)
    seat_student(app, code, "Anna")
    seat_student(app, code, "Boris")
    assert teacher.post(f"/api/tables/{code}/start").status_code == 200
    return code


def test_a_snapshot_reads_what_the_orm_reads(app):
    code = started_for_two(app)
    with app.app_context():
        row = Table.query.filter_by(code=code).one()
        snap = tables.read(code.lower())
        for name in snapshots.TABLE_FIELDS:
            assert getattr(snap, name) == getattr(row, name), name
        assert snap.overrides == row.overrides
        assert [(s.position, s.name, s.kind, s.bot, s.token_hash, s.vacant) for s in snap.seats] == \
            [(s.position, s.name, s.kind, s.bot, s.token_hash, s.vacant) for s in row.seats]
        assert [(h.id, h.number, h.revision, h.result, h.started_at) for h in snap.deals] == \
            [(h.id, h.number, h.revision, h.result, h.started_at) for h in row.deals]
        assert snap.current_deal.table is snap and snap.current_deal.number == row.current_deal.number

        deal = row.current_deal.header  # (deferred on the ORM side too: read here, before counting)
        statements = []
        event.listen(db.engine, "before_cursor_execute", lambda *args: statements.append(args[2]))
        fresh = snapshots.by_code(code)
        assert len(statements) == 1 and not any("header_json" in sql for sql in statements)
        assert fresh.current_deal.header == deal  # read now, once
        assert len(statements) == 2
        assert fresh.current_deal.header_json and len(statements) == 2
        assert snapshots.by_code("ZZZZZZ") is None


def test_a_move_committed_during_a_snapshots_read_never_leaves_its_version_behind_its_game(app, monkeypatch):
    # On PostgreSQL each statement sees the database as it is when it starts: a move committed by another
    # process between the table's read and the deals' would give the old version with the new move count
    # (a screen whose next move is then refused as stale). The table, its seats and its deals are read
    # in one statement, which sees one moment on both engines.
    from sqlalchemy import create_engine, text

    from app import store
    from app.store import fast

    for_play(app)
    teacher = teacher_client(app)
    code = open_table(teacher, seats=[{"kind": "human"}] * 3)
    for name in ("Anna", "Boris", "Cleo"):
        seat_student(app, code, name)
    assert teacher.post(f"/api/tables/{code}/start").status_code == 200
    with app.app_context():
        before = store.read(code)
        deal = before.current_deal
        db.session.remove()
    other = create_engine(app.config["SQLALCHEMY_DATABASE_URI"])  # another process's connection
    real, injected = fast.rows, []

    def rows(connection, statement, params):
        found = real(connection, statement, params)
        if statement is snapshots.BY_CODE and not injected:
            injected.append(1)
            with other.begin() as writer:  # a move, committed as the read goes on
                writer.execute(text("INSERT INTO play_moves (deal_id, seq, played_at, data_json) "
                                    "VALUES (:deal, :seq, 0, '{}')"), {"deal": deal.id, "seq": deal.move_count})
                writer.execute(text("UPDATE play_tables SET version = version + 1 WHERE id = :id"), {"id": before.id})
        return found

    monkeypatch.setattr(fast, "rows", rows)
    try:
        with app.app_context():
            read = store.read(code)
            db.session.remove()
    finally:
        other.dispose()
    assert injected
    seen = (read.version, read.current_deal.move_count)
    assert seen in ((before.version, deal.move_count), (before.version + 1, deal.move_count + 1)), seen


def _driver_in_transaction(connection) -> bool:
    driver = connection.connection.driver_connection
    if hasattr(driver, "info"):  # psycopg
        import psycopg

        return driver.info.transaction_status != psycopg.pq.TransactionStatus.IDLE
    return driver.in_transaction  # sqlite3


def test_a_read_for_play_opens_no_transaction_and_a_write_reads_in_its_own(app):
    """Outside a write, a table and its deal's game are read on a connection of their own in autocommit:
    each statement is its own transaction (no BEGIN, no ROLLBACK: on PostgreSQL two round trips of
    three), and the request's session has begun none. Inside a write, the write's own connection reads."""
    from app import store
    from app.store import fast

    code = started_for_two(app)
    with app.app_context():
        statements = []
        event.listen(db.engine, "before_cursor_execute", lambda *args: statements.append(args[2].split()[0]))
        store.evict(store.read(code).current_deal)  # (the game is built again from the log below)
        statements.clear()
        table = store.read(code)
        assert statements == ["SELECT"] and not db.session().in_transaction()
        with store.playing(table.current_deal) as game:
            with fast.reading() as connection:
                assert not _driver_in_transaction(connection)
            assert game.players
        assert statements and set(statements) == {"SELECT"}, statements  # the header, the moves: no BEGIN
        assert not db.session().in_transaction()
        with store.moving(table) as locked:
            with fast.reading() as connection:
                assert connection is db.session.connection() and _driver_in_transaction(connection)
            assert store.by_id(locked.id).version == locked.version
        db.session.remove()
