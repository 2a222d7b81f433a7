"""A table as one read saw it: plain, frozen values from one Core query, no ORM instances.

Every read of a table for play goes through here (the store's `read`): loading a table, its seats and
its deals as ORM instances cost about 1.5 ms a request, most of a poll's work (bench/load.py). Snapshots
carry the models' attribute names (and their properties, through the mixins of app/models.py).

A snapshot is never changed and never saved: a move is written with Core statements against the version
the snapshot read (writes.py), and every other change goes through the ORM (`changing`), after which the
table is read again.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache
from typing import Any, Protocol, Sequence

from sqlalchemy import ColumnElement, CompoundSelect, bindparam, case, func, literal_column, null, select, union_all

from . import fast
from ..engine.options import Options
from ..models import Deal, DealMixin, MoveRow, Seat, SeatMixin, Table, TableMixin


# What play reads of a table, a seat and a deal: a snapshot's fields (below) and the ORM row's columns
# (app/models.py) alike, with the mixins' properties. A function given either kind says TableLike.
class SeatLike(Protocol):
    @property
    def id(self) -> int: ...
    @property
    def table_id(self) -> int: ...
    @property
    def position(self) -> int: ...
    @property
    def kind(self) -> str: ...
    @property
    def bot(self) -> str | None: ...
    @property
    def name(self) -> str | None: ...
    @property
    def name_key(self) -> str | None: ...
    @property
    def token_hash(self) -> str | None: ...
    @property
    def seen_at(self) -> float | None: ...
    @property
    def stand_in(self) -> bool: ...
    @property
    def claim_hash(self) -> str | None: ...
    @property
    def claim_at(self) -> float | None: ...
    @property
    def claim_refused(self) -> bool: ...
    @property
    def student_id(self) -> int | None: ...
    @property
    def barred(self) -> bool: ...
    @property
    def browser_hash(self) -> str | None: ...
    @property
    def vacant(self) -> bool: ...


class DealLike(Protocol):
    @property
    def id(self) -> int: ...
    @property
    def table_id(self) -> int: ...
    @property
    def number(self) -> int: ...
    @property
    def revision(self) -> int: ...
    @property
    def result_json(self) -> str | None: ...
    @property
    def started_at(self) -> float: ...
    @property
    def students_json(self) -> str | None: ...
    @property
    def header_json(self) -> str: ...
    @property
    def header(self) -> dict[str, Any]: ...
    @property
    def result(self) -> dict[str, Any] | None: ...


class TableLike(Protocol):
    @property
    def id(self) -> int: ...
    @property
    def code(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def deck_id(self) -> str: ...
    @property
    def rules(self) -> str: ...
    @property
    def options_json(self) -> str: ...
    @property
    def match_format(self) -> str: ...
    @property
    def match_value(self) -> int: ...
    @property
    def match_tie_break(self) -> bool: ...
    @property
    def language(self) -> str: ...
    @property
    def status(self) -> str: ...
    @property
    def teacher_id(self) -> int: ...
    @property
    def created_at(self) -> float: ...
    @property
    def changed_at(self) -> float: ...
    @property
    def next_bot_at(self) -> float: ...
    @property
    def version(self) -> int: ...
    @property
    def paused(self) -> bool: ...
    @property
    def locked(self) -> bool: ...
    @property
    def pace_seconds(self) -> float | None: ...
    @property
    def class_id(self) -> int | None: ...
    @property
    def assignment_id(self) -> int | None: ...
    @property
    def seats(self) -> Sequence[SeatLike]: ...
    @property
    def deals(self) -> Sequence[DealLike]: ...
    @property
    def current_deal(self) -> DealLike | None: ...
    @property
    def overrides(self) -> dict[str, Any]: ...
    @property
    def options(self) -> Options: ...
    @property
    def options_dict(self) -> dict[str, Any]: ...

TABLES, SEATS, DEALS = Table.__table__, Seat.__table__, Deal.__table__
HEADER = select(DEALS.c.header_json).where(DEALS.c.id == bindparam("id"))
DEAL_COLUMNS = ("id", "table_id", "number", "revision", "result_json", "started_at", "students_json")  # not the cards as dealt: see header_json


@dataclass(frozen=True, eq=False)
class SeatSnapshot(SeatMixin):
    id: int
    table_id: int
    position: int
    kind: str
    bot: str | None
    name: str | None
    name_key: str | None
    token_hash: str | None
    # presence, a computer standing in, a request to have the seat back (app/store/presence.py)
    seen_at: float | None = None
    stand_in: bool = False
    claim_hash: str | None = None
    claim_at: float | None = None
    claim_refused: bool = False
    student_id: int | None = None  # the roster student who took the seat (models.Seat)
    barred: bool = False  # taken off the table for the rest of the match (models.Seat)
    browser_hash: str | None = None  # the browser whose device plays the seat (models.Seat)


@dataclass(frozen=True, eq=False)
class DealSnapshot(DealMixin):
    id: int
    table_id: int
    number: int
    revision: int
    result_json: str | None
    started_at: float
    students_json: str | None  # the players who were students when it was dealt (models.Deal)
    # How many moves the log held when this was read: the game a state is built from has exactly these
    # (games.py), so a state's version and its game always agree.
    move_count: int | None = 0
    table: "TableSnapshot | None" = field(default=None, repr=False)

    @cached_property
    def header_json(self) -> str:
        """The record header (the cards as dealt), read when first needed (only a process that builds the deal's game needs it)."""
        with fast.reading() as connection:
            header: str = fast.scalar(connection, HEADER, {"id": self.id})
        return header

    @property
    def result(self) -> dict[str, Any] | None:
        return _parsed(self.result_json) if self.result_json else None


@dataclass(frozen=True, eq=False)
class TableSnapshot(TableMixin):
    id: int
    code: str
    name: str
    deck_id: str
    rules: str
    options_json: str
    match_format: str
    match_value: int
    match_tie_break: bool
    language: str
    status: str
    teacher_id: int
    created_at: float
    changed_at: float
    next_bot_at: float
    version: int
    paused: bool
    locked: bool
    pace_seconds: float | None
    class_id: int | None = None  # opened for a class (models.Table)
    assignment_id: int | None = None  # a homework game (models.Assignment)
    seats: tuple[SeatSnapshot, ...] = ()
    deals: tuple[DealSnapshot, ...] = ()

    def moved_to(self, version: int, changed_at: float, next_bot_at: float) -> "TableSnapshot":
        """The table once a move of this process committed in its current deal (nothing else changed: the
        move held the lock)."""
        moved = replace(self, version=version, changed_at=changed_at, next_bot_at=next_bot_at)
        last = len(self.deals) - 1
        object.__setattr__(moved, "deals", tuple(
            replace(h, table=moved, move_count=(h.move_count or 0) + 1 if i == last else h.move_count)
            for i, h in enumerate(self.deals)))
        return moved


@lru_cache(maxsize=4096)
def _parsed(result_json: str) -> dict[str, Any]:
    """A finished deal's result, parsed once per process (every state shows the match's standings).
    Shared: callers copy before they change anything."""
    result: dict[str, Any] = json.loads(result_json)
    return result


TABLE_FIELDS = [c.name for c in TABLES.c]
SEAT_FIELDS = [c.name for c in SEATS.c]
MOVES = MoveRow.__table__
# The moves of the deal in play (an index-only count); None for a finished deal, whose log is complete:
# it never changes again (and a match's twenty finished deals are not counted on every read).
MOVE_COUNT = case((DEALS.c.result_json.is_(None),
                   select(func.count()).where(MOVES.c.deal_id == DEALS.c.id).scalar_subquery()), else_=None)


def _one_statement(table_is: ColumnElement[bool]) -> CompoundSelect[Any]:
    """The table, its seats and its deals in one statement: a row per seat (the table's columns, then the
    seat's), then a row per deal, each padded with NULLs where the other kind has columns.

    One statement sees one moment of the database on both engines (PostgreSQL, READ COMMITTED, gives each
    statement its own view: two statements could see a move committed between them, a version one behind
    its game), and costs one round trip instead of two."""
    kind: ColumnElement[Any] = literal_column("0").label("kind")
    order: ColumnElement[Any] = SEATS.c.position.label("sort")
    table_rows = (select(kind, order, *TABLES.c, *SEATS.c, *[null()] * (len(DEAL_COLUMNS) + 1))
                  .select_from(TABLES.outerjoin(SEATS, SEATS.c.table_id == TABLES.c.id)).where(table_is))
    deal_rows = (select(literal_column("1"), DEALS.c.number, *[null()] * (len(TABLE_FIELDS) + len(SEAT_FIELDS)),
                        *(DEALS.c[name] for name in DEAL_COLUMNS), MOVE_COUNT)
                 .select_from(DEALS.join(TABLES, TABLES.c.id == DEALS.c.table_id)).where(table_is))
    return union_all(table_rows, deal_rows).order_by(literal_column("kind"), literal_column("sort"))


BY_CODE = _one_statement(TABLES.c.code == bindparam("key"))
BY_ID = _one_statement(TABLES.c.id == bindparam("key"))
SEAT_AT, DEAL_AT = 2 + len(TABLE_FIELDS), 2 + len(TABLE_FIELDS) + len(SEAT_FIELDS)
DEAL_FIELDS = (*DEAL_COLUMNS, "move_count")  # a deal's row, from DEAL_AT


def _read(statement: CompoundSelect[Any], key: str | int) -> TableSnapshot | None:
    with fast.reading() as connection:
        rows = fast.rows(connection, statement, {"key": key})
    if not rows or rows[0][0] != 0:
        return None
    seats = tuple(SeatSnapshot(**dict(zip(SEAT_FIELDS, row[SEAT_AT:DEAL_AT])))
                  for row in rows if row[0] == 0 and row[SEAT_AT] is not None)
    table = TableSnapshot(**dict(zip(TABLE_FIELDS, rows[0][2:SEAT_AT])), seats=seats)
    # (the one write to a frozen snapshot: its deals point back at it, as the ORM's do)
    object.__setattr__(table, "deals", tuple(DealSnapshot(**dict(zip(DEAL_FIELDS, row[DEAL_AT:])), table=table)
                                             for row in rows if row[0] == 1))
    return table


def by_code(code: str) -> TableSnapshot | None:
    """The table with this (normalized) code, as it is now, or None."""
    return _read(BY_CODE, code)


def by_id(table_id: int) -> TableSnapshot | None:
    return _read(BY_ID, table_id)
