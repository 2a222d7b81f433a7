"""Property tests over every preset and option: conservation, termination, exact legal moves,
records that replay to the same state, and views that never show another seat's hidden cards."""
from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.decks import get_deck
from app.engine.bots import make_bot
from app.engine.game import Game
from app.engine.moves import Answer, Ask, Challenge, Claim, Defend, PassTurn
from app.engine.options import make_options
from app.engine.record import load_record_text, record_of
from app.engine.replay import replay
from app.engine.views import attribution

TABLES = [
    ("standard", "standard-52", 3, {}),
    ("standard", "standard-52", 6, {"miss_passes_to": "asked"}),
    ("standard", "composers", 4, {"name_the_work": True}),
    ("classic", "authors-1861", 2, {}),
    ("classic", "authors-1861", 5, {"ask_by": "set"}),
    ("classic", "authors-1861", 4, {"name_the_work": True, "bluff_asks": True}),
    ("classic", "authors-1861", 3, {"named_asks": True, "answers": "typos", "bonus_in_score": False}),
    ("classic", "authors-1861", 8, {"double_deck": True}),
    ("classic", "authors-1861", 4, {"ask_by": "set", "name_the_work": True, "answer_names": "set", "answers": "typos"}),
    ("classic", "authors-1861", 9, {"double_deck": True, "ask_by": "set", "name_the_work": True,
                                    "answer_names": "set"}),
    ("go-fish", "standard-52", 7, {"double_deck": True, "ask_by": "card", "name_the_work": True}),
    ("classic", "authors-1861", 3, {"stock": True}),
    ("go-fish", "standard-52", 2, {}),
    ("go-fish", "standard-52", 5, {"lucky_draw_continues": False}),
    ("go-fish", "russian-writers", 4, {"name_the_work": True, "ask_by": "card"}),
    ("literature", "literature-48", 6, {}),
    ("literature", "literature-48", 8, {"claims_any_time": True}),
    ("literature", "literature-54", 6, {"claiming_team_picks_next": True, "high_sets_double": True}),
    ("literature", "literature-48", 6, {"lay_down_complete": True, "announce_last_card": True}),
    ("literature", "standard-52", 6, {"removed_rank": "2", "jokers": True, "bluff_asks": True}),
    ("literature", "standard-52", 8, {"rank_sets": True, "name_the_work": True}),
    ("quartett", "authors-1861", 2, {"name_the_work": True}),
    ("quartett", "authors-1861", 4, {}),
    ("quartett", "standard-52", 3, {"named_asks": True}),
    ("familles", "french-writers", 3, {"name_the_work": True}),
    ("familles", "authors-1861", 6, {}),
    ("familias", "authors-1861", 2, {"lucky_draw_continues": False}),
    ("familias", "authors-1861", 5, {"name_the_work": True, "answers": "typos"}),
    ("classic", "authors-1861", 2, {"two_player_talon": True, "deal_size": 8}),
    ("classic", "authors-1861", 4, {"challenge_sets": True, "name_the_work": True}),
    ("quartett", "german-writers", 3, {"challenge_sets": True, "named_asks": True, "answers": "typos"}),
    ("familles", "french-writers", 4, {"challenge_sets": True}),
    ("go-fish", "authors-1861", 8, {"challenge_sets": True, "double_deck": True, "name_the_work": True}),
    ("classic", "authors-1861", 5, {"challenge_sets": True, "ask_by": "set", "name_the_work": True,
                                    "answer_names": "set"}),
]
MAX_MOVES = 5000

table = st.sampled_from(TABLES)
seeds = st.integers(min_value=0, max_value=2**31)
SETTINGS = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def new_game(spec, seed: int) -> Game:
    rules, deck_id, n, overrides = spec
    return Game(get_deck(deck_id), make_options(rules, overrides), [f"P{i}" for i in range(n)], seed=seed,
                rules=rules)


def play(game: Game, seed: int, after_move=None) -> None:
    bots = {name: make_bot("random", seed + i) for i, name in enumerate(game.players)}
    for _ in range(MAX_MOVES):
        if game.finished:
            return
        actor = game.turn
        game.apply(bots[actor].choose(game.view(actor)))
        if after_move:
            after_move(game)
    raise AssertionError(f"the game did not end within {MAX_MOVES} moves")


def where_cards_are(game: Game) -> dict[str, str]:
    state = game.replay_state()
    place = {}
    for name, hand in state["hands"].items():
        for card in hand:
            assert card not in place, f"{card} is in two places"
            place[card] = name
    return place


def check_conservation(game: Game) -> None:
    state = game.replay_state()
    in_hands = sum(len(h) for h in state["hands"].values())
    down_sets = {s for books in state["books"].values() for s in books} | set(state["cancelled"])
    if state["teams"]:
        down_sets |= {s for team in state["teams"] for s in team["books"]}
    down = sum(len(game.deck.set(s).cards) for s in down_sets)
    assert in_hands + state["stock"] + down == game.deck.card_count
    assert len(where_cards_are(game)) == in_hands


@SETTINGS
@given(table, seeds)
def test_cards_are_conserved_and_every_game_ends(spec, seed):
    game = new_game(spec, seed)
    check_conservation(game)
    play(game, seed, check_conservation)
    assert game.finished and game.winners()
    state = game.replay_state()
    assert all(len(hand) == 0 for hand in state["hands"].values()) or spec[0] == "literature"


def candidate_moves(game: Game, player: str, rng_seed: int) -> list:
    """A universe of moves to try: every ask of either kind, every pass, answers, some claims."""
    moves = []
    for target in game.players:
        for card_set in game.deck.sets:
            moves.append(Ask(player, target, set=card_set.id))
        for card in game.deck.cards:
            moves.append(Ask(player, target, card=card.id))
        moves.append(PassTurn(player, target))
    moves.append(Ask(player, game.players[0], set="no-such-set"))
    moves.append(Answer(player, "whatever"))
    moves.append(Defend(player, game.deck.sets[0].id, ("whatever",)))
    moves.append(Challenge(player, None))
    moves += [Challenge(player, card_set.id) for card_set in game.deck.sets]
    if game.teams:
        team = next(t for t in game.teams if player in t)
        other = next(t for t in game.teams if player not in t)
        for k, card_set in enumerate(game.deck.sets):
            cards = card_set.card_ids
            moves.append(attribution(player, card_set.id, cards, team, rng_seed + k))
            moves.append(attribution(player, card_set.id, cards, other, k))       # names opponents
            moves.append(attribution(player, card_set.id, cards[:-1], team, k))   # misses a card
    return moves


def check_exact_legal_moves(game: Game, step: int) -> None:
    for player in game.players:
        legal = list(game.legal_moves(player))
        listed = set(legal)
        answer_listed = any(isinstance(m, Answer) for m in legal)
        defence = next((m for m in legal if isinstance(m, Defend)), None)
        for move in legal[:400]:
            assert game.check(move) is None, (move, game.check(move))
        for move in candidate_moves(game, player, step):
            refusal = game.check(move)
            if isinstance(move, Answer):
                assert (refusal is None) == answer_listed
            elif isinstance(move, Defend):  # any names are a legal defence of the set challenged
                assert (refusal is None) == (defence is not None and move.set == defence.set), (move, refusal)
            elif isinstance(move, Claim) and len(legal) > 400:
                claim_sets = {m.set for m in legal if isinstance(m, Claim)}
                if refusal is None:
                    assert move.set in claim_sets
            else:
                assert (refusal is None) == (move in listed), (move, refusal)
            if refusal is not None:
                assert refusal.code and refusal.message


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table, seeds)
def test_legal_moves_are_exact(spec, seed):
    game = new_game(spec, seed)
    steps = [0]

    def every_fifth(g):
        steps[0] += 1
        if steps[0] % 5 == 0:
            check_exact_legal_moves(g, steps[0])

    check_exact_legal_moves(game, 0)
    play(game, seed, every_fifth)


@SETTINGS
@given(table, seeds)
def test_the_record_of_a_random_game_replays_to_the_same_state(spec, seed):
    game = new_game(spec, seed)
    play(game, seed)
    again = replay(load_record_text(record_of(game).to_yaml()))
    assert again.error is None and again.applied == len(game.moves)
    assert again.game.replay_state() == game.replay_state()


def visible_strings(value, inside_ask: bool = False):
    """Every string a view shows, except the card named in an ask (what was asked for is public)."""
    if isinstance(value, dict):
        is_ask = value.get("type") == "ask"
        for key, item in value.items():
            if is_ask and key == "card":
                continue
            yield from visible_strings(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from visible_strings(item)
    elif isinstance(value, str):
        yield value


def public_cards(game: Game) -> set[str]:
    """Cards whose place the table has seen: handed over, shown when drawn, claimed or laid down."""
    seen = set()
    for data in game.events_seen_by(None):
        kind = data["type"]
        if kind == "ask":
            seen.update(data["given"])
        elif kind == "draw" and data.get("card"):
            seen.add(data["card"])
        elif kind == "claim":
            seen.update(data["actual"])
        elif kind == "laid-down":
            seen.update(data["cards"])  # a double deck's set goes down with either copy of each work
    return seen


def check_no_leak(game: Game) -> None:
    if game.finished:
        return
    state = game.replay_state()
    shown = public_cards(game)
    for viewer in game.players:
        view = game.view(viewer)
        assert sorted(view.hand) == sorted(state["hands"][viewer])
        strings = set(visible_strings(view.to_dict()))
        json.dumps(view.to_dict())  # a view is plain data
        for other, hand in state["hands"].items():
            if other == viewer:
                continue
            secret = set(hand) - shown
            assert not (secret & strings), f"{viewer}'s view shows {other}'s hidden cards {secret & strings}"
    public = set(visible_strings(game.public_view().to_dict()))
    for hand in state["hands"].values():
        assert not ((set(hand) - shown) & public)


@SETTINGS
@given(table, seeds)
def test_no_view_of_a_running_hand_holds_another_players_hidden_cards(spec, seed):
    game = new_game(spec, seed)
    check_no_leak(game)
    moves = [0]

    def sometimes(g):  # every move early on, then every seventh: long games stay affordable
        moves[0] += 1
        if moves[0] < 30 or moves[0] % 7 == 0:
            check_no_leak(g)

    play(game, seed, sometimes)


@SETTINGS
@given(table, seeds)
def test_views_after_every_move_are_those_of_the_same_moves_replayed(spec, seed):
    """After any move, refused ones tried in between, each reader's view is the one a game that replays
    the moves gives (a view never keeps anything of an earlier move, whatever the engine caches)."""
    game = new_game(spec, seed)
    steps = [0]

    def compare(game: Game) -> None:
        steps[0] += 1
        for player in game.players:  # a refused move changes nothing, the facts made before it included
            game.view(player)
            game.check(Ask(player, player, set=game.deck.sets[0].id))
        if steps[0] % 5:
            return
        again = new_game(spec, seed)
        for move in game.moves:
            again.apply(move)
        assert game.public_view().to_dict() == again.public_view().to_dict()
        for player in game.players:
            mine, replayed = game.view(player), again.view(player)
            assert mine.to_dict() == replayed.to_dict(), (player, len(game.moves))
            assert list(mine.legal_moves()) == list(replayed.legal_moves()), (player, len(game.moves))

    play(game, seed, compare)
