"""`answer_names: set` through the engine's API: which candidates an answer names, the card a prompt resolves
to (the answer event's `card` and `title`), what stays a candidate, and where the option changes nothing.
The records answer-names-*.yaml in tests/records/ replay the same rules end to end."""
from __future__ import annotations

import pytest

from app.decks.model import Card, CardSet, Deck
from app.engine.answers import Verdict, candidates_named
from app.engine.game import Game
from app.engine.moves import Answer, Ask
from app.engine.options import OptionsError, make_options


def _set(set_id: str, name: str, titles: list[tuple[str, str]]) -> CardSet:
    return CardSet(set_id, name, tuple(Card(cid, title, set_id, i) for i, (cid, title) in enumerate(titles, 1)))


HENRYS = _set("henrys", "Histories", [("iv", "Henry IV"), ("v", "Henry V"), ("vi", "Henry VI"),
                                      ("viii", "Henry VIII"), ("richard", "Richard III")])
ROMANS = _set("romans", "Romans", [("caesar", "Julius Caesar"), ("antony", "Antony and Cleopatra"),
                                   ("titus", "Titus Andronicus")])
DECK = Deck("histories", "Histories", (HENRYS, ROMANS))


def game(hands: dict[str, list[str]], **options) -> Game:
    chosen = {"ask_by": "set", "name_the_work": True, "answer_names": "set", **options}
    return Game(DECK, make_options("classic", chosen), list(hands), dealer=list(hands)[-1], hands=hands,
                rules="classic")


def answered(g: Game, player: str, text: str | None) -> tuple[str, str, str]:
    [event] = [e for e in g.apply(Answer(player, text)) if e.kind == "answer"]
    return event.data["card"], event.data["verdict"], event.data["title"]


# Lea held Henry IV; Tom hands over Henry V and Richard III; Ann holds Henry VI and Henry VIII.
HANDS = {"Lea": ["iv", "caesar"], "Tom": ["v", "richard", "antony"], "Ann": ["vi", "viii", "titus"]}


def test_the_prompts_of_a_handover_are_its_unresolved_cards_in_order():
    g = game(HANDS)
    g.apply(Ask("Lea", "Tom", set="henrys"))
    assert g.prompts("Lea") == ("v", "richard")
    assert answered(g, "Lea", "Richard III") == ("richard", "right", "Richard III")
    assert g.prompts("Lea") == ("v",)  # the received card named leaves; the older one waits
    assert g.view("Lea").prompts == ("v",)


def test_a_candidate_not_received_scores_and_resolves_to_the_oldest_prompt():
    g = game(HANDS)
    g.apply(Ask("Lea", "Tom", set="henrys"))
    assert answered(g, "Lea", "Henry VIII") == ("v", "right", "Henry V")
    assert g.view("Lea").bonus["Lea"] == 1
    assert answered(g, "Lea", "Henry V") == ("richard", "wrong", "Richard III")  # v was resolved to: spent


@pytest.mark.parametrize("second, verdict", [("Henry VI", "wrong"), ("Henry VIII", "right")])
def test_an_answer_naming_several_candidates_none_received_names_the_first_in_deck_order(second, verdict):
    """"Henry VII" is one slip from Henry VI and Henry VIII, both candidates, neither received: it names
    Henry VI (first in the deck), which is spent; Henry VIII stays a candidate."""
    g = game(HANDS, answers="typos")
    g.apply(Ask("Lea", "Tom", set="henrys"))
    assert answered(g, "Lea", "Henry VII") == ("v", "almost", "Henry V")
    assert answered(g, "Lea", second)[:2] == ("richard", verdict)


def test_an_answer_naming_several_candidates_names_the_one_received():
    hands = {"Lea": ["iv", "caesar"], "Tom": ["v", "viii", "antony"], "Ann": ["vi", "richard", "titus"]}
    g = game(hands, answers="typos")
    g.apply(Ask("Lea", "Tom", set="henrys"))
    assert g.prompts("Lea") == ("v", "viii")
    assert answered(g, "Lea", "Henry VII") == ("viii", "almost", "Henry VIII")


def test_a_held_card_is_no_candidate_and_is_as_near_as_a_typo():
    g = game(HANDS, answers="typos")
    g.apply(Ask("Lea", "Tom", set="henrys"))
    assert answered(g, "Lea", "Henry IV") == ("v", "wrong", "Henry V")
    assert answered(g, "Lea", "Henry I") == ("richard", "wrong", "Richard III")  # as near to Henry IV, held
    assert g.view("Lea").bonus["Lea"] == 0


def test_a_pass_resolves_to_the_oldest_prompt():
    g = game(HANDS)
    g.apply(Ask("Lea", "Tom", set="henrys"))
    assert answered(g, "Lea", None) == ("v", "wrong", "Henry V")
    assert answered(g, "Lea", "Henry V") == ("richard", "wrong", "Richard III")


def test_a_new_handover_starts_from_what_is_held_then():
    g = game(HANDS)
    g.apply(Ask("Lea", "Tom", set="henrys"))
    answered(g, "Lea", "Henry V")
    answered(g, "Lea", "Henry VI")  # a candidate not received: scores, resolves to Richard III
    g.apply(Ask("Lea", "Ann", set="henrys"))  # vi, viii: the set goes down
    assert g.prompts("Lea") == ("vi", "viii")
    assert answered(g, "Lea", "Henry V") == ("vi", "wrong", "Henry VI")  # held now
    assert answered(g, "Lea", "Henry VIII") == ("viii", "right", "Henry VIII")
    assert g.replay_state()["bonus"]["Lea"] == 3 and g.replay_state()["books"]["Lea"] == ["henrys"]


def test_card_asks_take_any_work_of_the_set_the_asker_lacked():
    g = game(HANDS, ask_by="card")
    g.apply(Ask("Lea", "Tom", card="v"))
    assert answered(g, "Lea", "Henry VIII") == ("v", "right", "Henry V")


def test_the_default_names_the_card_received():
    g = game(HANDS, answer_names="card")
    g.apply(Ask("Lea", "Tom", set="henrys"))
    assert answered(g, "Lea", "Richard III") == ("v", "wrong", "Henry V")
    assert make_options("classic").answer_names == "card"


def test_candidates_named_puts_right_before_almost_and_keeps_the_order_given():
    v, vi, viii = (next(c for c in HENRYS.cards if c.id == i) for i in ("v", "vi", "viii"))
    assert candidates_named("Henry VI", [v, vi, viii], answers="typos") == (Verdict.RIGHT, (vi,))
    assert candidates_named("Henry VII", [viii, vi], answers="typos") == (Verdict.ALMOST, (viii, vi))
    assert candidates_named("Henry VII", [vi, viii], answers="exact") == (Verdict.WRONG, ())
    assert candidates_named("Henry VII", [vi], others=[viii], answers="typos") == (Verdict.WRONG, ())
    assert candidates_named(None, [vi]) == (Verdict.WRONG, ())


def test_the_option_takes_card_or_set_only():
    with pytest.raises(OptionsError, match="answer_names"):
        make_options("classic", {"answer_names": "author"})


@pytest.mark.parametrize("overrides", [{}, {"double_deck": True}])
def test_whole_games_resolve_every_received_card_once_and_replay_from_their_record(overrides):
    """Computer players through whole hands: every received card is resolved by exactly one answer, the
    bonus counts the answers that scored, and the record replays to the same state and the same answers."""
    from app.decks import get_deck
    from app.engine.bots import make_bot
    from app.engine.record import load_record_text, record_of
    from app.engine.replay import replay

    deck = get_deck("authors-1861")
    options = make_options("classic", {"ask_by": "set", "name_the_work": True, "answer_names": "set",
                                       "answers": "typos", **overrides})
    players = [f"P{i}" for i in range(8 if overrides else 4)]
    for seed in range(3):
        g = Game(deck, options, players, seed=seed, rules="classic")
        bots = {name: make_bot("memory", seed + i) for i, name in enumerate(players)}
        while not g.finished:
            actor = g.turn
            assert actor is not None
            g.apply(bots[actor].choose(g.view(actor)))
        events = g.events_seen_by(None)
        received = [(e["player"], card) for e in events if e["type"] == "ask" for card in e["given"]]
        answers = [e for e in events if e["type"] == "answer"]
        assert sorted((e["player"], e["card"]) for e in answers) == sorted(received)
        assert sum(e["correct"] for e in answers) == sum(g.replay_state()["bonus"].values())
        again = replay(load_record_text(record_of(g).to_yaml()))
        assert again.error is None and again.game.replay_state() == g.replay_state()
        assert [e for e in again.game.events_seen_by(None) if e["type"] == "answer"] == answers
