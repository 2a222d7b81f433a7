"""The play screen built for a thumb (issue #33), in Chromium at 390 x 844: on one's turn the controls of
the ask are in the first screen without scrolling whatever the hand holds (8, 13 or 20 cards); an ask is
two taps (what, then whom), and the work typed under named asks; paused, the controls are switched off with
the reason beside them; a refusal stays on screen at least 5 s while states keep coming. Screenshots of
each screen, at 390 x 844 and 1920 x 1080, go to AUTHORS_SHOTS (default /tmp/shots), named thumb_*.png."""
from __future__ import annotations

import os
import time
from pathlib import Path

from app.models import Table
from ..web_support import library_sets, titles_of
from .a11y_support import call, join, play_until

PHONE = {"width": 390, "height": 844}
WALL = {"width": 1920, "height": 1080}
SHOTS = Path(os.environ.get("AUTHORS_SHOTS", "/tmp/shots"))

# Every control of the ask, and where each is: inside the window (the page not scrolled) or not.
ACT_BOXES = """() => {
  const all = s => Array.from(document.querySelectorAll(s));
  const boxes = [].concat(all("#ask h2"), all("#ask legend"), all("#ask .picks"), all("#ask .pick").slice(0, 1),
                          all("#ask button.target"), all("#ask-work, #ask-button"));
  const out = boxes.filter(b => { const r = b.getBoundingClientRect();
    return r.height === 0 || r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth; })
    .map(b => (b.id || b.className || b.tagName) + " " + JSON.stringify(b.getBoundingClientRect()));
  return { out: out, scrollY: window.scrollY, boxes: boxes.length, cards: document.querySelectorAll("#hand li.card").length,
           wide: document.documentElement.scrollWidth > innerWidth,
           handTop: document.getElementById("hand").getBoundingClientRect().top,
           askBottom: document.getElementById("ask").getBoundingClientRect().bottom };
}"""


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"thumb_{name}.png"))


def at_both_sizes(page, name: str) -> None:
    """A screenshot at the phone's size and at a wall's (the same seat, the same moment), at rest."""
    page.evaluate("() => document.getAnimations().forEach(a => { try { a.finish(); } catch (e) {} })")
    shot(page, f"{name}_390")
    page.set_viewport_size(WALL)
    shot(page, f"{name}_1920")
    page.set_viewport_size(PHONE)


def annas_table(live_app, teacher, new_page, players: int = 4, rules: str = "standard", deck: str | None = None,
                options: dict | None = None, pace: float | None = None):
    """A table of Anna (this phone, at 390 x 844) and computers (moving at once, or at `pace` seconds),
    started; returns (code, phone)."""
    spec = {"rules": rules, "seats": [{"kind": "human"}] + [{"kind": "computer"}] * (players - 1),
            "options": options or {}, "match": {"format": "hands", "value": 1}}
    if deck:
        spec["deck"] = deck
    if pace:
        spec["pace"] = pace
    code = call(teacher, "POST", "/api/tables", spec)["code"]
    phone = new_page(viewport=PHONE, has_touch=True, is_mobile=True)  # a phone: touch, its viewport
    join(phone, live_app.base_url, code, "Anna")
    phone.wait_for_selector("#lobby-seats")
    call(teacher, "POST", f"/api/tables/{code}/start")
    return code, phone


def my_turn(phone, timeout: float = 20_000) -> None:
    phone.wait_for_selector("#ask .pick:not([disabled])", timeout=timeout)
    phone.evaluate("() => document.getAnimations().forEach(a => { try { a.finish(); } catch (e) {} })")


def tap(phone, selector: str) -> None:
    """A tap, as a thumb makes it (the page is not scrolled to it: it is in view or the test fails)."""
    box = phone.locator(selector).first.bounding_box()
    assert box and 0 <= box["y"] and box["y"] + box["height"] <= PHONE["height"], (selector, box)
    phone.locator(selector).first.tap()


def annas_asks(phone, code) -> list[dict]:
    state = call(phone, "GET", f"/api/tables/{code}")
    return [e for e in state["game"]["log"] if e.get("type") == "ask" and e.get("player") == "Anna"]


def test_the_ask_is_in_the_first_screen_whatever_the_hand(live_app, teacher, new_page):
    seen = {}
    for players, options in ((6, None), (4, None), (2, {"min_players": 2})):
        code, phone = annas_table(live_app, teacher, new_page, players=players, options=options)
        my_turn(phone)
        where = phone.evaluate(ACT_BOXES)
        seen[players] = where["cards"]
        assert where["scrollY"] == 0 and where["boxes"] >= 5, where
        assert not where["out"], f"{where['cards']} cards: controls out of the first screen: {where['out']}"
        assert not where["wide"], where
        assert phone.locator("#play select").count() == 0  # buttons to tap, no drop-down
        assert where["handTop"] >= where["askBottom"] - 1, where  # the hand below the controls, never above
        if players == 2:
            at_both_sizes(phone, "your_turn_big_hand")
        phone.context.close()
    # about 8, 13 and 20 cards (the deal, then the computers' asks before Anna's turn)
    assert 5 <= seen[6] <= 11 and 10 <= seen[4] <= 17 and seen[2] >= 18, seen


def test_a_set_ask_is_two_taps_and_a_card_ask_too(live_app, teacher, new_page):
    for rules, deck, key in (("standard", None, "set"), ("classic", "authors-1861", "card")):
        code, phone = annas_table(live_app, teacher, new_page, rules=rules, deck=deck)
        my_turn(phone)
        if key == "card":
            at_both_sizes(phone, "card_ask")
        before = len(annas_asks(phone, code))
        version = phone.get_attribute("#play", "data-version")
        wanted = phone.get_attribute("#ask .pick", "data-pick")
        whom = phone.get_attribute("#ask button.target", "data-target")
        # Before the first tap the players wait for it: a tap on one says what to tap first.
        tap(phone, "#ask button.target")
        assert phone.locator("#act-help").inner_text().startswith("First tap")
        assert phone.get_attribute("#play", "data-version") == version
        tap(phone, "#ask .pick")                      # the first tap: what
        assert phone.get_attribute("#ask .pick", "aria-pressed") == "true"
        name = phone.inner_text("#ask .pick .pile-name, #ask .pick .pick-name")
        assert name in phone.inner_text("#whom-legend")  # "2. Tap the player to ask for <it>"
        tap(phone, "#ask button.target")              # the second: whom; the ask is made
        phone.wait_for_function("v => document.getElementById('play').dataset.version !== v", arg=version)
        ask = annas_asks(phone, code)[before]
        assert ask["target"] == whom and ask[key] == wanted, ask
        if rules == "standard":
            at_both_sizes(phone, "after_ask")
        phone.context.close()


def test_a_named_ask_is_two_taps_and_the_work_typed(live_app, teacher, new_page):
    code, phone = annas_table(live_app, teacher, new_page, rules="classic", deck="authors-1861",
                              options={"named_asks": True})
    my_turn(phone)
    assert phone.locator("select").count() == 0  # no drop-down anywhere on the play screen
    where = phone.evaluate(ACT_BOXES)
    assert not where["out"] and where["scrollY"] == 0, where
    state = call(phone, "GET", f"/api/tables/{code}")
    deck = call(phone, "GET", f"/api/tables/{code}/deck")
    set_id = phone.get_attribute("#ask .pick", "data-pick")
    held = {state["cards"][t]["title"] for t in state["game"]["hand"]}
    work = next(w for w in library_sets(deck)[set_id] if w not in held)
    tap(phone, "#ask .pick")
    tap(phone, "#ask button.target")
    assert phone.get_attribute("#ask button.target", "aria-pressed") == "true"
    assert phone.evaluate("() => document.activeElement.id") == "ask-work"  # the keyboard comes up for the work
    at_both_sizes(phone, "named_ask")
    version = phone.get_attribute("#play", "data-version")
    phone.keyboard.type(work)
    phone.keyboard.press("Enter")
    phone.wait_for_function("v => document.getElementById('play').dataset.version !== v", arg=version)
    phone.wait_for_selector("#reveal")
    assert phone.locator("#reveal").bounding_box()["y"] >= 0


def test_paused_the_controls_are_off_with_the_reason_beside_them(live_app, teacher, new_page):
    code, phone = annas_table(live_app, teacher, new_page)
    my_turn(phone)
    call(teacher, "POST", f"/api/tables/{code}/pause", {"paused": True})
    phone.wait_for_selector("#act-reason")
    assert "Paused by the teacher" in phone.inner_text("#act-reason")
    assert phone.eval_on_selector_all("#ask button", "bs => bs.length > 0 && bs.every(b => b.disabled)")
    reason = phone.locator("#act-reason").bounding_box()
    first = phone.locator("#ask .pick").first.bounding_box()
    assert 0 <= reason["y"] and reason["y"] + reason["height"] <= first["y"] <= reason["y"] + reason["height"] + 80, (reason, first)
    at_both_sizes(phone, "paused")
    call(teacher, "POST", f"/api/tables/{code}/pause", {"paused": False})
    phone.wait_for_selector("#act-reason", state="detached")
    my_turn(phone)


def test_a_refusal_stays_at_least_five_seconds_while_states_come(live_app, teacher, new_page):
    """The table is paused at the very moment of the tap (the move reaches a paused table): the refusal
    is said, then the paused state comes, then the resumed one; the sentence stays 5 s, and goes with the
    student's next tap after that."""
    from app.services import tables

    code, phone = annas_table(live_app, teacher, new_page)
    my_turn(phone)

    def pause_then_send(route):
        with live_app.app_context():
            tables.set_paused(Table.query.filter_by(code=code).one(), True)
        route.continue_()

    phone.route("**/api/tables/*/moves", pause_then_send)
    version = phone.get_attribute("#play", "data-version")
    tap(phone, "#ask .pick")
    tap(phone, "#ask button.target")
    phone.wait_for_selector("#error:not([hidden])")
    shown = time.monotonic()
    phone.unroute("**/api/tables/*/moves")
    refusal = phone.inner_text("#error")
    assert "paused" in refusal, refusal
    phone.wait_for_selector("#act-reason")  # the paused state came: the screen was drawn again
    assert phone.inner_text("#error") == refusal
    call(teacher, "POST", f"/api/tables/{code}/pause", {"paused": False})
    phone.wait_for_selector("#act-reason", state="detached")  # and the resumed one
    versions = {version, phone.get_attribute("#play", "data-version")}
    assert len(versions) == 2
    while time.monotonic() - shown < 5.5:
        assert phone.locator("#error").is_visible() and phone.inner_text("#error") == refusal
        time.sleep(0.25)
    assert phone.locator("#error").is_visible()  # 5 s gone, no tap yet: still there
    tap(phone, "#ask .pick")
    phone.wait_for_selector("#error", state="hidden")


def test_screens_when_it_is_not_your_turn_and_naming_a_work(live_app, teacher, new_page):
    code, phone = annas_table(live_app, teacher, new_page, rules="standard", deck="authors-1861",
                              options={"name_the_work": True, "hints": True, "answer_names": "card"}, players=3)
    # A card to name (the card path: the prompt names the author, the verdict the work).
    play_until(phone, code, lambda s: s["game"] and (s["game"]["prompts"] or s["game"]["finished"]), seed=3)
    phone.wait_for_selector("#prompt")
    assert phone.inner_text("#prompt h2") == "Name the work"
    assert "You received a card of" in phone.inner_text("#prompt")
    box = phone.locator("#answer").bounding_box()
    assert 0 <= box["y"] and box["y"] + box["height"] <= PHONE["height"]
    at_both_sizes(phone, "naming")
    state = call(phone, "GET", f"/api/tables/{code}")
    title = titles_of(live_app, code)[state["game"]["prompts"][0]]
    phone.fill("#answer", title)
    phone.click("#prompt button[type=submit]")
    phone.wait_for_selector("#reveal")
    assert title in phone.inner_text("#reveal")
    at_both_sizes(phone, "verdict")
    phone.click("#reveal-ok")


def test_not_your_turn_the_page_stays_put(live_app, teacher, new_page):
    """Asks made with taps until one misses: the turn goes on, the screen says whom it waits for, and the
    page never moved (no scrolling to do, none done)."""
    code, phone = annas_table(live_app, teacher, new_page, pace=2)
    started = time.monotonic()
    while not phone.locator("#waiting").is_visible():
        assert time.monotonic() - started < 40, "Anna's turn never ended"
        if phone.locator("#ask .pick:not([disabled])").count():
            version = phone.get_attribute("#play", "data-version")
            tap(phone, "#ask .pick")
            tap(phone, "#ask button.target")
            phone.wait_for_function("v => document.getElementById('play').dataset.version !== v", arg=version)
            assert phone.evaluate("() => window.scrollY") == 0
        time.sleep(0.1)
    assert "Waiting for Computer" in phone.inner_text("#waiting")
    phone.evaluate("() => document.getAnimations().forEach(a => { try { a.finish(); } catch (e) {} })")
    at_both_sizes(phone, "not_your_turn")


def test_answer_names_set_asks_for_any_work_of_the_author(live_app, teacher, new_page):
    """`answer_names: set` (the app's default with set asks and the bonus): the prompt asks for a work of
    the author the student did not have, and the verdict names the card received."""
    code, phone = annas_table(live_app, teacher, new_page, rules="standard", deck="authors-1861",
                              options={"name_the_work": True, "answer_names": "set"}, players=3)
    play_until(phone, code, lambda s: s["game"] and (s["game"]["prompts"] or s["game"]["finished"]), seed=3)
    phone.wait_for_selector("#prompt")
    heading = phone.inner_text("#prompt h2")
    assert heading.startswith("Name a work of ") and heading.endswith(" you did not have"), heading
    at_both_sizes(phone, "naming_by_set")
    state = call(phone, "GET", f"/api/tables/{code}")
    title = titles_of(live_app, code)[state["game"]["prompts"][0]]
    phone.fill("#answer", title)
    phone.click("#prompt button[type=submit]")
    phone.wait_for_selector("#reveal")
    text = phone.inner_text("#reveal")
    assert "The card you received: " + title in text, text
    at_both_sizes(phone, "verdict_by_set")
