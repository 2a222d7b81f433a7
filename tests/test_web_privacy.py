"""No response, event or page sent to one seat holds a card of another seat that was never shown.

Whole games are played through the API. After every move, each seat's state, the move responses, the
projector's public state and the pages are checked against what the engine says is secret from that
seat: the cards in the other hands and in the stock that no event this seat saw has ever named.
"""
from __future__ import annotations

import json
import random

import pytest

from app.models import Table

from .web_support import server_game, choose_move, deck_of, get_state, open_table, seat_student, strings, \
    teacher_client


PUBLIC = None


def card_ids_in(value) -> set[str]:
    """Every card id an event names: asked, given, drawn, answered, claimed."""
    found = set()
    if isinstance(value, dict):
        for key, item in value.items():
            if key in ("card", "given", "holders", "actual"):
                found |= set(strings(item))
            else:
                found |= card_ids_in(item)
    elif isinstance(value, list):
        for item in value:
            found |= card_ids_in(item)
    return found


class Watch:
    """What each seat may not see, from the game's full state (which only the test reads)."""

    def __init__(self, app, code):
        self.app, self.code = app, code
        self.deal_id, self.done, self.seen = None, 0, {}

    def secrets(self) -> tuple[dict[str | None, set[str]], dict[str, str]]:
        with self.app.app_context():
            table = Table.query.filter_by(code=self.code).one()
            deal = table.current_deal
            game = server_game(deal)
            if deal.id != self.deal_id:
                self.deal_id, self.done = deal.id, 0
                self.seen = {seat: set() for seat in (*game.players, PUBLIC)}
            for seat, seen in self.seen.items():
                for event in game.events_seen_by(seat or None, self.done):
                    seen |= card_ids_in(event)
            self.done = game.event_count
            held = game.replay_state()["hands"]
            in_hands = {card for cards in held.values() for card in cards}
            down = {c for s in game.deck.sets if s.id in _down(game) for c in s.card_ids}
            stock = {c.id for c in game.deck.cards} - in_hands - down
            out = {}
            for seat, seen in self.seen.items():
                others = {c for name, cards in held.items() if name != seat for c in cards}
                out[seat] = (others | stock) - seen
            return out, {c.id: c.title for c in game.deck.cards}


def _down(game) -> set[str]:
    state = game.replay_state()
    return {s for books in state["books"].values() for s in books} | set(state["cancelled"])


def assert_private(body, secret: set[str], titles: dict[str, str], check_titles: bool, where: str):
    if isinstance(body, (bytes, str)):
        text = body.decode() if isinstance(body, bytes) else body
        try:
            values = set(strings(json.loads(text)))
        except ValueError:  # a page
            values = {text}
            leaked = {c for c in secret if f'"{c}"' in text or f">{c}<" in text}
            assert not leaked, f"{where}: {sorted(leaked)}"
    else:
        values = set(strings(body))
    leaked = secret & values
    assert not leaked, f"{where}: card ids {sorted(leaked)}"
    if check_titles:
        for card in secret:
            title = titles[card]
            assert not any(title in value for value in values), f"{where}: title {title!r}"


def play_and_watch(app, spec, humans, check_titles, seed):
    teacher = teacher_client(app)
    code = open_table(teacher, **spec)
    clients = {name: seat_student(app, code, name) for name in humans}
    teacher.post(f"/api/tables/{code}/start")
    deck = deck_of(teacher, code)
    # the deck is the same for everyone, seated or not: it says nothing about anyone's hand
    assert all(deck_of(c, code) == deck for c in clients.values())
    projector = app.test_client()
    watch = Watch(app, code)
    rng = random.Random(seed)
    checks = 0
    pages = {name: c.get(f"/t/{code}/play").get_data(as_text=True) for name, c in clients.items()}
    for _ in range(3000):
        secrets, titles = watch.secrets()
        for name, client in clients.items():
            body = client.get(f"/api/tables/{code}").data
            assert_private(body, secrets[name], titles, check_titles, f"state of {name}")
            checks += 1
        public = projector.get(f"/api/tables/{code}")
        assert_private(public.data, secrets[PUBLIC], titles, check_titles, "public state")
        if checks % 10 == 0:
            assert_private(teacher.get(f"/api/tables/{code}").data, secrets[PUBLIC], titles, check_titles, "teacher")
            assert_private(teacher.get("/api/tables").data, secrets[PUBLIC], titles, check_titles, "overview")
        state = public.get_json()
        if state["status"] != "playing":
            break
        turn = state["game"]["turn"]
        if turn not in clients:
            raise AssertionError(f"{turn} should have moved already")
        mine = get_state(clients[turn], code)
        response = clients[turn].post(f"/api/tables/{code}/moves",
                                      json={"version": mine["version"], "move": choose_move(mine, deck, rng)})
        assert response.status_code == 200, response.get_json()
        after, titles = watch.secrets()
        data = response.get_json()
        assert_private(data["state"], after[turn], titles, check_titles, f"move response to {turn}")
        if data["state"]["match"]["hand"] == state["match"]["hand"]:
            # (a move that ends a hand tells of cards of that hand, which are all down by then)
            assert_private(data["result"], after[turn], titles, check_titles, f"move result to {turn}")
    else:
        raise AssertionError("the game did not end")
    for name, html in pages.items():
        secrets, titles = watch.secrets()
        assert_private(html, secrets[name], titles, check_titles, f"play page of {name}")
    assert_private(projector.get(f"/t/{code}/projector").data, set(), titles, False, "projector page")
    return checks


def test_authors_with_name_the_work_never_leaks_a_hand(play_app):
    spec = {"rules": "classic", "deck": "authors-1861", "options": {"name_the_work": True},
            "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}, {"kind": "computer"}],
            "match": {"format": "hands", "value": 1}}
    assert play_and_watch(play_app, spec, ["Anna", "Boris", "Vera"], check_titles=True, seed=1) > 50


def test_go_fish_draws_stay_with_the_drawer(play_app):
    spec = {"rules": "go-fish", "deck": "inventors",
            "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "computer"}]}
    assert play_and_watch(play_app, spec, ["Anna", "Boris"], check_titles=True, seed=2) > 20


def test_literature_never_leaks_a_hand(play_app):
    spec = {"rules": "literature", "match": {"format": "hands", "value": 2},
            "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}, {"kind": "computer", "bot": "memory"},
                      {"kind": "computer", "bot": "expert"}, {"kind": "computer"}]}
    assert play_and_watch(play_app, spec, ["Anna", "Boris", "Vera"], check_titles=False, seed=3) > 20


@pytest.mark.parametrize("seat", [0, 1])
def test_a_seat_state_holds_its_own_hand_only(play_app, seat):
    device = teacher_client(play_app)
    code = open_table(device, rules="classic", deck="authors-1861",
                      seats=[{"kind": "human", "here": True, "name": "Anna"},
                             {"kind": "human", "here": True, "name": "Boris"}])
    device.post(f"/api/tables/{code}/start")
    secrets, titles = Watch(play_app, code).secrets()
    name = ("Anna", "Boris")[seat]
    state = device.get(f"/api/tables/{code}?seat={seat}")
    assert_private(state.data, secrets[name], titles, True, name)
    assert state.get_json()["game"]["hand"]
