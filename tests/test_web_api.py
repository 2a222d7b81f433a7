"""The API's description matches its routes, and bad requests are 4xx with a message, never 500."""
from __future__ import annotations

import re

import pytest

from .web_support import open_table, seat_student, teacher_client


def documented_routes(document) -> set[tuple[str, str]]:
    return {(method.upper(), path) for path, item in document["paths"].items() for method in item}


def app_routes(app) -> set[tuple[str, str]]:
    routes = set()
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/api/"):
            continue
        path = re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", rule.rule)
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            routes.add((method, path))
    return routes


def test_every_api_route_is_documented_and_nothing_else(play_app):
    document = play_app.test_client().get("/api/openapi.json").get_json()
    assert document["openapi"].startswith("3.")
    assert documented_routes(document) == app_routes(play_app)
    for path, item in document["paths"].items():
        for method, operation in item.items():
            assert operation.get("summary"), (method, path)
            assert any(code.startswith("2") for code in operation["responses"]), (method, path)
            names = {p["name"] for p in operation.get("parameters", []) if p["in"] == "path"}
            assert names == set(re.findall(r"{(\w+)}", path)), (method, path)


def test_the_catalog_explains_every_option_in_one_line(play_app):
    catalog = play_app.test_client().get("/api/catalog").get_json()
    assert {p["id"] for p in catalog["presets"]} == {"standard", "classic", "go-fish", "literature", "quartett",
                                                     "familles", "familias"}
    for option in catalog["options"]:
        assert option["help"] and "\n" not in option["help"], option["name"]
    assert "random" in {b["id"] for b in catalog["bots"]}
    assert any(d["id"] == "authors-1861" for d in catalog["decks"])


BAD_BODIES = [b"", b"null", b"[]", b"42", b'"text"', b"{", b'{"name": null}', b'{"name": ["x"]}',
              b'{"move": null}', b'{"move": {"ask": null, "set": null}}', b'{"seats": "four"}',
              b'{"seats": [null]}', b'{"kind": null}', b'{"name": {"a": 1}}', b"\xff\xfe",
              b'{"seat": "x", "move": {"answer": null}}', b'{"seat": 99, "move": {"answer": null}}',
              b'{"rules": 7, "seats": [{}]}', b'{"deck": ["x"], "seats": [{}, {}, {}]}',
              b'{"options": {"deal_size": -1}, "seats": [{}, {}, {}]}', b'{"version": 1.5, "move": {}}',
              b'{"move": {"claim": "x", "holders": {"Anna": [null]}}}']


def test_no_bad_request_is_a_500(play_app):
    teacher = teacher_client(play_app)
    code = open_table(teacher)
    student = seat_student(play_app, code, "Anna")
    seat_student(play_app, code, "Boris")
    teacher.post(f"/api/tables/{code}/start")
    urls = [("post", "/api/tables"), ("post", f"/api/tables/{code}/join"), ("post", f"/api/tables/{code}/moves"),
            ("patch", f"/api/tables/{code}/seats/0"), ("patch", f"/api/tables/{code}/seats/zz"),
            ("post", "/api/tables/ACEFHK/moves"), ("post", f"/api/tables/{code}/start")]
    for client in (teacher, student):
        for method, url in urls:
            if client is student and url.endswith("/join"):
                continue  # a seated student who joins again simply gets the seat back
            for body in BAD_BODIES:
                response = getattr(client, method)(url, data=body, content_type="application/json")
                assert 400 <= response.status_code < 500, (url, body, response.status_code, response.data[:200])
                error = response.get_json()["error"]
                assert error["message"] and error["code"], (url, body)
    for url in (f"/api/tables/{code}?seat=abc", f"/api/tables/{code}?seat=-1", f"/api/tables/{code}/hands/0/record",
                "/api/tables/" + "x" * 300, f"/api/tables/{code}/hands/99999999999999999999/record"):
        response = student.get(url)
        assert 400 <= response.status_code < 500, (url, response.status_code)


def test_page_forms_never_500(play_app):
    client = teacher_client(play_app)
    for form in ({}, {"code": ""}, {"code": "x" * 500, "name": "y" * 500}, {"code": "ACEFHK", "name": ""}):
        response = client.post("/join", data=form)
        assert 400 <= response.status_code < 500, form
    for form in ({}, {"rules": "nope"}, {"match_value": "many", "seat0": "student", "seat1": "student",
                                          "seat2": "student"}, {"seat0": "computer:genius"}, {"opt_deal_size": "x"}):
        response = client.post("/tables/new", data=form)
        assert 400 <= response.status_code < 500, form


@pytest.mark.parametrize("url", ["/api/tables/ACEFHK", "/api/tables/ACEFHK/deck", "/api/tables/ACEFHK/hands"])
def test_unknown_codes_are_404_json(play_app, url):
    response = play_app.test_client().get(url)
    assert response.status_code == 404
    assert response.get_json()["error"]["code"] == "unknown-code"
