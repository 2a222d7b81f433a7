"""Class reports for a teacher: per table and per student, the sets won and every name-the-work answer
(right, almost, right with a hint, wrong or passed, and what was typed; a named ask is an answer too)
over a period, and how often each student and each work was recalled (right or almost); per deck, the
works the class names least.

Everything comes from the move log: each deal of the teacher's tables started in the period is
replayed from its record header and its moves, and the engine's events say who won which set and who
answered what. A student is every player who was one when the deal was dealt, whatever holds her seat
now. Computer players are left out; a computer's move on a student's seat (standing in for her, replacing
her, or when her time ran out: its row says so) is listed apart as "computer for Ben" and left out of
every figure, hers and the works'. CSV exports neutralise cells a spreadsheet would run as a formula.
"""
from __future__ import annotations

import csv
import io
import unicodedata
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, timezone, tzinfo
from typing import Any, Iterable
from zoneinfo import ZoneInfo

from ..decks.errors import N_, N_plural, say
from ..models import DeckSnapshot, Deal, MoveRow, RosterStudent, StudioDeck, Table
from ..store import SNAPSHOT_PREFIX
from ..store.codes import is_valid_code, normalize_code
from .deals import by_computer, students_of
from .namings import naming_of, studio_deck_of
from .errors import BadRequest, NotFound
from ..store import game_from_header
from ..engine.moves import move_from_dict

DEFAULT_DAYS = 30
MAX_DAYS = 3 * 366
MAX_DEALS = 3000     # the newest deals of a very long period; the page says when this cut in
LEAST_NAMED = 10     # works listed per deck
FORMULA_STARTS = ("=", "+", "-", "@")


@dataclass(frozen=True)
class Period:
    first: date
    last: date           # inclusive
    zone: str | None = None  # the days are the teacher's (an IANA name), None: UTC days

    @property
    def tz(self) -> tzinfo:
        return ZoneInfo(self.zone) if self.zone else timezone.utc

    @property
    def start(self) -> float:
        return datetime(self.first.year, self.first.month, self.first.day, tzinfo=self.tz).timestamp()

    @property
    def end(self) -> float:
        following = self.last + timedelta(days=1)
        return datetime(following.year, following.month, following.day, tzinfo=self.tz).timestamp()

    def query(self) -> dict[str, str]:
        return {"from": self.first.isoformat(), "to": self.last.isoformat()}


def period(from_text: str | None, to_text: str | None, today: date | None = None, zone: str | None = None) -> Period:
    """The days asked for (YYYY-MM-DD, both included), days of the teacher's time zone `zone` (an IANA
    name checked by app/services/time_zones.py; None: UTC); by default the last 30 days."""
    today = today or datetime.now(ZoneInfo(zone) if zone else timezone.utc).date()

    def day(text: str | None, what: str) -> date | None:
        if not text:
            return None
        try:
            return date.fromisoformat(str(text).strip()[:10])
        except ValueError:
            raise BadRequest(say(N_('"%(field)s" is a date written YYYY-MM-DD, not "%(value)s"'), field=what,
                                 value=str(text)[:20]), code="bad-date") from None

    last = day(to_text, "to") or today
    first = day(from_text, "from") or last - timedelta(days=DEFAULT_DAYS - 1)
    if first > last:
        raise BadRequest(N_('"from" comes after "to"; choose a period that starts before it ends'), code="bad-date")
    if (last - first).days > MAX_DAYS:
        raise BadRequest(say(N_plural("a report covers at most %(num)d day", "a report covers at most %(num)d days"),
                             num=MAX_DAYS), code="bad-date")
    return Period(first, last, zone)


@dataclass
class Answer:
    time: float
    table: str
    table_name: str
    deck: str
    deal: int
    student: str
    set_name: str
    card_id: str
    work: str          # the card's title: the right answer
    typed: str | None  # what the student typed; None when they passed
    correct: bool      # it was recalled: right or almost (a hinted answer is not)
    verdict: str = ""  # right, almost, hinted (right with a hint), wrong or passed
    kind: str = "answer"  # "answer" (a prompt) or "ask" (a named ask under the 1861 rules)
    by_computer: bool = False  # a computer moved for the student (listed apart, in no figure)

    def __post_init__(self) -> None:
        if not self.verdict:
            self.verdict = "passed" if self.typed is None else ("right" if self.correct else "wrong")


@dataclass
class StudentLine:
    name: str
    tables: set[str] = field(default_factory=set)
    deals: int = 0
    sets_won: int = 0
    answers: int = 0
    right: int = 0
    passed: int = 0
    almost: int = 0
    hinted: int = 0    # right with a hint
    by_day: dict[str, "StudentLine"] = field(default_factory=dict)  # the same figures, per day (ISO date)
    roster: bool = False  # a class's roster student: the same child at every table of the class

    def day(self, when: str) -> "StudentLine":
        return self.by_day.setdefault(when, StudentLine(when))

    @property
    def wrong(self) -> int:
        return self.answers - self.right - self.almost - self.hinted - self.passed

    @property
    def recalled(self) -> int:
        return self.right + self.almost

    @property
    def rate(self) -> float:
        return self.recalled / self.answers if self.answers else 0.0

    def count(self, answer: "Answer") -> None:
        self.answers += 1
        self.right += answer.verdict == "right"
        self.almost += answer.verdict == "almost"
        self.hinted += answer.verdict == "hinted"
        self.passed += answer.verdict == "passed"


@dataclass
class TableLine:
    code: str
    name: str
    deck: str
    rules: str
    status: str
    opened: float
    deals: int = 0
    students: dict[str, StudentLine] = field(default_factory=dict)


@dataclass
class WorkLine:
    work: str
    set_name: str
    asked: int = 0
    right: int = 0
    almost: int = 0
    hinted: int = 0

    @property
    def recalled(self) -> int:
        return self.right + self.almost

    @property
    def rate(self) -> float:
        """How often it was recalled (right or almost) of the times it was asked."""
        return self.recalled / self.asked if self.asked else 0.0


@dataclass
class DeckLine:
    title: str
    works: dict[str, WorkLine] = field(default_factory=dict)

    def least_named(self, limit: int = LEAST_NAMED) -> list[WorkLine]:
        asked = [w for w in self.works.values() if w.asked]
        return sorted(asked, key=lambda w: (w.rate, -w.asked, w.work.casefold()))[:limit]


@dataclass
class Report:
    period: Period
    tables: list[TableLine]
    students: list[StudentLine]
    answers: list[Answer]
    decks: list[DeckLine]
    cut: bool = False   # MAX_HANDS was reached

    def answers_by_student(self) -> list[tuple[str, list[Answer]]]:
        """Every answer folded by the student it is of (a computer's on her seat with hers), by name, each
        student's in the order they were made."""
        folded: dict[str, tuple[str, list[Answer]]] = {}
        for answer in self.answers:
            folded.setdefault(answer.student.casefold(), (answer.student, []))[1].append(answer)
        return [folded[key] for key in sorted(folded)]


def _deck_key(table: Table, snapshots: dict[str, DeckSnapshot]) -> tuple[str, Any]:
    studio = studio_deck_of(table.deck_id, snapshots.get(table.deck_id))
    return ("studio", studio) if studio is not None else ("deck", table.deck_id)


def build(teacher_id: int, when: Period, table_code: str | None = None, student: str | None = None,
          class_id: int | None = None) -> Report:
    """The report of the teacher's tables (or one of them, or a class's) over the period, from their move
    logs. A student who joined from a class's roster is one line across the tables of the class; any
    other is told apart by table (two Fays at two tables are two children). Each line has its days."""
    query = Deal.query.join(Table, Deal.table_id == Table.id).filter(
        Table.teacher_id == teacher_id, Deal.started_at >= when.start, Deal.started_at < when.end)
    if table_code is not None:
        query = query.filter(Table.code == table_code)
    if class_id is not None:
        query = query.filter(Table.class_id == class_id)
    found = query.order_by(Deal.started_at.desc(), Deal.id.desc()).limit(MAX_DEALS + 1).all()
    cut = len(found) > MAX_DEALS
    found = sorted(found[:MAX_DEALS], key=lambda h: (h.started_at, h.id))
    wanted = student.casefold() if student else None

    refs = {deal.table.deck_id for deal in found if deal.table.deck_id.startswith(SNAPSHOT_PREFIX)}
    snapshots = {s.ref: s for s in DeckSnapshot.query.filter(DeckSnapshot.ref.in_(refs)).all()} if refs else {}
    studio_titles = {}
    studio_ids = {s.studio_deck_id for s in snapshots.values() if s.studio_deck_id is not None}
    if studio_ids:
        studio_titles = {row.id: row.title for row in StudioDeck.query.filter(StudioDeck.id.in_(studio_ids)).all()}

    tables: dict[int, TableLine] = {}
    students: dict[tuple[Any, ...], StudentLine] = {}  # by roster student, else by name and table
    roster_names = _roster_names({seat.student_id for deal in found for seat in deal.table.seats if seat.student_id})

    def student_key(table: Table, name: str) -> tuple[Any, ...]:
        seat = next((s for s in table.seats if s.name == name and s.student_id in roster_names), None)
        return ("roster", seat.student_id) if seat is not None else (name.casefold(), table.code)

    def student_line(table: Table, name: str) -> StudentLine:
        key = student_key(table, name)
        if key not in students:
            students[key] = StudentLine(roster_names[key[1]] if key[0] == "roster" else name, roster=key[0] == "roster")
        return students[key]

    def day_of(moment: float) -> str:
        return datetime.fromtimestamp(moment, when.tz).date().isoformat()
    decks: dict[tuple[str, Any], DeckLine] = {}
    answers: list[Answer] = []
    for deal in found:
        table = deal.table
        students_here = students_of(deal, table)
        game = game_from_header(deal.header)
        rows = MoveRow.query.filter_by(deal_id=deal.id).order_by(MoveRow.seq).all()
        deck_title = game.source_deck.title
        key = _deck_key(table, snapshots)
        if key[0] == "studio":
            deck_title = studio_titles.get(key[1], snapshots[table.deck_id].title)
        deck_line = decks.setdefault(key, DeckLine(deck_title))
        line = tables.setdefault(table.id, TableLine(table.code, table.name, deck_title, table.rules, table.status,
                                                     table.created_at))
        line.deals += 1
        for row in rows:
            stored = row.data
            game.apply(move_from_dict(stored))
            computer = by_computer(stored)
            for event in game.recent(None):  # the move's events as the table saw them
                naming = naming_of(game, event, stored)
                if naming is None:
                    continue
                name, card_id, typed, verdict, kind = naming
                if name not in students_here or (wanted and name.casefold() != wanted):
                    continue
                card = game.deck.card(card_id)
                set_name = game.deck.set(card.set_id).name
                if not computer:
                    work = deck_line.works.setdefault(card.id, WorkLine(card.title, set_name))
                    work.asked += 1
                    work.right += verdict == "right"
                    work.almost += verdict == "almost"
                    work.hinted += verdict == "hinted"
                answers.append(Answer(row.played_at, table.code, table.name, deck_title, deal.number, name, set_name,
                                      card.id, card.title, typed, verdict in ("right", "almost"), verdict, kind,
                                      by_computer=computer))
        public = game.public_view()
        books = {name: len(sets) for name, sets in public.books.items()}
        if public.teams:  # a team game: each player is counted the sets of their team (the page says so)
            books = {name: len(team_sets) for team, team_sets in zip(public.teams, public.team_books or ())
                     for name in team}
        for name in game.players:
            if name not in students_here or (wanted and name.casefold() != wanted):
                continue
            everyone = student_line(table, name)
            for target in (line.students.setdefault(name, StudentLine(name)), everyone, everyone.day(day_of(deal.started_at))):
                target.tables.add(table.code)
                target.deals += 1
                target.sets_won += books.get(name, 0)
    by_code = tables_by_code(tables)
    table_rows = {deal.table.code: deal.table for deal in found}
    for answer in answers:
        if answer.by_computer:
            continue
        everyone = student_line(table_rows[answer.table], answer.student)
        for target in (by_code[answer.table].students[answer.student], everyone, everyone.day(day_of(answer.time))):
            target.count(answer)
    ordered_tables = sorted(tables.values(), key=lambda t: (-t.opened, t.code))
    if wanted:  # a student's report: the tables she played, not a row of empty cells for each other one
        ordered_tables = [t for t in ordered_tables if t.students]
    ordered_students = sorted(students.values(), key=lambda s: (s.name.casefold(), sorted(s.tables)))
    ordered_decks = sorted(decks.values(), key=lambda d: d.title.casefold())
    return Report(when, ordered_tables, ordered_students, answers, ordered_decks, cut)


def _roster_names(ids: set[int]) -> dict[int, str]:
    """The names of these roster students, as on their class's roster now."""
    if not ids:
        return {}
    return {row.id: row.name for row in RosterStudent.query.filter(RosterStudent.id.in_(ids)).all()}


def tables_by_code(tables: dict[int, TableLine]) -> dict[str, TableLine]:
    return {line.code: line for line in tables.values()}


def own_table(teacher_id: int, code: str) -> Table:
    clean = normalize_code(code)
    table: Table | None = (Table.query.filter_by(code=clean, teacher_id=teacher_id).one_or_none()
                           if is_valid_code(clean) else None)
    if table is None:
        raise NotFound(N_("You have no table with this code."), code="unknown-code")
    return table


# ----------------------------------------------------------------------------------------------------
# CSV: for programs and spreadsheets, so in every interface language the same English column names and
# results (right, almost, right with a hint, wrong, passed), ISO dates (UTC) and plain numbers, never the page's localised ones.
# The answers CSV keeps its first column `time (UTC)` and adds, last, `local time`: the same moment in the
# teacher's time zone, ISO 8601 with its offset (2026-01-15 13:00:00+01:00), so a program needs no zone table.
# ----------------------------------------------------------------------------------------------------
def safe_cell(value: Any) -> str:
    """A cell a spreadsheet shows as text: one starting with = + - @, or with anything a spreadsheet may
    skip before them (white space of any kind, a zero-width or other invisible character, NUL, CR, LF),
    gets a ' in front."""
    text = "" if value is None else str(value)
    if text.startswith(FORMULA_STARTS) or text[:1] and (text[0].isspace() or _invisible(text[0])):
        return "'" + text
    return text


def _invisible(char: str) -> bool:
    return unicodedata.category(char) in ("Cc", "Cf", "Zl", "Zp", "Zs")


def to_csv(header: list[str], rows: Iterable[list[Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(header)
    for row in rows:
        writer.writerow([safe_cell(cell) for cell in row])
    return "\ufeff" + out.getvalue()  # the BOM: spreadsheets then read the names as UTF-8


def _time(timestamp: float) -> str:
    return datetime.fromtimestamp(timestamp, timezone.utc).strftime("%Y-%m-%d %H:%M:%S")


def _local_time(timestamp: float, zone: tzinfo) -> str:
    return datetime.fromtimestamp(timestamp, zone).isoformat(sep=" ", timespec="seconds")


RESULTS = {"right": "right", "almost": "almost", "hinted": "right with a hint", "wrong": "wrong", "passed": "passed"}


def answers_csv(report: Report) -> str:
    """Every answer; `named in` is "answer" (a prompt after a card came) or "ask" (named in the ask); a
    computer's for a student is the student "computer for NAME"."""
    zone = report.period.tz
    return to_csv(["time (UTC)", "table", "table name", "deck", "hand", "student", "set", "work", "typed",
                   "result", "named in", "local time"],
                  ([_time(a.time), a.table, a.table_name, a.deck, a.deal,
                    f"computer for {a.student}" if a.by_computer else a.student, a.set_name, a.work,
                    a.typed if a.typed is not None else "", RESULTS[a.verdict], a.kind, _local_time(a.time, zone)]
                   for a in report.answers))


def students_csv(report: Report) -> str:
    """`right` counts exact answers only; `recalled` is right + almost, `recalled %` of the answers."""
    return to_csv(["student", "tables", "hands", "sets won", "answers", "right", "wrong", "passed", "almost",
                   "hinted", "recalled", "recalled %"],
                  ([s.name, " ".join(sorted(s.tables)), s.deals, s.sets_won, s.answers, s.right, s.wrong, s.passed,
                    s.almost, s.hinted, s.recalled, round(100 * s.rate)] for s in report.students))
