"""Play through the API: moves, refusals, polling, computer players' pace, matches, records, restarts."""
from __future__ import annotations

import json
import random
import time

import pytest
import yaml
from sqlalchemy.exc import IntegrityError

from app import create_app, store
from app.db import db
from app.engine.record import load_record_text
from app.engine.replay import replay
from app.models import MoveRow, Table
from app.services import deals

from .web_support import CSRFClient, choose_move, deck_of, error_of, get_state, open_table, \
    seat_student, teacher_client, titles_of


def started(app, **spec):
    """A table with Anna and Boris (students) and computer players, started."""
    teacher = teacher_client(app)
    code = open_table(teacher, **spec)
    anna = seat_student(app, code, "Anna")
    boris = seat_student(app, code, "Boris")
    assert teacher.post(f"/api/tables/{code}/start").status_code == 200
    return code, teacher, {"Anna": anna, "Boris": boris}


def play_out(code, clients, deck, rng, max_moves=2000, stop=None):
    """Students play legal moves until the match ends (computer players answer within each request)."""
    any_client = next(iter(clients.values()))
    for _ in range(max_moves):
        public = get_state(any_client, code)
        if public["status"] != "playing" or (stop and stop(public)):
            return public
        player = clients[public["game"]["turn"]]
        state = get_state(player, code)
        response = player.post(f"/api/tables/{code}/moves",
                               json={"version": state["version"], "move": choose_move(state, deck, rng)})
        assert response.status_code == 200, response.get_json()
    raise AssertionError("the match did not end")


# ----------------------------------------------------------------------------------------------------
# Refusals: each a clear 4xx
# ----------------------------------------------------------------------------------------------------
def test_bad_moves_get_clear_4xx_answers(play_app):
    code, teacher, students = started(play_app)
    anna, boris = students["Anna"], students["Boris"]
    state = get_state(anna, code)
    assert state["game"]["turn"] == "Anna"  # the dealer is the last seat: the first seat asks first
    version = state["version"]
    url = f"/api/tables/{code}/moves"

    out_of_turn = boris.post(url, json={"version": version, "move": {"ask": "Anna", "set": "9"}})
    assert out_of_turn.status_code == 409
    assert error_of(out_of_turn) == {"code": "not-your-turn", "message": "it is Anna's turn, not Boris's"}

    malformed = anna.post(url, data="{not json", content_type="application/json")
    assert malformed.status_code == 400 and error_of(malformed)["code"] == "malformed-json"
    not_json = anna.post(url, data="ask=Boris", content_type="application/x-www-form-urlencoded")
    assert not_json.status_code == 400
    not_object = anna.post(url, json=[1, 2])
    assert not_object.status_code == 400
    empty = anna.post(url)
    assert empty.status_code == 400

    for bad in ({}, {"move": "ask Boris"}, {"move": {}}, {"move": {"ask": "Boris"}},
                {"move": {"ask": "Boris", "set": "9", "card": "9S"}}, {"move": {"ask": "Boris", "set": ["9"]}},
                {"move": {"ask": "Boris", "set": "9", "colour": "red"}}, {"move": {"ask": "Boris", "set": "9", "answer": "x"}},
                {"move": {"player": "Boris", "ask": "Vera", "set": "9"}}, {"move": {"claim": "9", "holders": []}},
                {"move": {"claim": "9", "holders": {"Anna": "9S"}}}, {"version": "7", "move": {"answer": None}},
                {"version": True, "move": {"answer": None}}):
        response = anna.post(url, json=bad)
        assert response.status_code == 400, bad
        assert error_of(response)["message"], bad

    refused = anna.post(url, json={"move": {"ask": "Anna", "set": state["game"]["asks"]["sets"][0]}})
    assert refused.status_code == 409 and error_of(refused)["code"] == "ask-self"
    unknown = anna.post(url, json={"move": {"ask": "Nobody", "set": "9"}})
    assert unknown.status_code == 409 and error_of(unknown)["code"] == "unknown-player"
    nothing = anna.post(url, json={"move": {"answer": "Hamlet"}})
    assert nothing.status_code == 409 and error_of(nothing)["code"] == "nothing-to-answer"

    stale = anna.post(url, json={"version": version - 1,
                                 "move": {"ask": "Boris", "set": state["game"]["asks"]["sets"][0]}})
    assert stale.status_code == 409 and error_of(stale)["code"] == "stale-version"
    assert "moved on" in error_of(stale)["message"]

    stranger = play_app.test_client()
    no_seat = stranger.post(url, json={"move": {"ask": "Boris", "set": "9"}})
    assert no_seat.status_code == 403 and error_of(no_seat)["code"] == "not-your-seat"
    someone_elses = boris.post(url, json={"seat": 0, "move": {"ask": "Boris", "set": "9"}})
    assert someone_elses.status_code == 403 and error_of(someone_elses)["code"] == "not-your-seat"
    peek = boris.get(f"/api/tables/{code}?seat=0")
    assert peek.status_code == 403
    unknown_table = anna.post("/api/tables/ACEFHK/moves", json={"move": {"answer": None}})
    assert unknown_table.status_code == 404 and error_of(unknown_table)["code"] == "unknown-code"
    assert anna.get("/api/no/such/route").status_code == 404
    assert anna.put(url, json={}).status_code == 405


def test_a_refusal_speaks_the_readers_language(play_app):
    code, teacher, students = started(play_app)
    response = students["Boris"].post(f"/api/tables/{code}/moves?lang=pt", json={"move": {"ask": "Anna", "set": "9"}})
    assert response.status_code == 409
    assert error_of(response) == {"code": "not-your-turn", "message": "é a vez de Anna, não de Boris"}


def test_a_stale_move_that_is_no_longer_legal_gets_the_rules_reason(play_app):
    code, teacher, students = started(play_app)
    anna = students["Anna"]
    state = get_state(anna, code)
    target = "Boris"
    # Anna asks until the turn leaves her; a move from her old screen is then refused with the reason.
    while True:
        current = get_state(anna, code)
        if current["game"]["turn"] != "Anna":
            break
        anna.post(f"/api/tables/{code}/moves", json={"version": current["version"], "move": {
            "ask": target, "set": current["game"]["asks"]["sets"][0]}})
    old = anna.post(f"/api/tables/{code}/moves", json={"version": state["version"], "move": {
        "ask": target, "set": state["game"]["asks"]["sets"][0]}})
    assert old.status_code == 409
    assert error_of(old)["code"] in ("not-your-turn", "set-not-held")
    assert "moved on" in error_of(old)["message"]


def test_no_moves_before_the_start_or_after_the_end(play_app):
    teacher = teacher_client(play_app)
    code = open_table(teacher)
    anna = seat_student(play_app, code, "Anna")
    early = anna.post(f"/api/tables/{code}/moves", json={"move": {"answer": None}})
    assert early.status_code == 409 and error_of(early)["code"] == "not-started"


# ----------------------------------------------------------------------------------------------------
# Whole matches
# ----------------------------------------------------------------------------------------------------
def test_a_match_of_two_hands_rotates_the_deal_and_sums_the_scores(play_app):
    code, teacher, students = started(play_app, rules="classic", deck="authors-1861",
                                      options={"name_the_work": True}, match={"format": "hands", "value": 2})
    deck = deck_of(teacher, code)
    final = play_out(code, students, deck, random.Random(3))
    assert final["status"] == "finished" and final["match"]["finished"]
    first, second = final["hands"]
    assert first["dealer"] == "Computer 2" and second["dealer"] == "Anna"
    totals = {row["name"]: row["total"] for row in final["standings"]}
    for name in totals:
        assert totals[name] == first["scores"][name] + second["scores"][name]
    best = max(totals.values())
    assert final["match"]["winners"] == [n for n, t in totals.items() if t == best] or \
        sorted(final["match"]["winners"]) == sorted(n for n, t in totals.items() if t == best)
    assert sum(first["bonus"].values()) + sum(second["bonus"].values()) >= 0
    # both students see the same final scores
    assert get_state(students["Anna"], code)["standings"] == get_state(students["Boris"], code)["standings"]
    # every hand downloads as a game record that replays to the same scores
    for number, result in ((1, first), (2, second)):
        response = teacher.get(f"/api/tables/{code}/hands/{number}/record")
        assert response.status_code == 200 and response.mimetype == "application/yaml"
        record = load_record_text(response.data)
        assert replay(record).game.scores() == result["scores"]
        as_json = teacher.get(f"/api/tables/{code}/hands/{number}/record?format=json").get_json()
        assert as_json["format"] == "authors-record/1" and len(as_json["moves"]) == len(record.moves)
    listing = teacher.get(f"/api/tables/{code}/hands").get_json()["hands"]
    assert [h["finished"] for h in listing] == [True, True]
    assert teacher.get(f"/api/tables/{code}/hands/3/record").status_code == 404
    assert teacher.get(f"/api/tables/{code}/hands/x/record").status_code == 400
    assert teacher.get(f"/api/tables/{code}/hands/1/record?format=pdf").status_code == 400
    late = students["Anna"].post(f"/api/tables/{code}/moves", json={"move": {"answer": None}})
    assert late.status_code == 409 and error_of(late)["code"] == "game-over"


def test_first_to_a_target_ends_when_someone_reaches_it(play_app):
    code, teacher, students = started(play_app, match={"format": "target", "value": 5})
    final = play_out(code, students, deck_of(teacher, code), random.Random(5))
    assert final["status"] == "finished"
    assert final["standings"][0]["total"] >= 5
    totals_before_last = {row["name"]: row["total"] for row in final["standings"]}
    for name, score in final["hands"][-1]["scores"].items():
        totals_before_last[name] -= score
    assert max(totals_before_last.values()) < 5


def test_a_running_hand_cannot_be_downloaded(play_app):
    code, teacher, students = started(play_app)
    response = teacher.get(f"/api/tables/{code}/hands/1/record")
    assert response.status_code == 409 and error_of(response)["code"] == "hand-in-play"


def test_name_the_work_asks_then_reveals_right_or_wrong(play_app):
    code, teacher, students = started(play_app, rules="classic", deck="authors-1861",
                                      options={"name_the_work": True, "named_asks": False})
    anna = students["Anna"]
    deck = deck_of(anna, code)
    rng = random.Random(11)
    seen = {True: False, False: False}
    for _ in range(400):
        state = get_state(anna, code)
        if state["status"] != "playing" or all(seen.values()):
            break
        game = state["game"]
        if game["turn"] != "Anna":
            other = students["Boris"]
            s = get_state(other, code)
            other.post(f"/api/tables/{code}/moves", json={"move": choose_move(s, deck, rng)})
            continue
        if game["prompts"]:
            assert game["asks"] is None  # no asking before naming
            right = not seen[True]
            card = game["prompts"][0]
            titles = titles_of(play_app, code)  # the test's oracle: no screen knows what a token is
            response = anna.post(f"/api/tables/{code}/moves",
                                 json={"move": {"answer": titles[card].upper() if right else "Moby-Dick?"}})
            answer = response.get_json()["result"][0]
            assert answer["type"] == "answer" and answer["title"] == titles[card] and answer["correct"] is right
            seen[right] = True
            assert response.get_json()["state"]["last_answer"]["card"] == card
        else:
            anna.post(f"/api/tables/{code}/moves", json={"move": choose_move(state, deck, rng)})
    assert all(seen.values())


def test_literature_claims_and_passes_through_the_api(play_app):
    seats = [{"kind": "human"}, {"kind": "human"}] + [{"kind": "computer"}] * 4
    code, teacher, students = started(play_app, rules="literature", seats=seats)
    state = get_state(students["Anna"], code)
    assert state["game"]["teams"] == [["Anna", "Computer 1", "Computer 3"], ["Boris", "Computer 2", "Computer 4"]]
    assert state["game"]["log"] is None and state["options"]["public_log"] is False
    deck = deck_of(teacher, code)
    assert [s["id"] for s in deck["sets"]][:2] == ["low-spades", "high-spades"]
    kinds = set()
    rng = random.Random(2)
    for _ in range(2000):
        public = get_state(teacher, code)
        if public["status"] != "playing":
            break
        player = students[public["game"]["turn"]]
        s = get_state(player, code)
        move = choose_move(s, deck, rng)
        if "claim" not in kinds and s["game"]["claimable"]:
            move = _claim_own(s, deck)
        kinds.add(next(iter(k for k in ("ask", "claim", "pass_to", "answer") if k in move)))
        response = player.post(f"/api/tables/{code}/moves", json={"version": s["version"], "move": move})
        assert response.status_code == 200, response.get_json()
    assert public["status"] == "finished" and "claim" in kinds
    result = public["hands"][0]
    assert result["teams"] and len(result["team_scores"]) == 2


def _claim_own(state, deck):
    """A claim naming this seat for its own cards and the next teammate for the rest."""
    game = state["game"]
    set_id = game["claimable"][0]
    mate = next(name for name in game["teams"][game["team"]] if name != game["seat"])
    holders = {}
    for card in next(s["cards"] for s in deck["sets"] if s["id"] == set_id):
        holders.setdefault(game["seat"] if card["id"] in game["hand"] else mate, []).append(card["id"])
    return {"claim": set_id, "holders": holders}


# ----------------------------------------------------------------------------------------------------
# Polling, pace, restarts
# ----------------------------------------------------------------------------------------------------
def test_polling_answers_304_until_the_table_changes(play_app):
    teacher = teacher_client(play_app)
    code = open_table(teacher)
    anna = seat_student(play_app, code, "Anna")
    first = anna.get(f"/api/tables/{code}")
    etag = first.headers["ETag"]
    assert first.headers["Cache-Control"].startswith("no-cache")
    again = anna.get(f"/api/tables/{code}", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.data == b""
    seat_student(play_app, code, "Boris")
    changed = anna.get(f"/api/tables/{code}", headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag
    assert changed.get_json()["version"] > first.get_json()["version"]
    # the same version seen by another seat or the public has another ETag
    public = teacher.get(f"/api/tables/{code}", headers={"If-None-Match": changed.headers["ETag"]})
    assert public.status_code == 200
    listing = teacher.get("/api/tables")
    assert teacher.get("/api/tables", headers={"If-None-Match": listing.headers["ETag"]}).status_code == 304
    assert listing.get_json()["tables"][0]["rules_title"] == "Authors with an ordinary deck"
    # the overview names the rules in the reader's language: another language, another ETag
    italian = teacher.get("/api/tables?lang=it", headers={"If-None-Match": listing.headers["ETag"]})
    assert italian.status_code == 200 and italian.get_json()["tables"][0]["rules_title"] != "Authors with an ordinary deck"


def test_a_moves_answer_names_the_etag_of_its_state(play_app):
    """The mover's next poll is a 304 (the answer carried the state), until the table moves on."""
    code, _, clients = started(play_app)  # Anna, Boris and two computer players, who answer at once
    deck = deck_of(clients["Anna"], code)
    rng = random.Random(3)
    public = get_state(clients["Anna"], code)
    mover = clients[public["game"]["turn"]]
    other = clients["Boris" if mover is clients["Anna"] else "Anna"]
    state = get_state(mover, code)
    answer = mover.post(f"/api/tables/{code}/moves",
                        json={"version": state["version"], "move": choose_move(state, deck, rng)}).get_json()
    tag = answer["state_etag"]
    for url in (f"/api/tables/{code}", f"/api/tables/{code}?seat={answer['state']['you']['position']}"):
        polled = mover.get(url, headers={"If-None-Match": tag})
        assert polled.status_code == 304 and polled.headers["ETag"] == tag
    # the same version for the other seat is another ETag; once the table moves on, the tag gets a 200
    assert other.get(f"/api/tables/{code}", headers={"If-None-Match": tag}).status_code == 200
    player = clients[answer["state"]["game"]["turn"]]
    now = get_state(player, code)
    assert player.post(f"/api/tables/{code}/moves",
                       json={"version": now["version"], "move": choose_move(now, deck, rng)}).status_code == 200
    fresh = mover.get(f"/api/tables/{code}", headers={"If-None-Match": tag})
    assert fresh.status_code == 200 and fresh.get_json()["version"] > answer["state"]["version"]


def test_computer_players_move_one_at_a_time_at_the_pace(app):
    app.config.update(BOT_PACE_SECONDS=30, HAND_PAUSE_SECONDS=30, DEAL_SEED=7)
    teacher = teacher_client(app)
    code = open_table(teacher, seats=[{"kind": "computer"}] * 3)
    teacher.post(f"/api/tables/{code}/start")
    state = get_state(teacher, code)
    assert state["game"]["version"] == 0  # the pace has not passed yet
    with app.app_context():
        table = Table.query.filter_by(code=code).one()
        assert deals.advance(table, now=time.time() + 31) == 1   # once the pace has passed: one move
        assert deals.advance(table, now=time.time() + 1) == 0    # then wait for the pace again
        assert deals.advance(table, now=time.time() + 62) == 1
    assert get_state(teacher, code)["game"]["version"] == 2


def test_with_no_pace_computers_play_until_a_person_must_act(play_app):
    teacher = teacher_client(play_app)
    code = open_table(teacher, seats=[{"kind": "computer"}] * 4, match={"format": "hands", "value": 2})
    teacher.post(f"/api/tables/{code}/start")
    state = get_state(teacher, code)
    assert state["status"] == "finished" and len(state["hands"]) == 2


def test_a_game_survives_a_restart_from_the_database(play_app, tmp_path):
    code, teacher, students = started(play_app)
    rng = random.Random(4)
    deck = deck_of(teacher, code)
    for _ in range(6):
        public = get_state(teacher, code)
        player = students[public["game"]["turn"]]
        player.post(f"/api/tables/{code}/moves", json={"move": choose_move(get_state(player, code), deck, rng)})
    before = get_state(students["Anna"], code)
    store.games.forget_all()  # a new process: nothing cached
    restarted = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": play_app.config["SQLALCHEMY_DATABASE_URI"],
                            "SECRET_KEY": play_app.config["SECRET_KEY"], "BOT_PACE_SECONDS": 0})
    restarted.test_client_class = CSRFClient
    anna = restarted.test_client()
    anna.set_cookie("session", students["Anna"].get_cookie("session").value)
    after = get_state(anna, code)
    assert after["game"] == before["game"] and after["you"] == before["you"]
    with restarted.app_context():
        table = Table.query.filter_by(code=code).one()
        rows = MoveRow.query.filter_by(deal_id=table.current_deal.id).order_by(MoveRow.seq).all()
        assert [r.seq for r in rows] == list(range(len(rows))) and len(rows) == before["game"]["version"]
        db.engine.dispose()


def test_two_writers_cannot_both_append_move_n(play_app):
    code, teacher, students = started(play_app)
    state = get_state(students["Anna"], code)
    students["Anna"].post(f"/api/tables/{code}/moves", json={"move": {
        "ask": "Boris", "set": state["game"]["asks"]["sets"][0]}})
    with play_app.app_context():
        deal = Table.query.filter_by(code=code).one().current_deal
        db.session.add(MoveRow(deal_id=deal.id, seq=0, data_json=json.dumps({"player": "Anna", "answer": None})))
        with pytest.raises(IntegrityError):
            db.session.commit()
        db.session.rollback()


def test_the_record_of_a_finished_hand_is_yaml(play_app):
    teacher = teacher_client(play_app)
    code = open_table(teacher, seats=[{"kind": "computer"}] * 3)
    teacher.post(f"/api/tables/{code}/start")
    text = teacher.get(f"/api/tables/{code}/hands/1/record").get_data(as_text=True)
    data = yaml.safe_load(text)
    assert data["format"] == "authors-record/1" and data["players"] == ["Computer 1", "Computer 2", "Computer 3"]
    assert data["dealer"] == "Computer 3" and data["moves"]


def test_pass_and_play_seats_are_chosen_per_request(play_app):
    device = teacher_client(play_app)
    code = open_table(device, rules="classic", seats=[{"kind": "human", "here": True, "name": "Anna"},
                                                       {"kind": "human", "here": True, "name": "Boris"}])
    device.post(f"/api/tables/{code}/start")
    public = get_state(device, code)
    assert public["you"] is None and "hand" not in public["game"]
    assert [s["here"] for s in public["seats"]] == [True, True]
    anna = get_state(device, code, seat=0)
    boris = get_state(device, code, seat=1)
    assert anna["you"]["name"] == "Anna" and boris["you"]["name"] == "Boris"
    assert not set(anna["game"]["hand"]) & set(boris["game"]["hand"])
    needs_seat = device.post(f"/api/tables/{code}/moves", json={"move": {"answer": None}})
    assert needs_seat.status_code == 400 and "several seats" in error_of(needs_seat)["message"]
    assert device.get(f"/api/tables/{code}?seat=5").status_code == 404


def test_a_named_ask_scores_and_keeps_its_text_in_the_log(play_app):
    code, teacher, students = started(play_app, rules="classic", deck="authors-1861",
                                      options={"named_asks": True, "answers": "typos"})
    deck = deck_of(teacher, code)
    rng = random.Random(3)
    named = None
    for _ in range(400):
        public = get_state(teacher, code)
        if public["status"] != "playing" or named:
            break
        player = public["game"]["turn"]
        state = get_state(students[player], code)
        move = choose_move(state, deck, rng)
        if "named" in move:
            move["named"] = move["named"][:-1] + "?"  # one slip: almost right
        response = students[player].post(f"/api/tables/{code}/moves", json={"move": move})
        ask = response.get_json()["result"][0]
        titles = titles_of(play_app, code)
        if ask.get("named") and ask["bonus"]:
            named = (player, ask)
    assert named, "no named ask was met in 400 moves"
    player, ask = named
    assert ask["verdict"] == "almost" and ask["title"] == titles[ask["card"]]
    bonus = get_state(teacher, code)["game"]["bonus"][player]
    store.games.forget_all()  # another process: the game is rebuilt from the log, named texts included
    assert get_state(teacher, code)["game"]["bonus"][player] == bonus >= 1
    with play_app.app_context():
        table = Table.query.filter_by(code=code).one()
        rows = [row.data for row in MoveRow.query.filter_by(deal_id=table.current_deal.id)]
        assert any(row.get("named") == ask["named"] for row in rows)
