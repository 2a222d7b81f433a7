"""The waiting page says how long the student has waited for her teacher (issue #33), counted on the
server's clock from when her request was made, in whole minutes; the page's poll carries it, and each
device is told of its own request only."""
from __future__ import annotations

import time

import pytest

from app.store import presence

from .test_presence import seen_back
from .test_rejoin import started

pytestmark = pytest.mark.database
REAL_TIME = time.time


def asking(client, code) -> dict:
    response = client.get(f"/api/tables/{code}/ask")
    assert response.status_code == 200, response.data[:300]
    return response.get_json()["asking"]


def later_by(monkeypatch, seconds: float) -> None:
    """The server's clock `seconds` ahead of the real one (the phone's clock plays no part)."""
    monkeypatch.setattr(time, "time", lambda: REAL_TIME() + seconds)


def test_the_wait_is_counted_in_minutes_from_the_request_on_the_servers_clock(app, monkeypatch):
    app, teacher, code, cara, dan = started(app)
    seen_back(app, code, "Cara", presence.AWAY_AFTER + 5)
    phone = app.test_client()
    asked = phone.post(f"/api/tables/{code}/join", json={"name": "Cara"})
    assert asked.status_code == 202
    first = asked.get_json()["asking"]
    assert first["status"] == "waiting" and first["waited_seconds"] < 60
    assert first["waited"] == "You have waited less than a minute."
    assert asking(phone, code)["waited"] == "You have waited less than a minute."

    later_by(monkeypatch, 60 + 5)
    one = asking(phone, code)
    assert 65 <= one["waited_seconds"] < 120 and one["waited"] == "You have waited 1 minute."

    later_by(monkeypatch, 3 * 60 + 10)
    three = asking(phone, code)
    assert three["status"] == "waiting" and 190 <= three["waited_seconds"] < 240
    assert three["waited"] == "You have waited 3 minutes."
    page = phone.get(f"/j/{code}/waiting").get_data(as_text=True)
    assert 'id="ask-waited"' in page and "You have waited 3 minutes." in page
    russian = phone.get(f"/j/{code}/waiting?lang=ru").get_data(as_text=True)
    assert "Ты ждёшь 3 минуты." in russian

    # Asking again from the same device keeps the request, and so its time.
    again = phone.post(f"/api/tables/{code}/join", json={"name": "Cara"})
    assert again.status_code == 202 and 190 <= again.get_json()["asking"]["waited_seconds"] < 240

    # Once the request is over, no wait is told, and the page hides the line.
    assert teacher.post(f"/api/tables/{code}/seats/0/refuse").status_code == 200
    ended = asking(phone, code)
    assert ended["status"] == "refused" and ended["waited_seconds"] is None and ended["waited"] is None
    page = phone.get(f"/j/{code}/waiting").get_data(as_text=True)
    assert '<p class="ask-waited" id="ask-waited" hidden></p>' in page


def test_each_device_is_told_of_its_own_request_only(app, monkeypatch):
    app, teacher, code, cara, dan = started(app)
    seen_back(app, code, "Cara", presence.AWAY_AFTER + 5)
    seen_back(app, code, "Dan", presence.AWAY_AFTER + 5)
    caras = app.test_client()
    assert caras.post(f"/api/tables/{code}/join", json={"name": "Cara"}).status_code == 202
    later_by(monkeypatch, 4 * 60 + 5)
    dans = app.test_client()
    dan_asked = dans.post(f"/api/tables/{code}/join", json={"name": "Dan"}).get_json()["asking"]
    assert dan_asked["name"] == "Dan" and dan_asked["waited"] == "You have waited less than a minute."
    cara_now = asking(caras, code)
    assert cara_now["name"] == "Cara" and cara_now["waited"] == "You have waited 4 minutes."
    later_by(monkeypatch, 6 * 60 + 5)
    assert asking(dans, code)["waited"] == "You have waited 2 minutes."
    assert asking(caras, code)["waited"] == "You have waited 6 minutes."
    # Nothing of anyone else's request: the answer names its own seat and holds nothing more.
    assert set(asking(dans, code)) == {"status", "message", "name", "waited_seconds", "waited", "play"}
    # A browser that asked for nothing is told so, with a sentence.
    stranger = app.test_client().get(f"/api/tables/{code}/ask")
    assert stranger.status_code == 404 and stranger.get_json()["error"]["message"]
