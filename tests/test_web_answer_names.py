"""`answer_names` in the app: a new table that asks for whole sets and opens naming prompts names any work
of the set lacked (`set`) unless the teacher says otherwise; the form offers the option in words; a
student's state says the option and each prompt's set, and the answer reveals the card the prompt resolved
to, and no other card still to be named."""
from __future__ import annotations

import json
import random

import pytest

from app.models import Table

from .web_support import get_state, open_table, seat_student, server_game, teacher_client

THREE_STUDENTS = [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}]


@pytest.mark.parametrize("rules, options, expected", [
    ("standard", {"name_the_work": True}, "set"),
    ("classic", {"name_the_work": True, "ask_by": "set"}, "set"),
    ("go-fish", {"name_the_work": True, "works_listed": True}, "set"),
    ("standard", {"name_the_work": True, "answer_names": "card"}, "card"),  # the teacher's choice stands
    ("standard", {}, "card"),                                               # no naming: the rules' default
    ("classic", {"name_the_work": True}, "card"),                           # card asks name in the ask
])
def test_a_new_table_with_set_asks_and_prompts_names_any_work_lacked(play_app, rules, options, expected):
    teacher = teacher_client(play_app)
    code = open_table(teacher, rules=rules, options=options, seats=THREE_STUDENTS)
    state = get_state(teacher, code)
    assert state["options"]["answer_names"] == expected
    assert ("answer_names" in state["overrides"]) == (expected == "set")  # overrides: what differs from the rules


def test_the_catalog_offers_the_option_with_its_words(play_app):
    rows = {row["name"]: row for row in teacher_client(play_app).get("/api/catalog").get_json()["options"]}
    row = rows["answer_names"]
    assert row["choices"] == ["card", "set"] and set(row["choice_labels"]) == {"card", "set"}
    assert row["label"] and row["help"] and "literature" not in row["rules"] and "standard" in row["rules"]


def _hidden_truth(app, code, name):
    """What only the test knows: the seat's prompts by card id and every card's title."""
    with app.app_context():
        game = server_game(Table.query.filter_by(code=code).one().current_deal)
        return list(game.prompts(name)), {c.id: c.title for c in game.deck.cards}


def test_naming_a_later_card_of_the_handover_reveals_it_and_keeps_the_older_one_hidden(play_app):
    teacher = teacher_client(play_app)
    code = open_table(teacher, rules="standard", deck="authors-1861", options={"name_the_work": True},
                      seats=THREE_STUDENTS)
    students = {name: seat_student(play_app, code, name) for name in ("Anna", "Boris", "Vera")}
    assert teacher.post(f"/api/tables/{code}/start").status_code == 200
    rng = random.Random(3)
    for _ in range(400):  # play on (passing every prompt) until someone has two cards to name
        name = get_state(teacher, code)["game"]["turn"]
        state = get_state(students[name], code)
        prompts, titles = _hidden_truth(play_app, code, name)
        if len(prompts) >= 2:
            break
        asks = state["game"]["asks"]
        move = {"answer": None} if prompts else {"ask": rng.choice(asks["targets"]), "set": rng.choice(asks["sets"])}
        response = students[name].post(f"/api/tables/{code}/moves", json={"version": state["version"], "move": move})
        assert response.status_code == 200, response.get_json()
    else:
        pytest.fail("nobody received two cards in one ask")
    game = state["game"]
    assert state["options"]["answer_names"] == "set"
    sets = {state["cards"][token]["set"] for token in game["prompts"]}
    assert len(sets) == 1 and all(state["cards"][t]["title"] is None for t in game["prompts"])
    older, later = prompts[0], prompts[1]
    response = students[name].post(f"/api/tables/{code}/moves",
                                   json={"version": state["version"], "move": {"answer": titles[later]}})
    assert response.status_code == 200, response.get_json()
    [answer] = [e for e in response.get_json()["result"] if e["type"] == "answer"]
    assert answer["verdict"] == "right" and answer["title"] == titles[later]
    after = get_state(students[name], code)
    assert after["cards"][answer["card"]]["title"] == titles[later]
    assert answer["card"] not in after["game"]["prompts"] and len(after["game"]["prompts"]) == len(prompts) - 1
    assert titles[older] not in json.dumps([after, response.get_json()], ensure_ascii=False)
