"""Hands in play: deal, replay the log, apply a move, let the computer players move, end the match.

A hand is stored as its record header (the deal as it fell) and its move rows. The Game is rebuilt by
replaying them; a process keeps the games it has built and only replays the rows it has not seen, so
any number of workers can serve one table: the database is the truth.

Every move (a person's or a computer player's) is one write transaction that begins by locking the
table (app/db.py: SELECT ... FOR UPDATE on PostgreSQL, BEGIN IMMEDIATE on SQLite) and then looks again:
moves from every process and thread are applied one after the other, each against the version it
names. The lock of a hand's cached game is taken only after the table's lock.
"""
from __future__ import annotations

import hashlib
import json
import secrets
import threading
import time
from typing import Any

from flask import current_app
from flask_babel import gettext as _
from sqlalchemy import bindparam, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.exc import StaleDataError

from ..db import db
from ..engine.bots import BOTS, make_bot
from ..engine.events import Event
from ..engine.game import Game
from ..engine.moves import IllegalMove, Move
from ..engine.options import make_options
from ..engine.record import Record, record_of
from ..models import Hand, MoveRow, Seat, Table
from . import idempotency, snapshots
from .snapshots import HandSnapshot, TableSnapshot
from .catalog import deck_by_ref, header_deck
from .errors import Conflict, NotFound, Refused, ServiceError
from .moves import move_from_row, move_to_row

MAX_BOT_STEPS = 5000   # with no pace (tests), computer players move until a person must act
MAX_HANDS = 50         # a first-to-N match ends here whatever the scores

TABLES, MOVES = Table.__table__, MoveRow.__table__
# Core statements, built once: every move runs them.
NEW_MOVES = (select(MOVES.c.seq, MOVES.c.data_json)
             .where(MOVES.c.hand_id == bindparam("hand_id"), MOVES.c.seq >= bindparam("seen")).order_by(MOVES.c.seq))
STORE_MOVE = insert(MOVES)
NEXT_VERSION = (update(TABLES).where(TABLES.c.id == bindparam("table_id"), TABLES.c.version == bindparam("read"))
                .values(version=bindparam("version"), changed_at=bindparam("changed_at"),
                        next_bot_at=bindparam("next_bot_at")))

DEFAULTS = {"BOT_PACE_SECONDS": 2.5, "HAND_PAUSE_SECONDS": 4.0, "POLL_MS": 1000, "DEAL_SEED": None}

_stripes = [threading.RLock() for _ in range(64)]  # a hand's game is never changed by two threads at once
_registry = threading.Lock()                          # guards the caches' bookkeeping
_games: dict[tuple[str, int], tuple[tuple, Game]] = {}
_bots: dict[tuple, list] = {}   # (hand, its stamp, seat, strength) -> [bot, events seen]
_turns: dict[tuple[str, int], tuple] = {}  # table -> (version, hand, whose turn): a poll's shortcut
_caught_up: dict[tuple[str, int], tuple] = {}  # hand -> (its stamp, the table version its game has seen)


def setting(name: str) -> Any:
    return current_app.config.get(name, DEFAULTS[name])


def pace(table) -> float:
    """Seconds between computer players' moves: the table's own (the teacher's choice), else the app's
    (BOT_PACE_SECONDS: 2.5 s, a pace a class can follow; tests and benchmarks set their own)."""
    own = getattr(table, "pace_seconds", None)
    return float(own) if own is not None else float(setting("BOT_PACE_SECONDS"))


def lock(hand: Hand) -> threading.RLock:
    """The lock of one hand's cached game (one of 64 stripes). Take it only after the table's write lock,
    never the other way round: whoever holds it must never wait for the database. So the session gets
    its connection (from the pool, which may be busy) here, before the lock is taken."""
    db.session.connection()
    return _stripes[hash(_key(hand)) % len(_stripes)]


def _remember(cache: dict, key, value, limit: int) -> None:
    with _registry:
        cache[key] = value
        while len(cache) > limit:
            cache.pop(next(iter(cache)))


# ----------------------------------------------------------------------------------------------------
# Building games from the log
# ----------------------------------------------------------------------------------------------------
def game_from_header(header: dict[str, Any]) -> Game:
    options = make_options(header["rules"], header.get("options") or {})
    return Game(header_deck(header["deck"]), options, header["players"], dealer=header.get("dealer"),
                teams=header.get("teams"), hands=header.get("hands"), stock=header.get("stock"),
                rules=header["rules"])


def _key(hand: Hand) -> tuple[str, int]:
    return (db.engine.url, hand.id)  # the URL itself (hashable): rendering it each time cost a poll 1%


def _stamp(hand: Hand) -> tuple:
    """What must match for a cached game to be this hand's: ids come back after a database is reset, the
    moment a hand was dealt does not; a rename rewrites the log and bumps the revision."""
    return (hand.table_id, hand.number, hand.started_at, hand.revision)


def game_of(hand: Hand) -> Game:
    """The hand's game with every stored move applied (cached per process, caught up from the log).

    Every move bumps the table's version, so a cached game already caught up at the version this request
    read has every move there is to see, and the log is not read again (a poll that finds a change reads
    the table, not the moves, when this process was the one that made it)."""
    with lock(hand):
        key, stamp = _key(hand), _stamp(hand)
        cached = _games.get(key)
        if cached is None or cached[0] != stamp:
            game = game_from_header(hand.header)
            _remember(_games, key, (stamp, game), 512)
        else:
            game = cached[1]
            if _caught_up.get(key) == (stamp, hand.table.version):
                return game
        version = hand.table.version  # read before the log: the game holds at least this version's moves
        rows = db.session.connection().execute(NEW_MOVES, {"hand_id": hand.id, "seen": len(game.moves)})
        for seq, data_json in rows:
            if seq != len(game.moves):
                evict(hand)
                raise RuntimeError(f"hand {hand.id}: move {len(game.moves)} is missing from the log")
            game.apply(move_from_row(json.loads(data_json)))
        _remember(_caught_up, key, (stamp, version), 512)
        return game


def _caught_up_at(hand: Hand, version: int) -> None:
    """This process's cached game of the hand holds every move up to this table version (its own move)."""
    _remember(_caught_up, _key(hand), (_stamp(hand), version), 512)


def evict(hand: Hand) -> None:
    with _registry:
        _games.pop(_key(hand), None)
        _caught_up.pop(_key(hand), None)


def record_yaml(hand: Hand) -> str:
    return record_of(game_of(hand)).to_yaml()


def record_for(hand: Hand) -> Record:
    return record_of(game_of(hand))


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


def deal(table: Table, wait: float = 0.0) -> Hand:
    """Deal the next hand of the match; the deal rotates one seat to the left each hand. A computer
    player who is to ask first may do so `wait` seconds from now."""
    names = [seat.name for seat in table.seats]
    number = len(table.hands) + 1
    dealer = names[(len(names) - 1 + number - 1) % len(names)]
    options = make_options(table.rules, table.overrides)
    game = Game(deck_by_ref(table.deck_id), options, names, dealer=dealer, seed=_deal_seed(table, number),
                rules=table.rules)
    header = record_of(game).to_dict()
    header.pop("moves", None)
    hand = Hand(number=number, header_json=json.dumps(header, ensure_ascii=False))
    table.hands.append(hand)
    table.next_bot_at = time.time() + wait if _computer_turn(table, game) else NO_COMPUTER
    return hand


def hand_result(game: Game) -> dict[str, Any]:
    view = game.public_view()
    return {"dealer": view.dealer, "players": list(view.players), "scores": dict(view.scores),
            "bonus": dict(view.bonus), "books": {k: list(v) for k, v in view.books.items()},
            "winners": list(view.winners), "teams": [list(t) for t in view.teams] if view.teams else None,
            "team_scores": list(view.team_scores) if view.team_scores else None,
            "team_books": [list(b) for b in view.team_books] if view.team_books else None,
            "cancelled": list(view.cancelled)}


def standings(table: Table) -> list[dict[str, Any]]:
    """Each seat's total over the finished hands of the match, best first, under the seat's name now. A
    finished hand keeps the names it was played with, so its scores are counted by seat: its players
    are listed in seat order."""
    totals = {seat.position: 0 for seat in table.seats if seat.name}
    for hand in table.hands:
        result = hand.result
        if result:
            for position, name in enumerate(result["players"]):
                totals[position] = totals.get(position, 0) + result["scores"].get(name, 0)
    names = {seat.position: seat.name for seat in table.seats}
    return [{"name": names.get(position), "total": total}
            for position, total in sorted(totals.items(), key=lambda kv: (-kv[1], kv[0]))]


def match_over(table: Table) -> bool:
    finished = [hand for hand in table.hands if hand.result_json]
    if table.match_format == "hands":
        return len(finished) >= table.match_value
    if len(finished) >= MAX_HANDS:
        return True
    return any(row["total"] >= table.match_value for row in standings(table))


def match_winners(table: Table) -> list[str]:
    if table.status != "finished":
        return []
    rows = standings(table)
    best = rows[0]["total"] if rows else 0
    return [row["name"] for row in rows if row["total"] == best]


# ----------------------------------------------------------------------------------------------------
# Moves
# ----------------------------------------------------------------------------------------------------
def _commit_move(table: TableSnapshot, hand: HandSnapshot, game: Game, move: Move,
                 before_commit=None, extra: dict | None = None) -> tuple[list[Event], TableSnapshot]:
    """Apply a move and store it in the caller's write transaction (which holds the table's lock), then
    commit; the next hand is dealt when this one ends. `before_commit(events)` adds to the transaction.
    Returns the move's events and the table as this commit left it.

    A move is an INSERT of its row and an UPDATE of the table's version that names the version read
    (Core statements: no ORM instances to load, about a third of a move's cost otherwise). The end of a
    hand (its result, the next deal or the match's end) is rarer and goes through the ORM."""
    try:
        events = game.apply(move)
    except IllegalMove as refusal:
        raise Refused(refusal.message, code=refusal.code, refusal=refusal) from None
    now = time.time()
    try:
        connection = db.session.connection()
        connection.execute(STORE_MOVE, {"hand_id": hand.id, "seq": len(game.moves) - 1, "played_at": now,
                                        "data_json": json.dumps({**move_to_row(move), **(extra or {})},
                                                                      ensure_ascii=False)})
        next_bot_at = now + pace(table) if _computer_turn(table, game) else NO_COMPUTER
        if game.finished:
            version = _finish_hand(table, hand, game, now, next_bot_at)
        else:
            version = table.version + 1
            changed = connection.execute(NEXT_VERSION, {"table_id": table.id, "read": table.version, "version": version,
                                                        "changed_at": now, "next_bot_at": next_bot_at}).rowcount
            if changed != 1:
                raise StaleDataError(f"table {table.id} is no longer at version {table.version}")
        if before_commit is not None:
            before_commit(events)
        db.session.commit()
        _caught_up_at(hand, version)
    except (IntegrityError, StaleDataError):
        db.session.rollback()
        evict(hand)
        raise Conflict(_("The table changed at the same moment; look again and choose again."),
                       code="stale-version") from None
    except BaseException:
        db.session.rollback()
        evict(hand)
        raise
    if game.finished:
        return events, snapshots.by_id(table.id)
    # What this commit wrote is all that changed (the table's lock was held): the snapshot follows it.
    table.version, table.changed_at, table.next_bot_at = version, now, next_bot_at
    return events, table


def _finish_hand(table: TableSnapshot, hand: HandSnapshot, game: Game, now: float, next_bot_at: float) -> int:
    """The hand is over: store its result, then end the match or deal the next hand (ORM, in the move's
    transaction). Returns the table's new version."""
    row = db.session.get(Table, table.id, populate_existing=True)
    if row is None or row.version != table.version:
        raise StaleDataError(f"table {table.id} is no longer at version {table.version}")
    stored = next(h for h in row.hands if h.id == hand.id)
    stored.result_json = json.dumps(hand_result(game), ensure_ascii=False)
    row.changed_at, row.next_bot_at = now, next_bot_at
    if match_over(row):
        row.status = "finished"
    else:
        deal(row, wait=setting("HAND_PAUSE_SECONDS"))
    db.session.flush()
    return row.version


def play(table: TableSnapshot, seat, move: Move, expected_version: int | None, key: str | None = None,
         fingerprint: str = "", extra: dict | None = None) -> tuple[list[dict], bool, TableSnapshot]:
    """A person's move from their seat, in one write transaction that holds the table's lock, so moves
    from every process and thread are applied one after the other, each against the version it names.

    With an idempotency `key`, the move is stored with its answer: a retry with the same key gets that
    answer again and changes nothing. `extra`: keys the move's row keeps beside the move (a hint taken:
    app/services/recall.py), which the game never reads. Returns the move's events as the seat saw them,
    whether they are the stored answer to an earlier try, and the table as the move (and any computer players' moves
    after it) left it."""
    seat_id, seat_token, seat_name = seat.id, seat.token_hash, seat.name
    try:
        table = snapshots.locked(table)
        if table is None:
            raise NotFound(_("This table is gone."), code="unknown-code")
        scope = f"move:{table.id}"
        if key is not None:
            stored = idempotency.find(scope, key, fingerprint)
            if stored is not None:
                db.session.rollback()
                return stored["result"], True, table
        seat = next((s for s in table.seats if s.id == seat_id), None)
        if seat is None or seat.token_hash != seat_token or seat.name != seat_name:
            raise Conflict(_("Your seat changed at the same moment (the teacher moved or renamed someone); "
                             "look again."), code="stale-version")
        if table.status == "lobby":
            raise Conflict(_("The game has not started yet; wait for the teacher to start it."), code="not-started")
        if table.status != "playing":
            raise Conflict(_("This match is over; no more moves can be made."), code="game-over")
        if table.paused:
            raise Conflict(_("The teacher has paused this table: wait until play goes on."), code="paused")
        hand = table.current_hand
        with lock(hand):
            game = game_of(hand)
            if expected_version is not None and expected_version != table.version:
                refusal = game.check(move)
                # "{reason}" stays in the (translated) sentence: the rule's reason goes there, in the
                # reader's language too (errors.ServiceError.text).
                numbers = {"before": expected_version, "now": table.version}
                wrap = (_("The table has moved on since your screen was drawn (version %(before)d, now %(now)d) "
                          "(%(reason)s); look again and choose again.", reason="{reason}", **numbers) if refusal else
                        _("The table has moved on since your screen was drawn (version %(before)d, now %(now)d); "
                          "look again and choose again.", **numbers))
                raise Conflict(wrap.format(reason=refusal.message if refusal else ""),
                               code=refusal.code if refusal else "stale-version", refusal=refusal, wrap=wrap)
            result: list[dict] = []

            def keep_answer(events: list[Event]) -> None:
                result.extend(event.seen_by(seat_name) for event in events)
                if key is not None:
                    idempotency.store(scope, key, fingerprint, {"result": result})

            table = _commit_move(table, hand, game, move, before_commit=keep_answer, extra=extra)[1]
    except ServiceError:
        db.session.rollback()
        raise
    return result, False, _advance(table)[1]


NO_COMPUTER = 1e12  # next_bot_at while a person is to move: no computer player may move before a change


def _computer_turn(table: Table, game: Game) -> bool:
    actor = game.turn
    return game.finished or any(s.kind == "computer" and s.name == actor for s in table.seats)


def _bot_for(seat: Seat, hand: Hand, game: Game):
    """The seat's computer player, caught up with every event its seat has seen this hand.

    A process keeps its bots between moves; a bot it does not have (another worker moved last, or a
    restart) is made afresh and shown the whole hand so far, which is all a bot remembers."""
    name = seat.bot if seat.bot in BOTS else "random"
    key = (_key(hand), _stamp(hand), seat.name, name)
    cached = _bots.get(key)
    if cached is None or cached[1] > len(game.events):
        digest = hashlib.sha256(f"{hand.header_json}:{seat.position}".encode()).digest()
        cached = [make_bot(name, int.from_bytes(digest[:4], "big")), 0]
        _remember(_bots, key, cached, 1024)
    bot, seen = cached
    new_events = game.events[seen:]
    if new_events:
        observe = getattr(bot, "observe", None)
        if callable(observe):
            observe([event.seen_by(seat.name) for event in new_events])
        cached[1] = len(game.events)
    return bot


def _turn(table: Table) -> str | None:
    """Whose turn it is: remembered per table version, so a poll of an unchanged table reads no moves."""
    hand = table.current_hand
    if hand is None:
        return None
    cache_key = (db.engine.url, table.id)
    stamp = (table.version, hand.id, hand.started_at)
    cached = _turns.get(cache_key)
    if cached is not None and cached[0] == stamp:
        return cached[1]
    with lock(hand):
        actor = game_of(hand).turn
    _remember(_turns, cache_key, (stamp, actor), 4096)
    return actor


def _bot_due(table: Table, now: float) -> Seat | None:
    """The computer player who may move now, if any."""
    if table.status != "playing" or table.paused or now < table.next_bot_at:
        return None
    actor = _turn(table)
    seat = next((s for s in table.seats if s.name == actor), None) if actor else None
    return seat if seat is not None and seat.kind == "computer" else None


def advance(table, now: float | None = None) -> int:
    """Let computer players move: one move once the pace has passed (every move with no pace). Returns
    how many moved: the caller's table (an ORM table expires with the commit; a snapshot does not) is
    to be read again when any did.

    Called on every poll, by any worker. A computer's move is a write like a person's: it takes the
    table's lock and looks again, so of two workers that both see a computer player due, the second
    finds the move made (and the pace started again) and does nothing."""
    return _advance(table, now)[0]


def _advance(table, now: float | None = None) -> tuple[int, Any]:
    """advance(), returning also the table as the last move left it (the caller's, when none moved)."""
    limit = 1 if pace(table) > 0 else MAX_BOT_STEPS
    steps = 0
    while steps < limit:
        clock = time.time() if now is None else now
        if _bot_due(table, clock) is None:
            break
        locked = snapshots.locked(table)
        seat = _bot_due(locked, clock) if locked is not None else None
        table = locked or table
        if seat is None:
            db.session.rollback()
            break
        hand = table.current_hand
        with lock(hand):
            game = game_of(hand)
            move = _bot_for(seat, hand, game).choose(game.view(seat.name))
            try:
                table = _commit_move(table, hand, game, move)[1]
            except Conflict:
                break
        steps += 1
    return steps, table


# ----------------------------------------------------------------------------------------------------
# Renaming: the log is rewritten so the record shows the name the class knows
# ----------------------------------------------------------------------------------------------------
def _swap(value: str, old: str, new: str) -> str:
    return new if value == old else value


def rename_in_header(header: dict, old: str, new: str) -> dict:
    header = dict(header)
    header["players"] = [_swap(p, old, new) for p in header["players"]]
    if header.get("dealer") is not None:
        header["dealer"] = _swap(header["dealer"], old, new)
    if header.get("teams"):
        header["teams"] = [[_swap(p, old, new) for p in team] for team in header["teams"]]
    if header.get("hands"):
        header["hands"] = {_swap(k, old, new): v for k, v in header["hands"].items()}
    return header


def rename_in_move(data: dict, old: str, new: str) -> dict:
    data = dict(data)
    for key in ("player", "ask", "pass_to"):
        if key in data and data[key] == old:
            data[key] = new
    if "holders" in data:
        data["holders"] = {_swap(k, old, new): v for k, v in data["holders"].items()}
    return data


def rename_player(table: Table, old: str, new: str) -> None:
    """Rewrite the hand being played so `old` is called `new` (in the caller's transaction). A finished
    hand is never rewritten: its record and the reports keep the names it was played with."""
    for hand in table.hands:
        if hand.result_json:
            continue
        with lock(hand):
            hand.header_json = json.dumps(rename_in_header(hand.header, old, new), ensure_ascii=False)
            for row in hand.moves:
                row.data_json = json.dumps(rename_in_move(row.data, old, new), ensure_ascii=False)
            hand.revision += 1
            evict(hand)
