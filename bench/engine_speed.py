"""Moves per second of random-vs-random games, per preset, on one core.

    .venv/bin/python bench/engine_speed.py [--seconds S]

Two loops per preset, each playing whole games (the deal included) for S seconds:
- engine: the rules alone. The player to act takes a uniformly random legal ask from
  `Game.asks()` (or, when asks are not the only choice, from the full legal move list) and the
  game applies it. This is what the issue's target (>= 50,000 moves/s, standard, 4 players) is about.
- simulate: what `authors simulate` does: a view for the seat, the `random` computer player chooses
  from it, the game applies. Building a view per move is most of the cost.
"""
from __future__ import annotations

import argparse
import json
import random
import time

from app.decks import get_deck
from app.engine.game import Game
from app.engine.options import make_options
from app.engine.simulate import play_games

CASES = [
    ("standard", "standard-52", 4, {}),
    ("classic", "authors-1861", 4, {}),
    ("classic", "authors-1861", 4, {"ask_by": "set"}),
    ("go-fish", "standard-52", 4, {}),
    ("literature", "literature-48", 6, {}),
    ("classic", "authors-1861", 4, {"name_the_work": True}),
]


def engine_loop(rules: str, deck_id: str, players: int, overrides: dict, seconds: float) -> tuple[int, int, float]:
    deck, options = get_deck(deck_id), make_options(rules, overrides)
    names = [f"P{i + 1}" for i in range(players)]
    rng = random.Random(1)
    games = moves = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        for _ in range(20):
            game = Game(deck, options, names, seed=games, rules=rules)
            games += 1
            while not game.finished:
                actor = game.turn
                asks = game.asks(actor)
                if asks and not options.claims:
                    move = asks[rng.randrange(len(asks))]
                else:  # prompts to answer, claims or passes
                    move = _random_legal(game, actor, rng)
                game.apply(move)
                moves += 1
    return games, moves, time.perf_counter() - started


def _random_legal(game: Game, actor: str, rng: random.Random):
    """A uniformly random kind of legal move (answer, ask, claim, pass), then a random one of that kind."""
    from app.engine.moves import Answer, PassTurn
    from app.engine.views import attribution

    if game.prompts(actor):
        return Answer(actor, None)
    kinds = [k for k, present in (("ask", game.asks(actor)), ("claim", game.claimable_sets(actor)),
                                  ("pass", game.pass_targets(actor))) if present]
    kind = rng.choice(kinds)
    if kind == "ask":
        asks = game.asks(actor)
        return asks[rng.randrange(len(asks))]
    if kind == "pass":
        return PassTurn(actor, rng.choice(game.pass_targets(actor)))
    set_id = rng.choice(game.claimable_sets(actor))
    team = next(t for t in game.teams if actor in t)
    cards = game.deck.set(set_id).card_ids
    return attribution(actor, set_id, cards, team, rng.randrange(len(team) ** len(cards)))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    print(f"{'preset':56} {'engine moves/s':>15} {'simulate moves/s':>17}")
    for rules, deck_id, players, overrides in CASES:
        games, moves, seconds = engine_loop(rules, deck_id, players, overrides, args.seconds)
        sim = {"moves": 0, "seconds": 0.0}
        started, seed = time.perf_counter(), 0
        while time.perf_counter() - started < args.seconds:
            result = play_games(rules, get_deck(deck_id), players, ["random"], games=20, seed=seed,
                                overrides=overrides)
            seed += 1
            sim["moves"] += result["moves"]
            sim["seconds"] += result["seconds"]
        label = f"{rules} / {deck_id} / {players} players {json.dumps(overrides) if overrides else ''}"
        print(f"{label:56} {moves / seconds:15,.0f} {sim['moves'] / sim['seconds']:17,.0f}")


if __name__ == "__main__":
    main()
