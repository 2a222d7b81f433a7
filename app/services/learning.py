"""What the class remembers (issue #34): for a class and a deck, a grid of its roster students × the deck's
works, each cell the state of that work's schedule for her (app/services/reviews.py) at a moment:

- `never`: she has not named it yet (no schedule);
- `missed`: the last time she named it, it was "Again" (wrong, or passed);
- `due`: the last time was Hard or Good (right, almost, or with a hint), and it is due again now;
- `recalled`: the last time was Hard or Good, and it is not due before a later moment.

Each row also says on how many days (the teacher's calendar: her time zone) she named any work of any
deck, and which works are due for her now (a missed work is due as well: FSRS brings it back within
minutes). The grid is read in four queries, whatever the class's size: the decks the class has reviews
in, the deck's schedules, each schedule's last rating, and the quarters of an hour anyone practised in.

A CSV of the grid is for spreadsheets: English column names and state words, ISO dates of the teacher's
calendar, every cell made safe to open (app/services/reports.py `safe_cell`).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import date, datetime, timezone, tzinfo
from typing import Any, Iterable
from zoneinfo import ZoneInfo

from sqlalchemy import Integer, cast, func

from ..db import db, row_id
from ..decks import Deck, DeckError, builtin_decks
from ..decks.errors import N_, say
from ..models import DeckSnapshot, Review, ReviewCard, RosterStudent, SchoolClass, StudioDeck
from ..store import deck_by_ref
from . import reports
from .errors import NotFound
from .studio import STUDIO_PREFIX, deck_of, ref_of, visible

STATES = ("recalled", "due", "missed", "never")
AGAIN = 1              # FSRS's rating of a wrong or passed naming
DEFAULT_DECK = "authors-1861"  # the grid of a class with no review yet
BUCKET_SECONDS = 900   # every time zone's offset from UTC is a whole number of quarters of an hour


@dataclass(frozen=True)
class Work:
    card_id: str
    title: str
    set_id: str
    set_name: str


@dataclass(frozen=True)
class Group:
    """A set of the deck (an author and her works), as the grid's header groups its columns."""
    set_id: str
    name: str
    works: tuple[Work, ...]


@dataclass(frozen=True)
class Cell:
    state: str                 # recalled, due, missed or never
    due: float | None = None   # when the work is due again (seconds since the epoch); None: never seen
    reviews: int = 0           # how many times she named it


NEVER = Cell("never")


@dataclass
class Row:
    student_id: int
    name: str
    removed: bool              # taken off the roster (shown while she has reviews in the deck)
    cells: list[Cell]          # in the order of Grid.works
    days_practised: int = 0    # distinct days of the teacher's calendar with a review of any deck
    due_now: list[Work] = field(default_factory=list)  # due by `now` (missed ones too), in deck order

    @property
    def counts(self) -> dict[str, int]:
        found = Counter(cell.state for cell in self.cells)
        return {state: found.get(state, 0) for state in STATES}


@dataclass(frozen=True)
class DeckChoice:
    key: str
    title: str
    reviews: int = 0           # the class's reviews in it


@dataclass
class Grid:
    class_id: int
    class_name: str
    deck: DeckChoice
    groups: list[Group]
    rows: list[Row]
    now: float
    zone: str | None           # the teacher's (an IANA name); None: UTC
    decks: list[DeckChoice]    # the decks the class has reviews in, the most reviewed first

    @property
    def works(self) -> list[Work]:
        return [work for group in self.groups for work in group.works]

    @property
    def tz(self) -> tzinfo:
        return ZoneInfo(self.zone) if self.zone else timezone.utc

    def day(self, moment: float) -> date:
        """The moment's day on the teacher's calendar."""
        return datetime.fromtimestamp(moment, self.tz).date()


# ----------------------------------------------------------------------------------------------------
# Which decks: those the class has reviews in, and any built-in or studio deck the teacher sees
# ----------------------------------------------------------------------------------------------------
def class_decks(student_ids: list[int]) -> list[DeckChoice]:
    """The decks these students have reviews in, the most reviewed first (one query)."""
    if not student_ids:
        return []
    count = func.count(Review.id)
    rows = (db.session.query(Review.deck_key, count).filter(Review.student_id.in_(student_ids))
            .group_by(Review.deck_key).order_by(count.desc(), Review.deck_key).all())
    return [DeckChoice(key, deck_title(key), int(reviews)) for key, reviews in rows]


def deck_title(key: str) -> str:
    """A deck key's title: a built-in deck's, a studio deck's (or of its last snapshot), else the key."""
    decks = builtin_decks()
    if key in decks:
        return decks[key].title
    number = _studio_number(key)
    if number is not None:
        row = db.session.get(StudioDeck, number)
        if row is not None:
            return str(row.title)
        snapshot = _last_snapshot(number)
        if snapshot is not None:
            return str(snapshot.title)
    return key


def _studio_number(key: str) -> int | None:
    if not key.startswith(STUDIO_PREFIX):
        return None
    text = key[len(STUDIO_PREFIX):]
    return row_id(text)


def _last_snapshot(number: int) -> DeckSnapshot | None:
    found: DeckSnapshot | None = (DeckSnapshot.query.filter_by(studio_deck_id=number)
                                  .order_by(DeckSnapshot.created_at.desc(), DeckSnapshot.id.desc()).first())
    return found


def _deck(key: str, teacher_id: int, reviewed: bool) -> Deck | None:
    """The deck whose works are the grid's columns: a built-in deck; a studio deck the teacher sees, as it
    is now; one she no longer sees, as her class last played it (only when the class has reviews in it).
    None: a deck the class has reviews in but this server has no longer (its reviewed works are shown)."""
    decks = builtin_decks()
    if key in decks:
        return decks[key]
    number = _studio_number(key)
    if number is not None:
        row = db.session.get(StudioDeck, number)
        if row is not None and (row.owner_id == teacher_id or row.shared):
            try:
                return deck_of(row)
            except DeckError:
                pass
        snapshot = _last_snapshot(number) if reviewed else None
        if snapshot is not None:
            try:
                return deck_by_ref(snapshot.ref)
            except (KeyError, DeckError):
                return None
    if reviewed:
        return None
    raise NotFound(say(N_('There is no deck "%(id)s".'), id=key[:80]), code="unknown-deck")


def choices(teacher_id: int, reviewed: list[DeckChoice]) -> list[DeckChoice]:
    """The decks the page offers: the class's first (with their reviews), then every other built-in deck
    and studio deck the teacher sees, by title."""
    taken = {choice.key for choice in reviewed}
    others = [DeckChoice(deck.id, deck.title) for deck in builtin_decks().values() if deck.id not in taken]
    others += [DeckChoice(ref_of(row), str(row.title)) for row in visible(teacher_id) if ref_of(row) not in taken]
    return reviewed + sorted(others, key=lambda choice: (choice.title.casefold(), choice.key))


# ----------------------------------------------------------------------------------------------------
# The grid
# ----------------------------------------------------------------------------------------------------
def state_of(card_due: float | None, last_rating: int | None, now: float) -> str:
    """A cell's state from its schedule's due time and the rating of its last review (None: no schedule)."""
    if card_due is None:
        return "never"
    if last_rating == AGAIN:
        return "missed"
    return "due" if card_due <= now else "recalled"


def build(school_class: SchoolClass, teacher_id: int, deck_key: str | None, now: float,
          zone: str | None = None) -> Grid:
    """The class's grid for the deck (`deck_key`; None: the deck the class has most reviews in) at `now`;
    `zone` the teacher's time zone (None: UTC). NotFound for a deck neither the class has reviews in nor
    the teacher may choose."""
    students: list[RosterStudent] = list(school_class.students)
    ids = [student.id for student in students]
    reviewed = class_decks(ids)
    key = deck_key or (reviewed[0].key if reviewed else DEFAULT_DECK)
    by_key = {choice.key: choice for choice in reviewed}
    deck = _deck(key, teacher_id, key in by_key)
    chosen = by_key.get(key) or DeckChoice(key, deck.title if deck is not None else key)

    cards = (ReviewCard.query.filter(ReviewCard.student_id.in_(ids), ReviewCard.deck_key == key).all()
             if ids and key in by_key else [])
    last = _last_ratings(ids, key) if cards else {}
    groups = _groups(deck, {card.card_id for card in cards}, key)
    works = [work for group in groups for work in group.works]
    column = {work.card_id: index for index, work in enumerate(works)}
    schedules: dict[int, dict[str, ReviewCard]] = {}
    for card in cards:
        schedules.setdefault(card.student_id, {})[card.card_id] = card

    days = _days_practised(ids, ZoneInfo(zone) if zone else timezone.utc) if reviewed else {}
    rows: list[Row] = []
    for student in sorted(students, key=lambda s: (bool(s.removed), s.name_key)):
        own = schedules.get(student.id, {})
        if student.removed and not own:
            continue
        cells = [NEVER] * len(works)
        for card_id, card in own.items():
            state = state_of(card.due, last.get((student.id, card_id)), now)
            cells[column[card_id]] = Cell(state, float(card.due), int(card.reviews))
        # (a missed work is due within FSRS's first minutes: the page counts it due from the moment it is missed)
        due_now = [work for work, cell in zip(works, cells)
                   if cell.state == "missed" or (cell.due is not None and cell.due <= now)]
        rows.append(Row(student.id, student.name, bool(student.removed), cells, days.get(student.id, 0), due_now))
    return Grid(school_class.id, school_class.name, chosen, groups, rows, now, zone, reviewed)


def _last_ratings(ids: list[int], key: str) -> dict[tuple[int, str], int]:
    """The rating of each (student, work)'s last review in the deck (one query: the newest of each by the
    index of (student, deck, work, time))."""
    order = func.row_number().over(partition_by=(Review.student_id, Review.card_id),
                                   order_by=(Review.reviewed_at.desc(), Review.id.desc())).label("n")
    ranked = (db.session.query(Review.student_id, Review.card_id, Review.rating, order)
              .filter(Review.student_id.in_(ids), Review.deck_key == key).subquery())
    rows = db.session.query(ranked.c.student_id, ranked.c.card_id, ranked.c.rating).filter(ranked.c.n == 1).all()
    return {(student_id, card_id): int(rating) for student_id, card_id, rating in rows}


def _days_practised(ids: list[int], zone: tzinfo) -> dict[int, int]:
    """How many days of the teacher's calendar each student named a work on, in any deck. One query reads
    the distinct quarters of an hour each reviewed in (a quarter never straddles a midnight, whatever the
    zone's offset); Python gives each its day."""
    bucket = (cast(Review.reviewed_at, Integer) // BUCKET_SECONDS).label("bucket")
    rows = db.session.query(Review.student_id, bucket).filter(Review.student_id.in_(ids)).distinct().all()
    days: dict[int, set[date]] = {}
    for student_id, quarter in rows:
        days.setdefault(student_id, set()).add(
            datetime.fromtimestamp(int(quarter) * BUCKET_SECONDS, zone).date())
    return {student_id: len(found) for student_id, found in days.items()}


def _groups(deck: Deck | None, reviewed: set[str], key: str) -> list[Group]:
    """The deck's works set by set, in its order; works reviewed but no longer in it come last, their
    titles from the studio deck's earlier versions when it has some."""
    groups: list[Group] = []
    known: set[str] = set()
    if deck is not None:
        for card_set in deck.sets:
            works = tuple(Work(card.id, card.title, card_set.id, card_set.name) for card in card_set.cards)
            groups.append(Group(card_set.id, card_set.name, works))
            known.update(card.id for card in card_set.cards)
    missing = sorted(reviewed - known)
    if missing:
        titles = _earlier_titles(key, set(missing))
        groups.append(Group("", "", tuple(Work(card_id, titles.get(card_id, card_id), "", "")
                                          for card_id in missing)))
    return groups


def _earlier_titles(key: str, wanted: set[str]) -> dict[str, str]:
    number = _studio_number(key)
    if number is None:
        return {}
    found: dict[str, str] = {}
    snapshots = (DeckSnapshot.query.filter_by(studio_deck_id=number)
                 .order_by(DeckSnapshot.created_at.desc(), DeckSnapshot.id.desc()).limit(20).all())
    for snapshot in snapshots:
        try:
            deck = deck_by_ref(snapshot.ref)
        except (KeyError, DeckError):
            continue
        for card in deck.cards:
            if card.id in wanted and card.id not in found:
                found[card.id] = card.title
        if len(found) == len(wanted):
            break
    return found


# ----------------------------------------------------------------------------------------------------
# CSV: one row per student, one column per work; English words, ISO dates of the teacher's calendar
# ----------------------------------------------------------------------------------------------------
def column_titles(works: Iterable[Work]) -> list[str]:
    """Each work's column title: its title, with its set's name when two works share a title."""
    listed = list(works)
    seen = Counter(work.title.casefold() for work in listed)
    return [f"{work.title} ({work.set_name})" if seen[work.title.casefold()] > 1 and work.set_name else work.title
            for work in listed]


def cell_text(grid: Grid, cell: Cell) -> str:
    """"recalled 2026-03-12": the state, and the day it is due again on the teacher's calendar."""
    return cell.state if cell.due is None else f"{cell.state} {grid.day(cell.due).isoformat()}"


def grid_csv(grid: Grid) -> str:
    header = ["student", "on the roster", "days practised", "due now", *column_titles(grid.works)]
    rows: list[list[Any]] = [[row.name, "no" if row.removed else "yes", row.days_practised, len(row.due_now),
                              *(cell_text(grid, cell) for cell in row.cells)] for row in grid.rows]
    # (a work's title is the teacher's text: its column name is made safe as the cells are)
    return reports.to_csv([reports.safe_cell(name) for name in header], rows)
