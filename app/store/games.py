"""Each deal's game, kept by this process between requests: the only way to reach a game is `playing`.

A deal is stored as its record header (the deal as it fell) and its move rows. Its Game is rebuilt by
replaying them; a process keeps the games it has built and replays only the rows it has not seen, so
any number of processes can serve one table: the database is the truth.

A cached game is changed by one thread at a time: `playing(deal)` holds the deal's lock (one of 64
stripes) for its block. Take it only after the table's write lock (writes.py), never the other way
round: whoever holds it must never wait for the database, so the session gets its connection first.
"""
from __future__ import annotations

import hashlib
import json
import threading
from contextlib import contextmanager
from typing import Any, Callable, Hashable, Iterator, TypeVar

from sqlalchemy import bindparam, select
from sqlalchemy.engine import URL, Engine

from ..db import db
from ..engine.bots import Bot
from ..engine.game import Game
from ..engine.moves import move_from_dict
from ..engine.options import make_options
from ..engine.record import Record, record_of
from ..models import MoveRow
from . import fast
from .decks import header_deck
from .snapshots import DealLike, SeatLike, TableLike

MOVES = MoveRow.__table__
NEW_MOVES = (select(MOVES.c.seq, MOVES.c.data_json)
             .where(MOVES.c.deal_id == bindparam("deal_id"), MOVES.c.seq >= bindparam("seen")).order_by(MOVES.c.seq))
MOVES_UP_TO = NEW_MOVES.where(MOVES.c.seq < bindparam("count"))  # the moves a snapshot's count names

_stripes = [threading.RLock() for _ in range(64)]
_registry = threading.Lock()                          # guards the caches' bookkeeping
Key = tuple[Engine, int]                  # a deal in this process: its database's engine, its id
Stamp = tuple[int, int, float, int]       # what the deal's cached game must match: stamp_of
_games: dict[Key, tuple[Stamp, Game]] = {}                                    # deal -> (its stamp, its game)
_turns: dict[tuple[URL, int], tuple[tuple[int, int, float], str | None]] = {}  # table -> ((version, deal, dealt at), whose turn)
_bots: dict[tuple[Key, Stamp, str | None, str | None], list[Any]] = {}        # (deal, stamp, seat, strength) -> [bot, events seen]

_K = TypeVar("_K", bound=Hashable)
_V = TypeVar("_V")


def remember(cache: dict[_K, _V], key: _K, value: _V, limit: int) -> None:
    with _registry:
        cache[key] = value
        while len(cache) > limit:
            cache.pop(next(iter(cache)))


def game_from_header(header: dict[str, Any]) -> Game:
    options = make_options(header["rules"], header.get("options") or {})
    return Game(header_deck(header["deck"]), options, header["players"], dealer=header.get("dealer"),
                teams=header.get("teams"), hands=header.get("hands"), stock=header.get("stock"),
                rules=header["rules"])


def key_of(deal: DealLike) -> Key:
    # The engine itself (hashed by identity): its URL's hash renders the URL as text every time.
    return (db.engine, deal.id)


def stamp_of(deal: DealLike) -> Stamp:
    """What must match for a cached game to be this hand's: ids come back after a database is reset, the
    moment a deal was dealt does not; a rename rewrites the log and bumps the revision."""
    return (deal.table_id, deal.number, deal.started_at, deal.revision)


@contextmanager
def playing(deal: DealLike) -> Iterator[Game]:
    """The deal's game as the caller read the deal, held by this thread for the block.

    A snapshot's deal knows how many moves the log held when it was read (`move_count`): the game has
    exactly those, so a state built from it matches the version read with it. The cached game is caught
    up from the log when it is behind (one query), used as it is when level (none). One that is ahead (a
    thread of this process moved since the caller read the table) is not the caller's: a game is rebuilt
    to the caller's count. An ORM deal (the rarer paths) gets every move the log holds."""
    stripe, count = _stripes[hash(key_of(deal)) % len(_stripes)], getattr(deal, "move_count", None)
    if count is not None:
        with stripe:  # the common case, a cached game level with the snapshot, needs no connection
            game = _level(deal, count)
            if game is not None:
                yield game
                return
    # The connection comes from the pool (which may be busy) before the lock, never while holding it.
    with fast.reading(), stripe:
        yield _game_at(deal, count)


def _level(deal: DealLike, count: int) -> Game | None:
    cached = _games.get(key_of(deal))
    if cached is not None and cached[0] == stamp_of(deal) and len(cached[1].moves) == count:
        return cached[1]
    return None


def _game_at(deal: DealLike, count: int | None) -> Game:
    key, stamp = key_of(deal), stamp_of(deal)
    cached = _games.get(key)
    game = cached[1] if cached is not None and cached[0] == stamp else None
    if game is not None and count is not None:
        if len(game.moves) == count:
            return game
        if len(game.moves) > count:
            return _replayed(deal, count)
    if game is None:
        game = game_from_header(deal.header)
        remember(_games, key, (stamp, game), 512)
    _catch_up(deal, game, count)
    return game


def _catch_up(deal: DealLike, game: Game, count: int | None) -> None:
    params = {"deal_id": deal.id, "seen": len(game.moves)}
    with fast.reading() as connection:
        if count is None:
            rows = fast.rows(connection, NEW_MOVES, params)
        else:
            rows = fast.rows(connection, MOVES_UP_TO, {**params, "count": count})
    for seq, data_json in rows:
        if seq != len(game.moves):
            evict(deal)
            raise RuntimeError(f"deal {deal.id}: move {len(game.moves)} is missing from the log")
        game.apply(move_from_dict(json.loads(data_json)))
    if count is not None and len(game.moves) != count:
        evict(deal)
        raise RuntimeError(f"deal {deal.id}: the log holds {len(game.moves)} moves, not {count}")


def _replayed(deal: DealLike, count: int) -> Game:
    """A game of the deal at `count` moves, not kept (the cached one is further on)."""
    game = game_from_header(deal.header)
    _catch_up(deal, game, count)
    return game


def evict(deal: DealLike) -> None:
    """Forget the deal's game."""
    with _registry:
        _games.pop(key_of(deal), None)


def forget_unstored(deal: DealLike) -> None:
    """After a write was rolled back: forget the deal's game if it holds a move the log does not (one
    applied whose write failed). A refused move leaves the game as it was: it is kept."""
    cached = _games.get(key_of(deal))
    count = getattr(deal, "move_count", None)
    if cached is not None and (count is None or len(cached[1].moves) != count):
        evict(deal)


def turn(table: TableLike) -> str | None:
    """Whose turn it is: remembered per table version, so a poll of an unchanged table reads no moves."""
    deal = table.current_deal
    if deal is None:
        return None
    cache_key = (db.engine.url, table.id)
    stamp = (table.version, deal.id, deal.started_at)
    cached = _turns.get(cache_key)
    if cached is not None and cached[0] == stamp:
        return cached[1]
    with playing(deal) as game:
        actor = game.turn
    remember(_turns, cache_key, (stamp, actor), 4096)
    return actor


def bot_for(seat: SeatLike, deal: DealLike, game: Game, make: Callable[[int], Bot]) -> Bot:
    """The seat's computer player (`make(seed)` builds one), caught up with every event its seat has seen
    this hand. Called inside `playing(deal)`.

    A process keeps its bots between moves; a bot it does not have (another process moved last, or a
    restart) is made afresh and shown the whole deal so far, which is all a bot remembers."""
    key = (key_of(deal), stamp_of(deal), seat.name, seat.bot)
    cached = _bots.get(key)
    if cached is None or cached[1] > game.event_count:
        digest = hashlib.sha256(f"{deal.header_json}:{seat.position}".encode()).digest()
        cached = [make(int.from_bytes(digest[:4], "big")), 0]
        remember(_bots, key, cached, 1024)
    bot: Bot = cached[0]
    seen: int = cached[1]
    if game.event_count > seen:
        bot.observe(game.events_seen_by(seat.name, seen))
        cached[1] = game.event_count
    return bot


def record(deal: DealLike) -> Record:
    """The deal as a game record (the engine's Record)."""
    with playing(deal) as game:
        return record_of(game)


def forget_all() -> None:
    """Forget every cached game, turn and computer player, as a process that has just started."""
    with _registry:
        for cache in (_games, _turns, _bots):
            cache.clear()
