"""The JSON API fuzzed with schemathesis from /api/openapi.json: whatever it is sent, it never answers
5xx. Requests come from a logged-in teacher's browser that holds a seat and sends the CSRF token, and
half of them name a real table, so the fuzzing gets past the front door. Bounded: a few dozen examples
per operation, well under a minute in all."""
from __future__ import annotations

import json
import random

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis.generation import GenerationMode

from .web_support import open_table, seat_student, teacher_client

EXAMPLES = 20  # per operation and mode: the whole run stays well under a minute


@pytest.fixture
def browser(app):
    """A teacher's browser with a started table and a seat at it, and the table's code."""
    teacher = teacher_client(app)
    code = open_table(teacher)
    seat_student(app, code, "Anna")
    student = seat_student(app, code, "Boris")
    teacher.post(f"/api/tables/{code}/start")
    return teacher, student, code


def send(case, teacher, student, code, rng):
    if case.path_parameters and "code" in case.path_parameters and rng.random() < 0.6:
        case.path_parameters["code"] = code
    client = student if rng.random() < 0.5 else teacher
    headers = {k: str(v) for k, v in (case.headers or {}).items()}
    kwargs = {}
    if isinstance(case.body, (bytes, str)):
        kwargs = {"data": case.body, "content_type": case.media_type or "application/json"}
    elif isinstance(case.body, (dict, list, int, float, bool)) or case.body is None and case.media_type:
        kwargs = {"data": json.dumps(case.body), "content_type": "application/json"}
    response = client.open(case.formatted_path, method=case.method, query_string=case.query or None,
                           headers=headers, **kwargs)
    assert response.status_code < 500, (case.method, case.formatted_path, case.query, case.body,
                                        response.status_code, response.data[:300])
    if response.status_code >= 400 and response.is_json:
        error = response.get_json()["error"]
        assert error["code"] and error["message"]
    return response.status_code


def test_the_api_never_answers_5xx(app, browser):
    app.config.update(JOIN_GUESS_LIMIT=10**6, JOIN_GUESS_ADDRESS_LIMIT=10**6)  # the fuzzer's wrong codes are no guessing
    teacher, student, code = browser
    schema = schemathesis.openapi.from_wsgi("/api/openapi.json", app)
    statuses: dict[int, int] = {}
    operations = 0
    for result in schema.get_all_operations():
        operation = result.ok()
        operations += 1
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):

            @settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
                      suppress_health_check=list(HealthCheck), phases=[Phase.generate])
            @given(case=operation.as_strategy(generation_mode=mode))
            def fuzz(case):
                rng = random.Random(repr(case.body) + repr(case.path_parameters) + repr(case.query))
                status = send(case, teacher, student, code, rng)
                statuses[status] = statuses.get(status, 0) + 1

            try:
                fuzz()
            except Unsatisfiable:
                assert mode is GenerationMode.NEGATIVE  # nothing of this operation can be made invalid
    assert operations >= 12
    assert sum(statuses.values()) > operations * EXAMPLES
    assert any(200 <= status < 300 for status in statuses), statuses  # the fuzzing got past the front door
