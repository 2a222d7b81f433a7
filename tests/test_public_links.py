"""Absolute links come from the configuration (PUBLIC_URL or SERVER_NAME), never from the request's Host
header: a forged Host cannot put its own address in a table's join link or QR code."""
from __future__ import annotations

import pytest

from app.config import ConfigError, public_url
from app.services.qr import qr_svg

from .web_support import open_table, teacher_client


def test_a_forged_host_header_does_not_reach_the_join_link_or_the_qr_code(app):
    app.config.update(PUBLIC_URL="http://192.168.1.20:5000")
    teacher = teacher_client(app)
    code = open_table(teacher)
    state = teacher.get(f"/api/tables/{code}", headers={"Host": "evil.example"}).get_json()
    assert state["join_url"] == f"http://192.168.1.20:5000/j/{code}"
    for page, host in ((f"/t/{code}", "localhost"), (f"/t/{code}/projector", "evil.example")):
        html = teacher.get(page, headers={"Host": host}).get_data(as_text=True)  # (the teacher's cookie: localhost)
        assert "evil.example" not in html and f"http://192.168.1.20:5000/j/{code}" in html, page
    qr = teacher.get(f"/t/{code}/qr.svg", headers={"Host": "evil.example"})
    assert qr.get_data(as_text=True) == qr_svg(f"http://192.168.1.20:5000/j/{code}")
    assert "public" not in qr.headers["Cache-Control"]
    again = teacher.get(f"/t/{code}/qr.svg", headers={"If-None-Match": qr.headers["ETag"]})
    assert again.status_code == 304


def test_without_a_public_url_the_link_names_the_default_address_not_the_host_header(app):
    app.config.update(PUBLIC_URL=None)
    teacher = teacher_client(app)
    code = open_table(teacher)
    state = teacher.get(f"/api/tables/{code}", headers={"Host": "evil.example"}).get_json()
    assert state["join_url"] == f"http://127.0.0.1:5000/j/{code}"


def test_a_public_url_behind_a_prefix_is_not_doubled(app):
    app.config.update(PUBLIC_URL="https://school.example/authors")
    teacher = teacher_client(app)
    code = open_table(teacher)
    plain = teacher.get(f"/api/tables/{code}").get_json()["join_url"]
    prefixed = teacher.get(f"/api/tables/{code}", environ_overrides={"SCRIPT_NAME": "/authors"}).get_json()
    assert plain == prefixed["join_url"] == f"https://school.example/authors/j/{code}"


def test_allowed_hosts_refuse_another_host_with_a_400_and_a_sentence(tmp_path, monkeypatch):
    from app.factory import create_app

    monkeypatch.setenv("AUTHORS_INSTANCE_PATH", str(tmp_path / "instance"))
    monkeypatch.setenv("ALLOWED_HOSTS", "authors.school.example, .district.example")
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'db.sqlite3'}"})
    client = app.test_client()
    assert client.get("/rules", headers={"Host": "authors.school.example"}).status_code == 200
    assert client.get("/rules", headers={"Host": "east.district.example"}).status_code == 200
    for host in ("evil.example", "authors.school.example.evil.example"):
        refused = client.get("/rules", headers={"Host": host})
        assert refused.status_code == 400 and "authors.school.example" in refused.get_data(as_text=True)
        assert refused.headers["X-Frame-Options"] == "DENY"  # the security headers still go around it


@pytest.mark.parametrize("value, server_name, expected", [
    ("http://192.168.1.20:5000/", None, "http://192.168.1.20:5000"),
    ("https://school.example/authors/", None, "https://school.example/authors"),
    (None, "authors.school.example", "http://authors.school.example"),
    ("", None, None),
])
def test_the_public_url_setting(value, server_name, expected):
    assert public_url(value, server_name) == expected


@pytest.mark.parametrize("value", ["192.168.1.20:5000", "ftp://school.example", "http://", "http://x/?a=1"])
def test_a_public_url_that_is_no_address_stops_the_server_with_a_sentence(value):
    with pytest.raises(ConfigError, match="PUBLIC_URL is the address students open"):
        public_url(value)


def test_an_invitation_link_names_the_public_address_whatever_the_host_header(app):
    import re

    app.config.update(PUBLIC_URL="https://authors.school.example")
    page = teacher_client(app).post("/account/invitations", headers={"Host": "localhost"}).get_data(as_text=True)
    link = re.search(r'<code id="invitation-link">([^<]+)</code>', page).group(1)
    assert link.startswith("https://authors.school.example/signup?invite=")
