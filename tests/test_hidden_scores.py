"""Scores hidden until the end of the hand (`hide_scores`): while a hand is played, no answer a student,
the projector or the teacher gets carries its scores or bonus points (the state of every seat, the public
state, the teacher's overview, the move answers); the sets laid down stay, the finished hands' figures
show, and the hand's summary has them once it ends. With the option off the same walk finds them, so the
test can fail."""
from __future__ import annotations

import random

import pytest

from app.engine.options import make_options

from .web_support import choose_move, deck_of, for_play, open_table, seat_student, teacher_client

pytestmark = pytest.mark.database

FIGURES = {"scores", "bonus", "team_scores"}
SEATS = [{"kind": "human"}, {"kind": "human"}, {"kind": "computer"}, {"kind": "computer"}]


def figures(value, path=()):
    """The paths of every score or bonus figure in a JSON answer, but those of finished hands (`hands`,
    whose figures may show) and of a move's own events (a dict with a `type`: its verdict, as the
    namer is told it, is the feedback the student learns from, not a running figure)."""
    if isinstance(value, dict):
        if "type" in value and isinstance(value.get("type"), str) and "player" in value:
            return
        for key, item in value.items():
            if key == "hands" and path in ((), ("state",)):
                continue
            if key in FIGURES and item is not None:
                yield "/".join(map(str, path + (key,)))
            yield from figures(item, path + (key,))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from figures(item, path + (i,))


def in_play(state) -> bool:
    return state.get("game") is not None and not state["game"]["finished"] and state["status"] == "playing"


def play_a_deal(app, hide: bool):
    """A table of Anna, Boris and two computers playing one hand with the bonus on; every answer the
    students, the projector (no seat, no log-in) and the teacher get, with whether the hand was in play."""
    for_play(app)
    teacher = teacher_client(app)
    options = {"name_the_work": True, "works_listed": True} | ({"hide_scores": True} if hide else {})
    code = open_table(teacher, seats=SEATS, options=options, match={"format": "hands", "value": 2})
    students = {"Anna": seat_student(app, code, "Anna"), "Boris": seat_student(app, code, "Boris")}
    projector = app.test_client()
    seen: list[tuple[str, bool, dict]] = []

    def keep(what, data, playing):
        seen.append((what, playing, data))
        return data

    started = teacher.post(f"/api/tables/{code}/start")
    assert started.status_code == 200
    keep("start", started.get_json(), in_play(started.get_json()))
    deck = deck_of(teacher, code)
    rng = random.Random(3)
    for _ in range(2000):
        public = keep("projector", projector.get(f"/api/tables/{code}").get_json(), None)
        seen[-1] = ("projector", in_play(public), public)
        mine = teacher.get(f"/api/tables/{code}").get_json()
        keep("teacher", mine, in_play(mine))
        listed = teacher.get("/api/tables").get_json()
        row = next(t for t in listed["tables"] if t["code"] == code)
        keep("overview", listed, in_play(mine) and row["status"] == "playing")
        if public["match"]["hands_played"] >= 1 or public["status"] != "playing":
            break
        for name, client in students.items():
            state = client.get(f"/api/tables/{code}").get_json()
            keep(name, state, in_play(state))
        player = public["game"]["turn"]
        if player not in students:
            continue
        state = students[player].get(f"/api/tables/{code}").get_json()
        answer = students[player].post(f"/api/tables/{code}/moves",
                                       json={"move": choose_move(state, deck, rng), "version": state["version"]})
        if answer.status_code == 409:
            continue
        assert answer.status_code == 200, answer.get_json()
        body = answer.get_json()
        keep("move", body, in_play(body["state"]))
    else:
        pytest.fail("the hand did not end")
    return teacher, code, seen


def test_the_option_is_off_by_default_and_on_the_form():
    assert make_options("standard").hide_scores is False
    assert make_options("literature", {"hide_scores": True}).hide_scores is True


def test_with_the_option_off_the_walk_finds_the_scores(app):
    _teacher, _code, seen = play_a_deal(app, hide=False)
    during = [(what, data) for what, playing, data in seen if playing]
    assert during
    for what in ("Anna", "Boris", "projector", "teacher", "move", "overview"):
        found = [path for w, data in during if w == what for path in figures(data)]
        assert found, f"{what}: no scores found with the option off (the walk looks in the wrong place)"
    assert any("game/bonus" in p for _w, data in during for p in figures(data))


def test_no_answer_during_the_hand_carries_its_scores_or_bonus(app):
    teacher, code, seen = play_a_deal(app, hide=True)
    during = [(what, data) for what, playing, data in seen if playing]
    assert {what for what, _ in during} >= {"Anna", "Boris", "projector", "teacher", "move", "overview"}
    for what, data in during:
        assert list(figures(data)) == [], f"{what} was sent {list(figures(data))}"
        state = data.get("state", data)
        if "game" in state:
            assert state["scores_hidden"] is True
            assert "scores" not in state["game"] and "bonus" not in state["game"]  # absent, not zero
            assert "books" in state["game"]  # the sets laid down stay on the table
        else:
            row = next(t for t in data["tables"] if t["code"] == code)
            assert "scores" not in row and row["scores_hidden"] is True
    # The hand is over: its summary has the scores and the bonus, and the match totals count them.
    after = teacher.get(f"/api/tables/{code}").get_json()
    finished = after["hands"][0]
    assert len(finished["scores"]) == 4 and {"Anna", "Boris"} <= set(finished["scores"])
    assert "bonus" in finished and sum(finished["scores"].values()) >= 13
    assert sum(row["total"] for row in after["standings"]) == sum(finished["scores"].values())
    # The next hand is in play: hidden again, while the finished hand's figures stay in `hands`.
    assert after["status"] == "playing" and after["scores_hidden"] is True and "scores" not in after["game"]


def test_the_hands_scores_show_once_it_is_over(app):
    """The last hand of a match: the state shows its figures again (the hand is finished)."""
    for_play(app)
    teacher = teacher_client(app)
    code = open_table(teacher, seats=[{"kind": "computer"}] * 3, options={"hide_scores": True})
    teacher.post(f"/api/tables/{code}/start")
    state = None
    for _ in range(500):
        state = teacher.get(f"/api/tables/{code}").get_json()
        if state["status"] == "finished":
            break
        assert "scores" not in state["game"]
    assert state["status"] == "finished" and state["scores_hidden"] is False
    assert "scores" in state["game"] and state["hands"][0]["scores"] == state["game"]["scores"]


def test_literature_team_scores_are_hidden_too(app):
    for_play(app)
    app.config["BOT_PACE_SECONDS"] = 60  # the computers wait: the hand stays in play
    teacher = teacher_client(app)
    code = open_table(teacher, rules="literature", seats=[{"kind": "human"}] + [{"kind": "computer"}] * 5,
                      options={"hide_scores": True})
    anna = seat_student(app, code, "Anna")
    teacher.post(f"/api/tables/{code}/start")
    for client in (anna, teacher, app.test_client()):
        state = client.get(f"/api/tables/{code}").get_json()
        assert in_play(state) and list(figures(state)) == [] and "team_scores" not in state["game"]
        assert "team_books" in state["game"]
