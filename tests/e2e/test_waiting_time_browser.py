"""The waiting page on a phone (issue #33): under "Your teacher has been asked…" a line says how long
she has waited, and the page's poll brings it up to date as the minutes pass on the server's clock.
Screenshots go to /tmp/shots/issue33-waiting/ for a person to look at."""
from __future__ import annotations

from pathlib import Path

from app.db import begin_write, db
from app.models import SeatClaim, Table

from .a11y_support import Checker, axe_source, call, join, open_table

SHOTS = Path("/tmp/shots/issue33-waiting")
PHONE = {"width": 390, "height": 844}


def _asked_earlier(app, code, seconds):
    """Every request at the table made `seconds` earlier than it was (the server's clock moved on)."""
    with app.app_context():
        begin_write()
        table = Table.query.filter_by(code=code).one()
        for claim in SeatClaim.query.filter_by(table_id=table.id).all():
            claim.asked_at -= seconds
        db.session.commit()


def test_the_waiting_page_says_how_long_she_has_waited(live_app, new_page, teacher_page):
    base = live_app.base_url
    SHOTS.mkdir(parents=True, exist_ok=True)
    teacher = teacher_page()
    code = open_table(teacher, seats=[{"kind": "human"}, {"kind": "computer"}, {"kind": "computer"}])
    cara = new_page(viewport=PHONE)
    join(cara, base, code, "Cara")
    call(teacher, "POST", f"/api/tables/{code}/start")

    phone = new_page(viewport=PHONE)  # her new phone: the same name asks for the seat back
    phone.goto(f"{base}/join?code={code}")
    phone.fill("#name", "Cara")
    phone.click("form.join button[type=submit]")
    phone.wait_for_url(f"**/j/{code}/waiting")
    line = phone.locator("#ask-waited")
    assert line.is_visible() and line.inner_text() == "You have waited less than a minute."

    _asked_earlier(live_app, code, 3 * 60 + 5)
    phone.wait_for_selector("#ask-waited >> text=You have waited 3 minutes.")  # the next poll says it
    box = line.bounding_box()
    assert box and box["height"] > 0 and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    # it sits under the sentence that says what is happening, and both fit in the first screen
    status = phone.locator("#ask-status").bounding_box()
    assert status["y"] + status["height"] <= box["y"] and box["y"] + box["height"] <= PHONE["height"]
    phone.screenshot(path=str(SHOTS / "waiting-390.png"), full_page=True)
    phone.set_viewport_size({"width": 1920, "height": 1080})
    phone.screenshot(path=str(SHOTS / "waiting-1920.png"))
    checker = Checker(axe_source())
    checker.check(phone, "the waiting page with its wait")
    checker.assert_clean()

    # Once the teacher answers, the line goes with the request.
    call(teacher, "POST", f"/api/tables/{code}/seats/0/refuse")
    phone.wait_for_selector("#ask-title >> text=Your request has ended")
    assert not line.is_visible()
