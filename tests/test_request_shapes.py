"""No request shape gets a 500: wrong types, huge and non-finite numbers, deep nesting and odd Unicode
digits in every body and query field of the API are refused with a 4xx and a sentence.

Besides the cases found by hand, every field of every request body the OpenAPI document describes, and
every query parameter, is sent each of the hostile values below in turn (the rest of the body kept
valid), so a field added later is covered without a new test."""
from __future__ import annotations

import json
import random

import pytest

from .web_support import choose_move, deck_of, error_of, for_play, get_state, open_table, seat_student, teacher_client

DEEP_OBJECT = '{"a":' * 3000 + "1" + "}" * 3000
DEEP_ARRAY = "[" * 50_000
HOSTILE = [  # as JSON text: 1e999 is a number JSON allows that Python reads as infinity
    "[]", "[\"x\"]", "{}", '{"a": {"b": [1]}}', "1e999", "-1e999", "1" + "0" * 400, "3.5", "-1", "true", "null",
    '"\\u00b2"', '"\\u0661\\u0662"', '"\\u00bd"', '""', '"' + "x" * 5000 + '"', '"\\u0000\\r\\n"',
    "[" * 2000 + "]" * 2000,
]


@pytest.fixture
def table(app):
    app.config.update(JOIN_GUESS_LIMIT=10**6)
    for_play(app)
    teacher = teacher_client(app)
    code = open_table(teacher)
    student = seat_student(app, code, "Anna")
    return teacher, student, code


def raw(client, method: str, url: str, text: str):
    return client.open(url, method=method, data=text, content_type="application/json")


@pytest.mark.parametrize("body", [
    {"rules": ["standard"], "seats": [{}, {}, {}]},
    {"rules": {"a": 1}, "seats": [{}, {}, {}]},
    {"language": ["en"], "seats": [{}, {}, {}]},
    {"language": {"en": True}, "seats": [{}, {}, {}]},
    {"seats": [{"kind": "computer", "bot": ["x"]}, {}, {}]},
    {"seats": [{"kind": ["human"]}, {}, {}]},
    {"seats": [{}, {}, {}], "deck": ["standard-52"]},
    {"seats": [{}, {}, {}], "options": {"stock": [True]}},
    {"seats": [{}, {}, {}], "options": {"deal_size": "\u00b2"}},
    {"seats": [{}, {}, {}], "name": {"x": 1}},
    {"seats": [{}, {}, {}], "name": "Room\x0012"},      # PostgreSQL refuses a NUL in any text
    {"seats": [{"kind": "human", "here": True, "name": "An\x00na"}, {}, {}]},
    {"seats": [{}, {}, {}], "deck": "studio:\x00"},
])
def test_a_new_table_of_the_wrong_shape_is_a_400_with_a_sentence(app, body):
    response = teacher_client(app).post("/api/tables", json=body)
    assert response.status_code == 400, response.data[:300]
    assert error_of(response)["message"]


@pytest.mark.parametrize("match", ['{"format": "hands", "value": 1e999}', '{"format": "target", "value": -1e999}',
                                   '{"format": "hands", "value": 2.5}', '{"format": "hands", "value": true}',
                                   '{"format": "hands", "value": "\\u00b2"}', '{"format": ["hands"]}'])
def test_a_match_of_any_number_is_a_400(app, match):
    body = '{"seats": [{}, {}, {}], "match": %s}' % match
    response = raw(teacher_client(app), "POST", "/api/tables", body)
    assert response.status_code == 400, response.data[:300]
    message = error_of(response)["message"]
    assert any(words in message for words in ("whole number", "match format", "infinity")), message


def test_a_computer_player_named_by_a_list_is_a_400_on_patch_too(app, table):
    teacher, _student, code = table
    response = teacher.patch(f"/api/tables/{code}/seats/2", json={"kind": "computer", "bot": ["x"]})
    assert response.status_code == 400
    assert 'unknown computer player "[\'x\']"' in error_of(response)["message"]


@pytest.mark.parametrize("text", [DEEP_OBJECT, DEEP_ARRAY])
@pytest.mark.parametrize("path", ["/api/tables", "/api/tables/{code}/join", "/api/tables/{code}/moves"])
def test_deeply_nested_json_is_a_400(app, table, path, text):
    teacher, student, code = table
    client = teacher if path == "/api/tables" else student
    response = raw(client, "POST", path.format(code=code), text)
    assert response.status_code == 400
    assert error_of(response)["code"] == "malformed-json"


@pytest.mark.parametrize("query", ["players=%C2%B2", "hands=%C2%B9", "players=%D9%A1%D9%A2", "hands=1e999"])
def test_odd_digits_on_the_score_pad_are_a_400(client, query):
    response = client.get(f"/print/scorepad.pdf?{query}")
    assert response.status_code == 400
    assert "whole number" in response.get_data(as_text=True)


# ----------------------------------------------------------------------------------------------------
# Every field of every body, every query parameter
# ----------------------------------------------------------------------------------------------------
def _resolve(document: dict, schema: dict) -> dict:
    while "$ref" in schema:
        schema = document["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    return schema


def field_paths(document: dict, schema: dict, prefix: tuple = (), depth: int = 0) -> list[tuple]:
    """Every property path a body schema names (into objects, list items and union members)."""
    schema = _resolve(document, schema)
    paths = []
    for member in schema.get("anyOf", []) + schema.get("oneOf", []):
        paths += field_paths(document, member, prefix, depth)
    for name, sub in schema.get("properties", {}).items():
        paths.append(prefix + (name,))
        if depth < 4:
            paths += field_paths(document, sub, prefix + (name,), depth + 1)
    if "items" in schema and depth < 4:
        paths += field_paths(document, schema["items"], prefix + (0,), depth + 1)
    return list(dict.fromkeys(paths))


def with_value(body, path: tuple, value):
    """A copy of the valid body with the value at `path` replaced (made where it is missing)."""
    body = json.loads(json.dumps(body))
    node = body
    for step in path[:-1]:
        if isinstance(step, int):
            if not isinstance(node, list) or not node:
                return None
            node = node[step]
        else:
            if not isinstance(node, dict):
                return None
            node = node.setdefault(step, {})
    if isinstance(path[-1], int) or not isinstance(node, dict):
        return None
    node[path[-1]] = value
    return body


def valid_bodies(code: str) -> dict:
    return {
        ("post", "/api/tables"): {"rules": "standard", "seats": [{"kind": "human", "name": "Vera", "here": True},
                                                                 {"kind": "computer", "bot": "random"}, {}],
                                  "match": {"format": "hands", "value": 2}, "options": {"name_the_work": True}},
        ("post", "/api/tables/{code}/join"): {"name": "Zoe"},
        ("patch", "/api/tables/{code}/seats/{position}"): {"kind": "computer", "bot": "memory", "name": "Rex"},
        ("post", "/api/tables/{code}/moves"): {"seat": 0, "version": 1, "move": {"ask": "Boris", "set": "9"}},
    }


def test_every_body_field_and_query_parameter_takes_hostile_values_without_a_5xx(app, table):
    teacher, student, code = table
    teacher.post(f"/api/tables/{code}/start")
    document = teacher.get("/api/openapi.json").get_json()
    sent = 0
    for (method, path), body in valid_bodies(code).items():
        operation = document["paths"][path][method]
        schema = operation["requestBody"]["content"]["application/json"]["schema"]
        url = path.format(code=code, position=3)
        for field in field_paths(document, schema):
            for value in HOSTILE:
                mutated = with_value(body, field, "__HOSTILE__")
                if mutated is None:
                    continue
                text = json.dumps(mutated).replace('"__HOSTILE__"', value)
                client = teacher if method != "post" or path == "/api/tables" else student
                response = raw(client, method.upper(), url, text)
                sent += 1
                assert response.status_code < 500, (method, url, field, value[:40], response.data[:300])
                if response.status_code >= 400:
                    assert error_of(response)["message"], (field, value[:40])
    for path, methods in document["paths"].items():
        for method, operation in methods.items():
            if method != "get":
                continue
            for parameter in operation.get("parameters", []):
                if parameter["in"] not in ("query", "path"):
                    continue
                for value in ("%C2%B2", "%D9%A1", "1e999", "-1", "%00", "x" * 300, "%5B%5D", "3.5"):
                    if parameter["in"] == "query":
                        url = path.format(code=code, number=1, position=0, name="none.png") + f"?{parameter['name']}={value}"
                    else:
                        url = path.replace("{" + parameter["name"] + "}", value).format(code=code, number=1, name="none.png",
                                                                                        position=0)
                    response = student.get(url)
                    sent += 1
                    assert response.status_code < 500, (url, response.data[:300])
    assert sent > 300


def test_a_typed_answer_is_stored_without_control_or_invisible_characters(app):
    from app.models import MoveRow
    from app.services.schemas import AnswerMove, AskMove

    assert AnswerMove.model_validate({"answer": "\x00=HYPER\u200bLINK\r\n(1)\t x"}).answer == "=HYPERLINK (1) x"
    assert AskMove.model_validate({"ask": "Boris", "card": "x", "named": "Oliver\u2028Twist\x07"}).named \
        == "Oliver Twist"
    for_play(app)
    teacher = teacher_client(app)
    code = open_table(teacher, rules="classic", deck="authors-1861",
                      options={"name_the_work": True, "named_asks": False},  # prompts, not named asks
                      seats=[{"kind": "human", "name": "Anna", "here": True}, {"kind": "computer"}])
    teacher.post(f"/api/tables/{code}/start")
    deck = deck_of(teacher, code)
    rng = random.Random(5)
    for _ in range(300):
        state = get_state(teacher, code, seat=0)
        if state["status"] != "playing":
            break
        if state["game"]["prompts"]:
            teacher.post(f"/api/tables/{code}/moves", json={"seat": 0, "move": {"answer": "\x00=1+2\r\nx\u200b"}})
            break
        teacher.post(f"/api/tables/{code}/moves", json={"seat": 0, "move": choose_move(state, deck, rng)})
    with app.app_context():
        typed = [row.data["answer"] for row in MoveRow.query.all() if row.data.get("player") == "Anna"
                 and "answer" in row.data]
    assert typed == ["=1+2 x"]


PAGE_QUERIES = {
    "/print/scorepad.pdf": ("players", "hands", "lang"),
    "/print/alignment.pdf": ("duplex", "lang"),
    "/decks/standard-52/print.pdf": ("paper", "card", "backs", "bleed", "duplex", "back_offset_x",
                                     "back_offset_y"),
    "/rules/standard": ("lang",),
    "/rules/standard.pdf": ("lang", "paper"),
    "/reports/": ("from", "to", "table", "student"),
    "/reports/answers.csv": ("from", "to", "table", "student"),
    "/reports/students.csv": ("from", "to", "table", "student"),
    "/tables/new": ("deck",),
}
ODD_QUERY_VALUES = ("%C2%B2", "%D9%A1%D9%A2", "%EF%BC%91", "1e999", "-1e999", "nan", "-1", "%00", "x" * 300,
                    "%5B%5D", "3.5", "%F0%9F%98%80", "9" * 400)


def test_every_page_query_parameter_takes_odd_values_without_a_5xx(app):
    teacher = teacher_client(app)
    sent = 0
    for path, names in PAGE_QUERIES.items():
        for name in names:
            for value in ODD_QUERY_VALUES:
                response = teacher.get(f"{path}?{name}={value}")
                sent += 1
                assert response.status_code < 500, (path, name, value[:20], response.data[:300])
    assert sent == sum(len(names) for names in PAGE_QUERIES.values()) * len(ODD_QUERY_VALUES)
