"""Helpers for the web tests: a test client that sends the CSRF token, teachers logged in, open a
table, seat students (one test client each), pick legal moves from a seat's state as a screen would."""
from __future__ import annotations

import random

from flask.testing import FlaskClient
from werkzeug.datastructures import Headers

from app import store

FOUR_SEATS = [{"kind": "human"}, {"kind": "human"}, {"kind": "computer"}, {"kind": "computer"}]


def for_play(app):
    """The test app with computer players moving at once and a fixed deal seed."""
    app.config.update(BOT_PACE_SECONDS=0, HAND_PAUSE_SECONDS=0, DEAL_SEED=7)
    return app


def error_of(response) -> dict:
    """The error a JSON answer carries (its code and sentence); fails when it carries none."""
    data = response.get_json()
    assert data and "error" in data, response.data[:300]
    return data["error"]


SAFE_METHODS = ("GET", "HEAD", "OPTIONS", "TRACE")
TEACHER_PASSWORD = "a long classroom password"
_teacher_hash: list[str] = []  # hashed once per test run: scrypt is slow on purpose


class CSRFClient(FlaskClient):
    """A test client that sends its session's CSRF token (X-CSRFToken) with every request that changes
    something, as the pages' forms and scripts do. `app.test_client(csrf=False)` leaves it out."""

    def __init__(self, *args, csrf: bool = True, **kwargs):
        super().__init__(*args, **kwargs)
        self.csrf = csrf

    def csrf_token(self) -> str:
        return self.get("/api/csrf-token").get_json()["csrf_token"]

    def open(self, *args, **kwargs):
        method = str(kwargs.get("method", "GET")).upper()
        if self.csrf and method not in SAFE_METHODS:
            headers = Headers(kwargs.get("headers") or {})
            if "X-CSRFToken" not in headers:
                headers["X-CSRFToken"] = self.csrf_token()
            kwargs["headers"] = headers
        return super().open(*args, **kwargs)


def make_teacher(app, name: str = "Ms Teacher") -> int:
    """A teacher's account (password TEACHER_PASSWORD); returns its id."""
    from app.services import accounts

    if not _teacher_hash:
        _teacher_hash.append(accounts.hash_password(TEACHER_PASSWORD))
    with app.app_context():
        teacher = accounts.find_by_name(name) or accounts.create_teacher(name, None, password_hash=_teacher_hash[0])
        return teacher.id


def log_in(client, app, name: str = "Ms Teacher"):
    """Log the client in as this teacher (made if needed) without the log-in form's password check: a
    log-in of its own in the database, as the form makes, named in the session."""
    from app.services import accounts

    with app.app_context():
        teacher = accounts.get(make_teacher(app, name))
        accounts.start_login(teacher)
        user_id = teacher.get_id()
    with client.session_transaction() as session:
        session["_user_id"] = user_id
        session["_fresh"] = True
    return client


def teacher_client(app, name: str = "Ms Teacher"):
    """A new test client logged in as a teacher: opening tables needs one."""
    return log_in(app.test_client(), app, name)


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


def library_sets(deck) -> dict[str, list[str]]:
    """A recall table's deck names no cards: the works of each set, as a student who learnt the deck knows
    them (from the library, not from anything the table sends)."""
    from app.store import deck_by_ref

    try:
        library = deck_by_ref(deck["id"].removesuffix("-double"))
    except KeyError:  # a studio deck: this student never learnt it
        return {}
    out = {s.id: [c.title for c in s.cards] for s in library.sets}
    out.update({f"{s.id}-2": [c.title for c in s.cards] for s in library.sets})
    return out


def choose_move(state, deck, rng: random.Random) -> dict:
    """A legal move as the play screen offers it: built only from this seat's state and the deck."""
    game = state["game"]
    if game.get("challenge"):  # challenge_sets: the challenger's word, or the layer's names
        return challenge_move(game["challenge"], deck, rng)
    if deck.get("recall"):
        return _recall_move(state, deck, rng)
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


def challenge_move(challenge, deck, rng: random.Random) -> dict:
    """A challenge's move as a student makes it: challenge or not, by a coin; a defence names the set's
    works as she remembers them (each with chance 0.7, from the library: nothing the table sent)."""
    if challenge["stage"] == "offer":
        return {"challenge": challenge["set"] if rng.random() < 0.5 else None}
    works = library_sets(deck).get(challenge["set"], [])
    return {"defend": challenge["set"], "names": [w for w in works if rng.random() < 0.7]}


def _recall_move(state, deck, rng: random.Random) -> dict:
    """choose_move on a recall table: works named from memory (a random work of the set, so right or
    wrong), a card ask by its author and a typed title."""
    game, cards = state["game"], state["cards"]
    works = library_sets(deck)
    if game["prompts"]:
        card_set = cards[game["prompts"][0]]["set"]
        known = works.get(card_set)
        return {"answer": rng.choice(known) if known and rng.random() < 0.7 else "Not this one"}
    asks = game["asks"]
    choices = (["ask"] if asks else []) + (["pass"] if game["pass_targets"] else [])
    if rng.choice(choices) == "pass":
        return {"pass_to": rng.choice(game["pass_targets"])}
    target = rng.choice(asks["targets"])
    set_id = rng.choice(asks["sets"])
    if asks["by"] == "set":
        return {"ask": target, "set": set_id}
    held = {cards[t]["title"] for t in game["hand"]}
    return {"ask": target, "set": set_id, "named": rng.choice([w for w in works[set_id] if w not in held])}


def titles_of(app, code) -> dict[str, str]:
    """The test's own knowledge, which no screen has: every card of the running hand by its id and by
    the token a recall table sends for it (app/services/recall.py), with its title."""
    from app.models import Table
    from app.services import recall

    with app.app_context():
        table = Table.query.filter_by(code=code).one()
        deal = table.current_deal
        game = server_game(deal)
        mask = recall.Mask(table, deal, game.public_view(), game.deck)
        out = {c.id: c.title for c in game.deck.cards}
        out.update({mask.token(c.id): c.title for c in game.deck.cards})
        return out


def strings(value):
    """Every text in a JSON value, keys included: what a leak test searches."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)


def server_game(hand):
    """The hand's game as this process's store holds it (a test reads it after the block lets it go)."""
    with store.playing(hand) as game:
        return game


def tick(app, now: float | None = None) -> int:
    """One beat of the game's clock (app/services/clock.py), as a served worker's makes five a second: the
    polls' presence written down, then every table whose moment has come played on. A test's app runs no
    clock of its own: time goes on where the test says."""
    from app.services import clock

    with app.app_context():
        return clock.tick(now)


def flush_presence(app) -> int:
    """Write down the presence the polls noted (the first half of a clock's beat)."""
    from app.services import clock

    with app.app_context():
        return clock.flush_presence()


class Statements:
    """The statements the database is sent (any connection of the app) that `keep` picks, each as one
    line: a test's window onto what a request or the clock writes."""

    def __init__(self, app, keep):
        from app.db import db

        self.keep, self.statements = keep, []
        with app.app_context():
            self.engine = db.engine

    def __enter__(self):
        from sqlalchemy import event

        event.listen(self.engine, "before_cursor_execute", self._seen)
        return self

    def __exit__(self, *exc):
        from sqlalchemy import event

        event.remove(self.engine, "before_cursor_execute", self._seen)

    @property
    def count(self) -> int:
        return len(self.statements)

    def _seen(self, conn, cursor, statement, parameters, context, executemany):
        line = " ".join(statement.split())
        if self.keep(line):
            self.statements.append(line[:80])


def writes(line: str) -> bool:
    """An INSERT, UPDATE or DELETE."""
    return line.split(None, 1)[0].upper() in ("INSERT", "UPDATE", "DELETE")
