"""Three rules points an independent reference implementation found (shared/spec decides each; the
records in tests/records/ show them too): the prompt order of a double deck's handover, the draw at once
of a hand emptied by a set laid down while a naming prompt is open, and Literature's endgame claimer
alone under `claims_any_time`."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from app.decks import get_deck
from app.decks.model import Card, CardSet, Deck
from app.engine.bots import make_bot
from app.engine.game import Game
from app.engine.moves import Answer, Ask, Claim, PassTurn
from app.engine.options import make_options
from app.engine.record import load_record_text

RECORDS = Path(__file__).parent / "records"
SEVEN = ["Anna", "Boris", "Vera", "Gleb", "Dasha", "Egor", "Fima"]
SIX = ["A1", "B1", "A2", "B2", "A3", "B3"]


def _deck(sizes: dict[str, int]) -> Deck:
    """Sets named by `sizes`' keys, each with that many cards (ids x1, x2, ..., titles "X 1", ...)."""
    sets = tuple(CardSet(id=s, name=s.upper(), cards=tuple(
        Card(id=f"{s}{i}", title=f"{s.upper()} {i}", set_id=s, index=i) for i in range(1, n + 1)))
        for s, n in sizes.items())
    return Deck(id="made", title="Made", sets=sets)


def _record_game(name: str) -> tuple[Game, list]:
    record = load_record_text((RECORDS / name).read_bytes())
    return record.new_game(), list(record.moves)


# ------------------------------------------------------------------------------------------------
# 1. A double deck's handover: prompts in the deck's order of works, a work's copies at its place
# ------------------------------------------------------------------------------------------------
def test_a_double_deck_handover_follows_the_order_of_works_first_copy_first():
    deck = _deck({"x": 4, "y": 4})
    hands = {"Anna": ["x3"], "Boris": ["x4-2", "x2", "x1-2", "x2-2", "x1"], "Vera": ["x3-2", "x4"],
             "Gleb": ["y1", "y2"], "Dasha": ["y3", "y4"], "Egor": ["y1-2", "y2-2"], "Fima": ["y3-2", "y4-2"]}
    game = Game(deck, make_options("classic", {"double_deck": True, "ask_by": "set", "name_the_work": True}),
                SEVEN, hands=hands, dealer="Fima")
    events = game.apply(Ask("Anna", "Boris", set="x"))
    order = ["x1", "x1-2", "x2", "x2-2", "x4-2"]  # not x1 x2 (first copies), then x1-2 x2-2 x4-2
    assert game.prompts("Anna") == tuple(order)
    assert events[0].data["given"] == order  # the handover is told in the same order
    for card in order:  # the oldest prompt is answered first: each title in that order is right
        event = game.apply(Answer("Anna", deck.card(card.removesuffix("-2")).title))[0]
        assert event.data["card"] == card and event.data["correct"]
    assert game.replay_state()["bonus"]["Anna"] == 5


def test_a_single_deck_handover_keeps_deck_order():
    deck = _deck({"x": 4, "y": 4})
    game = Game(deck, make_options("standard", {"name_the_work": True}), ["Anna", "Boris", "Vera"],
                hands={"Anna": ["x2", "y1"], "Boris": ["x4", "x1", "x3"], "Vera": ["y2", "y3", "y4"]},
                dealer="Vera")
    game.apply(Ask("Anna", "Boris", set="x"))
    assert game.prompts("Anna") == ("x1", "x3", "x4")


@pytest.mark.parametrize("seed", range(4))
def test_every_double_deck_handover_in_random_games_is_in_the_order_of_works(seed):
    game = Game(get_deck("authors-1861"), make_options("classic", {"double_deck": True, "ask_by": "set",
                                                                   "name_the_work": True}),
                SEVEN + ["Hana"], seed=seed, rules="classic")
    place = {}
    for k, card in enumerate(get_deck("authors-1861").cards):
        place[card.id], place[f"{card.id}-2"] = (k, 0), (k, 1)
    bots = {name: make_bot("random", seed + i) for i, name in enumerate(game.players)}
    handovers = 0
    while not game.finished:
        before = {name: game.prompts(name) for name in game.players}
        actor = game.turn
        for event in game.apply(bots[actor].choose(game.view(actor))):
            if event.kind == "ask" and event.data["given"]:
                given = event.data["given"]
                assert given == sorted(given, key=place.__getitem__)
                assert game.prompts(actor) == before[actor] + tuple(given)
                handovers += len(given) > 1
    assert handovers


# ------------------------------------------------------------------------------------------------
# 2. A hand emptied by laying down a set draws at once while the stock lasts, prompts open or not
# ------------------------------------------------------------------------------------------------
def _tiny_go_fish(boris: list[str], vera: list[str], stock: list[str]) -> Game:
    """Anna asks Boris for a2, which completes her set a and empties her hand."""
    options = make_options("go-fish", {"name_the_work": True, "deal_size": 1})
    return Game(_deck({"a": 2, "b": 2, "c": 2}), options, ["Anna", "Boris", "Vera"],
                hands={"Anna": ["a1"], "Boris": ["a2", *boris], "Vera": vera}, stock=stock, dealer="Vera")


def test_a_hand_emptied_with_a_prompt_open_draws_at_once_and_goes_on_after_answering():
    game = _tiny_go_fish([], ["b1"], ["c1", "b2", "c2"])
    events = game.apply(Ask("Anna", "Boris", set="a"))
    assert [e.kind for e in events] == ["ask", "laid-down", "draw"]
    assert events[-1].data["reason"] == "empty-hand" and events[-1].secret == {"card": "c1"}
    assert game.prompts("Anna") == ("a2",)  # the drawn card opens no prompt
    assert game.view("Anna").hand == ("c1",) and game.public_view().stock == 2
    assert game.turn == "Anna" and game.check(Ask("Anna", "Vera", set="c")).code == "answer-pending"
    assert game.view("Anna").asks is None
    game.apply(Answer("Anna", "A 2"))
    assert game.turn == "Anna" and game.view("Anna").hand == ("c1",) and game.public_view().stock == 2
    assert game.check(Ask("Anna", "Vera", set="c")) is None


def test_without_a_stock_left_the_empty_hand_passes_on_once_its_prompts_are_answered():
    game = _tiny_go_fish(["b2", "c2"], ["b1", "c1"], [])
    events = game.apply(Ask("Anna", "Boris", set="a"))
    assert [e.kind for e in events] == ["ask", "laid-down"]
    assert game.turn == "Anna" and game.prompts("Anna") == ("a2",)
    game.apply(Answer("Anna", None))
    assert game.turn == "Boris"  # Anna's empty hand is out: there is no stock to draw from


def test_the_records_first_move_draws_at_once():
    game, moves = _record_game("go-fish-empty-hand-draws-with-prompts-open.yaml")
    game.apply(moves[0])
    assert game.replay_state()["stock"] == 2 and game.replay_state()["pending"]["Anna"] == 1


def test_in_random_games_no_turn_holder_waits_on_an_empty_hand_while_the_stock_lasts():
    draws_with_prompts_open = 0
    for seed in range(10):
        game = Game(get_deck("standard-52"), make_options("go-fish", {"name_the_work": True}),
                    ["P0", "P1", "P2"], seed=seed, rules="go-fish")
        bots = {name: make_bot("random", seed + i) for i, name in enumerate(game.players)}
        while not game.finished:
            turn, view = game.turn, game.public_view()
            assert turn is not None
            if view.stock:
                assert view.hand_counts[turn] > 0, (turn, view.hand_counts, game.prompts(turn))
            events = game.apply(bots[turn].choose(game.view(turn)))
            if events[0].kind == "ask" and events[-1].kind == "draw" and events[-1].data["reason"] == "empty-hand":
                draws_with_prompts_open += bool(game.prompts(turn))
    assert draws_with_prompts_open  # the case was met


# ------------------------------------------------------------------------------------------------
# 3. Literature with claims_any_time: once a team is out of cards, one player claims alone
# ------------------------------------------------------------------------------------------------
def _six_pairs(**overrides) -> Game:
    deck = _deck({s: 2 for s in "pqrstu"})
    hands = {"A1": ["p1", "p2"], "B1": ["s1", "s2"], "A2": ["q1", "q2"], "B2": ["t1", "t2"], "A3": ["r1", "r2"],
             "B3": ["u1", "u2"]}
    return Game(deck, make_options("literature", overrides), SIX, hands=hands, dealer="A1", rules="literature")


def _empty_team_a(game: Game) -> None:
    for player, to, s in (("A1", "A2", "p"), ("A2", "A3", "q"), ("A3", None, "r")):
        game.apply(Claim(player, s, ((player, (f"{s}1", f"{s}2")),)))
        if to:
            game.apply(PassTurn(player, to))


def test_before_the_endgame_a_claim_out_of_turn_is_allowed():
    game = _six_pairs(claims_any_time=True)
    assert game.claimable_sets("B1") and game.check(Claim("B1", "s", (("B1", ("s1", "s2")),))) is None


def test_while_the_empty_team_chooses_the_claimer_nobody_claims():
    game = _six_pairs(claims_any_time=True)
    _empty_team_a(game)
    assert game.turn == "A3" and game.pass_targets("A3") == ("B1", "B2", "B3")
    for player in SIX:
        assert game.claimable_sets(player) == ()
        assert not [m for m in game.legal_moves(player) if isinstance(m, Claim)]
    refusal = game.check(Claim("B1", "s", (("B1", ("s1", "s2")),)))
    assert refusal.code == "not-allowed" and "A3" in refusal.message
    assert game.check(Claim("A3", "s", (("A3", ("s1", "s2")),))).code == "not-allowed"


def test_once_the_claimer_is_chosen_another_players_claim_is_not_allowed():
    game = _six_pairs(claims_any_time=True)
    _empty_team_a(game)
    game.apply(PassTurn("A3", "B2"))
    for player in ("B1", "B3", "A1"):
        assert game.claimable_sets(player) == ()
        refusal = game.check(Claim(player, "s", ((player, ("s1", "s2")),)))
        assert refusal.code == "not-allowed", player  # not "not-your-turn": the house rule lapsed
    assert set(game.claimable_sets("B2")) == {"s", "t", "u"}
    game.apply(Claim("B2", "t", (("B2", ("t1", "t2")),)))  # B2's hand is empty now; B2 still claims alone
    assert game.turn == "B2"
    assert game.check(Claim("B1", "s", (("B1", ("s1", "s2")),))).code == "not-allowed"
    game.apply(Claim("B2", "s", (("B1", ("s1", "s2")),)))
    game.apply(Claim("B2", "u", (("B3", ("u1", "u2")),)))
    assert game.finished


def test_without_claims_any_time_the_endgame_refusal_stays_not_your_turn():
    game = _six_pairs()
    _empty_team_a(game)
    game.apply(PassTurn("A3", "B2"))
    assert game.check(Claim("B1", "s", (("B1", ("s1", "s2")),))).code == "not-your-turn"


def test_an_ask_that_empties_the_other_team_leaves_the_asker_claiming_alone():
    game, moves = _record_game("literature-claims-any-time-endgame-asker-alone.yaml")
    game.apply(moves[0])
    assert game.turn == "A1"
    assert game.claimable_sets("A2") == () and game.claimable_sets("A3") == ()
    assert game.check(moves[1]).code == "not-allowed"
    game.apply(Claim("A1", "q", (("A2", ("q1", "q2")),)))
    assert game.turn == "A1" and game.check(Claim("A3", "r", (("A3", ("r1", "r2")),))).code == "not-allowed"


def test_a_claim_out_of_turn_that_empties_a_team_leaves_the_turn_holder_claiming_alone():
    deck = _deck({s: 2 for s in "pqrs"})
    hands = {"A1": ["p1", "p2"], "B1": ["s1", "s2"], "A2": ["q1", "q2"], "B2": [], "A3": ["r1", "r2"], "B3": []}
    game = Game(deck, make_options("literature", {"claims_any_time": True}), SIX, hands=hands, dealer="A1")
    game.apply(Claim("B1", "s", (("B1", ("s1", "s2")),)))  # out of turn: team B has no cards left
    assert game.turn == "A1" and game.claimable_sets("A2") == ()
    assert game.check(Claim("A2", "q", (("A2", ("q1", "q2")),))).code == "not-allowed"
    for s, holder in (("q", "A2"), ("r", "A3"), ("p", "A1")):
        game.apply(Claim("A1", s, ((holder, (f"{s}1", f"{s}2")),)))
    assert game.finished and game.replay_state()["teams"][0]["books"] == ["q", "r", "p"]


def test_in_games_with_claims_any_time_only_one_player_claims_once_a_team_is_out():
    """Games of computer players (memory: they reach the endgame) in which anyone may claim out of turn
    now and then: once a team holds no cards, only the turn holder is ever offered a claim, and everyone
    else's is refused `not-allowed`."""
    endgames = 0
    for seed in range(6):
        game = Game(get_deck("literature-48"), make_options("literature", {"claims_any_time": True}),
                    ["P0", "P1", "P2", "P3", "P4", "P5"], seed=seed, rules="literature")
        assert game.teams is not None
        rng = random.Random(seed)
        bots = {name: make_bot("memory", seed + i) for i, name in enumerate(game.players)}
        while not game.finished:
            turn = game.turn
            assert turn is not None
            counts = game.public_view().hand_counts
            others = [p for p in game.players if p != turn]
            move = None
            if any(all(counts[p] == 0 for p in team) for team in game.teams):
                endgames += 1
                left = game.claimable_sets(turn) or tuple(s.id for s in game.deck.sets)
                for player in others:
                    assert game.claimable_sets(player) == ()
                    assert not [m for m in game.legal_moves(player) if isinstance(m, Claim)]
                    team = next(t for t in game.teams if player in t)
                    claim = Claim(player, left[0], ((team[0], game.deck.set(left[0]).card_ids),))
                    assert game.check(claim).code == "not-allowed"
            elif rng.random() < 0.03:  # someone claims out of turn, as the house rule allows
                claims = [m for m in game.legal_moves(rng.choice(others)) if isinstance(m, Claim)]
                move = rng.choice(claims) if claims else None
            if move is None:
                move = bots[turn].choose(game.view(turn))
            start = game.event_count
            game.apply(move)
            for name, bot in bots.items():
                bot.observe(game.events_seen_by(name, start))
    assert endgames  # the endgame was reached
