"""Homework: a teacher assigns a deck and rules to a class (its roster), open from a first day to a due
date; each student opens one link (/h/<code>), picks her name (and types the class word, when the class
has one) and plays alone against computer players, one table per game (Table.assignment_id).

- The days are the teacher's calendar days in her time zone: the link opens at the first day's midnight
  there and closes at the midnight that ends the due date (summer time included: zoneinfo says when).
- A game is dealt as a class table with "Missed works come back" is (deals.deal_next): her due works go
  to the computer players, so she asks for them and names them again; every naming is a review of hers.
- Her game is saved with every move; opening the link again, on any device, goes on with it, unless
  another device has the game open right now (its screen seen within presence.AWAY_AFTER seconds).
- A finished game counts when it ended before the link closed; after that, nothing new starts.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from .. import store
from ..db import begin_write, db, row_by_id
from ..decks.errors import N_, Text, say
from ..decks.look import is_playing_deck
from ..engine.game import Game, SetupError
from ..engine.options import DEFAULT_DECKS, PRESETS, OptionsError
from ..languages import DEFAULT_LANGUAGE
from ..models import Assignment, Review, ReviewCard, RosterStudent, SchoolClass, Seat, Table
from ..store import presence
from ..store.codes import name_key, new_code, new_token, normalize_code, token_hash
from . import classes, deals, schemas, studio, tables, time_zones
from .errors import BadRequest, Conflict, NotFound
from .reviews import deck_key

HOMEWORK_PACE = 1.0    # seconds between the computer players' moves: quicker than in class
MAX_ASSIGNMENTS = 200  # per class
UPCOMING, OPEN, CLOSED = "upcoming", "open", "closed"


# ----------------------------------------------------------------------------------------------------
# The days: the teacher's calendar, as moments
# ----------------------------------------------------------------------------------------------------
def parse_day(text: str, what: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise BadRequest(say(N_('%(what)s is not a day of the calendar: "%(value)s"'), what=say(what),
                             value=text[:20]), code="bad-date") from None


def midnight(day: date, zone: str) -> float:
    """The moment the day begins in the zone (its first instant: where summer time starts at midnight,
    the clock's first hour)."""
    return datetime(day.year, day.month, day.day, tzinfo=ZoneInfo(zone)).timestamp()


def window(opens_on: date, due_on: date, zone: str) -> tuple[float, float]:
    """The moments the link opens (the first day's midnight) and closes (the midnight after the due date)."""
    return midnight(opens_on, zone), midnight(due_on + timedelta(days=1), zone)


def today(zone: str, now: float) -> date:
    return datetime.fromtimestamp(now, ZoneInfo(zone)).date()


def status(assignment: Assignment, now: float) -> str:
    if now < assignment.opens_at:
        return UPCOMING
    return OPEN if now < assignment.due_at else CLOSED


# ----------------------------------------------------------------------------------------------------
# The teacher's side
# ----------------------------------------------------------------------------------------------------
def _options(rules: str, deck_ref: str, teacher_id: int, given: dict[str, Any]) -> dict[str, Any]:
    """The overrides its games play with: the teacher's, and for a deck of works (unless she said
    otherwise) the works named from memory and the missed ones dealt back."""
    deck = studio.deck_for_table(deck_ref, teacher_id)
    if is_playing_deck(deck):
        tables.naming_on_playing_cards(deck_ref, rules, teacher_id, given)
        wanted = dict(given)
    else:
        wanted = {"name_the_work": True, "review_deals": True, **given}
    try:
        options = tables.table_options(rules, wanted)
    except OptionsError as exc:
        raise BadRequest(exc) from None
    return options.overrides(PRESETS[rules])


def create(teacher: Any, class_number: Any, spec: Any, now: float | None = None,
           default_language: str = DEFAULT_LANGUAGE) -> Assignment:
    """Assign homework to one of this teacher's classes (`spec`: a NewAssignment, or its JSON)."""
    spec = spec if isinstance(spec, schemas.NewAssignment) else schemas.parse(schemas.NewAssignment, spec)
    now = time.time() if now is None else now
    school_class = classes.get_own(teacher.id, class_number)
    zone = time_zones.zone_of(teacher) or time_zones.UTC
    opens_on = parse_day(spec.opens, N_("the opening day")) if spec.opens else today(zone, now)
    due_on = parse_day(spec.due, N_("the due date"))
    if due_on < today(zone, now):
        raise BadRequest(say(N_("The due date (%(due)s) has passed; choose today or a later day."),
                             due=due_on.isoformat()), code="due-passed")
    if due_on < opens_on:
        raise BadRequest(say(N_("The due date (%(due)s) comes before the opening day (%(opens)s)."),
                             due=due_on.isoformat(), opens=opens_on.isoformat()), code="due-before-opening")
    if (due_on - opens_on).days > 366:
        raise BadRequest(N_("Homework is open for at most a year: choose a nearer due date."), code="too-long")
    rules = spec.rules
    deck_ref = spec.deck or DEFAULT_DECKS.get(rules, "standard-52")
    overrides = _options(rules, deck_ref, teacher.id, spec.options)
    players = [f"Seat {i}" for i in range(spec.computers + 1)]
    try:
        Game(studio.deck_for_table(deck_ref, teacher.id), tables.table_options(rules, overrides), players, seed=0,
             rules=rules)
    except SetupError as exc:
        raise BadRequest(say(N_("this homework cannot be played: %(reason)s"), reason=exc.text)) from None
    if Assignment.query.filter_by(class_id=school_class.id).count() >= MAX_ASSIGNMENTS:
        raise Conflict(say(N_("A class has at most %(max)d homework assignments; delete an old one first."),
                           max=MAX_ASSIGNMENTS), code="too-many-assignments")
    opens_at, due_at = window(opens_on, due_on, zone)
    deck_id = studio.table_deck_id(deck_ref, teacher.id)  # a studio deck frozen now: every game plays it
    begin_write()
    code = _free_code()
    assignment = Assignment(
        code=code, teacher_id=teacher.id, class_id=school_class.id, name=spec.name.strip(), deck_id=deck_id,
        rules=rules, options_json=json.dumps(overrides), computers=spec.computers, bot=spec.bot, games=spec.games,
        language=tables.table_language(spec.language, default_language), time_zone=zone,
        opens_on=opens_on.isoformat(), due_on=due_on.isoformat(), opens_at=opens_at, due_at=due_at, created_at=now)
    db.session.add(assignment)
    db.session.commit()
    return assignment


def _free_code() -> str:
    for _attempt in range(20):
        code = new_code()
        if Assignment.query.filter_by(code=code).first() is None:
            return code
    raise Conflict(N_("Could not make a link; try again."), code="try-again")


def get_own(teacher_id: int | None, number: Any) -> Assignment:
    """One of this teacher's assignments; another teacher's is not found."""
    found = row_by_id(Assignment, number)
    if found is None or teacher_id is None or found.teacher_id != teacher_id:
        raise NotFound(N_("There is no such homework."), code="unknown-homework")
    return found


def of_class(school_class: SchoolClass) -> list[Assignment]:
    found: list[Assignment] = (Assignment.query.filter_by(class_id=school_class.id)
                               .order_by(Assignment.due_at.desc(), Assignment.id.desc()).all())
    return found


def delete(assignment: Assignment) -> None:
    """The assignment goes; its games stay (the reports and the schedules keep what was named)."""
    begin_write()
    Table.query.filter_by(assignment_id=assignment.id, status="playing").update({"status": "closed"})
    Table.query.filter_by(assignment_id=assignment.id).update({"assignment_id": None})
    db.session.delete(assignment)
    db.session.commit()


# ----------------------------------------------------------------------------------------------------
# The student's side
# ----------------------------------------------------------------------------------------------------
def by_code(code: Any) -> Assignment:
    found: Assignment | None = (Assignment.query.filter_by(code=normalize_code(code)).first()
             if isinstance(code, str) and code.strip() else None)
    if found is None:
        raise NotFound(N_("There is no homework with this link: check it with your teacher."),
                       code="unknown-homework")
    return found


def code_of(assignment_id: int) -> str | None:
    """The link's code of an assignment (None once it is deleted)."""
    found = db.session.get(Assignment, assignment_id)
    return found.code if found is not None else None


def school_class_of(assignment: Assignment) -> SchoolClass:
    found = db.session.get(SchoolClass, assignment.class_id)
    if found is None:
        raise NotFound(N_("This homework's class no longer exists."), code="unknown-class")
    return found


def roster(assignment: Assignment) -> list[RosterStudent]:
    return classes.on_roster(school_class_of(assignment))


def not_open_sentence(assignment: Assignment, now: float) -> Text | None:
    """Why no game starts now, in a sentence (None while the link is open)."""
    state = status(assignment, now)
    if state == UPCOMING:
        return say(N_("This homework opens on %(day)s."), day=assignment.opens_on)
    if state == CLOSED:
        return say(N_("This homework closed at the end of %(day)s: games played now do not count. Ask your "
                      "teacher."), day=assignment.due_on)
    return None


@dataclass(frozen=True)
class Started:
    table_code: str
    position: int
    token: str
    resumed: bool  # her game already under way (False: a new game was dealt)


def current_game(assignment: Assignment, student_id: int) -> Table | None:
    """Her game in play for this homework, if any (the newest)."""
    found: Table | None = (Table.query.join(Seat, Seat.table_id == Table.id)
                           .filter(Table.assignment_id == assignment.id, Table.status == "playing",
                                   Seat.student_id == student_id, Seat.kind == "human")
                           .order_by(Table.id.desc()).first())
    return found


def start(assignment: Assignment, student: Any, word: Any = None, browser: str | None = None,
          now: float | None = None, word_known: bool = False) -> Started:
    """The student picked her name (and typed the class word): her game under way, or a new one. Refused
    with a sentence: a link not open now, a name not on the roster, a wrong word, her game open on
    another device right now. `word_known`: this browser started her homework with the word before (it
    is not asked again)."""
    now = time.time() if now is None else now
    why = not_open_sentence(assignment, now)
    if why is not None:
        raise Conflict(why, code="homework-closed" if status(assignment, now) == CLOSED else "homework-not-open")
    school_class = school_class_of(assignment)
    picked = classes.student_of(school_class.id, student)
    if not word_known and school_class.word and not (isinstance(word, str) and word.strip()):
        raise BadRequest(N_("Type the class word your teacher gave you, then tap your name."),
                         code="class-word-missing")
    if not word_known and not classes.word_matches(school_class, word):
        raise BadRequest(N_("That is not the class word: ask your teacher for it."), code="wrong-class-word")
    browser_digest = token_hash(browser) if browser else None
    begin_write()  # one writer at a time: two taps at once start one game (PostgreSQL: the row lock below)
    db.session.query(RosterStudent).filter_by(id=picked.id).with_for_update().one()
    table = current_game(assignment, picked.id)
    if table is not None:
        return _resume(table, picked.id, browser_digest, now)
    return _new_game(assignment, picked, browser_digest, now)


def _resume(table: Table, student_id: int, browser_digest: str | None, now: float) -> Started:
    seat = next(s for s in table.seats if s.student_id == student_id and s.kind == "human")
    elsewhere = (seat.token_hash is not None and seat.browser_hash != browser_digest
                 and not presence.stale(seat.seen_at, now))
    if elsewhere:
        db.session.rollback()
        raise Conflict(N_("Your game is open on another device right now. Close it there, or wait a minute and "
                          "open this link again: your game is kept."), code="open-elsewhere")
    token = new_token()
    seat.token_hash, seat.browser_hash, seat.seen_at = token_hash(token), browser_digest, now
    table.touch()
    db.session.commit()
    return Started(table.code, seat.position, token, resumed=True)


def _new_game(assignment: Assignment, student: RosterStudent, browser_digest: str | None, now: float) -> Started:
    token = new_token()
    seats = [Seat(position=0, kind="human", name=student.name, name_key=name_key(student.name),
                  token_hash=token_hash(token), browser_hash=browser_digest, seen_at=now, student_id=student.id)]
    taken = {name_key(student.name)}
    for position in range(1, assignment.computers + 1):
        name = tables.computer_name(taken, assignment.language)
        taken.add(name_key(name))
        seats.append(Seat(position=position, kind="computer", bot=assignment.bot, name=name, name_key=name_key(name)))
    code = tables.free_table_code()
    if code is None:
        raise Conflict(N_("Could not open the table; try again."), code="try-again")
    table = Table(code=code, name=assignment.name or student.name, deck_id=assignment.deck_id, rules=assignment.rules,
                  options_json=assignment.options_json, match_format="hands", match_value=1,
                  pace_seconds=HOMEWORK_PACE, class_id=assignment.class_id, assignment_id=assignment.id,
                  language=assignment.language, teacher_id=assignment.teacher_id, locked=True, seats=seats,
                  created_at=now)
    db.session.add(table)
    db.session.flush()  # (its id seeds a fixed deal in tests)
    deals.deal_next(table, wait=HOMEWORK_PACE)
    table.status = "playing"
    table.touch()
    db.session.commit()
    return Started(table.code, 0, token, resumed=False)


# ----------------------------------------------------------------------------------------------------
# How far each student is
# ----------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Progress:
    student_id: int
    name: str
    done: int          # finished games that count (ended before the link closed)
    playing: bool      # a game under way
    last_played: float | None


def progress(assignment: Assignment) -> list[Progress]:
    """Each roster student's games of this homework (one query for all of them)."""
    rows = (db.session.query(Seat.student_id, Table.status, Table.changed_at)
            .join(Table, Table.id == Seat.table_id)
            .filter(Table.assignment_id == assignment.id, Seat.student_id.isnot(None), Seat.position == 0).all())
    done: dict[int, int] = {}
    playing: set[int] = set()
    last: dict[int, float] = {}
    for student_id, table_status, changed_at in rows:
        if table_status == "finished" and changed_at < assignment.due_at:
            done[student_id] = done.get(student_id, 0) + 1
        if table_status == "playing":
            playing.add(student_id)
        last[student_id] = max(last.get(student_id, 0.0), changed_at)
    return [Progress(s.id, s.name, done.get(s.id, 0), s.id in playing, last.get(s.id)) for s in roster(assignment)]


def games_done(assignment: Assignment, student_id: int) -> int:
    return next((p.done for p in progress(assignment) if p.student_id == student_id), 0)


def last_finished_game(assignment: Assignment, student_id: int) -> Table | None:
    found: Table | None = (Table.query.join(Seat, Seat.table_id == Table.id)
                           .filter(Table.assignment_id == assignment.id, Table.status == "finished",
                                   Seat.student_id == student_id, Seat.kind == "human")
                           .order_by(Table.id.desc()).first())
    return found


def student_named(assignment: Assignment, student_id: Any) -> RosterStudent | None:
    """The roster student of this homework's class with this id (None for any other)."""
    found = row_by_id(RosterStudent, student_id)
    return found if found is not None and found.class_id == assignment.class_id and not found.removed else None


# ----------------------------------------------------------------------------------------------------
# What comes back when: the end of a game, and the nudge
# ----------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Named:
    card_id: str
    title: str
    verdict: str        # her last naming of it in the game: right, almost, hinted, wrong or passed
    due: float | None   # when it comes back (None: not scheduled)


@dataclass(frozen=True)
class Outlook:
    games_done: int
    games_wanted: int
    playing: bool            # a game under way
    named: list[Named]       # the works she named in her last finished game, in the order she named them
    due_now: int             # works due now
    next_due: float | None   # when the next work falls due (when none is due now)
    due_next_day: int        # how many are due by the end of that day


def outlook(assignment: Assignment, student_id: int, now: float | None = None) -> Outlook:
    """What her homework page shows: how many games are done, what her last game named and when each
    work comes back, and when her next review is worth doing."""
    now = time.time() if now is None else now
    key = deck_key(assignment.deck_id)
    named: list[Named] = []
    last = last_finished_game(assignment, student_id)
    if last is not None and last.deals:
        deal_ids = [deal.id for deal in last.deals]
        rows = (Review.query.filter(Review.student_id == student_id, Review.deal_id.in_(deal_ids))
                .order_by(Review.deal_id, Review.seq).all())
        verdicts: dict[str, str] = {}
        for row in rows:
            verdicts.pop(row.card_id, None)  # (the last verdict, in the order of its last naming)
            verdicts[row.card_id] = row.verdict
        cards = {c.card_id: c for c in ReviewCard.query.filter(
            ReviewCard.student_id == student_id, ReviewCard.deck_key == key,
            ReviewCard.card_id.in_(list(verdicts))).all()} if verdicts else {}
        titles = {card.id: card.title for card in store.deck_by_ref(last.deck_id).cards}
        named = [Named(card_id, titles.get(card_id, card_id), verdict,
                       cards[card_id].due if card_id in cards else None) for card_id, verdict in verdicts.items()]
    query = ReviewCard.query.filter(ReviewCard.student_id == student_id, ReviewCard.deck_key == key)
    due_now = query.filter(ReviewCard.due <= now).count()
    next_due: float | None = None
    due_next_day = 0
    if not due_now:
        upcoming = query.order_by(ReviewCard.due).first()
        if upcoming is not None:
            next_due = upcoming.due
            zone = ZoneInfo(assignment.time_zone)
            day_end = midnight(datetime.fromtimestamp(next_due, zone).date() + timedelta(days=1), assignment.time_zone)
            due_next_day = query.filter(ReviewCard.due < day_end).count()
    current = current_game(assignment, student_id)
    return Outlook(games_done(assignment, student_id), assignment.games, current is not None, named, due_now,
                   next_due, due_next_day)


def days_until(moment: float, zone: str, now: float) -> int:
    """Calendar days from today to the moment's day, in the zone (0: today, 1: tomorrow)."""
    return (today(zone, moment) - today(zone, now)).days
