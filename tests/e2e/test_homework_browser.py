"""Homework end to end in Chromium (issue #34): the teacher makes a class with a class word and assigns
homework through the form; on a phone at 390x844 a student opens the link, types the word, taps her name
and plays a whole game against the computer players through the play page (asks by two taps, works named
from memory or passed); at the end the play page leads back to her homework page, which lists each work
she named with when it comes back, and says when to come back. The teacher's assignment page counts her
game; the grid "What the class remembers" at 1920x1080 shows her row filled in, and a square's sentence
with its due date on focus and on hover. The student's page (before and after the game), the assignment
page and the grid in English, Russian, French, Portuguese and Italian, at 390 and 1920 px: axe-clean, no
page wider than the screen; screenshots go to /tmp/shots/homework/ for a person to look at."""
from __future__ import annotations

import re
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

from .a11y_support import Checker, axe_source
from .test_browser import PICK, click_and_wait, game_now, tap_ask

SHOTS = Path("/tmp/shots/homework")
PHONE = {"width": 390, "height": 844}
WALL = {"width": 1920, "height": 1080}
LANGUAGES = ("en", "ru", "fr", "pt", "it", "de", "es")  # (the interface's seven)
GAME_DEADLINE = 240  # seconds for the whole game: the computer players move at the homework's pace, 1 s a move
TURNS_WAIT = 120     # seconds: the computers may ask one another, and name, for dozens of moves in a row


def shoot(page, name, checker, label, too_wide):
    """The page as it is at a phone's size and the wall's: each screenshot kept, checked by axe, and
    measured (the page itself never scrolls sideways; a wide grid scrolls inside its own box). The page
    goes back to the size it had."""
    size = page.viewport_size
    for view, tag in ((PHONE, "390"), (WALL, "1920")):
        page.set_viewport_size(view)
        page.screenshot(path=str(SHOTS / f"{name}-{tag}.png"), full_page=True)
        checker.check(page, f"{label}, {tag} px")
        width = page.evaluate("() => document.documentElement.scrollWidth")
        if width > view["width"]:
            too_wide.append(f"{label}, {tag} px: the page is {width} px wide")
    page.set_viewport_size(size)


def in_language(page, url, language, ready):
    """The page in `language` (?lang=, which the app keeps), drawn."""
    page.goto(f"{url}{'&' if '?' in url else '?'}lang={language}")
    page.wait_for_selector(ready)
    assert page.get_attribute("html", "lang") == language


def prompted_title(app, code):
    """The test's own knowledge, which no screen has: the title of the work she is asked to name."""
    game = game_now(app, code)
    return game.deck.card(game.prompts("Anna")[0]).title


def play_to_the_end(app, page, code):
    """Anna's game through the play page until it ends: she asks by two taps whenever it is her turn, and
    names each work she is asked for from memory, except every third, which she passes (so both a right
    and a missed work come back). Returns each work she named with her verdict, in the order of the last
    naming of each."""
    named: dict[str, str] = {}
    started = time.monotonic()
    while True:
        assert time.monotonic() - started < GAME_DEADLINE, "the homework game did not end in time"
        # (the computer players move by themselves, one a second: wait for her turn, a work to name or the end)
        page.wait_for_selector(f"#homework-back, #answer, {PICK}", timeout=TURNS_WAIT * 1000)
        if page.locator("#homework-back").count():
            return named
        if page.locator("#reveal-ok").count():
            page.click("#reveal-ok")  # the last verdict read
        if page.locator("#answer").count():
            title = prompted_title(app, code)
            named.pop(title, None)
            if len(named) % 3 == 2:
                named[title] = "passed"
                click_and_wait(page, page.locator("#pass-answer"))
            else:
                named[title] = "right"
                page.fill("#answer", title)
                click_and_wait(page, page.locator("#prompt button[type=submit]"))
        elif page.locator(PICK).count():
            tap_ask(page)


def test_homework_from_the_link_to_the_teachers_grid(live_app, new_page, teacher_page):
    base = live_app.base_url
    SHOTS.mkdir(parents=True, exist_ok=True)
    checker = Checker(axe_source())
    too_wide: list[str] = []

    # The teacher: a class with a roster and a class word, and homework assigned through the form.
    teacher = teacher_page()
    teacher.set_viewport_size(WALL)
    teacher.goto(f"{base}/classes/?lang=en")
    teacher.fill("#class-name", "8A")
    teacher.fill("#class-names", "Anna\nBoris\nVera")
    teacher.check("input[name=word]")
    teacher.click("#create-class")
    teacher.wait_for_selector("#roster")
    class_url = teacher.url.split("?")[0]
    word = teacher.inner_text("#class-word").strip()
    assert word
    teacher.click("#assign-homework")
    teacher.wait_for_selector("#new-homework")
    shoot(teacher, "form-en", checker, "the homework form", too_wide)
    teacher.fill("#new-homework input[name=name]", "Week 3")
    teacher.select_option("#rules", "standard")
    teacher.select_option("#deck", "authors-1861")
    teacher.select_option("#computers", "2")
    # (a due date a week ahead on the teacher's calendar: her zone is UTC until a page sends the browser's)
    teacher.fill("#due", (datetime.now(timezone.utc).date() + timedelta(days=7)).isoformat())
    teacher.click("#assign")
    teacher.wait_for_url(re.compile(r"/homework/\d+$"))
    assignment_url = teacher.url
    link = teacher.get_attribute("#homework-url", "href")
    code = re.search(r"/h/([A-Z0-9]+)$", link).group(1)
    assert teacher.inner_text("#homework-url") == link
    assert teacher.locator("img.qr").evaluate("img => img.complete && img.naturalWidth > 0")
    assert teacher.locator("#homework-progress tbody tr").count() == 3
    anna_id = teacher.get_attribute("#homework-progress tbody tr:has(th:text-is('Anna'))", "data-student")
    assert "0 of 3" in teacher.inner_text(f"#homework-progress tr[data-student='{anna_id}']")

    # The student's phone: the link, in each language, before she has played.
    anna = new_page(viewport=PHONE)
    for language in LANGUAGES:
        in_language(anna, f"{base}/h/{code}", language, "#homework-join")
        shoot(anna, f"student-start-{language}", checker, f"the homework link's page ({language})", too_wide)
    in_language(anna, f"{base}/h/{code}", "en", "#homework-join")
    names = anna.locator("#homework-join button.roster-name")
    assert names.all_inner_texts() == ["Anna", "Boris", "Vera"]
    for button in names.all():  # a thumb's size
        box = button.bounding_box()
        assert box["height"] >= 44 and box["width"] >= 44, box
    # Her name without the class word: the browser asks for the word first, and nothing starts.
    anna.click("#homework-join button.roster-name >> text=Anna")
    assert anna.evaluate("() => document.getElementById('class-word').validity.valueMissing")
    assert "/play" not in anna.url
    anna.fill("#class-word", word.lower())  # (typed as a child types it)
    anna.click("#homework-join button.roster-name >> text=Anna")
    anna.wait_for_url(re.compile(r"/t/[A-Z0-9]{6}/play"))
    table = re.search(r"/t/([A-Z0-9]{6})/play", anna.url).group(1)

    # Her game, to its end, through the play page.
    named = play_to_the_end(live_app, anna, table)
    assert "right" in named.values() and "passed" in named.values(), named
    back = anna.locator("#homework-back")
    assert back.is_visible() and back.inner_text() == "See what comes back, and when"
    # (a card leaving her hand and the last verdict's fade-in, finished: the screen at rest)
    anna.evaluate("() => document.getAnimations().forEach(a => a.finish())")
    anna.screenshot(path=str(SHOTS / "play-end-390.png"), full_page=True)
    back.click()
    anna.wait_for_url(re.compile(rf"/h/{code}(\?|$)"))

    # What comes back, and when: every work she named, in order, each with its verdict and its day.
    anna.wait_for_selector("#homework-named")
    assert anna.inner_text("#me-title") == "Hello, Anna!"
    assert anna.inner_text("#homework-done") == "1 game of 3 done"
    items = anna.locator("#homework-named li")
    assert [items.nth(i).locator("b").inner_text() for i in range(items.count())] == list(named)
    for i, (title, verdict) in enumerate(named.items()):
        item = items.nth(i)
        assert item.get_attribute("class") == verdict, (title, item.get_attribute("class"))
        assert re.search(r": again (today|tomorrow|in \d+ days?)$", item.inner_text()), item.inner_text()
        assert ("✓ recalled" if verdict == "right" else "✗ missed") in item.inner_text()
    # A passed work comes back within minutes: her next game is worth playing now, or later today.
    nudge = anna.inner_text("#homework-nudge")
    assert re.fullmatch(r"\d+ works? (is|are) due now: a game brings (it|them) back\.|"
                        r"Come back (later today|tomorrow|on .+): \d+ works? will be due\.", nudge), nudge
    assert anna.inner_text("#play-homework") == "Play a game"
    for language in LANGUAGES:
        in_language(anna, f"{base}/h/{code}", language, "#homework-named")
        assert anna.locator("#homework-named li").count() == len(named)
        shoot(anna, f"student-after-{language}", checker, f"her homework page after a game ({language})", too_wide)
    in_language(anna, f"{base}/h/{code}", "en", "#homework-named")

    # The teacher's assignment page counts her game.
    teacher.goto(f"{assignment_url}?lang=en")
    row = teacher.locator(f"#homework-progress tr[data-student='{anna_id}']")
    assert "1 of 3" in row.inner_text() and "not yet" not in row.inner_text()
    assert "0 of 3" in teacher.inner_text("#homework-progress tr:has(th:text-is('Boris'))")
    for language in LANGUAGES:
        in_language(teacher, assignment_url, language, "#homework-progress")
        shoot(teacher, f"assignment-{language}", checker, f"the assignment page ({language})", too_wide)

    # The grid, from the class's page: her row filled in, as she named them.
    teacher.goto(f"{class_url}?lang=en")
    teacher.click("#class-learning")
    teacher.wait_for_selector("#learning-grid")
    # (js/time_zone.js sends the browser's zone once; wait until the page is drawn in it)
    teacher.wait_for_selector("#time-zone:not([data-zone=''])")
    grid_url = teacher.url.split("?")[0]
    assert teacher.inner_text("#grid-caption").endswith(": 3 students")
    her = teacher.locator(f"#learning-grid tbody tr[data-student='{anna_id}']")
    rights = list(named.values()).count("right")
    assert her.locator("td.cell.recalled").count() == rights
    assert her.locator("td.cell.missed").count() == len(named) - rights
    assert her.locator("td.cell:not(.never)").count() == len(named)
    assert teacher.locator("#learning-grid tbody tr:has(th:text-is('Boris')) td.cell:not(.never)").count() == 0
    # A square's sentence: on focus (the keyboard) ...
    square = her.locator("td.cell.recalled button.cell").first
    square.focus()
    tip = her.locator("td.cell.recalled .tip").first
    tip.wait_for(state="visible")
    assert re.search(r"Anna · .+: recalled · due again on .+ · \d+ namings?$", tip.inner_text()), tip.inner_text()
    box, view = tip.bounding_box(), teacher.viewport_size
    assert box["x"] >= 0 and box["x"] + box["width"] <= view["width"], box
    shoot(teacher, "grid-tip-en", checker, "the grid, a square's sentence shown", too_wide)
    # ... and on hover (the mouse), for a missed one, which is due again within minutes.
    teacher.locator("#learning-grid caption").click()  # (the focus off the square)
    missed = her.locator("td.cell.missed").first
    missed.locator("button.cell").hover()
    tip = missed.locator(".tip")
    tip.wait_for(state="visible")
    assert re.search(r": missed · due (again on|since) .+ · \d+ namings?$", tip.inner_text()), tip.inner_text()
    teacher.mouse.move(0, 0)
    tip.wait_for(state="hidden")
    for language in LANGUAGES:
        in_language(teacher, grid_url, language, "#learning-grid")
        shoot(teacher, f"grid-{language}", checker, f"the grid ({language})", too_wide)
    teacher.goto(f"{grid_url}?lang=en")

    assert not too_wide, too_wide
    checker.assert_clean()
