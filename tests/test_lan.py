"""Serving the room: the addresses phones can reach, and the warning on a table whose link names this
computer alone."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from app import lan

from .web_support import open_table, teacher_client


def adapters(*ips):
    return [SimpleNamespace(ips=[SimpleNamespace(ip=ip) for ip in ips])]


def test_lan_addresses_leave_out_this_computer_alone_and_put_private_networks_first(monkeypatch):
    monkeypatch.setattr(lan.ifaddr, "get_adapters", lambda: adapters(
        "127.0.0.1", ("::1", 0, 0), "169.254.10.3", "203.0.113.7", "192.168.1.20", ("fd00::2", 0, 0), "10.0.0.4"))
    assert lan.lan_addresses() == ["10.0.0.4", "192.168.1.20", "203.0.113.7"]


def test_a_machine_with_no_network_has_no_lan_address(monkeypatch):
    monkeypatch.setattr(lan.ifaddr, "get_adapters", lambda: adapters("127.0.0.1"))
    assert lan.lan_addresses() == []


@pytest.mark.parametrize("url, alone", [
    ("http://127.0.0.1:5000/j/ABC", True), ("http://localhost:5000/j/ABC", True), ("http://[::1]:5000/", True),
    ("http://127.8.0.1/", True), ("http://192.168.1.20:5000/j/ABC", False), ("https://authors.school.example/", False),
])
def test_a_link_that_only_this_computer_can_open(url, alone):
    assert lan.only_this_computer(url) is alone


def test_the_table_page_warns_when_its_link_names_this_computer_alone(app):
    teacher = teacher_client(app)
    code = open_table(teacher)
    app.config.update(PUBLIC_URL="http://127.0.0.1:5000")
    html = teacher.get(f"/t/{code}").get_data(as_text=True)
    assert 'id="local-only"' in html and "make run" in html
    app.config.update(PUBLIC_URL="http://192.168.1.20:5000")
    html = teacher.get(f"/t/{code}").get_data(as_text=True)
    assert 'id="local-only"' not in html
    assert "http://192.168.1.20:5000/join" in html and f"http://192.168.1.20:5000/j/{code}" in html
