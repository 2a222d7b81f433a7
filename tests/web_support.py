"""Helpers for the web tests: open a table, seat students (one test client each), pick legal moves
from a seat's state as a screen would."""
from __future__ import annotations

import random

FOUR_SEATS = [{"kind": "human"}, {"kind": "human"}, {"kind": "computer"}, {"kind": "computer"}]


def for_play(app):
    """The test app with computer players moving at once and a fixed deal seed."""
    app.config.update(BOT_PACE_SECONDS=0, HAND_PAUSE_SECONDS=0, DEAL_SEED=7)
    return app


def open_table(client, **spec):
    spec.setdefault("seats", FOUR_SEATS)
    response = client.post("/api/tables", json=spec)
    assert response.status_code == 201, response.get_json()
    return response.get_json()["code"]


def seat_student(app, code, name):
    student = app.test_client()
    response = student.post(f"/api/tables/{code}/join", json={"name": name})
    assert response.status_code == 201, response.get_json()
    return student


def get_state(client, code, seat=None):
    url = f"/api/tables/{code}" + (f"?seat={seat}" if seat is not None else "")
    response = client.get(url)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def deck_of(client, code):
    return client.get(f"/api/tables/{code}/deck").get_json()


def choose_move(state, deck, rng: random.Random) -> dict:
    """A legal move as the play screen offers it: built only from this seat's state and the deck."""
    game = state["game"]
    if game["prompts"]:
        card = next(c for s in deck["sets"] for c in s["cards"] if c["id"] == game["prompts"][0])
        return {"answer": card["title"] if rng.random() < 0.5 else "Not this one"}
    choices = []
    asks = game["asks"]
    if asks:
        choices.append("ask")
    if game["claimable"]:
        choices.append("claim")
    if game["pass_targets"]:
        choices.append("pass")
    kind = rng.choice(choices)
    if kind == "pass":
        return {"pass_to": rng.choice(game["pass_targets"])}
    if kind == "claim":
        set_id = rng.choice(game["claimable"])
        team = game["teams"][game["team"]]
        cards = next(s["cards"] for s in deck["sets"] if s["id"] == set_id)
        holders: dict[str, list[str]] = {}
        for card in cards:
            holder = game["seat"] if card["id"] in game["hand"] else rng.choice(team)
            holders.setdefault(holder, []).append(card["id"])
        return {"claim": set_id, "holders": holders}
    target = rng.choice(asks["targets"])
    set_id = rng.choice(asks["sets"])
    if asks["by"] == "set":
        return {"ask": target, "set": set_id}
    cards = [c["id"] for s in deck["sets"] if s["id"] == set_id for c in s["cards"]
             if asks["bluff"] or c["id"] not in game["hand"]]
    return {"ask": target, "card": rng.choice(cards)}
