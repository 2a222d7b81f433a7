"""How strong the computer players are, and how fast they decide: the match-ups of issue #6.

    .venv/bin/python bench/bots_strength.py [--games N] [--only NAME ...] [--json]

Each match-up plays N whole games through `play_games` (the loop behind `authors simulate`), the seats
rotating each game so that every player deals and asks first in turn. It prints the share of the wins
of the player (or team) under test with a 95% interval (normal approximation; ties are shared), the
target, and the time that player took per decision (p50, p95) on this machine, one core.
"""
from __future__ import annotations

import argparse
import json
import math

from app.decks import get_deck
from app.engine.simulate import play_games

# name, rules, deck, players, seats (slot 0 is the player under test), target share
MATCHUPS = [
    ("memory-vs-random-standard", "standard", "standard-52", 4, ["memory", "random", "random", "random"], 0.75),
    ("memory-vs-random-classic", "classic", "authors-1861", 4, ["memory", "random", "random", "random"], 0.75),
    ("expert-vs-memory-standard", "standard", "standard-52", 4, ["expert", "memory", "memory", "memory"], 0.60),
    ("expert-vs-memory-classic", "classic", "authors-1861", 4, ["expert", "memory", "memory", "memory"], 0.50),
    ("expert-vs-memory-quartett", "quartett", "german-writers", 4, ["expert", "memory", "memory", "memory"], 0.45),
    ("expert-team-vs-memory-team-literature", "literature", "literature-48", 6,
     ["expert", "memory", "expert", "memory", "expert", "memory"], 0.70),
]


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def run(name: str, rules: str, deck_id: str, players: int, seats: list[str], target: float, games: int,
        seed: int) -> dict:
    timings: dict[str, list[float]] = {}
    result = play_games(rules, get_deck(deck_id), players, seats, games, seed=seed, timings=timings)
    share = result["win_share"][0]
    margin = 1.96 * math.sqrt(share * (1 - share) / games)
    tested = seats[0]
    return {
        "matchup": name, "rules": rules, "deck": deck_id, "players": players, "seats": seats, "games": games,
        "seed": seed, "share": share, "low": round(max(0.0, share - margin), 4),
        "high": round(min(1.0, share + margin), 4), "target": target, "meets": share >= target, "interval_clears": share - margin >= target,
        "decision_ms": {"bot": tested, "p50": round(quantile(timings[tested], 0.5) * 1000, 3),
                        "p95": round(quantile(timings[tested], 0.95) * 1000, 3),
                        "max": round(max(timings[tested]) * 1000, 3)},
        "seconds": result["seconds"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", nargs="*", default=None, help="run only these match-ups")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = []
    for name, rules, deck_id, players, seats, target in MATCHUPS:
        if args.only and name not in args.only:
            continue
        row = run(name, rules, deck_id, players, seats, target, args.games, args.seed)
        rows.append(row)
        if not args.json:
            d = row["decision_ms"]
            verdict = "MISSED" if not row["meets"] else "met" if row["interval_clears"] else "met (interval spans it)"
            print(f"{name:38} {row['share']:6.1%}  [{row['low']:.1%} – {row['high']:.1%}]  target >= {target:.0%}: "
                  f"{verdict:8}  {d['bot']} decides in p50 {d['p50']} ms, p95 {d['p95']} ms, max {d['max']} ms "
                  f"({row['games']} games, {row['seconds']:.0f} s)", flush=True)
    if args.json:
        print(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
