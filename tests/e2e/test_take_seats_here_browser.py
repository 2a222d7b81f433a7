"""Leftovers of issue #33 on the teacher's table page, in Chromium: pass-and-play seats taken to the teacher's
other browser with one press (asked first), the first browser's play screen told; a turn waiting on a seat
no device holds flagged at the top with its one button; a student taken off for the match shown in her
seat's row with "Let back in" there. Axe-clean at 390 and 1920 px; screenshots go to /tmp/shots/teacher/
for a person to look at."""
from __future__ import annotations

import time
from pathlib import Path

from .a11y_support import Checker, axe_source
from .test_browser import open_table_in_browser
from .test_teacher_page_browser import shoot

SHOTS = Path("/tmp/shots/teacher")
PHONE = {"width": 390, "height": 844}
WALL = {"width": 1920, "height": 1080}


def _shoot(page, name, checker, label):
    shoot(page, name, checker, label, SHOTS)


def test_the_teachers_tablet_takes_the_pass_and_play_seats(live_app, teacher_page):
    base = live_app.base_url
    SHOTS.mkdir(parents=True, exist_ok=True)
    checker = Checker(axe_source())
    laptop = teacher_page()
    laptop.set_viewport_size(WALL)
    code = open_table_in_browser(laptop, base, [("here", "Anna"), ("here", "Boris"), ("computer:random", "")])
    laptop.wait_for_selector("#status >> text=Everyone is here")
    assert laptop.is_hidden("#take-here-box")  # this browser holds them: nothing to take
    laptop.click("#start")
    laptop.wait_for_selector("#status >> text=Playing hand 1")
    laptop.click("#play-link")
    laptop.wait_for_url(f"**/t/{code}/play")
    laptop.wait_for_selector("#im-button")  # the hand-off screen of a device passed around

    tablet = teacher_page()  # the same teacher, logged in on the classroom tablet
    tablet.set_viewport_size(WALL)
    tablet.goto(f"{base}/t/{code}")
    tablet.wait_for_selector("#take-here-text >> text=Anna and Boris play on another device")
    assert tablet.is_hidden("#play-link")
    _shoot(tablet, "take-here", checker, "the tablet's table page offering to take the seats")
    tablet.click("#take-here")  # asked first, the focus on Cancel
    tablet.wait_for_selector("#take-here-question >> text=Play as Anna and Boris on this device?")
    assert tablet.evaluate("document.activeElement.id") == "take-here-cancel"
    _shoot(tablet, "take-here-question", checker, "the tablet's table page asking before it takes the seats")
    tablet.click("#take-here-cancel")
    assert tablet.is_visible("#take-here") and tablet.is_hidden("#take-here-form")
    assert tablet.evaluate("document.activeElement.id") == "take-here"
    tablet.click("#take-here")
    tablet.click("#take-here-yes")
    tablet.wait_for_url(f"**/t/{code}/play")
    tablet.wait_for_selector("#im-button")

    laptop.wait_for_selector("#seat-lost >> text=The seats played on this device have moved to another device")
    laptop.wait_for_selector("#im-button", state="hidden")  # the hand-off screen went with the seats
    assert not laptop.locator("#hand").count()
    laptop.set_viewport_size(PHONE)
    laptop.screenshot(path=str(SHOTS / "laptop-seats-moved-390.png"), full_page=True)
    checker.check(laptop, "the first browser's play screen once the seats moved, 390 px")
    # the tablet's table page: its play link opens them, nothing is offered to take any more
    tablet.goto(f"{base}/t/{code}")
    tablet.wait_for_selector("#play-link:not([hidden])")
    assert tablet.is_hidden("#take-here-box")
    laptop.goto(f"{base}/t/{code}")  # and the laptop's page offers to take them back
    laptop.wait_for_selector("#take-here-text >> text=Anna and Boris play on another device")
    checker.assert_clean()


def test_a_turn_on_a_seat_no_device_holds_and_a_student_taken_off(live_app, browser, teacher_page):
    base = live_app.base_url
    SHOTS.mkdir(parents=True, exist_ok=True)
    checker = Checker(axe_source())
    teacher = teacher_page()
    teacher.set_viewport_size(WALL)
    code = open_table_in_browser(teacher, base, [("student", ""), ("student", ""), ("computer:random", "")])
    phones = []
    for name in ("Cara", "Dan"):
        context = browser.new_context(viewport=PHONE)
        phone = context.new_page()
        phone.goto(f"{base}/j/{code}")
        phone.fill("#name", name)
        phone.click("form button[type=submit]")
        phone.wait_for_url(f"**/t/{code}/play")
        phones.append(context)
    teacher.wait_for_selector("#status >> text=Everyone is here")
    teacher.click("#start")
    deadline = time.time() + 20
    while not any(f"{n} to play" in teacher.inner_text("#status") for n in ("Cara", "Dan")) and time.time() < deadline:
        teacher.wait_for_timeout(200)
    turn = next(n for n in ("Cara", "Dan") if f"{n} to play" in teacher.inner_text("#status"))
    other = "Dan" if turn == "Cara" else "Cara"
    position = 0 if turn == "Cara" else 1

    # the teacher disconnects the device of the student to play: the turn waits on a seat nobody holds
    teacher.click(f"#seats tr[data-seat='{position}'] summary")
    teacher.click(f"#seats tr[data-seat='{position}'] button.seat-action.remove")
    teacher.wait_for_selector(f"#away-turn >> text=No device holds {turn}'s seat, and it is {turn}'s turn")
    assert teacher.inner_text("#away-turn-button") == f"Let a computer play until {turn} is back"
    assert teacher.locator("#away-turn").bounding_box()["y"] < teacher.locator("#seats").bounding_box()["y"]
    _shoot(teacher, "empty-seat-turn", checker, "the table's page flagging a turn on a seat no device holds")
    overview = teacher_page()
    overview.wait_for_selector(f"#waiting li[data-code='{code}'] >> text=no device holds {turn}'s seat")
    _shoot(overview, "overview-empty-seat-turn", checker, "the overview flagging a turn on a seat no device holds")
    teacher.click("#away-turn-button")
    teacher.wait_for_selector(f"#seats tr[data-seat='{position}'] >> text=a computer plays it until you let {turn} back in")
    teacher.wait_for_function("() => document.getElementById('away-turn').hidden")

    # the other student taken off for the match: her row says so and carries "Let back in" (paused first:
    # with every seat a computer's, the hand would end at once, and a finished table has no seat actions)
    teacher.click("#pause")
    teacher.wait_for_selector("#status >> text=Paused")
    row = f"#seats tr[data-seat='{1 - position}']"
    teacher.click(f"{row} summary")
    teacher.click(f"{row} button.seat-action.take-off")
    teacher.click(f"#seat-{1 - position}-yes")
    teacher.wait_for_selector(f"{row} small.presence >> text=taken off for the match")
    assert teacher.locator(f"{row} td.controls > .seat-action-item button.let-back").inner_text() == "Let back in"
    assert teacher.locator("#barred-box").count() == 0
    _shoot(teacher, "taken-off-row", checker, "the table's page with a student taken off, in her row")
    teacher.click(f"{row} button.let-back")
    teacher.wait_for_selector(f"{row} small.presence >> text=a computer plays it until you let {other} back in")
    for context in phones:
        context.close()
    checker.assert_clean()
