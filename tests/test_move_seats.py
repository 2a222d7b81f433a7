"""Pass-and-play seats moved to the device in hand: the teacher's page of the browser that holds them
gives a link; on another device it explains, and a press takes the seats there (new tokens: the first
browser plays them no more); the link works once, and a forged or foreign one is refused with a sentence."""
from __future__ import annotations

import re

import pytest

from .web_support import teacher_client

pytestmark = pytest.mark.database
SEATS = [{"kind": "human", "here": True, "name": "Anna"}, {"kind": "human", "here": True, "name": "Boris"},
         {"kind": "computer"}]


def held(client, code) -> list[str]:
    state = client.get(f"/api/tables/{code}").get_json()
    return sorted(seat["name"] for seat in state["seats"] if seat["here"])


def test_the_seats_move_to_another_device_and_the_link_works_once(app):
    teacher = teacher_client(app)
    response = teacher.post("/api/tables", json={"seats": SEATS})
    assert response.status_code == 201
    code = response.get_json()["code"]
    assert held(teacher, code) == ["Anna", "Boris"]
    page = teacher.get(f"/t/{code}").get_data(as_text=True)
    link = re.search(r'id="move-link" href="https?://[^/"]+(/t/[^"]+)"', page).group(1)
    tablet = app.test_client()
    explained = tablet.get(link).get_data(as_text=True)
    assert "Anna, Boris" in explained and "Take the seats here" in explained
    assert held(tablet, code) == []  # looking moves nothing (a link preview must not take the seats)
    taken = tablet.post(link, data={"csrf_token": tablet.csrf_token()})
    assert taken.status_code == 303 and taken.headers["Location"].endswith(f"/t/{code}/play")
    assert held(tablet, code) == ["Anna", "Boris"]
    assert held(teacher, code) == []  # the first browser plays them no more
    late = app.test_client()
    again = late.post(link, data={"csrf_token": late.csrf_token()})
    assert again.status_code == 409 and "moved already" in again.get_data(as_text=True)


def test_a_forged_or_foreign_link_is_refused(app):
    teacher = teacher_client(app)
    code = teacher.post("/api/tables", json={"seats": SEATS}).get_json()["code"]
    other = teacher.post("/api/tables", json={"seats": SEATS}).get_json()["code"]
    link = re.search(r'id="move-link" href="https?://[^/"]+/t/[A-Z0-9]+/take/([^"]+)"',
                     teacher.get(f"/t/{code}").get_data(as_text=True)).group(1)
    for url in (f"/t/{other}/take/{link}", f"/t/{code}/take/{link[:-3]}xyz", f"/t/{code}/take/nonsense"):
        response = app.test_client().get(url)
        assert response.status_code == 400 and "not valid" in response.get_data(as_text=True), url
    assert 'id="move-link"' not in app.test_client().get(f"/t/{code}").get_data(as_text=True)
