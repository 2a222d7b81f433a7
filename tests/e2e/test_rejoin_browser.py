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
from .test_roster_browser import table_for_class

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


def _started_with_cara_and_dan(teacher, base, cara, dan):
    """A table of Cara, Dan and a computer, opened on the teacher's page, the students joined on their
    pages and play started. Returns its code and Dan's page."""
    code = open_table_in_browser(teacher, base, [("student", ""), ("student", ""), ("computer:random", "")])
    _join(cara, base, code, "Cara")
    cara.wait_for_url(f"**/t/{code}/play")
    _join(dan, base, code, "Dan")
    dan.wait_for_url(f"**/t/{code}/play")
    teacher.wait_for_selector("#seats >> text=Dan")
    teacher.click("#start")
    cara.wait_for_selector("#hand", state="attached")
    return code, dan


def test_a_new_browser_gets_an_away_seat_back_once_the_teacher_lets_it_in(live_app, browser, new_page, teacher_page):
    base = live_app.base_url
    SHOTS.mkdir(exist_ok=True)
    checker = Checker(axe_source())
    teacher = teacher_page()
    teacher.set_viewport_size({"width": 1920, "height": 1080})
    first = browser.new_context(viewport={"width": 390, "height": 844})
    cara = first.new_page()
    code, dan = _started_with_cara_and_dan(teacher, base, cara, new_page())
    first.close()  # Cara's browser is gone: her session with it
    _seat_back(live_app, code, "Cara", 3 * 60 + 5)
    teacher.wait_for_selector("#seats tr[data-seat='0'] >> text=away for 3 min")

    phone_context = browser.new_context(viewport={"width": 390, "height": 844})
    phone = phone_context.new_page()
    _join(phone, base, code, "Cara")
    phone.wait_for_url(f"**/j/{code}/waiting")
    phone.wait_for_selector("#ask-status >> text=Your teacher has been asked to let you back in")
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


REJOIN_SHOTS = Path("/tmp/shots/rejoin")


def test_a_seat_whose_screen_is_still_open_is_asked_for_at_once_and_the_waiting_page_keeps_up(
        live_app, browser, new_page, teacher_page):
    """Issue #33: no waiting for the old screen to look away; the teacher's list says it is still open; the
    waiting page changes without a reload, rides out failed requests, keeps ?lang=, says a refusal and
    opens the game by itself when let in."""
    base = live_app.base_url
    REJOIN_SHOTS.mkdir(parents=True, exist_ok=True)
    checker = Checker(axe_source())
    teacher = teacher_page()
    teacher.set_viewport_size({"width": 1920, "height": 1080})
    cara = new_page()
    code, dan = _started_with_cara_and_dan(teacher, base, cara, new_page())  # Cara's screen stays open and here

    context = browser.new_context(viewport={"width": 390, "height": 844})
    phone = context.new_page()
    phone.goto(f"{base}/j/{code}")
    assert "Type your name as before" in phone.inner_text("form.join")
    phone.screenshot(path=str(REJOIN_SHOTS / "join-390.png"), full_page=True)
    _join(phone, base, code, "Cara")
    phone.wait_for_url(f"**/j/{code}/waiting", timeout=5000)  # at once: her old screen is still here
    phone.wait_for_selector("#ask-status >> text=Your teacher has been asked to let you back in")
    assert phone.is_visible("#not-me") and "Not Cara?" in phone.inner_text("#not-me")
    phone.screenshot(path=str(REJOIN_SHOTS / "waiting-390.png"), full_page=True)
    checker.check(phone, "the waiting page, 390 px")
    phone.set_viewport_size({"width": 1920, "height": 1080})
    phone.screenshot(path=str(REJOIN_SHOTS / "waiting-1920.png"), full_page=True)
    checker.check(phone, "the waiting page, 1920 px")
    phone.set_viewport_size({"width": 390, "height": 844})
    teacher.wait_for_selector("#asks .ask-screen.open >> text=Cara's other screen is still open")

    # A failed request or two: the page says so, keeps trying, and recovers without a reload.
    phone.evaluate("window.stillThisPage = true")
    phone.route("**/ask*", lambda route: route.abort())
    phone.wait_for_selector("#ask-trouble >> text=The connection dropped", timeout=15000)
    phone.screenshot(path=str(REJOIN_SHOTS / "waiting-trouble-390.png"), full_page=True)
    phone.unroute("**/ask*")
    phone.wait_for_selector("#ask-trouble", state="hidden", timeout=15000)
    assert phone.evaluate("window.stillThisPage") is True

    # A second device, in Russian all the way: the teacher refuses it, and its page says so by itself.
    russian_context = browser.new_context(viewport={"width": 1920, "height": 1080})
    russian = russian_context.new_page()
    russian.goto(f"{base}/j/{code}?lang=ru")
    russian.fill("#name", "Cara")
    russian.click("form button[type=submit]")
    russian.wait_for_url(f"**/j/{code}/waiting?lang=ru")
    russian.wait_for_selector("#ask-status >> text=Учителя попросили впустить тебя обратно")
    russian.screenshot(path=str(REJOIN_SHOTS / "waiting-ru-1920.png"), full_page=True)
    russian.evaluate("window.stillThisPage = true")
    teacher.wait_for_selector("#asks li:nth-child(2)")
    teacher.screenshot(path=str(REJOIN_SHOTS / "manage-asks-1920.png"), full_page=True)
    checker.check(teacher, "the teacher's list of asks, 1920 px")
    teacher.set_viewport_size({"width": 390, "height": 844})
    teacher.locator("#asks-box").screenshot(path=str(REJOIN_SHOTS / "manage-asks-390.png"))
    teacher.set_viewport_size({"width": 1920, "height": 1080})
    teacher.click("#asks li:nth-child(2) button.refuse")
    russian.wait_for_selector("#ask-status >> text=Учитель не впустил тебя обратно")
    assert russian.evaluate("window.stillThisPage") is True  # no reload
    assert russian.is_hidden("#ask-hint") and russian.is_hidden("#not-me")
    assert russian.get_attribute("#ask-again", "href").endswith(f"/j/{code}?lang=ru")
    russian.screenshot(path=str(REJOIN_SHOTS / "refused-ru-1920.png"), full_page=True)
    checker.check(russian, "the waiting page refused, in Russian, 1920 px")
    russian_context.close()

    # Let in: the phone opens the game by itself, and the old screen no longer holds the seat.
    teacher.click("#asks li:nth-child(1) button.let-in")
    phone.wait_for_url(f"**/t/{code}/play", timeout=10000)
    phone.wait_for_selector("#hand", state="attached")
    phone.screenshot(path=str(REJOIN_SHOTS / "play-after-let-in-390.png"))
    teacher.wait_for_function("() => document.getElementById('asks-box').hidden")
    context.close()
    checker.assert_clean()


def test_a_roster_name_already_playing_is_tapped_to_ask_back_in_the_language_of_the_link(
        live_app, browser, new_page, teacher_page):
    base = live_app.base_url
    REJOIN_SHOTS.mkdir(parents=True, exist_ok=True)
    checker = Checker(axe_source())
    teacher = teacher_page()
    teacher.goto(f"{base}/classes/")
    teacher.fill("#class-name", "6A")
    teacher.fill("#class-names", "Anna\nBoris\nVera")
    teacher.click("#create-class")
    teacher.wait_for_selector("#roster")
    code = table_for_class(teacher)
    anna = new_page()
    anna.goto(f"{base}/j/{code}")
    anna.click("button.roster-name >> text=Anna")
    anna.wait_for_url(f"**/t/{code}/play")

    for width, height in ((390, 844), (1920, 1080)):
        context = browser.new_context(viewport={"width": width, "height": height})
        phone = context.new_page()
        phone.goto(f"{base}/t/{code}?lang=fr")  # the table's address: sent to the join page, in French
        phone.wait_for_url(f"**/j/{code}?lang=fr")
        name = phone.locator("button.roster-name", has_text="Anna")
        assert name.is_enabled() and "touche pour revenir" in name.inner_text()
        assert "ton professeur te laissera revenir" in phone.inner_text("#back-note")
        box = name.bounding_box()
        assert box["height"] >= 44 and box["width"] >= 44
        phone.screenshot(path=str(REJOIN_SHOTS / f"roster-fr-{width}.png"), full_page=True)
        checker.check(phone, f"the roster with a name to ask back, {width} px")
        if width == 390:
            name.click()
            phone.wait_for_url(f"**/j/{code}/waiting?lang=fr")
            phone.wait_for_selector("#ask-status >> text=Ton professeur a reçu ta demande")
            teacher.goto(f"{base}/t/{code}")
            teacher.click("#asks button.let-in")
            phone.wait_for_url(f"**/t/{code}/play?lang=fr", timeout=10000)
            assert phone.evaluate("document.documentElement.lang") == "fr"
        context.close()
    checker.assert_clean()
