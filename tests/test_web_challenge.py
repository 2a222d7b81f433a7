"""Challenge a set (`challenge_sets`, issue #35) through the app: three students play a hand of Authors by
the API; when one lays down a set with another's card, that student alone may challenge, and while the
challenge is open no state, deck, page or move answer that anyone's browser is sent holds a title of the
set; a defence that names every work keeps the set and scores 1, one that does not hands it over. Also:
the new-table defaults and refusals, and a computer standing in for a student gives the set up."""
from __future__ import annotations

import json
import random

from app.engine.moves import Defend
from app.models import Table
from app.services.deals import for_student

from .test_web_leaks import table_routes, urls
from .web_support import (choose_move, deck_of, error_of, get_state, open_table, seat_student, server_game,
                          teacher_client)

NAMES = ("Anna", "Boris", "Vera")


def open_challenge_table(app):
    teacher = teacher_client(app)
    code = open_table(teacher, rules="classic", deck="authors-1861", options={"challenge_sets": True},
                      seats=[{"kind": "human"}] * 3)
    students = {name: seat_student(app, code, name) for name in NAMES}
    assert teacher.post(f"/api/tables/{code}/start").status_code == 200
    return code, teacher, students


def play_until_a_challenge(app, code, students, rng, deck):
    """Random moves as the screens offer them, until a set laid down waits for its challenger's word;
    returns that state's challenge and the answer of the move that laid the set down."""
    projector = app.test_client()
    last = None
    for _ in range(500):
        game = get_state(projector, code)["game"]
        if game["challenge"]:
            return game["challenge"], last
        actor = students[game["turn"]]
        state = get_state(actor, code)
        response = actor.post(f"/api/tables/{code}/moves",
                              json={"version": state["version"], "move": choose_move(state, deck, rng)})
        assert response.status_code == 200, response.get_json()
        last = response.get_json()
    raise AssertionError("no set was laid down from an ask in 500 moves")


def everything_sent(app, code, teacher, students, extra=()):
    """The text of every state, deck and page each student, the teacher and the projector are sent."""
    texts = list(extra)
    for client in [*students.values(), teacher, app.test_client()]:
        for path in (f"/api/tables/{code}", f"/api/tables/{code}/deck", f"/t/{code}/play", f"/t/{code}/projector"):
            response = client.get(path)
            if response.status_code == 200:
                texts.append(response.get_data(as_text=True))
    return texts


def titles_of_set(app, code, set_id):
    with app.app_context():
        game = server_game(Table.query.filter_by(code=code).one().current_deal)
        return [c.title for c in game.deck.set(set_id).cards]


def assert_unseen(texts, titles):
    for title in titles:
        assert not any(title in text for text in texts), f"{title!r} was sent while its set was challenged"


def test_a_set_challenged_defended_and_lost_through_the_api(play_app):
    code, teacher, students = open_challenge_table(play_app)
    deck = deck_of(teacher, code)
    assert deck["recall"] is True  # a set may be named from memory: the deck lists no works
    rng = random.Random(3)

    # The first challenge: only the player who gave the last card may speak; nothing names the set's works.
    challenge, laid = play_until_a_challenge(play_app, code, students, rng, deck)
    layer, challenger, set_id = challenge["player"], challenge["challenger"], challenge["set"]
    titles = titles_of_set(play_app, code, set_id)
    assert challenge["stage"] == "offer" and layer != challenger
    assert_unseen(everything_sent(play_app, code, teacher, students, [json.dumps(laid, ensure_ascii=False)]), titles)
    mine = get_state(students[challenger], code)["game"]
    assert mine["to_act"] and mine["asks"] is None and get_state(students[layer], code)["game"]["asks"] is None
    refused = students[layer].post(f"/api/tables/{code}/moves", json={"move": {"defend": set_id, "names": titles}})
    assert refused.status_code == 409 and error_of(refused)["code"] == "not-allowed", refused.get_json()
    third = next(name for name in NAMES if name not in (layer, challenger))
    refused = students[third].post(f"/api/tables/{code}/moves", json={"move": {"challenge": set_id}})
    assert refused.status_code == 409 and error_of(refused)["code"] == "not-your-turn"
    assert "turn" in error_of(refused)["message"]

    before = get_state(teacher, code)["game"]["bonus"][layer]
    moved = students[challenger].post(f"/api/tables/{code}/moves", json={"move": {"challenge": set_id}})
    assert moved.status_code == 200, moved.get_json()
    state = get_state(students[layer], code)
    assert state["game"]["challenge"]["stage"] == "defend" and state["game"]["to_act"]
    assert_unseen(everything_sent(play_app, code, teacher, students, [moved.get_data(as_text=True)]), titles)

    # She names every work (in another order, in lower case): the set stays hers, +1, and her answer says
    # which works she named; the others learn only how many.
    defended = students[layer].post(f"/api/tables/{code}/moves", json={"move": {
        "defend": set_id, "names": [t.lower() for t in reversed(titles)]}})
    assert defended.status_code == 200, defended.get_json()
    event = next(e for e in defended.get_json()["result"] if e["type"] == "defence")
    assert event["held"] is True and event["count"] == event["size"] == len(titles)
    assert sorted(event["titles"]) == sorted(titles) and event["verdicts"] == ["right"] * len(titles)
    after = get_state(teacher, code)["game"]
    assert after["challenge"] is None and after["bonus"][layer] == before + 1 and set_id in after["books"][layer]
    public = [e for e in get_state(students[challenger], code)["game"]["log"] if e["type"] == "defence"][-1]
    assert "names" not in public and "titles" not in public and public["held"] is True

    # The next challenge: the layer gives up (no names), and the set goes to the challenger.
    challenge, _laid = play_until_a_challenge(play_app, code, students, rng, deck)
    layer, challenger, set_id = challenge["player"], challenge["challenger"], challenge["set"]
    assert students[challenger].post(f"/api/tables/{code}/moves", json={"move": {"challenge": set_id}}).status_code == 200
    lost = students[layer].post(f"/api/tables/{code}/moves", json={"move": {"defend": set_id, "names": []}})
    assert lost.status_code == 200, lost.get_json()
    books = get_state(teacher, code)["game"]["books"]
    assert set_id in books[challenger] and set_id not in books[layer]

    # Every page and export of the table (reports, the log, the record) reads a hand with challenges.
    for rule in table_routes(play_app):
        for path, _number in urls(rule, code, 1, 3):
            assert teacher.get(path).status_code < 500, path


def test_a_challenge_let_stand_goes_on_with_the_layers_turn(play_app):
    code, teacher, students = open_challenge_table(play_app)
    deck = deck_of(teacher, code)
    challenge, _laid = play_until_a_challenge(play_app, code, students, random.Random(8), deck)
    let = students[challenge["challenger"]].post(f"/api/tables/{code}/moves", json={"move": {"challenge": None}})
    assert let.status_code == 200, let.get_json()
    game = get_state(teacher, code)["game"]
    assert game["challenge"] is None and challenge["set"] in game["books"][challenge["player"]]
    assert game["turn"] == challenge["player"] or game["hand_counts"][challenge["player"]] == 0


def test_a_bad_defence_body_is_a_400_with_a_sentence(play_app):
    code, _teacher, students = open_challenge_table(play_app)
    for body in ({"defend": "dickens", "names": "Oliver Twist"}, {"defend": "dickens", "names": [3]},
                 {"defend": "dickens", "names": ["x"] * 13}, {"challenge": ["dickens"]}):
        response = students["Anna"].post(f"/api/tables/{code}/moves", json={"move": body})
        assert response.status_code == 400, (body, response.get_json())
        assert error_of(response)["message"]


def test_the_new_table_defaults_and_refusals(app):
    teacher = teacher_client(app)
    form = teacher.get("/tables/new").get_data(as_text=True)
    assert "Challenge a set" in form and "the player who gave up its last card may challenge" in form
    code = open_table(teacher, rules="quartett", deck="german-writers", options={"challenge_sets": True},
                      seats=[{"kind": "human"}, {"kind": "computer"}])
    options = get_state(teacher, code)["options"]
    assert options["challenge_sets"] is True and options["answers"] == "typos"  # a slip is forgiven, as in naming
    refused = teacher.post("/api/tables", json={"rules": "classic", "options": {"challenge_sets": True, "works_listed": True},
                                                "seats": [{"kind": "human"}, {"kind": "computer"}]})
    assert refused.status_code == 400 and "works_listed" in error_of(refused)["message"]
    refused = teacher.post("/api/tables", json={"rules": "literature", "options": {"challenge_sets": True},
                                                "seats": [{"kind": "computer"}] * 6})
    assert refused.status_code == 400 and "claims" in error_of(refused)["message"]


def test_a_computer_playing_for_a_student_names_no_work_and_gives_the_set_up():
    move = for_student(Defend("Anna", "dickens", ("Oliver Twist", "Bleak House")))
    assert move == Defend("Anna", "dickens", ())

