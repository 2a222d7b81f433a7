"""The teacher's network check (/classroom/check): the address phones open, whether any device other than
this computer reached the server, the round trips the phones measured, and what to try when none did."""
from __future__ import annotations

import time
from types import SimpleNamespace

import pytest

from app import lan
from app.services import network

from .web_support import error_of, open_table, teacher_client

IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile/15E148 Safari/604.1"


@pytest.fixture(autouse=True)
def network_of_this_computer(monkeypatch):
    """This computer is 192.168.1.20 on the classroom's network; each test starts with nothing written."""
    monkeypatch.setattr(lan.ifaddr, "get_adapters", lambda: [SimpleNamespace(ips=[
        SimpleNamespace(ip="127.0.0.1"), SimpleNamespace(ip="192.168.1.20")])])
    network._written.clear()


def phone(app, address: str, agent: str = IPHONE):
    client = app.test_client()
    client.environ_base.update(REMOTE_ADDR=address, HTTP_USER_AGENT=agent)
    return client


def check_page(teacher) -> str:
    response = teacher.get("/classroom/check")
    assert response.status_code == 200
    return response.get_data(as_text=True)


def test_with_no_other_device_the_check_says_so_and_what_to_try(app):
    teacher = teacher_client(app)
    app.config.update(PUBLIC_URL="http://192.168.1.20:5000")
    assert teacher.post("/classroom/reach", json={"round_trip_ms": 2.4}).status_code == 204  # the teacher's own page
    page = check_page(teacher)
    assert "http://192.168.1.20:5000/join" in page
    assert "Not yet: no device other than this computer has reached the server" in page
    assert "(this computer)" in page  # listed, and told apart
    assert 'id="try" aria-labelledby="try-title">' in page  # the section of what to try is shown
    assert "client isolation" in page and "hotspot" in page and "port 5000" in page
    assert teacher.get("/classroom/check/devices").get_json()["others"] == 0


def test_a_phone_on_another_address_is_seen_with_its_round_trip(app):
    teacher = teacher_client(app)
    assert phone(app, "192.168.1.37").post("/classroom/reach", json={"round_trip_ms": 42.4}).status_code == 204
    page = check_page(teacher)
    assert "Yes: 1 device other than this computer reached the server in the last 30 minutes." in page
    assert "192.168.1.37" in page and "iPhone · Safari" in page and "42 ms" in page
    assert 'id="try" aria-labelledby="try-title" hidden>' in page  # nothing to try: a phone got through
    listed = teacher.get("/classroom/check/devices").get_json()
    assert listed["others"] == 1
    assert listed["devices"][0] == {"address": "192.168.1.37", "device": "iPhone · Safari", "this_computer": False,
                                    "seconds_ago": listed["devices"][0]["seconds_ago"], "round_trip_ms": 42}


def test_this_computers_own_network_address_is_not_another_device(app):
    teacher = teacher_client(app)
    phone(app, "192.168.1.20").post("/classroom/reach", json={"round_trip_ms": 1})
    assert teacher.get("/classroom/check/devices").get_json() == {
        "others": 0, "devices": [{"address": "192.168.1.20", "device": "iPhone · Safari", "this_computer": True,
                                  "seconds_ago": 0, "round_trip_ms": 1}]}


def test_the_check_in_french_and_in_the_plural(app):
    teacher = teacher_client(app)
    for n in (31, 32):
        phone(app, f"10.0.0.{n}").post("/classroom/reach", json={})
    page = teacher.get("/classroom/check?lang=fr").get_data(as_text=True)
    assert "Vérification du réseau" in page and "2 appareils" in page


@pytest.mark.parametrize("body, words", [
    ({"round_trip_ms": -5}, "round_trip_ms"),
    ({"round_trip_ms": "fast"}, "round_trip_ms"),
    ({"round_trip_ms": 10, "speed": 3}, "speed"),
    ([1, 2], "an object"),
])
def test_a_bad_report_is_a_400_that_says_why_and_writes_nothing(app, body, words):
    teacher = teacher_client(app)
    response = phone(app, "10.0.0.9").post("/classroom/reach", json=body, headers={"Accept": "application/json"})
    assert response.status_code == 400
    assert words in error_of(response)["message"]
    assert teacher.get("/classroom/check/devices").get_json()["devices"] == []


def test_only_a_teacher_sees_the_check(app):
    stranger = phone(app, "10.0.0.9")
    assert stranger.get("/classroom/check").status_code in (302, 401)
    assert stranger.get("/classroom/check/devices").status_code in (302, 401)


def test_an_address_is_written_again_only_with_news_and_kept_a_day(app):
    with app.app_context():
        now = time.time()
        assert network.heard("10.0.0.5", "Android · Chrome", 30.0, now=now - 2 * 24 * 3600)
        assert network.heard("10.0.0.6", "", None, now=now - 3600)  # an hour ago: kept, not listed
        assert network.heard("10.0.0.7", "", None, now=now)
        assert not network.heard("10.0.0.7", "", None, now=now + 5)  # nothing new within 30 s
        assert network.heard("10.0.0.7", "", 12.0, now=now + 6)  # a round trip is news
        listed = network.recent({"192.168.1.20"}, now=now + 6)
        assert [(d.address, d.round_trip_ms) for d in listed] == [("10.0.0.7", 12.0)]
        from app.db import db
        from app.models import NetworkSighting
        assert sorted(r.address for r in db.session.query(NetworkSighting)) == ["10.0.0.6", "10.0.0.7"]  # two days: gone


def test_the_table_page_links_the_check_and_students_pages_report_their_arrival(app):
    teacher = teacher_client(app)
    code = open_table(teacher)
    page = teacher.get(f"/t/{code}").get_data(as_text=True)
    assert 'id="no-phone"' in page and f"/classroom/check?table={code}" in page  # shown by manage.js after 2 min
    join_page = phone(app, "10.0.0.8").get(f"/j/{code}").get_data(as_text=True)
    assert 'name="authors-reach" content="/classroom/reach" data-health="/healthz"' in join_page
    assert "js/reach.js" in join_page
