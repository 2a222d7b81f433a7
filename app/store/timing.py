"""When a table is next due, as the clock asks it (app/services/clock.py).

A table's `next_bot_at` is the next moment something is to happen at it with nobody asking: a computer
player's move at its pace, a person's turn time running out, a computer standing in for an away student
(deals._person_wait), the next deal after the pause between hands. The clock asks for the tables in play
whose moment has come (`due`, one query on the index of revision 0017); a table whose moment came with
nothing to do has its next look put off (`put_off`, `put_off_idle`), without a change of version: no
screen redraws for it.
"""
from __future__ import annotations

from sqlalchemy import bindparam, false, select, update

from ..db import db, end_read
from ..models import Table
from . import fast

TABLES = Table.__table__
DUE = (select(TABLES.c.id)
       .where(TABLES.c.status == "playing", TABLES.c.next_bot_at <= bindparam("now"), TABLES.c.paused == false())
       .order_by(TABLES.c.next_bot_at))
PUT_OFF = (update(TABLES).where(TABLES.c.id == bindparam("table_id"), TABLES.c.version == bindparam("read"))
           .values(next_bot_at=bindparam("when")))
PUT_OFF_IDLE = (update(TABLES).where(TABLES.c.id == bindparam("table_id"), TABLES.c.version == bindparam("read"),
                                     TABLES.c.next_bot_at <= bindparam("due"))
                .values(next_bot_at=bindparam("when")))


def due(now: float) -> list[int]:
    """The ids of the tables in play, not paused, whose next moment is `now` or earlier (the longest
    waiting first). One statement, in autocommit: no transaction is held while they are played on."""
    with fast.autocommit(db.engine) as connection:
        return [row[0] for row in fast.rows(connection, DUE, {"now": now})]


def put_off(table_id: int, version: int, when: float) -> int:
    """Move the table's next look (next_bot_at) to `when`, at the version read, without changing the
    version (nothing a screen shows changes): a person to move is looked at again then. In a transaction
    of its own, outside a write (the session's read transaction ends first: db.end_read)."""
    end_read()
    with db.engine.begin() as connection:
        return fast.write(connection, PUT_OFF, {"table_id": table_id, "read": version, "when": when})


def put_off_idle(table_id: int, version: int, due_by: float, when: float) -> int:
    """As put_off, only while the table is still as read and still due by `due_by`: a look that found
    nothing to do (no move made, no next look set since, by this process or another) is not repeated
    on every tick."""
    end_read()
    with db.engine.begin() as connection:
        return fast.write(connection, PUT_OFF_IDLE, {"table_id": table_id, "read": version, "due": due_by,
                                                     "when": when})
