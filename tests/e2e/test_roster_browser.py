"""Classes in the browser (issue #19): the teacher makes a class by pasting names and opens a table for it
from the new-table form; on a phone a student taps their name (no typing) and plays; a name taken is not
offered; the class pages, the roster join page and the new-table form are axe clean. Screenshots go to
/tmp/roster-shots/ for a person to look at."""
from __future__ import annotations

import re
from pathlib import Path

from .a11y_support import Checker, axe_source

SHOTS = Path("/tmp/roster-shots")
PHONE = {"width": 390, "height": 844}


def table_for_class(teacher, form_ok=lambda: True) -> str:
    """The class's table opened from its page (a computer in seat 3, no seat 4); returns its code.
    `form_ok` is asked of the new-table form as it opens."""
    teacher.click("#open-for-class")
    teacher.wait_for_selector("#class_id")
    assert form_ok()
    teacher.select_option("select[name=seat2]", "computer:random")
    teacher.select_option("select[name=seat3]", "")
    teacher.click("#new-table button[type=submit]")
    teacher.wait_for_url(re.compile(r"/t/[A-Z0-9]{6}$"))
    return teacher.url.rsplit("/", 1)[1]


def test_a_class_roster_join_on_a_phone(live_app, new_page, teacher_page):
    base = live_app.base_url
    axe = Checker(axe_source())
    SHOTS.mkdir(exist_ok=True)
    teacher = teacher_page()
    teacher.goto(f"{base}/classes/")
    axe.check(teacher, "classes: none yet")
    teacher.fill("#class-name", "7B")
    teacher.fill("#class-names", "Anna\nBoris\nVera, Gleb")
    teacher.click("#create-class")
    teacher.wait_for_selector("#roster")
    assert teacher.locator("#roster li").count() == 4
    axe.check(teacher, "a class")
    code = table_for_class(teacher, lambda: teacher.locator("#class_id option:checked").inner_text() == "7B")

    anna = new_page()
    anna.set_viewport_size(PHONE)
    anna.goto(f"{base}/j/{code}")
    anna.wait_for_selector("#roster-join")
    assert anna.locator("#name").count() == 0  # nothing to type
    names = anna.locator("button.roster-name").all_inner_texts()
    assert [n.split()[0] for n in names] == ["Anna", "Boris", "Gleb", "Vera"]
    for button in anna.locator("button.roster-name").all():
        box = button.bounding_box()
        assert box["height"] >= 44 and box["width"] >= 44, box
    axe.check(anna, "roster join, phone")
    anna.screenshot(path=str(SHOTS / "join-390.png"))
    anna.click("button.roster-name >> text=Anna")
    anna.wait_for_url(f"**/t/{code}/play")

    boris = new_page()
    boris.set_viewport_size(PHONE)
    boris.goto(f"{base}/j/{code}")
    anna_there = boris.locator("button.roster-name", has_text="Anna")  # seated: offered to ask back (#33)
    assert anna_there.is_enabled() and "tap to come back" in anna_there.inner_text()
    boris.click("button.roster-name >> text=Boris")
    boris.wait_for_url(f"**/t/{code}/play")

    teacher.goto(f"{base}/t/{code}")
    teacher.click("#start")
    anna.wait_for_selector("#hand li.card.face")
    assert "Anna" in anna.inner_text("#status") or anna.locator("#players").count()
    axe.assert_clean()
