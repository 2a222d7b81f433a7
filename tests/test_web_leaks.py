"""The leak test of tests/test_web_privacy.py, extended to every endpoint, page, event and export: while
a match is played, every GET route of the app that shows a table (found in the URL map, so a new one is
checked without being listed here) is fetched by each student, the teacher and a stranger, and none
holds a card of the running hand that its reader has not been shown. Records of finished hands are
checked to be those hands for the teacher and the students who played them, and refused to a stranger
(tests/test_record_access.py); a running hand's record is refused. A new route with a path parameter this test does not know fails the test until it is taught
how to fill it in."""
from __future__ import annotations

import json
import random
import re

import yaml

from app.models import Deal, Table

from .test_web_privacy import PUBLIC, Watch, assert_private
from .web_support import choose_move, deck_of, get_state, open_table, seat_student, teacher_client

PARAMS = {"code", "number", "position", "name", "signed"}  # what a table's routes are named by
TABLE_LISTS = {"api.list_tables", "tables.overview", "reports.index", "reports.answers_csv",
               "reports.students_csv"}              # routes that show many tables
SAME_FOR_ALL = {"api.deck", "tables.qr"}            # public by design: checked equal for every reader
RECORDS = {"api.record"}                            # exports of one hand: checked against the hand
DECK_TITLES = {"reports.index", "reports.table", "reports.answers_csv", "reports.students_csv"}
# ^ reports list a deck's works (the ones the class names least) whoever holds them: card ids only


def table_routes(app) -> list:
    routes = []
    for rule in app.url_map.iter_rules():
        if "GET" not in rule.methods or rule.endpoint == "static":
            continue
        if rule.arguments & {"code"} or rule.endpoint in TABLE_LISTS:
            unknown = rule.arguments - PARAMS
            assert not unknown, f"{rule.rule}: teach tests/test_web_leaks.py how to fill in {unknown}"
            routes.append(rule)
    assert {r.endpoint for r in routes} >= {"api.table_state", "api.record", "tables.projector", "play.play"}
    return routes


def urls(rule, code: str, hands: int, seats: int) -> list[str]:
    values = [{}]
    for name, choices in (("code", [code]), ("number", range(1, hands + 2)), ("position", range(seats)),
                          ("name", ["set-none.png"]),  # (a built-in deck's table: no picture to find)
                          ("signed", ["not-a-signed-link"])):
        if name in rule.arguments:
            values = [{**v, name: c} for v in values for c in choices]
    out = []
    for value in values:
        path = rule.rule
        for name, filled in value.items():
            path = re.sub(rf"<(?:[^:<>]+:)?{name}>", str(filled), path)
        out.append((path, value.get("number")))
    return out


def check_everything(app, code, clients, watch, routes, finished_headers, running_number):
    secrets, titles = watch.secrets()
    readers = {**{name: (client, secrets[name]) for name, client in clients["students"].items()},
               "teacher": (clients["teacher"], secrets[PUBLIC]), "stranger": (clients["stranger"], secrets[PUBLIC])}
    seats = len(get_state(clients["teacher"], code)["seats"])
    checked = 0
    for rule in routes:
        for path, number in urls(rule, code, running_number, seats):
            first = None
            for who, (client, secret) in readers.items():
                response = client.get(path)
                assert response.status_code < 500, (path, who, response.status_code)
                if rule.endpoint in RECORDS and who == "stranger":
                    assert response.status_code == 404, f"{path}: a record for a stranger"
                if response.status_code in (301, 302, 303, 304, 401, 403, 404):
                    continue
                if rule.endpoint in SAME_FOR_ALL:
                    first = response.data if first is None else first
                    assert response.data == first, f"{path} differs for {who}"
                elif rule.endpoint in RECORDS:
                    if number == running_number:
                        assert response.status_code == 409, f"{path}: a running hand's record for {who}"
                    elif response.status_code == 200:
                        record = response.get_json() if response.is_json else yaml.safe_load(response.data)
                        header = finished_headers[number]
                        assert record["hands"] == header["hands"] and record["players"] == header["players"], path
                else:
                    body = response.data
                    if response.mimetype == "text/csv":
                        body = json.dumps(body.decode())  # as text: every cell is checked
                    assert_private(body, secret, titles, rule.endpoint not in DECK_TITLES, f"{path} for {who}")
                checked += 1
    return checked


def test_no_endpoint_page_or_export_shows_a_hidden_card(play_app):
    app = play_app
    teacher = teacher_client(app)
    code = open_table(teacher, rules="classic", deck="authors-1861", options={"name_the_work": True},
                      seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "computer"}],
                      match={"format": "hands", "value": 2})
    students = {name: seat_student(app, code, name) for name in ("Anna", "Boris")}
    started = teacher.post(f"/api/tables/{code}/start")
    assert started.status_code == 200
    clients = {"students": students, "teacher": teacher, "stranger": app.test_client()}
    watch = Watch(app, code)
    secrets, titles = watch.secrets()
    assert_private(started.data, secrets[PUBLIC], titles, True, "start answer to the teacher")
    renamed = teacher.patch(f"/api/tables/{code}/seats/2", json={"name": "Robot"})
    assert renamed.status_code == 200
    secrets, titles = watch.secrets()
    assert_private(renamed.data, secrets[PUBLIC], titles, True, "seat change answer to the teacher")

    routes = table_routes(app)
    deck = deck_of(teacher, code)
    rng = random.Random(5)
    checked = moves = 0
    finished_headers: dict[int, dict] = {}
    while moves < 600:
        public = get_state(teacher, code)
        if moves % 15 == 0 or public["match"]["hand"] > len(finished_headers) + 1:
            with app.app_context():
                table = Table.query.filter_by(code=code).one()
                for deal in Deal.query.filter_by(table_id=table.id):
                    if deal.result_json:
                        finished_headers[deal.number] = deal.header
            if public["status"] == "playing":
                checked += check_everything(app, code, clients, watch, routes, finished_headers,
                                            public["match"]["hand"])
        if public["status"] != "playing":
            break
        player = students[public["game"]["turn"]]
        state = get_state(player, code)
        response = player.post(f"/api/tables/{code}/moves",
                               json={"version": state["version"], "move": choose_move(state, deck, rng)})
        assert response.status_code == 200, response.get_json()
        moves += 1
    assert checked > 100 and moves > 20
