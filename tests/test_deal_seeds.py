"""A table's deals come from 128-bit seeds: a student who knows their own hand cannot search every seed
offline for the one that deals it (2^32 seeds take minutes), and a hand's record still replays exactly."""
from __future__ import annotations

import random

import pytest

from app.decks import builtin_decks
from app.engine.game import Game
from app.engine.options import PRESETS
from app.engine.record import RecordError, load_record_text, record_of
from app.services import deals


class _Table:
    id = 1


def test_a_deal_seed_has_128_random_bits(app):
    with app.app_context():
        app.config["DEAL_SEED"] = None
        seeds = {deals._deal_seed(_Table(), 1) for _ in range(64)}
    assert len(seeds) == 64
    assert max(seed.bit_length() for seed in seeds) > 120          # not 32 bits, nor 64
    assert all(0 <= seed < 2 ** deals.DEAL_SEED_BITS for seed in seeds)


def test_a_game_dealt_from_a_128_bit_seed_replays_from_its_record():
    deck = builtin_decks()["standard-52"]
    seed = 2 ** 127 + 12345
    game = Game(deck, PRESETS["standard"], ["Anna", "Boris", "Vera"], seed=seed, rules="standard")
    other = Game(deck, PRESETS["standard"], ["Anna", "Boris", "Vera"], seed=seed + 2 ** 64, rules="standard")
    assert game.initial_hands != other.initial_hands  # every bit of the seed counts
    rng = random.Random(0)
    for _ in range(5000):  # a random game of standard ends long before this
        if game.finished:
            break
        game.apply(rng.choice(list(game.legal_moves(game.turn))))
    assert game.finished
    record = load_record_text(record_of(game).to_yaml())
    again = record.new_game()
    for move in record.moves:
        again.apply(move)
    assert again.initial_hands == game.initial_hands and again.public_view() == game.public_view()


def test_a_record_whose_seed_is_an_odd_digit_is_refused_with_its_line():
    text = "format: authors-record/1\nrules: standard\ndeck: standard-52\nplayers: [Anna, Boris, Vera]\nseed: \"²\"\n"
    with pytest.raises(RecordError, match=r':5: the seed is a whole number, not "²"'):
        load_record_text(text)
