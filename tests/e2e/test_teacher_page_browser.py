"""The teacher's page runs the period (issue #33), in Chromium: each seat one state line and at most two
actions in view (the rest under "More…", each with its sentence); the rules in one line; the turn timer
set, refused with a sentence and switched off mid-game; a turn waiting on an away student flagged at the
top of the table's page and on the overview with the one button; "Pause all" with its state; replacing a
child by a computer asks first and her phone says so. Axe-clean at 390 and 1920 px; screenshots go to
/tmp/shots/teacher-page/ for a person to look at."""
from __future__ import annotations

import time
from pathlib import Path

from app.db import begin_write, db
from app.models import Table

from .a11y_support import Checker, axe_source
from .test_browser import open_table_in_browser

SHOTS = Path("/tmp/shots/teacher-page")
PHONE = {"width": 390, "height": 844}
WALL = {"width": 1920, "height": 1080}


def _seat_back(app, code, name, seconds):
    with app.app_context():
        begin_write()  # (a write from the start: the live server may commit in between)
        table = Table.query.filter_by(code=code).one()
        seat = next(s for s in table.seats if s.name == name)
        seat.seen_at = (seat.seen_at or time.time()) - seconds
        db.session.commit()


def _join(page, base, code, name):
    page.goto(f"{base}/j/{code}")
    page.fill("#name", name)
    page.click("form button[type=submit]")
    page.wait_for_url(f"**/t/{code}/play")


def shoot(page, name, checker, label, shots=SHOTS):
    """The page at a phone's size and the wall's, each screenshot kept under `shots` and checked by axe."""
    for size, tag in ((PHONE, "390"), (WALL, "1920")):
        page.set_viewport_size(size)
        page.screenshot(path=str(shots / f"{name}-{tag}.png"), full_page=True)
        checker.check(page, f"{label}, {tag} px")
    page.set_viewport_size(WALL)


def _visible_actions(teacher, position):
    """The buttons of a seat in view without opening its menu."""
    return teacher.locator(f"#seats tr[data-seat='{position}'] td.controls > .seat-action-item button").count()


def test_the_teacher_runs_the_period_from_the_tables_page_and_the_overview(live_app, browser, new_page, teacher_page):
    base = live_app.base_url
    SHOTS.mkdir(parents=True, exist_ok=True)
    checker = Checker(axe_source())
    teacher = teacher_page()
    teacher.set_viewport_size(WALL)
    code = open_table_in_browser(teacher, base, [("student", ""), ("student", ""), ("computer:random", "")])
    teacher.wait_for_selector("#status >> text=Waiting for players")
    assert "no time limit" in teacher.inner_text("#rules-line")

    phones = {}
    for name in ("Cara", "Dan"):
        context = browser.new_context(viewport=PHONE)
        phones[name] = (context, context.new_page())
        _join(phones[name][1], base, code, name)
    # every seat filled: the lobby says what is happening, not "Waiting for players"
    teacher.wait_for_selector("#status >> text=Everyone is here: start when you are ready.")
    assert "Waiting for players" not in teacher.inner_text("#status")
    shoot(teacher, "manage-lobby", checker, "the table's page, everyone here")
    teacher.click("#start")
    teacher.wait_for_selector("#status >> text=Playing hand 1")

    # one state line and at most two actions in view per seat; the rest in a menu, each with its sentence
    for position in range(3):
        assert _visible_actions(teacher, position) <= 2
        assert teacher.inner_text(f"#seats tr[data-seat='{position}'] small.presence").strip()
    teacher.click("#seats tr[data-seat='1'] summary")
    items = teacher.locator("#seats tr[data-seat='1'] ul.seat-menu-items > li")
    assert items.count() >= 3
    for i in range(items.count()):
        assert items.nth(i).locator("p.seat-help").inner_text().strip()
    box = teacher.locator("#seats tr[data-seat='1'] summary").bounding_box()
    assert box["height"] >= 44
    shoot(teacher, "manage-playing-menu", checker, "the table's page, a seat's menu open")

    # the turn timer, mid-game: set, refused with a sentence, switched off
    teacher.fill("#turn-seconds", "60")
    teacher.click("#timer-set")
    teacher.wait_for_selector("#timer-now >> text=60 seconds")
    assert "60 s a move" in teacher.inner_text("#rules-line")
    teacher.fill("#turn-seconds", "5")
    teacher.click("#timer-set")
    teacher.wait_for_selector("#error >> text=between 10 and 600")
    assert "60 seconds" in teacher.inner_text("#timer-now")
    teacher.click("#timer-off")
    teacher.wait_for_selector("#timer-now >> text=No time limit for a move.")

    # giving Dan's seat to a computer asks first; Cancel keeps him; Yes tells his phone
    teacher.click("#seats tr[data-seat='1'] summary") if not teacher.is_visible(
        "#seats tr[data-seat='1'] button.seat-action.computer") else None
    teacher.click("#seats tr[data-seat='1'] button.seat-action.computer")
    teacher.wait_for_selector("#seat-1-question >> text=Give Dan's seat to a computer player")
    assert teacher.evaluate("document.activeElement.id") == "seat-1-cancel"
    shoot(teacher, "manage-confirm", checker, "the table's page asking before a computer replaces a student")
    teacher.click("#seat-1-cancel")
    teacher.wait_for_selector("#seat-1-question", state="detached")
    assert "computer player (" not in teacher.inner_text("#seats tr[data-seat='1']")
    teacher.click("#seats tr[data-seat='1'] button.seat-action.computer")
    teacher.click("#seat-1-yes")
    teacher.wait_for_selector("#seats tr[data-seat='1'] >> text=computer player (")
    dan = phones["Dan"][1]
    dan.wait_for_selector("#seat-lost >> text=Your teacher gave your seat to a computer player. Ask your teacher what to do.")
    dan.screenshot(path=str(SHOTS / "phone-seat-given-390.png"), full_page=True)
    checker.check(dan, "the phone whose seat went to a computer, 390 px")
    assert not dan.locator("#hand").count()

    # Cara's turn with her screen away: flagged on the overview and at the top of the table's page
    cara_context, cara = phones["Cara"]
    deadline = time.time() + 20
    while "Cara to play" not in teacher.inner_text("#status") and time.time() < deadline:
        teacher.wait_for_timeout(200)
    assert "Cara to play" in teacher.inner_text("#status")
    cara_context.close()
    _seat_back(live_app, code, "Cara", 2 * 60 + 5)
    teacher.wait_for_selector("#away-turn >> text=The table is waiting for Cara")
    assert teacher.inner_text("#away-turn-button") == "Let a computer play until Cara is back"
    first = teacher.locator("#away-turn").bounding_box()
    assert first["y"] < teacher.locator("#seats").bounding_box()["y"]  # at the top, above the seats
    shoot(teacher, "manage-away-turn", checker, "the table's page flagging a turn waiting on an away student")

    overview = teacher_page()
    overview.set_viewport_size(WALL)
    overview.wait_for_selector(f"#waiting li[data-code='{code}'] >> text=waiting for Cara")
    shoot(overview, "overview-away-turn", checker, "the overview flagging a table waiting on an away student")
    # Pause all: the button says what it will do, the line says what is
    overview.click("#pause-all")
    overview.wait_for_selector("#pause-all-state >> text=paused: no one can move")
    assert overview.inner_text("#pause-all") == "Resume all tables"
    assert overview.get_attribute("#pause-all", "aria-pressed") == "true"
    teacher.wait_for_selector("#status >> text=Paused")
    overview.wait_for_function("() => document.getElementById('waiting').hidden")  # paused: nobody is waited for
    shoot(overview, "overview-paused", checker, "the overview with every table paused")
    overview.click("#pause-all")
    overview.wait_for_selector("#pause-all-state >> text=Play goes on")
    teacher.wait_for_function("() => !document.getElementById('status').innerText.includes('Paused')")
    overview.wait_for_selector(f"#waiting li[data-code='{code}'] >> text=waiting for Cara")

    # the one button: a computer plays for Cara until she is back
    overview.click(f"#waiting li[data-code='{code}'] button.stand-in")
    overview.wait_for_function("() => document.getElementById('waiting').hidden")
    teacher.wait_for_selector("#seats tr[data-seat='0'] >> text=a computer plays for Cara until Cara is back")
    teacher.wait_for_function("() => document.getElementById('away-turn').hidden")

    phones["Dan"][0].close()
    checker.assert_clean()
