"""The studio's card previews are never blank boxes (issue #33): while a card's picture is on its way,
its box, at the printed card's proportions, shows the card in words (its set and title); the picture
covers it once it arrives, and a picture that cannot come leaves the words. Screenshots go to
/tmp/shots/issue33-previews/ for a person to look at."""
from __future__ import annotations

import time
from pathlib import Path

from .a11y_support import SMALL_DECK, Checker, axe_source, studio_deck

SHOTS = Path("/tmp/shots/issue33-previews")
PREVIEWS = "**/studio/decks/*/cards/*.png"
# Four trios, Oliver Twist with a note, and Jane Austen's set in a light colour of its own
DECK = (SMALL_DECK.replace('{id: twist, title: "Oliver Twist"}', '{id: twist, title: "Oliver Twist", note: "1838"}')
        .replace('name: "Jane Austen"', 'name: "Jane Austen"\n    color: "#f2d16b"'))


def _held_until(page, held: list, count: int, deadline: float = 10) -> None:
    """Wait (the browser's events running) until the page has asked for `count` pictures, held back."""
    started = time.monotonic()
    while len(held) < count:
        assert time.monotonic() - started < deadline, f"the page asked for {len(held)} pictures, not {count}"
        page.wait_for_timeout(50)


def test_a_preview_shows_the_card_in_words_until_its_picture_covers_it(live_app, teacher_page):
    SHOTS.mkdir(parents=True, exist_ok=True)
    number = studio_deck(live_app, DECK).split(":")[1]
    page = teacher_page()
    held: list = []
    released = []

    def hold(route):  # the pictures are held back, until released
        if released:
            route.continue_()
        else:
            held.append(route)

    page.route(PREVIEWS, hold)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_app.base_url}/studio/decks/{number}")
    first = page.locator("ul.previews li").first
    first.scroll_into_view_if_needed()
    _held_until(page, held, 1)

    box = first.locator(".preview")
    words = box.locator(".stand-in")
    assert words.locator(".title").inner_text() == "Oliver Twist" and words.locator(".title").is_visible()
    assert "Charles Dickens" in words.locator(".band").inner_text() and words.locator(".band").is_visible()
    size = box.bounding_box()
    assert size["width"] > 100 and abs(size["height"] / size["width"] - 7 / 5) < 0.03  # the card's shape
    img = first.locator("img")
    assert img.evaluate("img => img.naturalWidth") == 0
    # the title is what shows at the box's middle, not an empty picture over it
    title_box = words.locator(".title").bounding_box()
    assert size["y"] < title_box["y"] < size["y"] + size["height"]
    # the set's band is in the set's colour, its ink readable on it
    band = words.locator(".band").evaluate("b => [getComputedStyle(b).backgroundColor, getComputedStyle(b).color]")
    assert band == ["rgb(122, 46, 46)", "rgb(255, 255, 255)"], band  # PALETTE[0], white on it
    assert words.locator(".note").inner_text() == "1838"
    light = page.locator("ul.previews").nth(2).locator(".band").first
    assert light.evaluate("b => [getComputedStyle(b).backgroundColor, getComputedStyle(b).color]") == [
        "rgb(242, 209, 107)", "rgb(26, 26, 26)"]  # near-black ink on a light set
    page.screenshot(path=str(SHOTS / "pending-390.png"), full_page=True)
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.screenshot(path=str(SHOTS / "pending-1920.png"), full_page=True)
    page.locator("h2").last.scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "pending-1920-cards.png"))
    checker = Checker(axe_source())
    checker.check(page, "the deck page, pictures on their way")

    # The pictures arrive: each covers its box exactly.
    released.append(True)
    for route in held:
        route.continue_()
    page.wait_for_function("img => img.complete && img.naturalWidth === 300", arg=img.element_handle())
    assert img.is_visible()
    covered = img.bounding_box()
    inner = box.evaluate("b => { const r = b.getBoundingClientRect(); return [r.width - b.clientWidth, r.height - b.clientHeight]; }")
    assert abs(covered["width"] + inner[0] - size["width"]) < 1 and abs(covered["height"] + inner[1] - size["height"]) < 1
    middle = (covered["x"] + covered["width"] / 2, covered["y"] + covered["height"] / 2)
    assert page.evaluate("([x, y]) => document.elementFromPoint(x, y).tagName", list(middle)) == "IMG"
    page.wait_for_function("() => [...document.querySelectorAll('ul.previews img')].every(i => i.complete && i.naturalWidth)")
    page.locator("h2").last.scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "loaded-1920-cards.png"))
    checker.check(page, "the deck page, pictures arrived")
    checker.assert_clean()


def test_a_picture_that_cannot_come_leaves_the_words(live_app, teacher_page):
    number = studio_deck(live_app).split(":")[1]
    page = teacher_page()
    page.route(PREVIEWS, lambda route: route.fulfill(status=422, body="no"))
    page.goto(f"{live_app.base_url}/studio/decks/{number}")
    first = page.locator("ul.previews li").first
    img = first.locator("img")
    page.wait_for_function("img => img.classList.contains('failed')", arg=img.element_handle())
    assert not img.is_visible()
    first.scroll_into_view_if_needed()
    assert first.locator(".stand-in .title").is_visible()
    middle = first.locator(".stand-in .title").bounding_box()
    x, y = middle["x"] + middle["width"] / 2, middle["y"] + middle["height"] / 2
    assert page.evaluate("([x, y]) => document.elementFromPoint(x, y).className", [x, y]) == "title"
