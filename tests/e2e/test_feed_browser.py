"""What just happened, where the student looks: on a 390 x 844 phone the feed of the last moves is in the
viewport within 2 s of each kind of move (your ask, an ask at you, an ask between others, a computer's
move, a claim), also when the student has scrolled down the page; the cards are drawn as cards."""
from __future__ import annotations

import time

import pytest

from .test_browser import PICK, TARGET, can_ask

PHONE = {"width": 390, "height": 844}
FEED_IN_VIEW = """() => { const f = document.getElementById('feed'); const r = f.getBoundingClientRect();
  return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight; }"""


def open_by_api(page, base, spec) -> str:
    """Open a table from the teacher's page through the JSON API (as the form's script does)."""
    answer = page.evaluate("""async ([base, spec]) => {
        const token = document.querySelector('meta[name=csrf-token]').content;
        const r = await fetch(base + '/api/tables', {method: 'POST', body: JSON.stringify(spec),
            headers: {'Content-Type': 'application/json', 'X-CSRFToken': token}});
        return [r.status, await r.json()]; }""", [base, spec])
    assert answer[0] == 201, answer
    code = answer[1]["code"]
    started = page.evaluate("""async ([base, code]) => {
        const token = document.querySelector('meta[name=csrf-token]').content;
        const r = await fetch(base + '/api/tables/' + code + '/start', {method: 'POST',
            headers: {'X-CSRFToken': token}});
        return r.status; }""", [base, code])
    assert started == 200
    return code


def seconds_since_last_move(app, code) -> float:
    """How long ago the table's latest move was stored (the server's clock: the same machine)."""
    from app.models import MoveRow, Table

    with app.app_context():
        table = Table.query.filter_by(code=code).one()
        last = max(MoveRow.query.filter_by(deal_id=table.current_deal.id).all(), key=lambda row: row.seq)
        return time.time() - last.played_at


def feed_text(page) -> str:
    return page.inner_text("#feed")


def wait_for_feed(page, predicate, seconds: float, what: str) -> tuple[str, float]:
    """Poll the feed until predicate(text) holds; returns the text and when it held."""
    deadline = time.monotonic() + seconds
    while True:
        text = feed_text(page)
        if predicate(text):
            return text, time.monotonic()
        assert time.monotonic() < deadline, f"{what} not in the feed within {seconds} s: {text!r}"
        time.sleep(0.05)


def open_annas_table(page, base: str, pace: int) -> str:
    """A one-hand classic table of Anna (on this page, a phone) and two computers; her play screen open."""
    code = open_by_api(page, base, {"rules": "classic", "deck": "authors-1861", "pace": pace,
                                    "seats": [{"kind": "human", "name": "Anna", "here": True},
                                              {"kind": "computer"}, {"kind": "computer"}],
                                    "match": {"format": "hands", "value": 1}})
    page.set_viewport_size(PHONE)
    page.goto(f"{base}/t/{code}/play")
    return code


def scroll_to_bottom(page):
    page.evaluate("() => window.scrollTo(0, document.scrollingElement.scrollHeight)")


def test_every_kind_of_move_shows_in_the_feed_in_view_within_two_seconds(live_app, teacher_page):
    base = live_app.base_url
    page = teacher_page()
    code = open_annas_table(page, base, pace=1)
    page.wait_for_selector("#hand li.card.face")
    # Cards are drawn as cards: the set's colour band and the work.
    band = page.eval_on_selector("#hand li.card.face .band", "e => getComputedStyle(e).backgroundColor")
    assert band not in ("rgba(0, 0, 0, 0)", "transparent")
    seen = {"yours": False, "at you": False, "between others": False}
    deadline = time.monotonic() + 90
    while not all(seen.values()):
        assert time.monotonic() < deadline, f"not every kind of move was seen: {seen}"
        if can_ask(page):
            scroll_to_bottom(page)  # the student had scrolled down to read the table; the taps are made anyway
            before = feed_text(page)
            page.click(PICK)
            page.click(TARGET)
            sent = time.monotonic()
            # (the ask may bring more lines of its own: a set laid down, a card drawn)
            _, at = wait_for_feed(page, lambda t, before=before: t != before and "You asked" in t, 2, "your ask")
            assert at - sent <= 2
            assert page.evaluate(FEED_IN_VIEW), "the feed is out of view after your ask"
            seen["yours"] = True
            continue
        # A computer's move: a new first line, in view (the page is still scrolled down), within 2 s of its
        # coming (the table's pace is 1 s: each computer move stays at least that long).
        first = feed_text(page).split("\n", 1)[0]
        text, _ = wait_for_feed(page, lambda t, first=first: t.split("\n", 1)[0] != first or can_ask(page),
                                4, "a computer's move")
        assert page.evaluate(FEED_IN_VIEW), "the feed is out of view after a computer's move"
        line = text.split("\n", 1)[0]
        if not can_ask(page):
            assert seconds_since_last_move(live_app, code) <= 2, f"{line!r} came late"
        if " asked you " in line:
            seen["at you"] = True
        elif line.startswith("Computer") and " asked Computer" in line:
            seen["between others"] = True
    # A card that left the hand is said in the feed with the student's part in it, marked as theirs.
    assert page.locator("#feed li.mine").count() >= 1


@pytest.mark.parametrize("reduced", [False, True])
def test_a_claim_and_its_outcome_reach_the_feed(live_app, teacher_page, browser, reduced):
    """Literature: a computer's claim is said with its outcome, in view on the phone."""
    base = live_app.base_url
    page = teacher_page()
    code = open_by_api(page, base, {"rules": "literature", "deck": "literature-48", "pace": 1,
                                    "seats": [{"kind": "human", "name": "Anna", "here": True}] +
                                             [{"kind": "computer"}] * 5,
                                    "match": {"format": "hands", "value": 1}})
    if reduced:
        page.emulate_media(reduced_motion="reduce")
    page.set_viewport_size(PHONE)
    page.goto(f"{base}/t/{code}/play")
    page.wait_for_selector("#hand")
    deadline = time.monotonic() + 120
    while True:
        assert time.monotonic() < deadline, f"no claim in the feed: {feed_text(page)!r}"
        text = feed_text(page)
        if " claimed " in text:
            assert seconds_since_last_move(live_app, code) <= 2, f"the claim came late: {text!r}"
            break
        if can_ask(page):
            page.click(PICK)
            page.click(TARGET)
        time.sleep(0.1)
    assert page.evaluate(FEED_IN_VIEW)
    claim = next(line for line in text.split("\n") if " claimed " in line)
    assert any(word in claim for word in ("correct", "other team", "cancelled")), claim
    if reduced:  # no card moves on screen for a reader who asked for less motion
        assert page.eval_on_selector_all("li.card.face", "els => els.every(e => getComputedStyle(e).animationName === 'none')")


def test_a_tap_the_table_had_moved_past_gets_a_short_note(live_app, teacher_page):
    """The screen still shows the table before a move made elsewhere (another device of the same seat):
    the tap is refused by the server (stale version) and the student reads a short note, not an error."""
    base = live_app.base_url
    page = teacher_page()
    open_annas_table(page, base, pace=5)
    page.wait_for_selector(PICK)
    status = page.evaluate("""async () => {
        const play = document.getElementById('play'), token = document.querySelector('meta[name=csrf-token]').content;
        const pick = document.querySelector('#ask .pick'), whom = document.querySelector('#ask button.target');
        pick.click();  // the first tap: the card (no move yet)
        const r = await fetch(play.dataset.movesUrl, {method: 'POST', headers: {'Content-Type': 'application/json',
            'X-CSRFToken': token}, body: JSON.stringify({version: Number(play.dataset.version),
            move: {ask: whom.dataset.target, card: pick.dataset.pick}})});
        whom.click();  // the second tap, on the screen not yet drawn again
        return r.status; }""")
    assert status == 200
    page.wait_for_selector("#tap-note:not([hidden])")
    assert "moved on" in page.inner_text("#tap-note")
    assert page.locator("#error").is_hidden()
