"""Seats that survive a real classroom (issue #19), in the browser: a student joins, her browser is
closed, a new browser joins by the same name and waits, the teacher clicks Let in, and the new browser
plays the seat (same hand); the teacher's page and the waiting page are axe clean, at a wall's size and
a phone's. Screenshots go to /tmp/seats-shots/ for a person to look at."""
from __future__ import annotations

import time
from pathlib import Path

from app.db import begin_write, db
from app.models import MoveRow, Table

from .a11y_support import Checker, axe_source
from .test_browser import can_ask, open_table_in_browser, tap_ask

SHOTS = Path("/tmp/seats-shots")


def _seat_back(app, code, name, seconds):
    with app.app_context():
        # A write transaction from the start, as the app's own writes are: a read turned into a write
        # fails at once ("database is locked") when the live server committed in between.
        begin_write()
        table = Table.query.filter_by(code=code).one()
        seat = next(s for s in table.seats if s.name == name)
        seat.seen_at = (seat.seen_at or time.time()) - seconds
        db.session.commit()


def _moves_by(app, code, name) -> int:
    with app.app_context():
        table = Table.query.filter_by(code=code).one()
        return sum(1 for row in MoveRow.query.filter_by(deal_id=table.current_deal.id).all()
                   if row.data.get("player") == name)


def _join(page, base, code, name):
    page.goto(f"{base}/j/{code}")
    page.fill("#name", name)
    page.click("form button[type=submit]")


def test_a_new_browser_gets_an_away_seat_back_once_the_teacher_lets_it_in(live_app, browser, new_page, teacher_page):
    base = live_app.base_url
    SHOTS.mkdir(exist_ok=True)
    checker = Checker(axe_source())
    teacher = teacher_page()
    teacher.set_viewport_size({"width": 1920, "height": 1080})
    code = open_table_in_browser(teacher, base, [("student", ""), ("student", ""), ("computer:random", "")])
    first = browser.new_context(viewport={"width": 390, "height": 844})
    cara = first.new_page()
    _join(cara, base, code, "Cara")
    cara.wait_for_url(f"**/t/{code}/play")
    dan = new_page()
    _join(dan, base, code, "Dan")
    dan.wait_for_url(f"**/t/{code}/play")
    teacher.wait_for_selector("#seats >> text=Dan")
    teacher.click("#start")
    cara.wait_for_selector("#hand", state="attached")
    first.close()  # Cara's browser is gone: her session with it
    _seat_back(live_app, code, "Cara", 3 * 60 + 5)
    teacher.wait_for_selector("#seats tr[data-seat='0'] >> text=away for 3 min")

    phone_context = browser.new_context(viewport={"width": 390, "height": 844})
    phone = phone_context.new_page()
    _join(phone, base, code, "Cara")
    phone.wait_for_url(f"**/j/{code}/waiting")
    phone.wait_for_selector("#ask-status >> text=Ask your teacher to let you back in")
    phone.screenshot(path=str(SHOTS / "waiting-phone-390.png"), full_page=True)
    checker.check(phone, "the waiting page, 390 px")

    assert "Cara" in phone.inner_text("#ask-who")
    teacher.wait_for_selector("#asks-box >> text=Cara (seat 1) wants their seat back")
    teacher.screenshot(path=str(SHOTS / "manage-1920.png"), full_page=True)
    checker.check(teacher, "the teacher's page with an away seat and a request, 1920 px")
    teacher.set_viewport_size({"width": 390, "height": 844})
    teacher.screenshot(path=str(SHOTS / "manage-390.png"), full_page=True)
    checker.check(teacher, "the teacher's page with an away seat and a request, 390 px")
    box = teacher.locator("#asks button.let-in").bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44
    assert teacher.locator("#asks button.let-in").evaluate("b => parseFloat(getComputedStyle(b).fontSize)") >= 16
    teacher.set_viewport_size({"width": 1920, "height": 1080})
    teacher.click("#asks button.let-in")

    phone.wait_for_url(f"**/t/{code}/play")
    phone.wait_for_selector("#hand", state="attached")
    teacher.wait_for_function("() => document.getElementById('asks-box').hidden")
    before = _moves_by(live_app, code, "Cara")
    started = time.monotonic()
    while _moves_by(live_app, code, "Cara") == before:  # she plays the seat from the new browser
        assert time.monotonic() - started < 30, "the new browser never played"
        for page in (phone, dan):
            if can_ask(page):
                tap_ask(page)
        time.sleep(0.05)
    phone.screenshot(path=str(SHOTS / "play-after-let-in-390.png"))
    phone_context.close()
    checker.assert_clean()
