"""Computer players (issue #6): legal to the end, blind to what their seat cannot see, and the rules
that define `memory` and `expert` on hand-built tables."""
from __future__ import annotations

import gc
import json
import random
import types

import pytest
from click.testing import CliRunner

from app.decks import get_deck
from app.engine.bots import BOTS, make_bot
from app.engine.bots.inference import Deal
from app.engine.cli import simulate_command
from app.engine.events import Event
from app.engine.game import Game
from app.engine.moves import Answer, Ask
from app.engine.options import make_options
from app.engine.simulate import play_games
from app.engine.views import PlayerView

PRESETS = [
    ("standard", "standard-52", 4, {}),
    ("classic", "authors-1861", 4, {}),
    ("classic", "authors-1861", 3, {"ask_by": "set"}),
    ("go-fish", "standard-52", 4, {}),
    ("literature", "literature-48", 6, {}),
    ("classic", "authors-1861", 4, {"name_the_work": True}),
    ("classic", "authors-1861", 4, {"named_asks": True, "answers": "typos"}),
    ("classic", "authors-1861", 7, {"double_deck": True}),
    ("quartett", "authors-1861", 4, {}),
    ("quartett", "authors-1861", 2, {"name_the_work": True}),
    ("familles", "french-writers", 3, {}),
    ("familias", "authors-1861", 5, {}),
]


def deal_with(deck_id: str, players: list[str], fixed: dict[str, list[str]], size: dict[str, int] | None = None,
              exclude: tuple[str, ...] = ()) -> dict[str, list[str]]:
    """A whole deal: the fixed cards where given, the rest dealt round to fill every hand evenly.

    Cards of the sets in `exclude` go only to hands that already hold some (so no one else does)."""
    deck = get_deck(deck_id)
    hands = {p: list(fixed.get(p, [])) for p in players}
    placed = {c for cards in hands.values() for c in cards}
    total = len(deck.cards)
    size = size or {p: total // len(players) + (i < total % len(players)) for i, p in enumerate(players)}
    rest = [c.id for c in deck.cards if c.id not in placed]
    for card in rest:
        open_hands = [p for p in players if len(hands[p]) < size[p]]
        set_id = deck.card(card).set_id
        if set_id in exclude:
            open_hands = [p for p in open_hands if any(deck.card(c).set_id == set_id for c in hands[p])] or open_hands
        open_hands.sort(key=lambda p: len(hands[p]))
        hands[open_hands[0]].append(card)
    return hands


def feed(game: Game, bots: dict, start: int = 0) -> None:
    """Every bot observes the events from the `start`-th on, as its seat saw them."""
    for name, bot in bots.items():
        bot.observe(game.events_seen_by(name, start))


# ------------------------------------------------------------------------------------------------
# Whole games
# ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("rules,deck_id,players,overrides", PRESETS, ids=lambda v: str(v))
@pytest.mark.parametrize("bot", ["random", "memory", "expert"])
def test_every_bot_plays_every_preset_to_the_end(bot, rules, deck_id, players, overrides):
    # play_games applies each move to the engine, which refuses an illegal one; a game that runs on
    # past its move limit raises StalledGame. Mixed tables too: the bot against the other strengths.
    others = [b for b in BOTS if b != bot]
    seats = [bot] + [others[i % len(others)] for i in range(players - 1)]
    result = play_games(rules, get_deck(deck_id), players, seats, games=2, seed=11, overrides=overrides)
    assert result["games"] == 2 and result["moves"] > 0


@pytest.mark.parametrize("bot", ["memory", "expert"])
def test_a_whole_table_of_one_strength_finishes_literature(bot):
    play_games("literature", get_deck("literature-48"), 6, [bot], games=2, seed=3)


def test_simulate_takes_one_bot_per_seat_and_rotates_them(monkeypatch):
    result = CliRunner().invoke(simulate_command, ["--bots", "expert,memory,memory,memory", "--games", "4",
                                                   "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["bots"] == ["expert", "memory", "memory", "memory"]
    assert set(out["decision_ms"]) == {"p50", "p95"}

    seats_seen = []
    real = make_bot

    def spy(name, seed):
        seats_seen.append(name)
        return real(name, seed)

    monkeypatch.setattr("app.engine.simulate.make_bot", spy)
    play_games("standard", get_deck("standard-52"), 4, ["expert", "memory", "memory", "memory"], games=4)
    # bot slot 0 sits at physical seat g in game g: the expert moves round the table
    assert [seats_seen[g * 4:(g + 1) * 4].index("expert") for g in range(4)] == [0, 1, 2, 3]


# ------------------------------------------------------------------------------------------------
# A bot sees only its seat
# ------------------------------------------------------------------------------------------------
def _reachable(root) -> list:
    """Every object reachable from root, not walking into modules, classes or functions (shared code)."""
    skip = (types.ModuleType, type, types.FunctionType, types.BuiltinFunctionType, types.MethodType,
            types.CodeType)
    seen, out, stack = set(), [], [root]
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, skip):
            continue
        seen.add(id(obj))
        out.append(obj)
        stack.extend(gc.get_referents(obj))
    return out


def _check_blind(root, game: Game, seat: str) -> None:
    hands = [(name, set(cards)) for name, cards in game.initial_hands.items()]
    hands += [(name, set(cards)) for name, cards in game.replay_state()["hands"].items()]
    for obj in _reachable(root):
        assert not isinstance(obj, (Game, Event)), f"{type(obj).__name__} reachable from {seat}'s bot input"
        assert not (isinstance(obj, PlayerView) and obj.seat != seat), "another seat's view is reachable"
        if isinstance(obj, (tuple, list, set, frozenset)) and len(obj) >= 5:
            items = set(x for x in obj if isinstance(x, str))
            for name, hand in hands:
                if name != seat:
                    assert items != hand, f"{name}'s hand is reachable from {seat}'s view"


@pytest.mark.parametrize("rules,deck_id,players,overrides", [PRESETS[0], PRESETS[3], PRESETS[4]],
                         ids=lambda v: str(v))
def test_a_view_reaches_no_game_and_no_other_hand(rules, deck_id, players, overrides):
    options = make_options(rules, overrides)
    names = [f"P{i + 1}" for i in range(players)]
    game = Game(get_deck(deck_id), options, names, seed=5, rules=rules)
    bots = {name: make_bot("expert", i) for i, name in enumerate(names)}
    feed(game, bots, 0)
    for _ in range(12):  # a few moves in, so the views carry a log, asks, last_ask ...
        actor = game.turn
        view = game.view(actor)
        _check_blind(view, game, actor)
        move = bots[actor].choose(view)
        seen = game.event_count
        game.apply(move)
        feed(game, bots, seen)
    for name in names:
        _check_blind(game.view(name), game, name)
        _check_blind(bots[name], game, name)  # nor does what a bot keeps between moves


def test_observed_draws_hide_other_seats_cards(monkeypatch):
    # play_games shows every bot each move's events as its own seat saw them: its own draws with the
    # card, anyone else's unlucky draws without.
    recorders = []

    class Recorder:
        name = "memory"

        def __init__(self, seed):
            self.inner, self.events, self.seat = make_bot("memory", seed), [], None
            recorders.append(self)

        def observe(self, events):
            self.events.extend(events)
            self.inner.observe(events)

        def choose(self, view):
            self.seat = view.seat
            return self.inner.choose(view)

    monkeypatch.setattr("app.engine.simulate.make_bot", lambda name, seed: Recorder(seed))
    play_games("go-fish", get_deck("standard-52"), 3, ["memory"], games=1, seed=2)
    draws = [(bot.seat, e) for bot in recorders for e in bot.events if e["type"] == "draw" and not e["lucky"]]
    assert draws and all(bot_seat is not None for bot_seat, _ in draws)
    assert all(("card" in e) == (e["player"] == seat) for seat, e in draws)


# ------------------------------------------------------------------------------------------------
# `memory`: exactly its rule
# ------------------------------------------------------------------------------------------------
STANDARD = ["A", "B", "C", "D"]


def test_memory_asks_the_opponent_known_to_hold_the_most():
    # A asks B for kings and gets one (A now publicly holds at least two); A asks C for queens and
    # misses (A publicly holds a queen). B holds a queen and no king: its rule asks A for queens.
    fixed = {"A": ["KS", "KH", "QS", "2S"], "B": ["KD", "QH", "5S", "5H"], "C": ["2H", "2D"], "D": ["KC", "QD"]}
    hands = deal_with("standard-52", STANDARD, fixed, exclude=("Q", "K"))
    assert not any(c.startswith("Q") for c in hands["C"])
    game = Game(get_deck("standard-52"), make_options("standard"), STANDARD, dealer="D", hands=hands)
    bots = {name: make_bot("memory", 1) for name in STANDARD}
    feed(game, bots, 0)
    for move in (Ask("A", "B", set="K"), Ask("A", "C", set="Q")):
        seen = game.event_count
        game.apply(move)
        feed(game, bots, seen)
    assert game.turn == "B"
    for seed in range(20):
        bot = make_bot("memory", seed)
        bot.observe(game.events_seen_by(None))
        assert bot.choose(game.view("B")) == Ask("B", "A", set="Q")


def test_memory_never_asks_an_opponent_known_to_lack_the_set():
    # B asks C for fives and misses: C lacks fives. C, D and A then miss asking B for sets B lacks.
    # Back at B, no one is known to hold anything B holds, so B asks at random — but never C for fives.
    hands = {
        "B": "5S 5H 7S 7H 9S 9H JS JH QS QH KS KH AS".split(),
        "C": "2S 2H 3S 3H 4S 4H 6S 6H 8S 8H 10S 10H AH".split(),
        "D": "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC".split(),
        "A": "2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD".split(),
    }
    game = Game(get_deck("standard-52"), make_options("standard"), STANDARD, dealer="A", hands=hands)
    for move in (Ask("B", "C", set="5"), Ask("C", "B", set="2"), Ask("D", "B", set="3"), Ask("A", "B", set="4")):
        game.apply(move)
    assert game.turn == "B"
    view, log = game.view("B"), game.events_seen_by(None)
    picks = set()
    for seed in range(300):
        bot = make_bot("memory", seed)
        bot.observe(log)
        move = bot.choose(view)
        picks.add((move.set, move.target))
    assert ("5", "C") not in picks
    held = {"5", "7", "9", "J", "Q", "K", "A"}
    assert picks == {(s, t) for s in held for t in "ACD"} - {("5", "C")}  # uniform over the rest


def test_memory_asks_for_a_card_seen_going_to_an_opponent():
    # Classic, by card: A takes Oliver Twist from B face up, then misses with C. B still holds a Dickens
    # card, so its rule asks A for exactly Oliver Twist.
    deck = get_deck("authors-1861")
    dickens = deck.set("dickens").card_ids
    players = ["A", "B", "C"]
    fixed = {"A": [dickens[1]], "B": [dickens[0], dickens[2]], "C": [dickens[3]]}
    hands = deal_with("authors-1861", players, fixed, exclude=("dickens",))
    game = Game(deck, make_options("classic"), players, dealer="C", hands=hands)
    game.apply(Ask("A", "B", card=dickens[0]))
    miss = next(c for c in dickens if c not in hands["C"] and c not in game.view("A").hand)
    game.apply(Ask("A", "C", card=miss))
    assert game.turn == "B"
    for seed in range(10):
        bot = make_bot("memory", seed)
        bot.observe(game.events_seen_by(None))
        assert bot.choose(game.view("B")) == Ask("B", "A", card=dickens[0])


# ------------------------------------------------------------------------------------------------
# `expert`: certain asks, exact inference, determinism
# ------------------------------------------------------------------------------------------------
def test_expert_asks_where_the_card_is_certainly():
    # Three players, classic. B asks C for Oliver Twist and misses: C lacks it, B lacks it, so A holds
    # it. When B's turn comes round again the expert asks A for it, though no one has seen it.
    deck = get_deck("authors-1861")
    dickens = deck.set("dickens").card_ids
    players = ["A", "B", "C"]
    fixed = {"A": [dickens[0]], "B": [dickens[1]], "C": [dickens[2], dickens[3]]}
    hands = deal_with("authors-1861", players, fixed, exclude=("dickens",))
    game = Game(deck, make_options("classic"), players, dealer="A", hands=hands)
    assert game.turn == "B"
    game.apply(Ask("B", "C", card=dickens[0]))   # C's turn
    rng = random.Random(3)
    while game.turn != "B":                       # C and A miss with asks of their own
        misses = [a for a in game.view(game.turn).asks
                  if a.card != dickens[0] and a.card not in game.view(a.target).hand]
        game.apply(rng.choice(misses))
    bot = make_bot("expert", 7)
    bot.observe(game.events_seen_by(None))
    move = bot.choose(game.view("B"))
    know = bot.know
    deal = Deal(know).solve(random.Random(0))

    def certain(card, target):
        return deal.card_p[deal.index[know.card_index[card]]][deal.pos[know.seat[target]]] == 1.0

    assert deal.exact and certain(dickens[0], "A")
    # It asks for Oliver Twist, or for another card its misses and theirs have pinned down as surely.
    assert certain(move.card, move.target) and move.card in game.view(move.target).hand
    others = [a for a in game.view("B").asks if a.card != dickens[0] and certain(a.card, a.target)]
    if not others:
        assert move == Ask("B", "A", card=dickens[0])


def test_expert_makes_a_certain_ask_when_there_is_one():
    # B takes C's king and misses asking C for twos; C misses asking B for eights. D, an expert holding
    # every club, has three asks that cannot miss (kings or twos from B, eights from C) among 39.
    hands = {
        "B": "KS KH 2S 2H 3S 3H 4S 4H 5S 5H 6S 6H 7S".split(),
        "C": "KD 8S 8H 9S 9H 10S 10H JS JH QS QH AS AH".split(),
        "D": "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC".split(),
        "A": "2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD AD 7H".split(),
    }
    game = Game(get_deck("standard-52"), make_options("standard"), STANDARD, dealer="A", hands=hands)
    for move in (Ask("B", "C", set="K"), Ask("B", "C", set="2"), Ask("C", "B", set="8")):
        game.apply(move)
    assert game.turn == "D"
    log = game.events_seen_by(None)
    for seed in range(5):
        bot = make_bot("expert", seed)
        bot.observe(log)
        move = bot.choose(game.view("D"))
        assert (move.set, move.target) in {("K", "B"), ("2", "B"), ("8", "C")}


def test_expert_and_memory_are_deterministic_by_seed():
    def moves(seed):
        game = Game(get_deck("authors-1861"), make_options("classic"), ["A", "B", "C", "D"], seed=4)
        bots = {name: make_bot(kind, seed + i) for i, (name, kind) in
                enumerate(zip(game.players, ["expert", "memory", "expert", "random"]))}
        feed(game, bots, 0)
        out = []
        while not game.finished:
            move = bots[game.turn].choose(game.view(game.turn))
            out.append(move)
            seen = game.event_count
            game.apply(move)
            feed(game, bots, seen)
        return out

    assert moves(1) == moves(1)
    assert moves(1) != moves(2)


def test_literature_expert_claims_only_what_it_knows(monkeypatch):
    # Every claim the expert makes as certain is right (guesses come only from its stall breakers).
    from app.engine.bots.expert import ExpertBot
    sure_claims = []
    real = ExpertBot._sure_claim

    def recording(self, view, deal, team):
        claim = real(self, view, deal, team)
        if claim is not None:
            sure_claims.append(claim)
        return claim

    monkeypatch.setattr(ExpertBot, "_sure_claim", recording)
    options = make_options("literature")
    outcomes = []
    for seed in range(3):
        game = Game(get_deck("literature-48"), options, [f"P{i}" for i in range(6)], seed=seed)
        bots = {name: make_bot(["expert", "memory"][i % 2], seed * 10 + i) for i, name in enumerate(game.players)}
        feed(game, bots, 0)
        while not game.finished:
            move = bots[game.turn].choose(game.view(game.turn))
            seen = game.event_count
            game.apply(move)
            if sure_claims and move is sure_claims[-1]:
                outcomes += [e["outcome"] for e in game.events_seen_by(None, seen) if e["type"] == "claim"]
            feed(game, bots, seen)
    assert outcomes and set(outcomes) == {"correct"}


def test_recall_depends_on_strength():
    deck = get_deck("authors-1861")
    card = deck.set("dickens").cards[0]
    view = types.SimpleNamespace(prompts=(card.id,), deck=deck, seat="A")
    from app.engine.bots.common import answer
    from app.engine.answers import grade

    def rate(recall):
        rng = random.Random(0)
        return sum(grade(answer(view, rng, recall).text, card).scores for _ in range(2000)) / 2000

    from app.engine.bots import expert, memory, random_bot
    assert rate(random_bot.RECALL) < rate(memory.RECALL) < rate(expert.RECALL) < 1
    misses = [answer(view, random.Random(s), 0.0) for s in range(40)]
    assert all(isinstance(m, Answer) and not grade(m.text, card).scores for m in misses)
    assert {m.text is None for m in misses} == {True, False}  # wrong titles and no answer, both
