"""Rules and options the records cannot show on their own: deals, variants, views, matches."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.decks import get_deck
from app.engine.game import Game, SetupError
from app.engine.match import Match, MatchFormat
from app.engine.moves import Answer, Ask, Claim, IllegalMove, PassTurn
from app.engine.answers import Verdict, forms, grade
from app.engine.options import OptionsError, make_options
from app.engine.record import load_record_text, record_of
from app.engine.replay import replay

FOUR = ["Anna", "Boris", "Vera", "Gleb"]
SIX = ["Olga", "Ivan", "Mary", "Petr", "Joseph", "Sasha"]


def new(rules="standard", deck="standard-52", players=FOUR, seed=1, **overrides):
    return Game(get_deck(deck), make_options(rules, overrides), players, seed=seed, rules=rules)


def test_the_deal_is_all_cards_one_at_a_time_from_the_dealers_left():
    game = new(players=["Anna", "Boris", "Vera"], seed=5)
    sizes = [len(game.initial_hands[p]) for p in game.players]
    assert sizes == [18, 17, 17]  # 52 cards: the dealer (Vera, last) is among the shorter hands
    assert game.turn == "Anna"  # the player to the dealer's left asks first


def test_the_same_seed_deals_the_same_cards_on_any_machine():
    # A golden deal: Python's Mersenne Twister and shuffle are fixed for integer seeds, so a change here
    # means records with a seed would replay differently. Never update this list casually.
    assert list(new(seed=42).initial_hands["Anna"]) == ['2S', '3S', '3H', '5C', '6H', '8D', '9H', '10S', '10H', 'JH', 'JD', 'QC', 'KC']
    assert new(seed=43).initial_hands != new(seed=42).initial_hands


def test_literature_dealer_asks_first_and_hands_are_even():
    game = new("literature", "literature-48", SIX)
    assert game.turn == "Sasha"  # the dealer defaults to the last player, who asks first in Literature
    assert {len(h) for h in game.initial_hands.values()} == {8}
    assert game.teams == (("Olga", "Mary", "Joseph"), ("Ivan", "Petr", "Sasha"))


@pytest.mark.parametrize("players, dealt", [(2, 7), (3, 7), (4, 5), (6, 5)])
def test_go_fish_deals_seven_to_small_tables_and_five_to_larger(players, dealt):
    game = new("go-fish", players=[f"P{i}" for i in range(players)])
    assert {len(h) for h in game.initial_hands.values()} == {dealt}
    assert game.public_view().stock == 52 - players * dealt


def test_a_draw_is_secret_to_the_drawer_unless_lucky():
    record = load_record_text("""
format: authors-record/1
rules: go-fish
options: {deal_size: 2}
deck:
  format: authors-deck/1
  id: tiny
  title: Tiny
  sets:
  - {id: a, name: A, cards: [{title: a1}, {title: a2}]}
  - {id: b, name: B, cards: [{title: b1}, {title: b2}]}
  - {id: c, name: C, cards: [{title: c1}, {title: c2}]}
players: [Anna, Boris]
dealer: Boris
hands: {Anna: [a1, b1], Boris: [c1, a2]}
stock: [c2, b2]
moves:
- {player: Anna, ask: Boris, set: b}
""")
    game = replay(record).game
    mine = [e for e in game.view("Anna").log if e["type"] == "draw"]
    theirs = [e for e in game.view("Boris").log if e["type"] == "draw"]
    assert mine[0]["card"] == "c2" and "card" not in theirs[0]
    assert "c2" not in json.dumps(game.view("Boris").to_dict())
    assert "c2" not in json.dumps(game.public_view().to_dict())


def test_literature_keeps_no_public_log_but_shows_the_last_ask():
    game = new("literature", "literature-48", SIX, seed=3)
    move = game.asks(game.turn)[0]
    game.apply(move)
    view = game.view("Olga")
    assert view.log is None
    assert view.last_ask["player"] == move.player and view.last_ask["target"] == move.target


def test_announce_last_card_is_an_event():
    record = load_record_text("""
format: authors-record/1
rules: literature
options: {announce_last_card: true}
deck:
  format: authors-deck/1
  id: six-pairs
  title: Six pairs
  sets:
  - {id: p, name: P, cards: [{title: p1}, {title: p2}]}
  - {id: q, name: Q, cards: [{title: q1}, {title: q2}]}
  - {id: r, name: R, cards: [{title: r1}, {title: r2}]}
  - {id: s, name: S, cards: [{title: s1}, {title: s2}]}
  - {id: t, name: T, cards: [{title: t1}, {title: t2}]}
  - {id: u, name: U, cards: [{title: u1}, {title: u2}]}
players: [A1, B1, A2, B2, A3, B3]
dealer: A1
hands: {A1: [p1, q1], B1: [q2, r1], A2: [p2, r2], B2: [s1, t1], A3: [s2, u1], B3: [t2, u2]}
""")
    game = record.new_game()
    events = game.apply(Ask("A1", "B1", card="q2"))
    assert [e.kind for e in events] == ["ask", "last-card"] and events[1].data == {"player": "B1"}


def test_legal_asks_never_offer_a_set_you_do_not_hold_nor_an_empty_target():
    game = new(seed=9)
    actor = game.turn
    hand_sets = {card[:-1] for card in game.view(actor).hand}
    for move in game.legal_moves(actor):
        assert move.set in hand_sets and move.target != actor


@pytest.mark.parametrize("removed, low, high", [("2", "3 4 5 6 7 8", "9 10 J Q K A"),
                                                  ("7", "2 3 4 5 6 8", "9 10 J Q K A"),
                                                  ("8", "2 3 4 5 6 7", "9 10 J Q K A")])
def test_literature_can_remove_another_rank(removed, low, high):
    game = new("literature", "literature-48", SIX, removed_rank=removed)
    deck = game.deck
    assert deck.card_count == 48
    assert [c.id[:-1] for c in deck.set("low-spades").cards] == low.split()
    assert [c.id[:-1] for c in deck.set("high-hearts").cards] == high.split()


def test_literature_with_jokers_has_a_ninth_set_and_no_draw():
    game = new("literature", "literature-48", SIX, removed_rank="8", jokers=True)
    assert game.deck.card_count == 54 and len(game.deck.sets) == 9
    assert set(game.deck.set("eights").card_ids) == {"8S", "8H", "8D", "8C", "BJ", "RJ"}
    assert {len(h) for h in game.initial_hands.values()} == {9}


def test_literature_with_sets_of_one_rank():
    game = new("literature", "standard-52", SIX, rank_sets=True)
    assert len(game.deck.sets) == 13 and game.deck.set("Q").card_ids == ("QS", "QH", "QD", "QC")


def test_regrouping_needs_playing_cards():
    with pytest.raises(SetupError):
        new("literature", "authors-1861", SIX, removed_rank="2")


def test_the_double_deck_is_for_seven_to_eleven_players_with_22_sets():
    game = new("classic", "authors-1861", [f"P{i}" for i in range(9)], double_deck=True)
    assert len(game.deck.sets) == 22 and game.deck.card_count == 88
    assert game.deck.has_card("hamlet") and game.deck.has_card("hamlet-2")
    with pytest.raises(SetupError):
        new("classic", "authors-1861", FOUR, double_deck=True)


def test_player_limits_per_preset():
    with pytest.raises(SetupError):
        new("standard", players=["A", "B"])
    with pytest.raises(SetupError):
        new("standard", players=[f"P{i}" for i in range(7)])
    with pytest.raises(SetupError):
        new("literature", "literature-48", FOUR)
    new("classic", "authors-1861", ["A", "B"])


def test_unknown_options_and_values_are_refused():
    with pytest.raises(OptionsError, match="unknown option"):
        make_options("standard", {"ask_with": "set"})
    with pytest.raises(OptionsError):
        make_options("standard", {"stock": "maybe"})
    with pytest.raises(OptionsError):
        make_options("poker")
    assert make_options("standard", {"stock": "true"}).stock is True


def test_a_refused_move_leaves_the_game_unchanged():
    game = new(seed=2)
    before = game.replay_state()
    with pytest.raises(IllegalMove) as refusal:
        game.apply(Ask(game.turn, game.turn, set="A"))
    assert refusal.value.code == "ask-self" and refusal.value.message
    assert game.replay_state() == before and game.moves == []


def test_the_name_the_work_matcher_forgives_case_accents_punctuation_and_articles():
    card = get_deck("french-writers").cards[0]
    assert grade(card.title.upper(), card) is Verdict.RIGHT
    assert set(forms("L'Étranger")) & set(forms("etranger"))
    assert set(forms("The Raven")) & set(forms("raven"))
    assert set(forms("Os Lusíadas")) & set(forms("lusiadas"))
    assert set(forms("Il nome della rosa")) & set(forms("Nome della Rosa!"))
    assert grade("", card) is Verdict.WRONG and grade(None, card) is Verdict.WRONG


def test_prompts_open_after_the_last_set_can_still_be_answered():
    game = Game(get_deck("authors-1861"), make_options("classic", {"name_the_work": True}), ["Lea", "Tom"],
                hands={"Lea": [c.id for c in get_deck("authors-1861").cards if c.set_id != "poe"] + ["the-raven"],
                       "Tom": [c.id for c in get_deck("authors-1861").set("poe").cards if c.id != "the-raven"]},
                rules="classic", dealer="Tom")
    poe = [c for c in get_deck("authors-1861").set("poe").cards if c.id != "the-raven"]
    for card in poe:
        game.apply(Ask("Lea", "Tom", card=card.id))
        game.apply(Answer("Lea", card.title))
    assert game.finished and game.turn is None
    assert game.scores()["Lea"] == 11 + 3


def test_every_game_exports_to_a_record_and_imports_back_exactly():
    from app.engine.bots import make_bot

    for rules, deck, players, overrides in [("standard", "standard-52", FOUR, {}),
                                            ("go-fish", "standard-52", FOUR, {}),
                                            ("classic", "authors-1861", FOUR, {"name_the_work": True}),
                                            ("literature", "literature-48", SIX, {"claims_any_time": True})]:
        game = new(rules, deck, players, seed=11, **overrides)
        bot = make_bot("random", 4)
        while not game.finished:
            game.apply(bot.choose(game.view(game.turn)))
        text = record_of(game).to_yaml()
        again = replay(load_record_text(text))
        assert again.error is None
        assert again.game.replay_state() == game.replay_state()
        assert record_of(again.game).to_yaml() == text


def play_match(match: Match) -> Match:
    from app.engine.bots import make_bot

    bots = {name: make_bot("random", i) for i, name in enumerate(match.players)}
    while not match.over:
        game = match.current
        while not game.finished:
            game.apply(bots[game.turn].choose(game.view(game.turn)))
        match.deal_finished()
    return match


def test_a_match_rotates_the_deal_and_ends_at_the_target():
    match = play_match(Match(get_deck("standard-52"), make_options("standard"), ["A", "B", "C"],
                             MatchFormat(deals=None, target=20), seed=3, rules="standard"))
    dealers = [h.players[h.dealer] for h in match.deals]
    assert dealers[:3] == ["C", "A", "B"]
    assert max(match.totals.values()) >= 20
    assert sum(match.totals.values()) == 13 * len(match.deals)
    assert set(match.winners()) == {n for n, t in match.totals.items() if t == max(match.totals.values())}


def test_a_fixed_match_with_a_tie_break_hand():
    for seed in range(40):
        match = play_match(Match(get_deck("standard-52"), make_options("standard"), ["A", "B", "C", "D"],
                                 MatchFormat(deals=1, tie_break=True), seed=seed, rules="standard"))
        if match.tie_break_deal is not None:
            leaders = [n for n, t in match.totals.items() if t == max(match.totals.values())]
            assert len(leaders) > 1 and set(match.winners()) <= set(leaders)
            return
    pytest.fail("no tie in 40 one-hand matches: the tie-break path was never taken")


def test_claim_helpers_are_exact():
    game = new("literature", "literature-48", SIX, seed=3)
    actor = game.turn
    claims = [m for m in game.legal_moves(actor) if isinstance(m, Claim)]
    assert len(claims) == 8 * 3 ** 6  # every attribution of every set to the three teammates
    assert not [m for m in game.legal_moves(actor) if isinstance(m, PassTurn)]


def test_the_choice_to_hand_on_after_a_claim_lapses_once_the_claimer_asks():
    text = (Path(__file__).parent / "records" / "literature-claiming-team-picks-next.yaml").read_text()
    record = load_record_text(text)
    game = record.new_game()
    game.apply(record.moves[0])  # Olga claims low spades correctly and keeps the turn
    assert game.pass_targets("Olga") == ("Mary", "Joseph")
    game.apply(Ask("Olga", "Ivan", card="QC"))  # a miss: the turn goes to Ivan
    assert game.pass_targets("Olga") == ()
    game2 = record.new_game()
    game2.apply(record.moves[0])
    game2.apply(Ask("Olga", "Petr", card="9D"))  # a hit: Olga goes on, but may no longer hand on
    assert game2.turn == "Olga" and game2.pass_targets("Olga") == ()
    assert game2.check(PassTurn("Olga", "Mary")).code == "not-allowed"
