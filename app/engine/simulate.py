"""Games between computer players, for `authors simulate` and the benchmarks."""
from __future__ import annotations

import time
from typing import Any

from ..decks.model import Deck
from .bots import Bot, make_bot
from .game import Game
from .options import make_options

MAX_MOVES = 100_000  # no game of these rules comes near this; past it something is wrong


class StalledGame(RuntimeError):
    pass


def play_games(rules: str, deck: Deck, players: int, bots: list[str], games: int, seed: int = 0,
               overrides: dict[str, Any] | None = None,
               timings: list[float] | dict[str, list[float]] | None = None) -> dict[str, Any]:
    """Play `games` deals; bot i of the list rotates one seat further each game so luck evens out.

    `timings` collects the seconds each decision took: a list for all, or a dict by computer player."""
    if len(bots) == 1:
        bots = bots * players
    if len(bots) != players:
        raise ValueError(f"give one computer player for all seats or one per seat ({players}), not {len(bots)}")
    options = make_options(rules, overrides)
    names = [f"P{i + 1}" for i in range(players)]
    wins = [0.0] * players
    total_moves = 0
    started = time.perf_counter()
    for g in range(games):
        shift = g % players
        slot_at = [(seat - shift) % players for seat in range(players)]  # physical seat -> bot slot
        # The dealer is always the last physical seat; the bots rotate past it, so each deals in turn.
        game = Game(deck, options, names, seed=seed * 1_000_003 + g, rules=rules)
        players_bots = {names[seat]: make_bot(bots[slot_at[seat]], seed * 7919 + g * players + seat)
                        for seat in range(players)}
        _show(players_bots, game, 0)  # the deal's events: sets laid down at once
        moves = 0
        while not game.finished:
            actor = game.turn
            assert actor is not None  # a deal not finished has someone to act
            view = game.view(actor)
            bot = players_bots[actor]
            if timings is not None:
                t0 = time.perf_counter()
                move = bot.choose(view)
                spent = time.perf_counter() - t0
                if isinstance(timings, dict):  # per computer player, by name
                    timings.setdefault(bot.name, []).append(spent)
                else:
                    timings.append(spent)
            else:
                move = bot.choose(view)
            seen = game.event_count
            game.apply(move)
            _show(players_bots, game, seen)
            moves += 1
            if moves > MAX_MOVES:
                raise StalledGame(f"game {g} did not end within {MAX_MOVES} moves")
        total_moves += moves
        winners = game.outcome().winners
        # Ties are shared; in a team game every member scores their team's share.
        share = 1 / (len(winners) / (players // 2) if game.teams else len(winners))
        for name in winners:
            wins[slot_at[names.index(name)]] += share
    seconds = time.perf_counter() - started
    return {
        "games": games,
        "moves": total_moves,
        "seconds": round(seconds, 4),
        "moves_per_second": round(total_moves / seconds) if seconds else None,
        "win_share": [round(w / games, 4) for w in wins],
    }


def _show(players_bots: dict[str, Bot], game: Game, start: int) -> None:
    """Every bot sees the events from `start` on as its own seat saw them (never another seat's secret
    draw)."""
    if game.event_count > start:
        for name, bot in players_bots.items():
            bot.observe(game.events_seen_by(name, start))
