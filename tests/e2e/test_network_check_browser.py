"""The network check in a real browser: two minutes after a table opened with no phone, its page links the
check; a phone's page reports its arrival and round trip by itself, and the check page shows it."""
from __future__ import annotations

from app.db import begin_write, db
from app.models import Table

from .test_browser import open_table_in_browser


def test_no_phone_after_two_minutes_links_the_check_which_sees_the_phone_arrive(live_app, new_page, teacher_page):
    base = live_app.base_url
    teacher = teacher_page()
    code = open_table_in_browser(teacher, base, [("student", ""), ("computer:random", ""), ("computer:random", "")])
    assert teacher.locator("#no-phone").is_hidden()  # just opened: nothing to worry about yet
    with live_app.app_context():
        begin_write()
        db.session.query(Table).filter_by(code=code).update({"created_at": Table.created_at - 180})
        db.session.commit()
    teacher.goto(f"{base}/t/{code}")
    teacher.wait_for_selector("#no-phone", state="visible")
    teacher.click("#check-link")
    teacher.wait_for_url(f"**/classroom/check?table={code}")
    assert "Not yet" in teacher.inner_text("#verdict")
    assert teacher.locator("#try").is_visible()

    phone = new_page(viewport={"width": 390, "height": 844})
    phone.goto(f"{base}/j/{code}")
    phone.fill("#name", "Anna")
    phone.click("form button[type=submit]")
    phone.wait_for_url(f"**/t/{code}/play")
    # The phone's page reported itself (from this same computer here, so it is told apart as this computer):
    # the check page sees the new row and shows itself again.
    teacher.wait_for_selector("#devices tbody tr", timeout=15000)
    row = teacher.inner_text("#devices tbody tr")
    assert "127.0.0.1" in row and " ms" in row
    teacher.goto(f"{base}/t/{code}")
    teacher.wait_for_selector("#seats tbody tr")
    teacher.wait_for_function("() => document.getElementById('no-phone').hidden")  # a student joined
