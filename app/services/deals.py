"""Deals in play: deal, apply a move, let the computer players move, end the match.

The turn logic lives here; where a table and its games are kept is the store's (app/store): a move is
one write transaction of `store.moving`, which locks the table and looks again, so moves from every
process and thread are applied one after the other, each against the version it names.
"""
from __future__ import annotations

import hashlib
import json
import secrets
import time
from dataclasses import replace
from functools import lru_cache
from typing import Any, Callable, Mapping, Sequence, TypeVar

from flask import current_app

from .. import store
from ..store import presence, timing
from ..decks.errors import N_, say
from ..engine import match
from ..engine.bots import BOTS, Bot, make_bot
from ..engine.dealing import deal_back
from ..engine.game import Game
from ..engine.moves import Answer, Ask, Defend, IllegalMove, Move, move_from_dict
from ..engine.record import Record, record_of, renamed_header
from ..models import Deal, Seat, Table
from ..store import DealLike, DealSnapshot, SeatLike, TableLike, TableSnapshot
from . import idempotency, reviews
from .errors import Conflict, NotFound, Refused

MAX_BOT_STEPS = 5000   # with no pace (tests), computer players move until a person must act

DEFAULTS = {"BOT_PACE_SECONDS": 2.5, "HAND_PAUSE_SECONDS": 4.0, "POLL_MS": 1000, "DEAL_SEED": None}


def setting(name: str) -> Any:
    return current_app.config.get(name, DEFAULTS[name])


def pace(table: TableLike) -> float:
    """Seconds between computer players' moves: the table's own (the teacher's choice), else the app's
    (BOT_PACE_SECONDS: 2.5 s, a pace a class can follow; tests and benchmarks set their own)."""
    own = getattr(table, "pace_seconds", None)
    return float(own) if own is not None else float(setting("BOT_PACE_SECONDS"))


def record_yaml(deal: DealLike) -> str:
    return store.record(deal).to_yaml()


def record_for(deal: DealLike) -> Record:
    return store.record(deal)


# ----------------------------------------------------------------------------------------------------
# Dealing and results
# ----------------------------------------------------------------------------------------------------
DEAL_SEED_BITS = 128  # a student who knows their own hand must not be able to search every seed offline


def _deal_seed(table: Table, number: int) -> int:
    fixed = setting("DEAL_SEED")
    if fixed is None:
        return secrets.randbits(DEAL_SEED_BITS)
    digest = hashlib.sha256(f"{fixed}:{table.id}:{number}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


def deal_next(table: Table, wait: float = 0.0) -> Deal:
    """Deal the next deal of the match; the dealer is one seat further to the left each deal. A computer
    player who is to ask first may do so `wait` seconds from now."""
    names = [seat.name for seat in table.seats]
    number = len(table.deals) + 1
    dealer = names[(len(names) - 1 + number - 1) % len(names)]
    game = Game(store.deck_by_ref(table.deck_id), table.options, names, dealer=dealer, seed=_deal_seed(table, number),
                rules=table.rules)
    if table.options.review_deals:
        game = _dealt_back(table, game)
    header = record_of(game).to_dict()
    header.pop("moves", None)
    students = [seat.name for seat in table.seats if _students_seat(seat)]
    deal = Deal(number=number, header_json=json.dumps(header, ensure_ascii=False),
                students_json=json.dumps(students, ensure_ascii=False))
    table.deals.append(deal)
    now = time.time()
    table.next_bot_at = now + wait if _computer_turn(table, game) else _person_wait(table, game.turn, now)
    return deal


def _dealt_back(table: Table, game: Game) -> Game:
    """The deal with the works due for review of the table's roster students moved to the computer
    players' hands (`review_deals`: docs/rules.md; app/engine/dealing.py), or `game` as dealt when there
    is nothing to move."""
    students = {seat.student_id: seat.name for seat in table.seats
                if seat.student_id is not None and seat.kind == "human" and seat.name and not seat.barred}
    computers = [seat.name for seat in table.seats if seat.kind == "computer" and seat.name]
    if not students or not computers or table.options.teams:
        return game
    due = reviews.due_works(sorted(students), reviews.deck_key(table.deck_id), time.time())
    set_of = {card.id: card_set.id for card_set in game.deck.sets for card in card_set.cards}
    wanted = [(work.card_id, students[work.student_id]) for work in due if work.card_id in set_of]
    if not wanted:
        return game
    moved = deal_back(game.initial_hands, game.initial_stock, set_of, wanted, computers)
    if not moved.placed:
        return game
    return Game(game.source_deck, table.options, game.players, dealer=game.players[game.dealer], hands=moved.hands,
                stock=moved.stock or None, seed=game.seed, rules=table.rules)


def match_format(table: TableLike) -> match.MatchFormat:
    tie_break = bool(getattr(table, "match_tie_break", False))
    if table.match_format == "hands":
        return match.MatchFormat(deals=table.match_value, tie_break=tie_break)
    return match.MatchFormat(deals=None, target=table.match_value, tie_break=tie_break)


def _results(table: TableLike) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    """The finished deals' results of the match proper, and the tie-break deal's, once played."""
    results = [result for result in (deal.result for deal in table.deals) if result is not None]
    regular = [result for result in results if not result.get("tie_break")]
    extra = next((result for result in results if result.get("tie_break")), None)
    return regular, extra


def _seat_scores(result: dict[str, Any]) -> list[int]:
    """A finished deal's scores in seat order (it keeps the names it was played with: its players are
    listed in seat order)."""
    return [result["scores"].get(name, 0) for name in result["players"]]


def _totals(table: TableLike) -> tuple[list[int], int]:
    """Each seat's total over the finished deals of the match proper (the engine's arithmetic), and how
    many those are."""
    regular, _extra = _results(table)
    return match.seat_totals(map(_seat_scores, regular), len(table.seats)), len(regular)


def _ranked(table: TableLike) -> list[tuple[int, int]]:
    """(seat, total) of every seat with a player now or a deal played, best first."""
    totals, _count = _totals(table)
    named = {seat.position for seat in table.seats if seat.name}
    played = max((len(result["players"]) for result in (deal.result for deal in table.deals) if result is not None),
                 default=0)
    rows = [(seat, total) for seat, total in enumerate(totals) if seat in named or seat < played]
    return sorted(rows, key=lambda row: (-row[1], row[0]))


def standings(table: TableLike) -> list[dict[str, Any]]:
    """Each seat's total over the finished deals of the match, best first, under the seat's name now."""
    names = {seat.position: seat.name for seat in table.seats}
    return [{"name": names.get(seat), "total": total} for seat, total in _ranked(table)]


def in_tie_break(table: TableLike) -> bool:
    """Whether the deal being played is the tie-break deal: the match proper is over, tied."""
    totals, finished = _totals(table)
    return (table.status == "playing" and match.regular_play_over(match_format(table), finished, totals)
            and match.tie_break_due(match_format(table), totals))


def match_winners(table: TableLike) -> list[str | None]:
    if table.status != "finished":
        return []
    rows = _ranked(table)
    names = {seat.position: seat.name for seat in table.seats}
    _regular, extra = _results(table)
    totals = [total for _seat, total in rows]
    extra_scores = None if extra is None else [_seat_scores(extra)[seat] for seat, _total in rows]
    return [names.get(rows[i][0]) for i in match.match_winners(totals, extra_scores)]


# ----------------------------------------------------------------------------------------------------
# Moves
# ----------------------------------------------------------------------------------------------------
NO_COMPUTER = 1e12  # next_bot_at while a person is to move: no computer player may move before a change


def _stale() -> Conflict:
    return Conflict(N_("The table changed at the same moment; look again and choose again."), code="stale-version")


def _commit_move(table: TableSnapshot, deal: DealSnapshot, game: Game, move: Move,
                 before_commit: Callable[[Game], None] | None = None,
                 extra: dict[str, Any] | None = None) -> TableSnapshot:
    """Apply a move to the deal's game and store it, inside the caller's `store.moving` block (which holds
    the table's lock), then commit; the next deal is dealt when this one ends. `before_commit(game)` adds
    to the transaction. Returns the table as this commit left it. `extra`: keys the move's row keeps
    beside the move (a hint taken: app/services/recall.py), which the game never reads."""
    try:
        game.apply(move)
    except IllegalMove as refusal:
        raise Refused(refusal, code=refusal.code) from None
    now = time.time()
    next_bot_at = now + pace(table) if _computer_turn(table, game) else _person_wait(table, game.turn, now)
    row = {**move.to_dict(), **(extra or {})}
    version = store.append_move(table, deal.id, len(game.moves) - 1, row, now,
                                None if game.finished else next_bot_at)
    if _reviewed(table) and not by_computer(row):
        reviews.note_move(table, deal.id, len(game.moves) - 1, game, row, now)
    if game.finished:
        version = _finish_deal(table, deal, game, now, next_bot_at)
    if before_commit is not None:
        before_commit(game)
    moved = None if game.finished else table.moved_to(version, now, next_bot_at)
    store.commit_move(moved)
    if moved is None:
        fresh = store.by_id(table.id)
        if fresh is None:
            raise NotFound(N_("This table is gone."), code="unknown-code")
        return fresh
    return moved


def _finish_deal(table: TableSnapshot, deal: DealSnapshot, game: Game, now: float, next_bot_at: float) -> int:
    """The deal is over: store its result, then end the match or deal the next deal (the ORM, in the
    move's transaction). Returns the table's new version."""
    row = store.row_of(table)
    tie_break = in_tie_break(row)  # (the deal just ended is not counted yet)
    result = game.outcome().to_dict()
    if tie_break:
        result["tie_break"] = True  # it settles the tie; its scores are not in the match's totals
    stored = next(h for h in row.deals if h.id == deal.id)
    stored.result_json = json.dumps(result, ensure_ascii=False)
    row.changed_at, row.next_bot_at = now, next_bot_at
    totals, finished = _totals(row)
    fmt = match_format(row)
    if tie_break or (match.regular_play_over(fmt, finished, totals) and not match.tie_break_due(fmt, totals)):
        row.status = "finished"
    else:
        deal_next(row, wait=setting("HAND_PAUSE_SECONDS"))  # the next deal, or the tie-break deal
    return store.flush(row)


def play(table: TableSnapshot, seat: SeatLike, move: Move, expected_version: int | None, key: str | None = None,
         fingerprint: str = "", extra: dict[str, Any] | None = None
         ) -> tuple[Sequence[Mapping[str, Any]], bool, TableSnapshot]:
    """A person's move from their seat, in one write transaction that holds the table's lock, so moves
    from every process and thread are applied one after the other, each against the version it names.

    With an idempotency `key`, the move is stored with its answer: a retry with the same key gets that
    answer again and changes nothing. Returns the move's events as the seat saw them, whether they are
    the stored answer to an earlier try, and the table as the move (and any computer players' moves
    after it) left it."""
    seat_id, seat_token, seat_name = seat.id, seat.token_hash, seat.name
    try:
        with store.moving(table) as table:
            scope = f"move:{table.id}"
            if key is not None:
                stored = idempotency.find(scope, key, fingerprint)
                if stored is not None:
                    return stored["result"], True, table
            held = next((s for s in table.seats if s.id == seat_id), None)
            if held is None or held.token_hash != seat_token or held.name != seat_name:
                raise Conflict(N_("Your seat changed at the same moment (the teacher moved or renamed someone); "
                                  "look again."), code="stale-version")
            if table.status == "lobby":
                raise Conflict(N_("The game has not started yet; wait for the teacher to start it."),
                                code="not-started")
            if table.status != "playing":
                raise Conflict(N_("This match is over; no more moves can be made."), code="game-over")
            if table.paused:
                raise Conflict(N_("The teacher has paused this table: wait until play goes on."), code="paused")
            deal = _in_play(table)
            with store.playing(deal) as game:
                if expected_version is not None and expected_version != table.version:
                    raise _moved_on(game.check(move), expected_version, table.version)
                result: list[Mapping[str, Any]] = []

                def keep_answer(game: Game) -> None:
                    result.extend(game.recent(seat_name))  # the move's events, as the mover saw them
                    if key is not None:
                        idempotency.store(scope, key, fingerprint, {"result": result})

                table = _commit_move(table, deal, game, move, before_commit=keep_answer, extra=extra)
    except store.Gone:
        raise NotFound(N_("This table is gone."), code="unknown-code") from None
    except store.Stale:
        raise _stale() from None
    return result, False, _advance(table)[1]


def _in_play(table: TableSnapshot) -> DealSnapshot:
    """The deal being played at a table in play (its first was dealt as play started)."""
    deal = table.current_deal
    if deal is None:
        raise RuntimeError(f"table {table.id} is in play without a deal")
    return deal


def _moved_on(refusal: IllegalMove | None, before: int, now: int) -> Conflict:
    """The move names a version the table has left: say so, with the rule's reason if it is refused now
    (the refusal's own sentence, said in the reader's language with the rest)."""
    if refusal is None:
        return Conflict(say(N_("The table has moved on since your screen was drawn (version %(before)d, now %(now)d); "
                               "look again and choose again."), before=before, now=now), code="stale-version")
    return Conflict(say(N_("The table has moved on since your screen was drawn (version %(before)d, now %(now)d) "
                           "(%(reason)s); look again and choose again."), before=before, now=now, reason=refusal.text),
                    code=refusal.code)


def _computer_turn(table: TableLike, game: Game) -> bool:
    actor = game.turn
    return game.finished or any(s.kind == "computer" and s.name == actor for s in table.seats)


def _bot_due(table: TableLike, now: float) -> SeatLike | None:
    """The computer player's seat that may move now, if any."""
    if table.status != "playing" or table.paused or now < table.next_bot_at:
        return None
    actor = store.turn(table)
    seat = next((s for s in table.seats if s.name == actor), None) if actor else None
    return seat if seat is not None and seat.kind == "computer" else None


def _make_bot(seat: SeatLike) -> Callable[[int], Bot]:
    name = seat.bot if seat.bot in BOTS else "random"
    return lambda seed: make_bot(name, seed)


def advance(table: TableLike, now: float | None = None) -> int:
    """Let computer players move: one move once the pace has passed (every move with no pace); a person
    whose time ran out, or who has been away long enough, is looked at (_person_due). Returns how many
    computer players moved: the caller's table is to be read again when any did.

    Called by the clock (app/services/clock.py) in every process, for each table it finds due, and after
    a teacher's change that may let a computer move; never by a read. A computer's move is a write like
    a person's: it takes the table's lock and looks again, so of two processes that both see a computer
    player due, the second finds the move made (and the pace started again) and does nothing."""
    return _advance(table, now)[0]


_Table = TypeVar("_Table", bound=TableLike)


def _advance(table: _Table, now: float | None = None) -> tuple[int, _Table | TableSnapshot]:
    """advance(), returning also the table as the last move left it (the caller's, when none moved)."""
    limit = 1 if pace(table) > 0 else MAX_BOT_STEPS
    steps = 0
    last: _Table | TableSnapshot = table
    while steps < limit:
        clock = time.time() if now is None else now
        if _bot_due(last, clock) is None:
            if not _person_due(last, clock):
                break
            fresh = store.by_id(last.id)  # a computer now stands in: it moves next
            if fresh is None:
                break
            last = fresh
            continue
        try:
            with store.moving(last) as locked:
                last = locked
                seat = _bot_due(locked, clock)
                if seat is None or seat.name is None:  # (a seat whose turn it is has its player's name)
                    break
                deal = _in_play(locked)
                with store.playing(deal) as game:
                    move = store.bot_for(seat, deal, game, _make_bot(seat)).choose(game.view(seat.name))
                    if played_by_student(locked, seat.name):  # standing in for her, or replacing her
                        last = _commit_move(locked, deal, game, for_student(move), extra=COMPUTER_MOVE)
                    else:
                        last = _commit_move(locked, deal, game, move)
        except (store.Gone, store.Stale, Conflict):
            break
        steps += 1
    return steps, last


# ----------------------------------------------------------------------------------------------------
# A computer's moves on a student's seat are the computer's: they name no work, and their rows say so
# ----------------------------------------------------------------------------------------------------
COMPUTER_MOVE = {"computer": True}  # the row's mark (the game never reads it; the reports do)


def _students_seat(seat: SeatLike) -> bool:
    """Whether a student plays this seat: her own, or hers with a computer standing in while she is away
    (not a computer's seat, nor the seat of a student taken off for the match)."""
    return bool(seat.name) and not getattr(seat, "barred", False) and (seat.kind == "human" or bool(seat.stand_in))


def students_of(deal: DealLike, table: TableLike) -> frozenset[str]:
    """The players of a deal who are students: as it was dealt (`students_json`); for a deal dealt before
    that was kept (revision 0015), the seats that are a student's now."""
    if deal.students_json is not None:
        return _student_names(deal.students_json)
    return frozenset(seat.name for seat in table.seats if seat.name and _students_seat(seat))


@lru_cache(maxsize=1024)
def _student_names(students_json: str) -> frozenset[str]:
    return frozenset(json.loads(students_json))


def played_by_student(table: TableLike, name: str) -> bool:
    """Whether a student played under this name in a deal of the match: a computer in the seat now
    stands in for her or replaced her, and what it does under her name is never hers."""
    return any(name in students_of(deal, table) for deal in table.deals)


def for_student(move: Move) -> Move:
    """A computer's move on a student's seat (standing in, replacing her, or when her time ran out) names
    no work, so it scores no bonus of hers: a prompt is passed (`answer: null`), an ask goes without
    `named`."""
    if isinstance(move, Answer):
        return Answer(move.player, None)
    if isinstance(move, Ask) and move.named is not None:
        return replace(move, named=None)
    if isinstance(move, Defend):  # (a computer's defence is no naming of hers: the set is given up)
        return Defend(move.player, move.set, ())
    return move


def _reviewed(table: TableLike) -> bool:
    """Are this table's namings reviews of someone's (a roster student's, naming works)?"""
    options = table.options
    return (options.name_the_work or options.named_asks) and any(seat.student_id is not None for seat in table.seats)


def by_computer(row: dict[str, Any]) -> bool:
    """Whether a move's row is a computer's on a student's seat (`timed_out` alone: a row stored before
    `computer` was written)."""
    return bool(row.get("computer") or row.get("timed_out"))


# ----------------------------------------------------------------------------------------------------
# A computer stands in for an away student, and hands the seat back (issue #19)
# ----------------------------------------------------------------------------------------------------
def stand_in_after(table: TableLike) -> float | None:
    """Seconds away after which a computer stands in for a student by itself (the table's option
    `stand_in_after`, in minutes), or None: only when the teacher asks."""
    minutes = table.options.stand_in_after
    return None if minutes is None else float(minutes) * 60.0


def _standing_in_for(seat: SeatLike) -> bool:
    """Whether a computer may stand in for this seat: a student's, with her device's token."""
    return seat.kind == "human" and seat.token_hash is not None and bool(seat.name)


def turn_limit(table: TableLike) -> float | None:
    """Seconds a person has to make a move (the table's `turn_seconds`), or None: no limit."""
    seconds = table.options.turn_seconds
    return None if seconds is None else float(seconds)


def turn_deadline(table: TableLike) -> float | None:
    """When the person to move runs out of time (the moment the table last moved, plus the limit), or
    None: no limit, no person to move, or play stopped."""
    limit = turn_limit(table)
    if limit is None or table.status != "playing" or table.paused:
        return None
    actor = store.turn(table)
    seat = next((s for s in table.seats if s.name == actor), None) if actor else None
    return None if seat is None or seat.kind == "computer" else table.changed_at + limit


def _person_wait(table: TableLike, actor: str | None, now: float, turn_start: float | None = None) -> float:
    """next_bot_at while a person is to move: NO_COMPUTER; else the first moment she is to be looked at
    again: at a table with `stand_in_after`, when a computer would stand in for her if she stays away;
    with `turn_seconds`, when her time for the move runs out (`turn_start`: when her turn began)."""
    seat = next((s for s in table.seats if s.name == actor), None) if actor else None
    if seat is None or seat.kind == "computer":
        return NO_COMPUTER
    moments: list[float] = []
    after = stand_in_after(table)
    if after is not None and _standing_in_for(seat):
        seen = seat.seen_at if seat.seen_at is not None else now
        moments.append(max(now + pace(table), seen + after))
    limit = turn_limit(table)
    if limit is not None:
        moments.append((now if turn_start is None else turn_start) + limit)
    return min(moments) if moments else NO_COMPUTER


def _person_due(table: TableLike, now: float) -> bool:
    """A person is to move and the moment to look at her again has come (no computer is due): a computer
    stands in for her when she has been away for `stand_in_after` (True: the table changed), else the
    next look is put off (next_bot_at alone is written: no version, no screen redraws)."""
    if table.status != "playing" or table.paused or now < table.next_bot_at:
        return False
    actor = store.turn(table)
    seat = next((s for s in table.seats if s.name == actor), None) if actor else None
    if seat is None or seat.kind == "computer":
        return False
    after = stand_in_after(table)
    if after is not None and _standing_in_for(seat) and (seat.seen_at is None or now - seat.seen_at >= after):
        try:
            with store.changing(table) as row:
                locked = next(s for s in row.seats if s.id == seat.id)
                if not _standing_in_for(locked):
                    return False
                begin_stand_in(row, locked, None, now)
        except (store.Gone, store.Stale):
            return False
        return True
    limit = turn_limit(table)
    if limit is not None and now >= table.changed_at + limit:
        return _play_for(table, limit)
    timing.put_off(table.id, table.version, _person_wait(table, actor, now, turn_start=table.changed_at))
    return False


def _play_for(table: TableLike, limit: float) -> bool:
    """The person to move ran out of time (`turn_seconds`): a computer player makes that one move for
    her, naming no work (`for_student`: a prompt is passed); her seat stays hers, and the move's row
    says `timed_out` and `computer`. True when it was made."""
    try:
        with store.moving(table) as locked:
            actor = store.turn(locked)
            seat = next((s for s in locked.seats if s.name == actor), None) if actor else None
            if actor is None or seat is None or seat.kind == "computer" or locked.paused \
                    or time.time() < locked.changed_at + limit:
                return False
            deal = _in_play(locked)
            with store.playing(deal) as game:
                move = make_bot("random", deal.id * 1000 + len(game.moves)).choose(game.view(actor))
                _commit_move(locked, deal, game, for_student(move), extra={**COMPUTER_MOVE, "timed_out": True})
    except (store.Gone, store.Stale, Conflict):
        return False
    return True


def begin_stand_in(table: Table, seat: Seat, bot: str | None, now: float) -> None:
    """In the caller's `store.changing` block: a computer plays the student's seat under her name; her
    token stays, so her device's next poll hands the seat back (`hand_back`)."""
    seat.kind, seat.bot, seat.stand_in = "computer", bot if bot in BOTS else "random", True
    table.next_bot_at = min(table.next_bot_at, now + pace(table))
    table.touch()


def hand_back(table: Table, seat: Seat, now: float) -> None:
    """In the caller's `store.changing` block: the stand-in stops, the seat is the student's again."""
    seat.kind, seat.bot, seat.stand_in, seat.seen_at = "human", None, False, now
    # (a computer of another seat keeps its pace; a person's turn is looked at again: _person_due)
    table.next_bot_at = min(table.next_bot_at, now + pace(table))
    table.touch()


def presence_of(seat: SeatLike, now: float) -> dict[str, Any]:
    """What the teacher's page shows of a seat's presence (never sent to students): `presence` "here" or
    "away" for a seat with a student's device or a stand-in (None otherwise), `away_seconds` (None while
    here, or not known), `asks_back` whether another device waits to be let into the seat."""
    out: dict[str, Any] = {"presence": None, "away_seconds": None,
                           "asks_back": presence.claim_pending(seat.claim_hash, seat.claim_at,
                                                               bool(seat.claim_refused), now)}
    if seat.token_hash or seat.stand_in:
        away = presence.away_for(seat.seen_at, now)
        out["presence"] = "here" if away is None else "away"
        if away is not None and away != float("inf"):
            out["away_seconds"] = int(away)
    return out


# ----------------------------------------------------------------------------------------------------
# Renaming: the log is rewritten so the record shows the name the class knows
# ----------------------------------------------------------------------------------------------------
def rename_player(table: Table, old: str, new: str) -> None:
    """Rewrite the deal being played so `old` is called `new` (in the caller's `store.changing` block). A
    finished deal is never rewritten: its record and the reports keep the names it was played with."""
    for deal in table.deals:
        if deal.result_json:
            continue
        deal.header_json = json.dumps(renamed_header(deal.header, old, new), ensure_ascii=False)
        if deal.students_json is not None:
            deal.students_json = json.dumps([new if name == old else name for name in json.loads(deal.students_json)],
                                            ensure_ascii=False)
        for row in deal.moves:
            data = row.data
            row.data_json = json.dumps({**data, **move_from_dict(data).renamed(old, new).to_dict()},
                                       ensure_ascii=False)
        deal.revision += 1  # a new stamp: no process's cached game of the old names is used again
        store.evict(deal)
