"""Recall, not reading (issue 17): with the name-the-work bonus on, what a student is to name is in
nothing their browser fetched before they answer. A whole hand is played in each mode — set asks with
prompts, card asks with named asks — and before each naming every response and page a student's
browser receives (their state, the deck, the projector's and the teacher's states, the pages, the last
move's answer) is collected and searched for the titles they are about to name (and, under card asks,
for any title outside their own hand). Also: the typed ask, its refusal, hints, the recognition mode."""
from __future__ import annotations

import json
import random


from app.models import MoveRow, Table
from app.services.recall import cue

from .web_support import server_game, deck_of, get_state, library_sets, open_table, seat_student, teacher_client


def truth(app, code, name):
    """What only the test knows: the player's hand and prompts by card id, and every card's title."""
    with app.app_context():
        table = Table.query.filter_by(code=code).one()
        game = server_game(table.current_deal)
        return set(game.replay_state()["hands"][name]), list(game.prompts(name)), \
            {c.id: c.title for c in game.deck.cards}, table.current_deal.number


def laid_down_by(app, code, name):
    """The cards of the sets this player laid down (the hand they held them in)."""
    with app.app_context():
        game = server_game(Table.query.filter_by(code=code).one().current_deal)
        own = set(game.replay_state()["books"][name]) - set(game.prompts(name))
        return {c for s in game.deck.sets if s.id in own for c in s.card_ids} - set(game.prompts(name))


def open_recall_table(app, rules, deck, options, names=("Anna", "Boris")):
    teacher = teacher_client(app)
    code = open_table(teacher, rules=rules, deck=deck, options=options,
                      seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "computer"}])
    students = {name: seat_student(app, code, name) for name in names}
    assert teacher.post(f"/api/tables/{code}/start").status_code == 200
    return code, teacher, students


class Browser:
    """Everything one student's browser received this hand, as text."""

    def __init__(self, client, code):
        self.client, self.code, self.seen = client, code, []

    def fetch(self, path):
        response = self.client.get(path)
        self.seen.append(response.get_data(as_text=True))
        return response

    def look(self):
        for path in (f"/api/tables/{self.code}", f"/api/tables/{self.code}/deck", f"/t/{self.code}/play",
                     f"/t/{self.code}/projector"):
            self.fetch(path)
        return json.loads(self.seen[-4])

    def received(self, data):
        self.seen.append(json.dumps(data, ensure_ascii=False))

    def holds(self, title) -> bool:
        return any(title in text for text in self.seen)


def play_a_deal(app, rules, deck, options, check, seed):
    code, teacher, students = open_recall_table(app, rules, deck, options)
    browsers = {name: Browser(client, code) for name, client in students.items()}
    projector = app.test_client()
    rng = random.Random(seed)
    works = library_sets(deck_of(teacher, code))
    deal_number, namings, once_held = 1, 0, {name: set() for name in students}
    for _ in range(600):
        public = get_state(projector, code)
        if public["status"] != "playing" or public["match"]["hand"] != deal_number:
            break
        name = public["game"]["turn"]
        browser = browsers[name]
        mine = browser.look()
        browser.received(public)  # the projector's state, which any browser may fetch
        browser.received(teacher.get(f"/api/tables/{code}").get_json())  # and what the teacher is sent
        held, prompts, titles, _n = truth(app, code, name)
        once_held[name] |= held - set(prompts)
        game = mine["game"]
        if game["prompts"]:
            card = prompts[0]
            if card not in once_held[name]:  # (a card they held before is one they have read)
                assert not browser.holds(titles[card]), f"{name} could read {titles[card]!r} before naming it"
            namings += 1
            typed = titles[card] if rng.random() < 0.5 else titles[card][:-1]
            move = {"answer": typed}
        else:
            asks = game["asks"]
            target, set_id = rng.choice(asks["targets"]), rng.choice(asks["sets"])
            if asks["by"] == "set":
                move = {"ask": target, "set": set_id}
            else:
                mine_titles = {titles[c] for c in held}
                if check == "hand-only":  # under card asks: no title outside the student's own hand
                    outside = [t for c, t in titles.items() if c not in once_held[name] and len(t) > 4]
                    leaked = [t for t in outside if browser.holds(t)]
                    assert not leaked, f"{name} could read {leaked[:3]} that was never in their hand"
                move = {"ask": target, "set": set_id,
                        "named": rng.choice([w for w in works[set_id] if w not in mine_titles])}
                namings += 1
        response = students[name].post(f"/api/tables/{code}/moves", json={"version": mine["version"], "move": move})
        assert response.status_code == 200, response.get_json()
        data = response.get_json()
        if data["state"]["match"]["hand"] == deal_number:
            browser.received(data)
        once_held[name] |= truth(app, code, name)[0] - set(truth(app, code, name)[1]) | laid_down_by(app, code, name)
    assert namings >= 5
    return code


def test_set_asks_with_prompts_never_show_the_work_before_it_is_named(play_app):
    play_a_deal(play_app, "standard", "authors-1861", {"name_the_work": True}, "prompts", seed=4)


def test_card_asks_with_named_asks_show_no_title_outside_the_hand(play_app):
    play_a_deal(play_app, "classic", "authors-1861", {"name_the_work": True}, "hand-only", seed=5)


def test_a_recall_deck_and_state_name_no_work_and_no_card_id(play_app):
    code, teacher, students = open_recall_table(play_app, "standard", "authors-1861", {"name_the_work": True})
    deck = deck_of(students["Anna"], code)
    assert deck["recall"] is True and all(s["cards"] == [] and s["size"] for s in deck["sets"])
    state = get_state(students["Anna"], code)
    _held, _prompts, titles, _n = truth(play_app, code, "Anna")
    text = json.dumps(state)
    assert not any(f'"{card}"' in text for card in titles), "a card id (its slugified title) was sent"
    assert sorted(state["game"]["hand"]) == state["game"]["hand"]  # in token order, not the deck's
    assert all(state["cards"][t]["title"] for t in state["game"]["hand"])  # her own hand, by title


def test_works_listed_is_recognition_as_before(play_app):
    code, teacher, students = open_recall_table(play_app, "standard", "authors-1861",
                                                {"name_the_work": True, "works_listed": True})
    deck = deck_of(students["Anna"], code)
    assert deck["sets"][0]["cards"][0]["title"] and "recall" not in deck


def named_ask_turn(app, rules="classic", options=None):
    code, teacher, students = open_recall_table(app, rules, "authors-1861", options or {"name_the_work": True})
    for _ in range(50):
        public = get_state(teacher, code)
        name = public["game"]["turn"]
        if name == "Anna":
            return code, teacher, students
        state = get_state(students[name], code)
        set_id = state["game"]["asks"]["sets"][0]
        works = library_sets(deck_of(teacher, code))[set_id]
        students[name].post(f"/api/tables/{code}/moves", json={"move": {
            "ask": state["game"]["asks"]["targets"][0], "set": set_id, "named": works[0]}})
    raise AssertionError("Anna never got the turn")


def test_a_typed_ask_is_resolved_or_refused_without_a_move(play_app):
    code, teacher, students = named_ask_turn(play_app)
    anna = students["Anna"]
    state = get_state(anna, code)
    version = state["version"]
    set_id = state["game"]["asks"]["sets"][0]
    target = state["game"]["asks"]["targets"][0]
    refused = anna.post(f"/api/tables/{code}/moves", json={"move": {"ask": target, "set": set_id, "named": "Moby-Dick"}})
    assert refused.status_code == 422 and refused.get_json()["error"]["code"] == "not-a-work"
    assert "is not one of" in refused.get_json()["error"]["message"] and "works in this deck" in \
        refused.get_json()["error"]["message"]
    assert get_state(anna, code)["version"] == version  # no move was played
    held, _p, titles, _n = truth(play_app, code, "Anna")
    lacking = [c for c in titles if c not in held and titles[c] in library_sets(deck_of(anna, code))[set_id]]
    typo = titles[lacking[0]][:-1] + "x" if len(titles[lacking[0]]) >= 5 else titles[lacking[0]]
    response = anna.post(f"/api/tables/{code}/moves", json={"move": {"ask": target, "set": set_id, "named": typo}})
    assert response.status_code == 200, response.get_json()
    ask = response.get_json()["result"][0]
    assert ask["type"] == "ask" and ask["verdict"] in ("right", "almost")
    if ask["given"]:
        assert ask["title"] == titles[lacking[0]] and ask["named"] == typo
    else:
        assert ask["title"] is None and ask["named"] == ""  # a card that did not come stays unnamed
    with play_app.app_context():
        rows = [r.data for r in MoveRow.query.all() if r.data.get("player") == "Anna" and "ask" in r.data]
    assert rows[-1]["card"] == lacking[0] and rows[-1]["named"] == typo


def test_hints_only_when_asked_and_a_hinted_answer_scores_nothing(play_app):
    assert cue("The Raven", 1) == "T__ R____" and cue("The Raven", 2) == "Th_ Ra___"
    assert cue("In Memoriam A.H.H.", 1) == "I_ M_______ A.H.H."
    code, teacher, students = open_recall_table(play_app, "standard", "authors-1861",
                                                {"name_the_work": True, "hints": True})
    refused = teacher_client(play_app, "Other").post(f"/api/tables/{code}/hint", json={"level": 1})
    assert refused.status_code == 403
    for _ in range(300):
        public = get_state(teacher, code)
        assert public["status"] == "playing"
        name = public["game"]["turn"]
        client = students[name]
        state = get_state(client, code)
        assert "hint" not in json.dumps(state["game"]).lower()
        if state["game"]["prompts"]:
            _h, prompts, titles, _n = truth(play_app, code, name)
            first = client.post(f"/api/tables/{code}/hint", json={"level": 1}).get_json()
            assert first["hint"] == cue(titles[prompts[0]], 1)
            bonus = state["game"]["bonus"][name]
            response = client.post(f"/api/tables/{code}/moves",
                                   json={"move": {"answer": titles[prompts[0]], "hint": 1}})
            event = response.get_json()["result"][0]
            assert event["verdict"] == "right" and event["hinted"] == titles[prompts[0]]
            assert get_state(client, code)["game"]["bonus"][name] == bonus  # no bonus for a hinted answer
            with play_app.app_context():
                row = [r.data for r in MoveRow.query.all() if "answer" in r.data][-1]
            assert row["answer"] is None and row["hint"] == 1 and row["hinted"] == titles[prompts[0]]
            return
        asks = state["game"]["asks"]
        client.post(f"/api/tables/{code}/moves", json={"move": {"ask": asks["targets"][0], "set": asks["sets"][0]}})
    raise AssertionError("no prompt came")


def test_a_hint_the_server_gave_counts_even_when_the_move_leaves_it_out(play_app):
    code, teacher, students = open_recall_table(play_app, "standard", "authors-1861",
                                                {"name_the_work": True, "hints": True})
    for _ in range(300):
        name = get_state(teacher, code)["game"]["turn"]
        client = students[name]
        state = get_state(client, code)
        if state["game"]["prompts"]:
            _h, prompts, titles, _n = truth(play_app, code, name)
            client.post(f"/api/tables/{code}/hint", json={"level": 2})
            bonus = state["game"]["bonus"][name]
            response = client.post(f"/api/tables/{code}/moves", json={"move": {"answer": titles[prompts[0]]}})
            assert response.get_json()["result"][0]["hinted"] == titles[prompts[0]]
            assert get_state(client, code)["game"]["bonus"][name] == bonus  # the hint counted: no bonus
            with play_app.app_context():
                row = [r.data for r in MoveRow.query.all() if "answer" in r.data][-1]
            assert row["answer"] is None and row["hint"] == 2
            return
        asks = state["game"]["asks"]
        client.post(f"/api/tables/{code}/moves", json={"move": {"ask": asks["targets"][0], "set": asks["sets"][0]}})
    raise AssertionError("no prompt came")
