"""A request never waits for a second connection while it holds one (the CI failure of
test_concurrency.py: fifty threads, each holding the request's connection and waiting for another one to
write presence, emptied the pool of fifteen and every one of them waited 30 s for a 503). Here the pool
holds one connection (as every test's app does, conftest.py): a request that asked for a second one
would wait for itself, and fail."""
from __future__ import annotations

import time

import pytest

from app.db import db
from app import store
from app.models import Table
from app.store import timing

from .test_presence import poll, seen_at, seen_back
from .test_stand_in import play_until_turn_of, started
from .web_support import flush_presence, tick

pytestmark = pytest.mark.database  # (on the suite's pool of one connection: conftest.ONE_CONNECTION)


def test_a_poll_that_records_presence_needs_one_connection(app):
    app, teacher, code, cara, dan = started(app)
    seen_back(app, code, "Cara", 120)
    before = seen_at(app, code, "Cara")
    response = poll(cara, code)  # the full answer: the table read, presence noted
    assert response.status_code == 200, response.get_json()
    flush_presence(app)  # (the clock's connection, once the request gave its own back)
    assert seen_at(app, code, "Cara") > before + 60
    seen_back(app, code, "Cara", 120)
    response = poll(teacher, code, response.headers["ETag"])  # the teacher's poll, on the same one connection
    assert response.status_code in (200, 304)


def test_putting_off_the_next_look_at_a_person_needs_one_connection(app):
    app, teacher, code, cara, dan = started(app, stand_in_after=2)
    assert play_until_turn_of(dan, code, "Cara", "Dan")["game"]["turn"] == "Cara"
    with app.app_context():  # the moment to look at Cara again has come: she is here, so it is put off
        table = Table.query.filter_by(code=code).one()
        table.next_bot_at = 0
        db.session.commit()
    tick(app)  # the clock's beat: the table read, then its next look written
    with app.app_context():
        assert Table.query.filter_by(code=code).one().next_bot_at > 1e9


def test_a_write_of_its_own_is_refused_inside_a_write(app):
    """Ending the read transaction inside a write would commit the write half-way: it raises instead."""
    app, teacher, code, cara, dan = started(app)
    with app.app_context():
        table = store.read(code)
        with pytest.raises(RuntimeError):
            with store.changing(table) as row:
                row.name = "renamed half-way"
                timing.put_off(row.id, row.version, time.time() + 60)
        assert store.read(code).name != "renamed half-way"  # the write was rolled back, not committed
        table = store.read(code)
        assert timing.put_off(table.id, table.version, time.time() + 60) == 1  # after it: allowed
        db.session.remove()
