"""Tables, seats, deals and moves as stored. A deal is its record header plus its move log.

The log is the truth: a deal's moves are rows (deal, seq) with seq unique, so two writers can never
both append move N, and replaying the header and the rows gives the game back after a restart.
Every change to a table bumps its version (SQLAlchemy's version counter: the UPDATE names the version
it read, so a concurrent change is refused instead of lost); screens poll that version.
"""
from __future__ import annotations

import json
import time
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Protocol, Sequence, TypeVar

from sqlalchemy import Index, UniqueConstraint
from sqlalchemy.orm import deferred

from .db import db
from .engine.options import Options, make_options


def _now() -> float:
    return time.time()


@lru_cache(maxsize=256)
def _table_options(rules: str, options_json: str) -> tuple[Options, dict[str, Any]]:
    """A table's options (its rules' preset and the overrides it stores) and the same as a dict, worked out
    once per process for every reader of the table, row or snapshot. Shared: never changed."""
    options = make_options(rules, json.loads(options_json))
    return options, options.to_dict()


_Deal = TypeVar("_Deal", covariant=True)


class _Dealt(Protocol[_Deal]):
    @property
    def deals(self) -> Sequence[_Deal]: ...


# What a table, a seat and a deal say about themselves, for the ORM rows below and for the snapshots
# of app/store/snapshots.py (plain values from one read) alike (app/store/snapshots.py: TableLike ...).
class TableMixin:
    if TYPE_CHECKING:  # what the mixin reads: the row's columns, the snapshot's fields
        rules: str
        options_json: str

    @property
    def overrides(self) -> dict[str, Any]:
        overrides: dict[str, Any] = json.loads(self.options_json or "{}")
        return overrides

    @property
    def options(self) -> Options:
        """The options the table plays with: its rules' preset with its overrides (parsed once per process)."""
        return _table_options(self.rules, self.options_json or "{}")[0]

    @property
    def options_dict(self) -> dict[str, Any]:
        """`options` as a dict (shared: encoded, never changed)."""
        return _table_options(self.rules, self.options_json or "{}")[1]

    @property
    def current_deal(self: _Dealt[_Deal]) -> _Deal | None:
        return self.deals[-1] if self.deals else None


class SeatMixin:
    if TYPE_CHECKING:
        kind: str
        token_hash: str | None
        barred: bool

    @property
    def vacant(self) -> bool:
        return self.kind == "human" and self.token_hash is None and not self.barred


class DealMixin:
    if TYPE_CHECKING:
        result_json: str | None

        @property
        def header_json(self) -> str: ...

    @property
    def header(self) -> dict[str, Any]:
        header: dict[str, Any] = json.loads(self.header_json)
        return header

    @property
    def result(self) -> dict[str, Any] | None:
        return json.loads(self.result_json) if self.result_json else None


class Table(TableMixin, db.Model):
    __tablename__ = "play_tables"
    # The clock's question every tick: the tables in play whose next_bot_at has come (app/store/timing.py).
    __table_args__ = (Index("ix_play_tables_due", "status", "next_bot_at"),)

    id = db.Column(db.Integer, primary_key=True)
    code = db.Column(db.String(6), nullable=False, unique=True, index=True)
    name = db.Column(db.String(80), nullable=False, default="")
    deck_id = db.Column(db.String(80), nullable=False)
    rules = db.Column(db.String(40), nullable=False)
    options_json = db.Column(db.Text, nullable=False, default="{}")   # overrides of the preset
    match_format = db.Column(db.String(10), nullable=False, default="hands")  # "hands" or "target"
    match_value = db.Column(db.Integer, nullable=False, default=1)
    # A match that ends tied is settled by one more deal among everyone (engine/match.py's tie-break).
    match_tie_break = db.Column(db.Boolean, nullable=False, default=False, server_default=db.false())
    # The language the table plays in (app.i18n.LANGUAGES), whatever its deck's: its pages and messages.
    language = db.Column(db.String(5), nullable=False, default="en", server_default="en")
    status = db.Column(db.String(10), nullable=False, default="lobby")  # lobby, playing, finished, closed
    teacher_id = db.Column(db.Integer, db.ForeignKey("teachers.id"), nullable=False, index=True)  # who opened it
    created_at = db.Column(db.Float, nullable=False, default=_now)
    changed_at = db.Column(db.Float, nullable=False, default=_now)
    next_bot_at = db.Column(db.Float, nullable=False, default=0.0)     # the next moment the clock plays the table on
    # The teacher's controls: a paused table takes no move (people's or computers'); a locked one no join.
    paused = db.Column(db.Boolean, nullable=False, default=False, server_default=db.false())
    locked = db.Column(db.Boolean, nullable=False, default=False, server_default=db.false())
    # Seconds between computer players' moves at this table (1-5, the teacher's choice); None: the app's.
    pace_seconds = db.Column(db.Float, nullable=True)
    class_id = db.Column(db.Integer, nullable=True)  # opened for a class (SchoolClass): students pick their name
    # A homework game (Assignment): one roster student against computer players, opened by her link.
    assignment_id = db.Column(db.Integer, nullable=True, index=True)
    version = db.Column(db.Integer, nullable=False, default=0)

    seats = db.relationship("Seat", order_by="Seat.position", back_populates="table", lazy="selectin",
                            cascade="all, delete-orphan")
    deals = db.relationship("Deal", order_by="Deal.number", back_populates="table", lazy="selectin",
                            cascade="all, delete-orphan")

    __mapper_args__ = {"version_id_col": version}

    def touch(self) -> None:
        """Mark the table changed: the flush bumps its version (and refuses a concurrent change)."""
        self.changed_at = _now()


class Seat(SeatMixin, db.Model):
    __tablename__ = "play_seats"
    __table_args__ = (UniqueConstraint("table_id", "position"), UniqueConstraint("table_id", "name_key"))

    id = db.Column(db.Integer, primary_key=True)
    table_id = db.Column(db.Integer, db.ForeignKey("play_tables.id"), nullable=False, index=True)
    position = db.Column(db.Integer, nullable=False)                  # clockwise from 0
    kind = db.Column(db.String(10), nullable=False, default="human")  # human or computer
    bot = db.Column(db.String(40), nullable=True)                     # the computer player's strength
    name = db.Column(db.String(40), nullable=True)                    # None: a human seat nobody has taken
    name_key = db.Column(db.String(40), nullable=True)                # casefolded name: unique at a table
    token_hash = db.Column(db.String(64), nullable=True)              # sha256 of the seat's secret token
    student_id = db.Column(db.Integer, nullable=True)                 # the roster student who took it (RosterStudent)
    barred = db.Column(db.Boolean, nullable=False, default=False, server_default=db.false())  # removed for the match
    # Presence (issue #19): when a screen of this seat last polled, written at most once per
    # app/store/presence.py WRITE_EVERY seconds (the seat is away once it is older than AWAY_AFTER).
    seen_at = db.Column(db.Float, nullable=True)
    # A computer standing in for the student while she is away: kind is "computer" (the usual machinery
    # moves it), the name and the token stay hers, and her next poll hands the seat back.
    stand_in = db.Column(db.Boolean, nullable=False, default=False, server_default=db.false())
    # Another device asks for this (away) seat back: the hash of its secret token (the seat's token once
    # the teacher lets it in), when it asked (it expires), and whether the teacher refused it.
    claim_hash = db.Column(db.String(64), nullable=True)
    claim_at = db.Column(db.Float, nullable=True)
    claim_refused = db.Column(db.Boolean, nullable=False, default=False, server_default=db.false())
    # The browser whose device plays the seat (sha256 of the random id in its session cookie): a student
    # taken off for the match (`barred`) cannot join again from it, under any name.
    browser_hash = db.Column(db.String(64), nullable=True)

    table = db.relationship("Table", back_populates="seats")


class SeatClaim(db.Model):
    """One device's request to have an away seat back (app/services/tables.py): every request is kept,
    none replaces another, and the teacher lets in one (the others are told no). The seat's claim_*
    columns say only whether the newest one waits (for the teacher's poll: app/store/presence.py)."""
    __tablename__ = "seat_claims"

    id = db.Column(db.Integer, primary_key=True)
    table_id = db.Column(db.Integer, db.ForeignKey("play_tables.id"), nullable=False, index=True)
    seat_id = db.Column(db.Integer, db.ForeignKey("play_seats.id"), nullable=False, index=True)
    token_hash = db.Column(db.String(64), nullable=False, unique=True)  # sha256 of the device's secret
    browser_hash = db.Column(db.String(64), nullable=True)              # sha256 of its browser's id
    device = db.Column(db.String(60), nullable=False, default="")       # "iPhone · Safari", from its User-Agent
    asked_at = db.Column(db.Float, nullable=False, default=_now)
    # waiting; let-in; refused (by the teacher); passed (the teacher let in another device); withdrawn
    # (the device asked for another seat); ended (the seat went to someone else)
    status = db.Column(db.String(10), nullable=False, default="waiting")
    decided_at = db.Column(db.Float, nullable=True)


class Deal(DealMixin, db.Model):
    """One deal (one game) of a table's match: the record header and, once over, its result."""
    __tablename__ = "play_deals"
    __table_args__ = (UniqueConstraint("table_id", "number"),)

    id = db.Column(db.Integer, primary_key=True)
    table_id = db.Column(db.Integer, db.ForeignKey("play_tables.id"), nullable=False, index=True)
    number = db.Column(db.Integer, nullable=False)         # 1, 2, ... within the match
    # The game record without its moves: read only when a process builds the deal's game (deferred).
    header_json = deferred(db.Column(db.Text, nullable=False))
    revision = db.Column(db.Integer, nullable=False, default=0)  # bumped when a rename rewrites the log
    result_json = db.Column(db.Text, nullable=True)        # the final public scores, once finished
    started_at = db.Column(db.Float, nullable=False, default=_now)
    # The players who were students when it was dealt (a JSON list of names; None: dealt before revision
    # 0015): a computer's move for one of them names no work and its row says so (app/services/deals.py),
    # and the reports keep her whatever holds her seat later.
    students_json = db.Column(db.Text, nullable=True)

    table = db.relationship("Table", back_populates="deals")
    moves = db.relationship("MoveRow", order_by="MoveRow.seq", back_populates="deal", lazy="select",
                            cascade="all, delete-orphan")


class MoveRow(db.Model):
    __tablename__ = "play_moves"
    __table_args__ = (UniqueConstraint("deal_id", "seq"),)

    id = db.Column(db.Integer, primary_key=True)
    deal_id = db.Column(db.Integer, db.ForeignKey("play_deals.id"), nullable=False, index=True)
    seq = db.Column(db.Integer, nullable=False)            # 0, 1, 2 ... in the order played
    data_json = db.Column(db.Text, nullable=False)         # the move as a record writes it
    played_at = db.Column(db.Float, nullable=False, default=_now)

    deal = db.relationship("Deal", back_populates="moves")

    @property
    def data(self) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(self.data_json)
        return data


# ----------------------------------------------------------------------------------------------------
# Teachers, their invitations, their decks (issue #7)
# ----------------------------------------------------------------------------------------------------
class Teacher(db.Model):
    """A teacher's account. Students never have one: they join tables by code."""
    __tablename__ = "teachers"

    id = db.Column(db.Integer, primary_key=True)
    name = db.Column(db.String(60), nullable=False)                    # the log-in name, as typed
    name_key = db.Column(db.String(60), nullable=False, unique=True)   # casefolded: unique
    password_hash = db.Column(db.String(255), nullable=False)          # werkzeug.security (scrypt)
    created_at = db.Column(db.Float, nullable=False, default=_now)
    invited_by = db.Column(db.Integer, nullable=True)
    # The teacher's time zone (an IANA name such as "Europe/Paris", sent by the browser and checked with
    # zoneinfo: app/services/time_zones.py); None: not known yet, times are shown in UTC.
    time_zone = db.Column(db.String(64), nullable=True)

    # Flask-Login: the id in the session names the account and the secret token of this browser's
    # log-in (a TeacherLogin row, set by app/services/accounts.py), so a log-out ends exactly it.
    is_active = True
    is_authenticated = True
    is_anonymous = False
    if TYPE_CHECKING:
        login_token: str | None
        login_seen_at: float | None
    login_token = None    # not columns: the secret token of the log-in this request comes with,
    login_seen_at = None  # and when that log-in was last seen in use

    def get_id(self) -> str:
        if not self.login_token:
            raise RuntimeError("a teacher is logged in through accounts.start_login, which makes the log-in")
        return f"{self.id}.{self.login_token}"


class TeacherLogin(db.Model):
    """One browser's log-in to an account: its session cookie holds the secret token, the database only
    its hash. Every request of a logged-in teacher checks it; logging out deletes it, a password change
    deletes the account's others, and one unused for longer than a session lasts is deleted now and then."""
    __tablename__ = "teacher_logins"

    id = db.Column(db.Integer, primary_key=True)
    token_hash = db.Column(db.String(64), nullable=False, unique=True)  # sha256 of the token
    teacher_id = db.Column(db.Integer, db.ForeignKey("teachers.id"), nullable=False, index=True)
    created_at = db.Column(db.Float, nullable=False, default=_now)
    seen_at = db.Column(db.Float, nullable=False, default=_now)      # written at most once an hour


class Invitation(db.Model):
    """A one-use sign-up link made by a teacher; only the hash of its secret is stored."""
    __tablename__ = "teacher_invitations"

    id = db.Column(db.Integer, primary_key=True)
    token_hash = db.Column(db.String(64), nullable=False, unique=True)
    created_by = db.Column(db.Integer, db.ForeignKey("teachers.id"), nullable=False, index=True)
    created_at = db.Column(db.Float, nullable=False, default=_now)
    expires_at = db.Column(db.Float, nullable=False)
    used_at = db.Column(db.Float, nullable=True)
    used_by = db.Column(db.Integer, nullable=True)


class StudioDeck(db.Model):
    """A teacher's own deck: its YAML (the deck format, checked by the one validator) and who may see it."""
    __tablename__ = "studio_decks"

    id = db.Column(db.Integer, primary_key=True)
    owner_id = db.Column(db.Integer, db.ForeignKey("teachers.id"), nullable=False, index=True)
    shared = db.Column(db.Boolean, nullable=False, default=False)     # seen by every teacher on the server
    yaml_text = db.Column(db.Text, nullable=False)
    title = db.Column(db.Text, nullable=False)                         # copied from the YAML, for lists
    language = db.Column(db.Text, nullable=False, default="en")
    set_count = db.Column(db.Integer, nullable=False, default=0)
    card_count = db.Column(db.Integer, nullable=False, default=0)
    created_at = db.Column(db.Float, nullable=False, default=_now)
    updated_at = db.Column(db.Float, nullable=False, default=_now)

    owner = db.relationship("Teacher", lazy="joined")


class StudioImage(db.Model):
    """An image of a studio deck, kept in the database so that every app process and host serves and
    prints the same images; each host keeps a copy on disk (instance/uploads) for the printer to read."""
    __tablename__ = "studio_images"
    __table_args__ = (UniqueConstraint("deck_id", "path"),)

    id = db.Column(db.Integer, primary_key=True)
    deck_id = db.Column(db.Integer, nullable=False, index=True)  # studio_decks.id; removed with the deck
    path = db.Column(db.String(200), nullable=False)            # as the deck names it: images/set-x-1a2b.png
    data = db.Column(db.LargeBinary, nullable=False)
    created_at = db.Column(db.Float, nullable=False, default=_now)


class DeckSnapshot(db.Model):
    """A studio deck as it was when a table opened with it. Tables play the snapshot, so editing or
    deleting the deck never changes a game; `ref` (snap:<digest of the deck and its text>) is the
    table's deck_id, the same content everywhere, so any process may cache it."""
    __tablename__ = "deck_snapshots"

    id = db.Column(db.Integer, primary_key=True)
    ref = db.Column(db.String(80), nullable=False, unique=True)
    studio_deck_id = db.Column(db.Integer, nullable=True, index=True)  # no foreign key: the deck may go
    title = db.Column(db.Text, nullable=False)
    yaml_text = db.Column(db.Text, nullable=False)
    created_at = db.Column(db.Float, nullable=False, default=_now)


class HintGiven(db.Model):
    """A hint the server gave a seat (app/services/recall.py), at the table's version it was asked at: the
    seat's next naming (made at that same version: nobody else moves while a seat names) counts it
    whether or not the browser says so."""
    __tablename__ = "hints_given"

    table_id = db.Column(db.Integer, primary_key=True)
    version = db.Column(db.Integer, primary_key=True)
    seat = db.Column(db.String(40), primary_key=True)
    level = db.Column(db.Integer, nullable=False)


class RateLimit(db.Model):
    """One key's attempts in its current window (app/services/ratelimit.py): shared by every process."""
    __tablename__ = "rate_limits"

    key = db.Column(db.String(64), primary_key=True)   # sha256 of the key's text
    window_start = db.Column(db.Float, nullable=False)
    count = db.Column(db.Integer, nullable=False, default=0)


# ----------------------------------------------------------------------------------------------------
# Idempotency keys (issue #8)
# ----------------------------------------------------------------------------------------------------
class IdempotencyKey(db.Model):
    """A request applied once: a retry with the same Idempotency-Key gets the stored answer
    (app/services/idempotency.py). Written in the same transaction as the change it answers."""
    __tablename__ = "idempotency_keys"

    scope = db.Column(db.String(40), primary_key=True)      # what the key is for, e.g. "move:<table id>"
    key = db.Column(db.String(200), primary_key=True)       # the client's key, as sent
    fingerprint = db.Column(db.String(64), nullable=False)  # sha256 of who sent what: a reused key is refused
    response_json = db.Column(db.Text, nullable=False)
    created_at = db.Column(db.Float, nullable=False, default=_now, index=True)


# ----------------------------------------------------------------------------------------------------
# Classes and rosters (issue #19)
# ----------------------------------------------------------------------------------------------------
class SchoolClass(db.Model):
    """A teacher's class: a roster of first names, no student accounts (app/services/classes.py). A
    table opened for it lets its students join by picking their name; their results join up."""
    __tablename__ = "classes"

    id = db.Column(db.Integer, primary_key=True)
    teacher_id = db.Column(db.Integer, db.ForeignKey("teachers.id"), nullable=False, index=True)
    name = db.Column(db.String(80), nullable=False)
    word = db.Column(db.String(12), nullable=True)  # the class word a joining student types, shown on the projector
    created_at = db.Column(db.Float, nullable=False, default=_now)
    students = db.relationship("RosterStudent", order_by="RosterStudent.name_key", lazy="selectin",
                               cascade="all, delete-orphan")


class RosterStudent(db.Model):
    """One first name of a class's roster. Taken off the roster, a student is `removed` (no longer offered
    to join) and kept, so their results stay in the reports."""
    __tablename__ = "class_students"
    __table_args__ = (db.UniqueConstraint("class_id", "name_key", name="uq_class_students_name"),)

    id = db.Column(db.Integer, primary_key=True)
    class_id = db.Column(db.Integer, db.ForeignKey("classes.id"), nullable=False, index=True)
    name = db.Column(db.String(40), nullable=False)
    name_key = db.Column(db.String(40), nullable=False)
    removed = db.Column(db.Boolean, nullable=False, default=False, server_default=db.false())
    created_at = db.Column(db.Float, nullable=False, default=_now)


# ----------------------------------------------------------------------------------------------------
# The network check (issue #31): which devices reached this server lately, and how fast
# ----------------------------------------------------------------------------------------------------
class NetworkSighting(db.Model):
    """One address that opened a student's page lately, with the round trip its page measured
    (app/services/network.py). Kept one day: the teacher's network check asks only about the last half hour."""
    __tablename__ = "network_sightings"

    address = db.Column(db.String(45), primary_key=True)  # IPv4 or IPv6, as the request came from
    device = db.Column(db.String(40), nullable=False, default="")  # "iPhone · Safari" (known names only)
    first_seen = db.Column(db.Float, nullable=False, default=_now)
    last_seen = db.Column(db.Float, nullable=False, default=_now, index=True)
    round_trip_ms = db.Column(db.Float, nullable=True)  # the median of the page's own requests, when it sent one


# ----------------------------------------------------------------------------------------------------
# Spaced review (issue #34): each roster student's namings of each work, and when each is due again
# ----------------------------------------------------------------------------------------------------
class Review(db.Model):
    """One graded naming of a work by a class's roster student (a named ask, or the answer to a prompt),
    in class or at home: the log the schedule is worked out from, and can be worked out again from
    (app/services/reviews.py). One row per move and work: a move stored twice (a retry) is one review."""
    __tablename__ = "reviews"
    __table_args__ = (UniqueConstraint("student_id", "deal_id", "seq", "card_id", name="uq_reviews_move"),
                      Index("ix_reviews_student_work", "student_id", "deck_key", "card_id", "reviewed_at"))

    id = db.Column(db.Integer, primary_key=True)
    student_id = db.Column(db.Integer, db.ForeignKey("class_students.id"), nullable=False)
    deck_key = db.Column(db.String(80), nullable=False)  # the deck, across a studio deck's versions
    card_id = db.Column(db.String(120), nullable=False)   # the work (a card id is its slugified title)
    rating = db.Column(db.Integer, nullable=False)        # FSRS's rating: 1 again, 2 hard, 3 good
    verdict = db.Column(db.String(12), nullable=False)    # right, almost, hinted, wrong or passed
    reviewed_at = db.Column(db.Float, nullable=False)
    deal_id = db.Column(db.Integer, db.ForeignKey("play_deals.id"), nullable=False)
    seq = db.Column(db.Integer, nullable=False)           # the move of the deal that named it


class ReviewCard(db.Model):
    """A roster student's schedule for one work: FSRS's card (its stability, difficulty and step) and
    when the work is due again. Worked out from the reviews; kept so that the deal reads one index."""
    __tablename__ = "review_cards"
    __table_args__ = (Index("ix_review_cards_due", "student_id", "deck_key", "due"),)

    student_id = db.Column(db.Integer, db.ForeignKey("class_students.id"), primary_key=True)
    deck_key = db.Column(db.String(80), primary_key=True)
    card_id = db.Column(db.String(120), primary_key=True)
    due = db.Column(db.Float, nullable=False)
    last_review = db.Column(db.Float, nullable=False)
    reviews = db.Column(db.Integer, nullable=False)
    lapses = db.Column(db.Integer, nullable=False)        # how many of its reviews were "again"
    state_json = db.Column(db.Text, nullable=False)       # fsrs.Card.to_dict(), as JSON


# ----------------------------------------------------------------------------------------------------
# Homework (issue #34): a deck and rules assigned to a class, played alone against computer players
# ----------------------------------------------------------------------------------------------------
class Assignment(db.Model):
    """Homework for a class's roster (app/services/homework.py): its students open one link (`code`), pick
    their name and play games of these rules against computer players between the opening and the due
    date, each game a table of its own (Table.assignment_id). The dates are the teacher's calendar days
    in her time zone when she set them; `opens_at` and `due_at` are the moments they stand for."""
    __tablename__ = "assignments"

    id = db.Column(db.Integer, primary_key=True)
    code = db.Column(db.String(8), nullable=False, unique=True, index=True)  # the link: /h/<code>
    teacher_id = db.Column(db.Integer, db.ForeignKey("teachers.id"), nullable=False, index=True)
    class_id = db.Column(db.Integer, db.ForeignKey("classes.id"), nullable=False, index=True)
    name = db.Column(db.String(80), nullable=False, default="")
    deck_id = db.Column(db.String(80), nullable=False)     # as a table's: a studio deck frozen when assigned
    rules = db.Column(db.String(40), nullable=False)
    options_json = db.Column(db.Text, nullable=False, default="{}")  # overrides of the preset
    computers = db.Column(db.Integer, nullable=False, default=2)     # computer players beside the student
    bot = db.Column(db.String(40), nullable=False, default="memory")  # their strength
    games = db.Column(db.Integer, nullable=False, default=1)         # how many finished games count as done
    language = db.Column(db.String(5), nullable=False, default="en")
    time_zone = db.Column(db.String(64), nullable=False, default="UTC")
    opens_on = db.Column(db.String(10), nullable=False)    # YYYY-MM-DD, the first day, in time_zone
    due_on = db.Column(db.String(10), nullable=False)      # YYYY-MM-DD, the last day, in time_zone
    opens_at = db.Column(db.Float, nullable=False)         # the first day's midnight there
    due_at = db.Column(db.Float, nullable=False)           # the midnight that ends the last day there
    created_at = db.Column(db.Float, nullable=False, default=_now)
