"""Tables: open one, join it, let the teacher manage its seats, start and close it."""
from __future__ import annotations

import json
import time
from contextlib import contextmanager
from typing import Any, Iterable, Iterator

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.exc import StaleDataError

from .. import store
from ..db import begin_write, db
from ..decks.errors import N_, Text, say
from ..engine.game import Game, SetupError
from ..engine.options import DEFAULT_DECKS, PRESETS, OptionsError, make_options
from ..languages import DEFAULT_LANGUAGE, LANGUAGES
from ..models import Seat, SeatClaim, Table
from ..store import presence
from . import classes, deals, schemas, studio
from ..store.codes import NameProblem, clean_name, name_key, new_code, new_token, token_hash
from .errors import BadRequest, Conflict, Forbidden, NotFound, ServiceError
from ..engine.options import Options
from ..store import SeatLike, TableLike, TableSnapshot

OPEN_STATUSES = ("lobby", "playing", "finished")


# ----------------------------------------------------------------------------------------------------
# Finding and committing
# ----------------------------------------------------------------------------------------------------
def _no_table(code: Any) -> NotFound:
    return NotFound(say(N_('There is no table with the code "%(code)s". Check the code on the board.'),
                        code=str(code)[:12]), code="unknown-code")


def read(code: str) -> TableSnapshot:
    """The table as it is now (a frozen snapshot: app/store), or a 404 that says what to check."""
    table = store.read(code)
    if table is None:
        raise _no_table(code)
    return table


def _gone() -> NotFound:
    return NotFound(N_("This table is gone."), code="unknown-code")


@contextmanager
def changing(table: TableLike, what: Text | str | None = None) -> Iterator[Table]:
    """The table locked and as it is now (an ORM row) for a change, committed when the block ends: every
    change of a table goes through here, so changes from any process are made one after the other."""
    try:
        with store.changing(table) as row:
            yield row
    except store.Gone:
        raise _gone() from None
    except store.Stale:
        raise Conflict(what or N_("The table changed at the same moment; try again."),
                       code="stale-version") from None


def _commit(what: Text | str | None = None) -> None:
    try:
        db.session.commit()
    except (IntegrityError, StaleDataError):
        db.session.rollback()
        raise Conflict(what or N_("The table changed at the same moment; try again."),
                       code="stale-version") from None


def seat_at(table: Table, position: Any) -> Seat:
    try:
        position = int(position)
    except (TypeError, ValueError):
        raise BadRequest(say(N_('a seat is a number from 0 to %(last)d, not "%(position)s"'),
                             last=len(table.seats) - 1, position=position)) from None
    seat: Seat
    for seat in table.seats:
        if seat.position == position:
            return seat
    raise NotFound(say(N_("This table has no seat %(position)d."), position=position), code="unknown-seat")


def is_teacher(table: TableLike, teacher_id: int | None) -> bool:
    """Whether this teacher account opened the table (only they manage it)."""
    return teacher_id is not None and table.teacher_id == teacher_id


def require_teacher(table: TableLike, teacher_id: int | None) -> None:
    if not is_teacher(table, teacher_id):
        raise Forbidden(N_("Only the teacher who opened this table can do that."), code="not-teacher")


# ----------------------------------------------------------------------------------------------------
# Opening a table
# ----------------------------------------------------------------------------------------------------
def clean_seat_name(value: Any, position: int | None = None) -> str:
    """A display name as shown (codes.clean_name), or a BadRequest that says in the reader's language
    what is wrong with it (for the seat at `position`, when the teacher names a seat)."""
    try:
        return clean_name(value)
    except NameProblem as problem:
        reason = say(problem.template, **problem.params)
        if position is not None:
            raise BadRequest(say(N_("seat %(position)d: %(reason)s"), position=position, reason=reason)) from None
        raise BadRequest(say(N_("%(reason)s."), reason=reason.capitalized())) from None


def table_language(value: str | None, default: str = DEFAULT_LANGUAGE) -> str:
    """The language a new table plays in: the one asked for (checked by the schema), else the teacher's."""
    if value:
        return value
    return default if default in LANGUAGES else DEFAULT_LANGUAGE


COMPUTER_NAME = N_("Computer %(number)d")


def free_table_code(attempts: int = 20) -> str | None:
    """A join code no table has (None when `attempts` random ones were all taken)."""
    return next((code for code in (new_code() for _ in range(attempts)) if not store.exists(code)), None)


def computer_name(taken: set[str], language: str) -> str:
    """A computer player's name in the table's language ("Computer 1", "Компьютер 1"), the first number
    not taken. Kept in the seat as said then: a table's existing computers keep the names they have.
    (A name, not a sentence said at the web's edge: it is stored, in the table's language, not the
    reader's; read from the compiled catalogs the web reads, with Babel alone.)"""
    from pathlib import Path

    from babel.support import Translations

    catalogs = Path(__file__).resolve().parents[1] / "translations"
    template = Translations.load(str(catalogs), [language]).gettext(COMPUTER_NAME)
    n = 1
    while name_key(template % {"number": n}) in taken:
        n += 1
    return template % {"number": n}


def app_defaults(options: Options, given: dict[str, Any]) -> dict[str, Any]:
    """What a new table of the app plays unless the teacher says otherwise, once the bonus is on (the
    engine's own defaults stay those of the record spec, so records replay as before): typos forgiven
    (`answers: typos`), the bonus counted apart (`bonus_in_score: false`), with card asks the naming
    in the ask itself (`named_asks`), typed from memory — unless the works are listed (recognition) —
    and with set asks, whose received cards come unseen, any work of the set lacked named right
    (`answer_names: set`)."""
    if not (options.name_the_work or options.named_asks):  # a challenged set is named too: a slip forgiven
        return {"answers": "typos"} if options.challenge_sets and "answers" not in given else {}
    out: dict[str, Any] = {"answers": "typos", "bonus_in_score": False}
    if options.ask_by == "card" and not options.works_listed and "named_asks" not in given:
        out["named_asks"] = True
    if options.ask_by == "set" and options.name_the_work and not options.named_asks:
        out["answer_names"] = "set"
    return {name: value for name, value in out.items() if name not in given}


# The options that are about naming works: they mean nothing for ordinary playing cards ("A♠" is no work).
NAMING_OPTIONS = ("name_the_work", "named_asks", "answers", "answer_names", "bonus_in_score", "works_listed", "hints",
                  "review_deals", "challenge_sets")


def table_options(rules: str, given: dict[str, Any]) -> Options:
    """The options a new table of these rules plays with, the teacher's choices `given` (OptionsError
    when they do not go together): the preset, then the app's defaults once the bonus is on."""
    options = make_options(rules, given)
    return make_options(rules, {**app_defaults(options, given), **given})


def naming_sentence(options: Options) -> Text | None:
    """How naming a work goes at a table with these options, in a sentence for the new-table form; None
    when no work is named."""
    if options.named_asks:
        return Text(N_("The asker types the work in the ask, from memory; a right naming scores 1."))
    if not options.name_the_work:
        return None
    if options.answer_names == "set":
        return Text(N_("Each card received is named by picking from the list of works: any work of that author "
                       "the student did not have counts.") if options.works_listed else
                    N_("Each card received is named from memory: any work of that author the student did not "
                       "have counts."))
    return Text(N_("Each card received is named by picking from the list of works: only its own work counts.")
                if options.works_listed else
                N_("Each card received is named from memory: only its own work counts."))


def naming_on_playing_cards(deck_ref: str | None, rules: str, teacher_id: int, given: dict[str, Any]) -> None:
    """The new-table form's check: naming options set for a deck of ordinary playing cards are refused
    with a sentence (the form hides them for such a deck; the API takes them as before, records too)."""
    from ..decks.look import is_playing_deck

    named = [name for name in NAMING_OPTIONS if name in given]
    if not named:
        return
    deck = studio.deck_for_table(deck_ref or DEFAULT_DECKS.get(rules, "standard-52"), teacher_id)
    if is_playing_deck(deck):
        raise BadRequest(say(N_("An ordinary playing-card deck has no works to name: choose a deck of works, "
                                "or leave the naming options as the rules say.")))


def create(spec: Any, teacher_id: int, default_language: str = DEFAULT_LANGUAGE) -> tuple[Table, dict[int, str]]:
    """Open a table for this teacher (`spec`: a NewTable, or its JSON). Returns it and the tokens of the
    seats played on this device. The table plays in its `language`, else in `default_language`."""
    spec = spec if isinstance(spec, schemas.NewTable) else schemas.parse(schemas.NewTable, spec)
    language = table_language(spec.language, default_language)
    rules = spec.rules
    deck_ref = spec.deck or DEFAULT_DECKS.get(rules, "standard-52")
    deck = studio.deck_for_table(deck_ref, teacher_id)  # a built-in deck, or a studio deck the teacher sees
    try:
        options = table_options(rules, spec.options)
    except OptionsError as exc:
        raise BadRequest(exc) from None
    overrides = options.overrides(PRESETS[rules])

    seats: list[Seat] = []
    taken: set[str] = set()
    here: dict[int, str] = {}
    for position, item in enumerate(spec.seats):
        seat = Seat(position=position, kind=item.kind)
        if item.kind == "computer":
            seat.bot = item.bot or "random"
        if item.name not in (None, ""):
            seat.name = clean_seat_name(item.name, position)
        if item.kind == "human" and item.here:
            if not seat.name:
                raise BadRequest(say(N_("seat %(position)d: a player on this device needs a name"),
                                     position=position))
            token = new_token()
            seat.token_hash = token_hash(token)
            seat.seen_at = time.time()
            here[position] = token
        elif item.kind == "human":
            seat.name = None  # a student names themself when they join
        if seat.name:
            if name_key(seat.name) in taken:
                raise BadRequest(say(N_('the name "%(name)s" is given twice; every player needs a different name'),
                                     name=seat.name))
            taken.add(name_key(seat.name))
        seats.append(seat)
    for seat in seats:
        if seat.kind == "computer" and not seat.name:
            seat.name = computer_name(taken, language)
            taken.add(name_key(seat.name))
        seat.name_key = name_key(seat.name) if seat.name else None

    try:
        Game(deck, options, [f"Seat {i}" for i in range(len(seats))], seed=0, rules=rules)
    except SetupError as exc:
        raise BadRequest(say(N_("this table cannot be played: %(reason)s"), reason=exc.text)) from None

    class_id = classes.get_own(teacher_id, spec.class_id).id if spec.class_id is not None else None
    deck_id = studio.table_deck_id(deck_ref, teacher_id)  # a studio deck is frozen as the table opens
    code = free_table_code() or new_code()  # (none free: the commit below refuses it, with a sentence)
    table = Table(code=code, name=spec.name.strip(), deck_id=deck_id, rules=rules,
                  options_json=json.dumps(overrides), match_format=spec.match.format,
                  match_tie_break=spec.match.tie_break,
                  match_value=spec.match.value, pace_seconds=spec.pace, class_id=class_id,
                  language=language, teacher_id=teacher_id, seats=seats)
    # A write transaction of its own (SQLite: BEGIN IMMEDIATE, which waits its turn): the reads above
    # began a deferred one, which SQLite cannot turn into a write once another connection has written.
    begin_write()
    db.session.add(table)
    _commit(N_("Could not open the table; try again."))
    return table, here


# ----------------------------------------------------------------------------------------------------
# Joining
# ----------------------------------------------------------------------------------------------------
def _check_name_free(table: Table, name: str, except_seat: Seat | None = None) -> None:
    for seat in table.seats:
        if seat is not except_seat and seat.name and name_key(seat.name) == name_key(name):
            raise Conflict(say(N_('Someone at this table is already called "%(name)s"; choose another name.'),
                               name=seat.name), code="name-taken")


class WaitForTeacher(ServiceError):
    """Not a refusal: the name is a student's seat, and this device asked to have it back. It waits
    for the teacher (`let_in`); `token` is its secret, the seat's token once let in."""
    status, code = 202, "ask-teacher"

    def __init__(self, position: int, name: str, token: str):
        super().__init__(N_("Ask your teacher to let you back in: your seat is kept for you."))
        self.position, self.name, self.token = position, name, token


MAX_WAITING = 5  # devices that may wait for one seat at once (each is one line on the teacher's page)


def can_ask_back(seat: SeatLike) -> bool:
    """Whether another device may ask for this seat: a student's seat (or one a computer stands in for),
    whatever its screen's presence: a student whose phone died asks at once, and the teacher decides (her
    list says whether the seat's screen is still open: `requests_waiting`). Never a seat whose student the
    teacher took off for the match, nor a computer player's."""
    if not seat.name or getattr(seat, "barred", False):
        return False
    return seat.kind == "human" or bool(seat.stand_in)


def _taken_off(table: TableLike, browser: str | None, student_id: int | None) -> SeatLike | None:
    """The seat whose student the teacher took off for the match, when this browser (its hash) played it
    or this roster student sat in it."""
    for seat in table.seats:
        if seat.barred and ((browser is not None and seat.browser_hash == browser)
                            or (student_id is not None and seat.student_id == student_id)):
            return seat
    return None


def join(table: TableLike, name: Any, student_id: int | None = None, browser: str | None = None,
         device: str = "", asked: str | None = None) -> tuple[Seat, str]:
    """A student takes a seat: a free one, or before play a computer player's. Returns the seat token.
    The name of a student's seat is no refusal, her screen away or not: the device asks for the seat back
    and waits for the teacher (WaitForTeacher, raised once the request is stored beside any other
    device's), who sees whether the seat's screen is still open. At a
    table opened for a class the name comes from its roster (join_from_roster), `student_id` the roster
    student. `browser` is the random id of the joining browser (its session's), `device` what its browser
    says it is ("iPhone · Safari"), `asked` the secret of this browser's earlier request at this table."""
    if student_id is None and classes.class_of(table) is not None:
        raise BadRequest(N_("pick your name from the class list"), code="pick-your-name")
    name = clean_seat_name(name)
    browser_digest = token_hash(browser) if browser else None
    waiting: WaitForTeacher | None = None
    with changing(table, say(N_('Someone took that seat or the name "%(name)s" at the same moment; try again.'),
                             name=name)) as table:
        if table.status in ("finished", "closed"):
            raise Conflict(N_("This table's match is over; ask your teacher for a new code."), code="table-closed")
        now = time.time()
        if _taken_off(table, browser_digest, student_id) is not None:
            raise Conflict(N_("Your teacher has taken you off this table for the rest of the match: you cannot "
                              "join it again under any name. Ask your teacher."), code="taken-off")
        same = next((s for s in table.seats if s.name and name_key(s.name) == name_key(name)), None)
        if same is not None and same.barred:
            raise Conflict(say(N_('The teacher has taken "%(name)s" off this table for the rest of the match.'),
                               name=same.name), code="name-removed")
        if same is not None and table.status in ("lobby", "playing") and can_ask_back(same):
            # (the teacher decides, so a locked table takes the request too)
            token = _ask_for(table, same, browser_digest, device, asked, now)
            waiting = WaitForTeacher(same.position, same.name, token)
            seat = same
        else:
            if table.locked:
                raise Conflict(N_("The teacher has locked this table: no one new can join it now. Ask your "
                                  "teacher."), code="table-locked")
            _check_name_free(table, name)
            seat = next((s for s in table.seats if s.vacant), None)
            if seat is None and table.status == "lobby":
                seat = next((s for s in table.seats if s.kind == "computer"), None)
            if seat is None:
                raise Conflict(N_("This table is full: every seat is taken."), code="table-full")
            old = seat.name
            token = new_token()
            seat.kind, seat.bot = "human", None
            seat.name, seat.name_key, seat.token_hash = name, name_key(name), token_hash(token)
            seat.seen_at, seat.student_id, seat.browser_hash = now, student_id, browser_digest
            _end_requests(seat, "ended", now)  # (devices that asked for the away student's seat)
            _withdraw_own(table, browser_digest, asked, now)  # (this device's own request, for another name)
            if old and old != name:
                deals.rename_player(table, old, name)
            table.touch()
    if waiting is not None:
        raise waiting
    return seat, token


def join_from_roster(table: TableLike, student: Any, word: Any = None, **joining: Any) -> tuple[Seat, str]:
    """At a table opened for a class: the student picked their name from the roster (no typing, no two
    of one name) and, when the class has one, typed the class word shown on the projector. `joining`:
    the browser, device and earlier request, as `join` takes them."""
    school_class = classes.class_of(table)
    if school_class is None:
        raise BadRequest(N_("This table is not a class's: type your name."), code="no-roster")
    picked = classes.student_of(school_class.id, student)
    if school_class.word and not (isinstance(word, str) and word.strip()):  # not typed: no guess to count
        raise BadRequest(N_("Type the class word shown on the projector, then tap your name."),
                         code="class-word-missing")
    if not classes.word_matches(school_class, word):
        raise BadRequest(N_("That is not the class word: it is on the projector."), code="wrong-class-word")
    return join(table, picked.name, student_id=picked.id, **joining)


def roster_student_named(table: TableLike, name: Any) -> int | None:
    """At a class's table, the roster student whose name was typed (case and spacing aside, as name_key
    compares names): she joins as if she had tapped it (join_from_roster); None at any other table or
    for a name not on the roster."""
    school_class = classes.class_of(table)
    if school_class is None or not isinstance(name, str) or not name.strip():
        return None
    def key(text: str) -> str:  # spaces folded as a name is cleaned, then compared as names are
        return name_key(" ".join(text.split()))

    typed = key(name)
    return next((s.id for s in classes.on_roster(school_class) if key(s.name) == typed), None)


def roster_choices(table: TableLike) -> list[dict[str, Any]] | None:
    """The names a joining student picks from at a class's table, each with whether it can be taken now
    (free, or a seated student's to ask back: `back`, whatever her screen's presence: the teacher decides;
    never one the teacher took off for the match: `taken_off`); None at any other table."""
    school_class = classes.class_of(table)
    if school_class is None:
        return None
    seated = {name_key(seat.name): seat for seat in table.seats if seat.name}  # (keys from the names: a stored
    # key may be of an older rule, codes.name_key)
    out = []
    for student in classes.on_roster(school_class):
        seat = seated.get(name_key(student.name))
        taken_off = _taken_off(table, None, student.id) is not None or bool(seat is not None and seat.barred)
        back = seat is not None and not taken_off and can_ask_back(seat)
        out.append({"id": student.id, "name": student.name, "free": not taken_off and (seat is None or back),
                    "back": back, "taken_off": taken_off})
    return out


def passed_around(seat: SeatLike) -> bool:
    """Whether a seat is played on a device passed around (pass-and-play): a player's seat (or one a
    computer stands in for) held by a device that no student's browser joined from: opened "on this
    device" with the table (`create`), or moved since (`move_seats`). Every join and every device let in
    names its browser (`browser_hash`), so a student's seat is never one."""
    return (bool(seat.name) and seat.token_hash is not None and seat.browser_hash is None
            and not seat.barred and (seat.kind == "human" or bool(seat.stand_in)))


def passed_around_seats(table: TableLike, but: Iterable[int] = ()) -> dict[str, str]:
    """The table's pass-and-play seats (position -> token hash, as `move_seats` takes them), but those at
    the positions given (the seats the asking browser holds already)."""
    held = set(but)
    return {str(seat.position): seat.token_hash for seat in table.seats
            if passed_around(seat) and seat.position not in held and seat.token_hash is not None}


def move_seats(table: TableLike, hashes: dict[str, str]) -> dict[int, str]:
    """Pass-and-play seats moved to another device (by the link the holding browser gives, or by the
    teacher from her table's page on the device in hand): each seat whose token is still the one named
    (by its hash) gets a new token, which only the new device holds; the device they came from no longer
    plays them (`seat_lost_sentence` tells it why). A seat a computer stands in for moves too: the new
    device's first poll hands it back. Returns the new tokens by position; a Conflict when none is as
    named (already moved)."""
    moved: dict[int, str] = {}
    with changing(table) as table:
        for seat in table.seats:
            named = hashes.get(str(seat.position))
            if named is not None and (seat.kind == "human" or seat.stand_in) and seat.token_hash == named:
                token = new_token()
                seat.token_hash = token_hash(token)
                moved[seat.position] = token
        if not moved:
            raise Conflict(N_("These seats have moved already (or changed since the link was made): ask for "
                              "a new link on the teacher's page."), code="seats-moved")
        table.touch()
    return moved


# ----------------------------------------------------------------------------------------------------
# The teacher's controls
# ----------------------------------------------------------------------------------------------------
def rename(table: TableLike, position: Any, new_name: Any) -> Seat:
    with changing(table) as table:
        seat = seat_at(table, position)
        new_name = clean_seat_name(new_name)
        if not seat.name:
            raise Conflict(say(N_("Seat %(position)d is empty: there is nobody to rename."), position=seat.position),
                           code="seat-empty")
        _check_name_free(table, new_name, except_seat=seat)
        old = seat.name
        seat.name, seat.name_key = new_name, name_key(new_name)
        if old != new_name:
            deals.rename_player(table, old, new_name)
        table.touch()
    return seat


def remove_player(table: TableLike, position: Any, for_good: bool = False) -> Seat:
    """The student leaves the seat. Before play the seat is free again; during play it keeps the name
    for the game and waits for a student to join or for a computer player.

    `for_good` (during play): the student is taken off the table for the rest of the match. Nobody may
    take the seat or ask for it back, the browser that played it cannot join again under any name, nor
    can the roster student be picked again, until the teacher lets them back (`let_back`); meanwhile a
    computer plays the seat under the student's name, as it does for an away student."""
    with changing(table) as table:
        seat = seat_at(table, position)
        if for_good:
            _take_off(table, seat)
        else:
            if seat.kind != "human" or seat.token_hash is None:
                raise Conflict(say(N_("Seat %(position)d has no player to remove."), position=seat.position),
                               code="seat-empty")
            seat.token_hash = None
            _end_requests(seat, "ended", time.time())
            if table.status == "lobby":
                seat.name = seat.name_key = None
        table.touch()
    return seat


def _take_off(table: Table, seat: Seat) -> None:
    """In the caller's `changing` block: the student of this seat is off the table for the match."""
    if table.status != "playing":
        raise Conflict(N_("A student is taken off for the match only while it is played; before it starts, "
                          "Remove frees the seat."), code="not-playing")
    if seat.barred:
        raise Conflict(say(N_("%(name)s is already taken off this table for the match."), name=seat.name),
                       code="already-taken-off")
    if not seat.name or not (seat.kind == "human" or seat.stand_in):
        raise Conflict(say(N_("Seat %(position)d has no player to remove."), position=seat.position),
                       code="seat-empty")
    now = time.time()
    seat.barred, seat.token_hash, seat.seen_at = True, None, None  # (away from now on: asked back once let back)
    _end_requests(seat, "refused", now)
    if not seat.stand_in:
        deals.begin_stand_in(table, seat, None, now)


def let_back(table: TableLike, position: Any) -> Seat:
    """The teacher lets a student taken off for the match back: the seat is an away student's again (a
    computer plays it), which her device may ask for (`join`), and her browser may join again."""
    with changing(table) as table:
        seat = seat_at(table, position)
        if not seat.barred:
            raise Conflict(say(N_("Seat %(position)d has nobody taken off the table to let back in."),
                               position=seat.position + 1), code="not-taken-off")
        seat.barred = False
        table.touch()
    return seat


def set_kind(table: TableLike, position: Any, kind: str, bot: str | None = None) -> Seat:
    """Put a computer player in a seat (any time), or before play free a computer's seat for a student.
    `kind` and `bot` are checked by the schema (schemas.SeatChange)."""
    with changing(table) as table:
        seat = seat_at(table, position)
        if kind == "computer":
            bot = bot or "random"
            old = seat.name
            if seat.kind != "computer" and (table.status == "lobby" or not seat.name):
                taken = {name_key(s.name) for s in table.seats if s.name and s is not seat}
                seat.name = computer_name(taken, table.language)
                seat.name_key = name_key(seat.name)
            # During play a computer stands in under the student's name: the deal goes on as the same player,
            # and its record says who sat there, not "Computer 3".
            seat.kind, seat.bot, seat.token_hash = "computer", bot, None
            seat.stand_in = False  # for good: no stand-in, no way back
            _end_requests(seat, "ended", time.time())
            table.next_bot_at = min(table.next_bot_at, time.time() + deals.pace(table))
            if old and old != seat.name:
                deals.rename_player(table, old, seat.name)
        elif kind == "human":
            if table.status != "lobby":
                raise Conflict(N_("Once play has started a seat cannot be emptied; put a computer player in it "
                                  "or let a student join a free seat."), code="already-started")
            if seat.kind == "human":
                raise Conflict(say(N_("Seat %(position)d is already a student's seat."), position=seat.position),
                               code="already-human")
            seat.kind, seat.bot, seat.name, seat.name_key, seat.token_hash = "human", None, None, None, None
        table.touch()
    return seat


# ----------------------------------------------------------------------------------------------------
# Seats that survive a classroom (issue #19): asking for a seat back, a computer standing in
# ----------------------------------------------------------------------------------------------------
def _requests(table: TableLike, seat: SeatLike | None = None) -> list[SeatClaim]:
    """The requests to have a seat back at this table (of one seat), the oldest first."""
    query = SeatClaim.query.filter_by(table_id=table.id)
    if seat is not None:
        query = query.filter_by(seat_id=seat.id)
    found: list[SeatClaim] = query.order_by(SeatClaim.asked_at, SeatClaim.id).all()
    return found


def _waits(claim: SeatClaim, now: float) -> bool:
    return claim.status == "waiting" and presence.claim_pending(claim.token_hash, claim.asked_at, False, now)


def _note_requests(seat: Seat, now: float) -> None:
    """The seat's own columns say whether a request waits (the newest: it expires last), which the
    teacher's poll sees without reading the requests (presence.teacher_stamp)."""
    newest = next((c for c in reversed(_requests(seat.table, seat)) if _waits(c, now)), None)
    seat.claim_hash = newest.token_hash if newest is not None else None
    seat.claim_at = newest.asked_at if newest is not None else None
    seat.claim_refused = False


def _end_requests(seat: Seat, status: str, now: float, but: SeatClaim | None = None) -> None:
    """Every request for this seat still waiting (but `but`) ends with `status`."""
    for claim in _requests(seat.table, seat):
        if claim is not but and claim.status == "waiting":
            claim.status, claim.decided_at = status, now
    db.session.flush()
    _note_requests(seat, now)


def _withdraw_own(table: Table, browser: str | None, asked: str | None, now: float) -> None:
    """In the caller's `changing` block: this device took a seat under another name, so what it asked for
    at this table (by its browser's hash or its request's secret) is given up, and leaves the teacher's list."""
    asked_hash = token_hash(asked) if asked else None
    mine = [c for c in _requests(table) if c.status == "waiting"
            and ((browser is not None and c.browser_hash == browser) or (asked_hash and c.token_hash == asked_hash))]
    for claim in mine:
        claim.status, claim.decided_at = "withdrawn", now
    if mine:
        db.session.flush()
        for seat in table.seats:
            if any(c.seat_id == seat.id for c in mine):
                _note_requests(seat, now)


def _ask_for(table: Table, seat: Seat, browser: str | None, device: str, asked: str | None, now: float) -> str:
    """In the caller's `changing` block: this device asks for the seat back, beside every other device
    that asks (none replaces another). Returns the request's secret. The same device asking again keeps
    its request; a device that asked for another seat of the table gives that request up."""
    waiting = [c for c in _requests(table) if _waits(c, now)]
    mine = next((c for c in waiting if asked and c.token_hash == token_hash(asked)), None)
    if mine is None and browser is not None:
        mine = next((c for c in waiting if c.browser_hash == browser), None)
    if mine is not None and mine.seat_id == seat.id:
        token = asked if asked and mine.token_hash == token_hash(asked) else new_token()
        mine.token_hash = token_hash(token)
    else:
        token = new_token()
        if mine is not None:
            mine.status, mine.decided_at = "withdrawn", now
            _note_requests(next(s for s in table.seats if s.id == mine.seat_id), now)
        if sum(1 for c in waiting if c.seat_id == seat.id and c is not mine) >= MAX_WAITING:
            raise Conflict(N_("Several devices are already asking for this seat: ask your teacher."),
                           code="too-many-requests")
        db.session.add(SeatClaim(table_id=table.id, seat_id=seat.id, token_hash=token_hash(token),
                                 browser_hash=browser, device=device[:60], asked_at=now))
        db.session.flush()
    _note_requests(seat, now)
    table.touch()  # every screen of the teacher's shows the new request at once
    return token


def requests_waiting(table: TableLike) -> list[dict[str, Any]]:
    """The requests to have a seat back that wait for the teacher, the oldest first: which seat, what the
    device says of itself (`device`, "" when its browser says nothing we know), when it asked, and where
    the seat's own screen is, so a prank is easy to tell from a lost phone: `screen` "here" (still open),
    "away" (for `screen_away_seconds`, None when not known) or None (no device holds the seat)."""
    now = time.time()
    seats = {seat.id: seat for seat in table.seats}
    out = []
    for claim in _requests(table):
        if not _waits(claim, now) or claim.seat_id not in seats:
            continue
        seat = seats[claim.seat_id]
        screen = deals.presence_of(seat, now)
        out.append({"id": claim.id, "position": seat.position, "name": seat.name, "device": claim.device,
                    "asked_at": claim.asked_at, "screen": screen["presence"],
                    "screen_away_seconds": screen["away_seconds"]})
    return out


ASK_ENDED = {"refused": "refused", "passed": "refused", "withdrawn": "expired", "ended": "expired"}


def ask_status(table: TableLike, token: str | None) -> tuple[str, int | None, str | None]:
    """Where this device's request to have a seat back stands: "let-in" (the seat's token is now its
    token: the seat at the position returned), "waiting", "refused" or "expired" (it ended, or the device
    asked for another seat); and for a request that ended, why, as stored: "refused" (by the teacher),
    "passed" (the teacher let another device in), "withdrawn" or "ended"."""
    if not isinstance(token, str) or not token:
        return "expired", None, None
    digest = token_hash(token)
    positions = {seat.id: seat.position for seat in table.seats}
    seat = next((s for s in table.seats if s.token_hash == digest), None)
    if seat is not None:
        return "let-in", seat.position, None
    claim = SeatClaim.query.filter_by(table_id=table.id, token_hash=digest).first()
    if claim is None or claim.seat_id not in positions:
        return "expired", None, None
    position = positions[claim.seat_id]
    if claim.status in ASK_ENDED:
        return ASK_ENDED[claim.status], position, claim.status
    if _waits(claim, time.time()):
        return "waiting", position, None
    return "expired", position, None  # too old, or let in and the seat has moved on since


def _asked_seat(table: Table, position: Any, ask: int | None) -> tuple[Seat, SeatClaim]:
    """The seat and the request the teacher answers: the one named (`ask`, its id), or the only one."""
    seat = seat_at(table, position)
    waiting = [c for c in _requests(table, seat) if _waits(c, time.time())]
    if not waiting:
        raise Conflict(say(N_("Nobody is waiting to be let into seat %(position)d (the request may have ended)."),
                           position=seat.position + 1), code="no-request")
    if ask is None:
        if len(waiting) > 1:
            raise Conflict(say(N_("Several devices ask for seat %(position)d: choose the one to answer (each is "
                                  "listed with its device and when it asked)."), position=seat.position + 1),
                           code="choose-request")
        return seat, waiting[0]
    claim = next((c for c in waiting if c.id == ask), None)
    if claim is None:
        raise Conflict(say(N_("That device no longer waits for seat %(position)d (its request ended or was "
                              "answered)."), position=seat.position + 1), code="no-request")
    return seat, claim


def let_in(table: TableLike, position: Any, ask: int | None = None) -> Seat:
    """The teacher lets the waiting device (`ask`: its request's id, when several wait) into the seat: its
    secret becomes the seat's token (the old device loses the seat), the other devices that asked are
    told no, a stand-in stops, and the deal goes on with the same cards."""
    with changing(table) as table:
        seat, claim = _asked_seat(table, position, ask)
        if seat.kind == "computer" and not seat.stand_in:
            raise Conflict(say(N_("Seat %(position)d is a computer player's now."), position=seat.position + 1),
                           code="seat-taken")
        now = time.time()
        seat.token_hash, seat.browser_hash = claim.token_hash, claim.browser_hash
        claim.status, claim.decided_at = "let-in", now
        _end_requests(seat, "passed", now, but=claim)
        if seat.stand_in:
            deals.hand_back(table, seat, now)
        seat.seen_at = now
        table.touch()
    return seat


def refuse(table: TableLike, position: Any, ask: int | None = None) -> Seat:
    """The teacher refuses the waiting device (`ask`: its request's id, when several wait); its page says so."""
    with changing(table) as table:
        seat, claim = _asked_seat(table, position, ask)
        now = time.time()
        claim.status, claim.decided_at = "refused", now
        db.session.flush()
        _note_requests(seat, now)
        table.touch()
    return seat


def stand_in(table: TableLike, position: Any, bot: str | None = None) -> Seat:
    """A computer plays an away student's seat under her name until her device polls again (or she is
    let in from another one). A seat no device holds (its device disconnected) is played the same way
    until she asks for it back from a device and the teacher lets her in: the seat is kept for her, as it
    is for a student let back in after being taken off (`let_back`)."""
    with changing(table) as table:
        seat = seat_at(table, position)
        if table.status != "playing":
            raise Conflict(N_("A computer can stand in for a student only while a hand is played."),
                           code="not-playing")
        if seat.stand_in:
            raise Conflict(say(N_("A computer already plays for %(name)s."), name=seat.name), code="already-stand-in")
        if seat.kind != "human" or not seat.name:
            raise Conflict(say(N_("Seat %(position)d has no student to stand in for."), position=seat.position + 1),
                           code="seat-empty")
        now = time.time()
        if seat.token_hash is not None and presence.away_for(seat.seen_at, now) is None:
            raise Conflict(say(N_("%(name)s is here: a computer stands in only for a student who is away."),
                               name=seat.name), code="student-here")
        deals.begin_stand_in(table, seat, bot, now)
    return seat


def hand_back(table_id: int, seats: dict[int, str]) -> bool:
    """The student's device polled: the computers standing in at these seats (seat id: the hash of the
    token the device showed) stop. A seat the device no longer holds (another device let in since) is
    left alone. Called by the clock, which writes down what the polls noted (app/services/clock.py);
    True when a seat was handed back."""
    def back(seat: SeatLike) -> bool:
        return seat.id in seats and seat.stand_in and seat.token_hash == seats[seat.id]

    table = store.by_id(table_id)
    if table is None or not any(back(seat) for seat in table.seats):
        return False
    with changing(table) as row:
        now = time.time()
        handed = [seat for seat in row.seats if back(seat)]
        for seat in handed:
            deals.hand_back(row, seat, now)
    return bool(handed)


def start(table: TableLike) -> None:
    with changing(table) as table:
        if table.status != "lobby":
            raise Conflict(N_("This table has already started."), code="already-started")
        empty = [seat.position for seat in table.seats if not seat.name]
        if empty:
            raise Conflict(say(N_("Seat %(position)d is still empty: wait for a student to join, or put a computer "
                                  "player in it."), position=empty[0]), code="seat-empty")
        deals.deal_next(table, wait=deals.pace(table))
        table.status = "playing"
        table.touch()


def set_paused(table: TableLike, paused: bool) -> None:
    """Pause play (no move by anyone, computers included) or let it go on; every screen says which."""
    with changing(table) as table:
        if table.paused != paused:
            table.paused = paused
            if not paused:  # a computer waits its pace again, from now, so the class sees its move
                table.next_bot_at = max(table.next_bot_at, time.time() + deals.pace(table))
            table.touch()


def pause_all(teacher_id: int, paused: bool) -> int:
    """Pause (or resume) every open table of this teacher; returns how many changed."""
    changed = 0
    for table in open_tables(teacher_id):
        if table.paused != paused:
            set_paused(table, paused)
            changed += 1
    return changed


def set_turn_seconds(table: TableLike, seconds: int | None) -> None:
    """Set, change or switch off the time a student has to make a move (`turn_seconds`, a classroom
    option: records leave it out, so a deal in play takes it). The table's clock for the move to make
    starts again now: whoever is to move gets the new time in full, and nobody's time is cut short."""
    with changing(table) as table:
        if table.status in ("finished", "closed"):
            raise Conflict(N_("This table's match is over: there is no move left to time."), code="table-closed")
        overrides = {name: value for name, value in table.overrides.items() if name != "turn_seconds"}
        if seconds is not None:
            overrides["turn_seconds"] = seconds
        try:
            make_options(table.rules, overrides)
        except OptionsError as exc:
            raise BadRequest(exc) from None
        if overrides == table.overrides:
            return
        table.options_json = json.dumps(overrides)
        now = time.time()
        if seconds is not None:  # the clock looks at the person to move again when her new time runs out
            table.next_bot_at = min(table.next_bot_at, now + seconds)
        table.touch()


def seat_lost_sentence(table: TableLike, position: int) -> Text | None:
    """What the browser that held this seat is told once its token no longer opens it, when the teacher
    gave the seat to a computer player for good or took her off for the match, or a pass-and-play seat
    moved to another device; None otherwise (a device let in for her, a seat freed before play). Says
    nothing of the seat but that."""
    seat = next((s for s in table.seats if s.position == position), None)
    if seat is None:
        return None
    if seat.barred:
        return Text(N_("Your teacher has taken you off this table for the rest of the match: you cannot join it again "
                       "under any name. Ask your teacher."))
    if seat.kind == "computer" and not seat.stand_in:
        return Text(N_("Your teacher gave your seat to a computer player. Ask your teacher what to do."))
    if passed_around(seat):
        return Text(N_("The seats played on this device have moved to another device: play goes on there."))
    return None


def set_locked(table: TableLike, locked_: bool) -> None:
    """Lock the table against new joins (students already seated keep their seats), or open it again."""
    with changing(table) as table:
        if table.locked != locked_:
            table.locked = locked_
            table.touch()


def close(table: TableLike) -> None:
    with changing(table) as table:
        if table.status == "closed":
            return
        table.status = "closed"
        table.touch()


def open_tables(teacher_id: int, limit: int = 100) -> list[Table]:
    """The teacher's open tables, the newest first (not her students' homework games: app/services/homework.py)."""
    found: list[Table] = (Table.query.filter(Table.status.in_(OPEN_STATUSES), Table.teacher_id == teacher_id,
                                             Table.assignment_id.is_(None))
                          .order_by(Table.created_at.desc(), Table.id.desc()).limit(limit).all())
    return found
