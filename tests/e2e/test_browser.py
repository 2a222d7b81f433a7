"""In a real browser: a class table with two students and two computer players played to its end, and
pass-and-play on one device with every hand hidden between turns."""
from __future__ import annotations

import re
import time

from app.models import Table
from ..web_support import server_game

DEADLINE = 40  # seconds for a whole hand


def open_table_in_browser(page, base, seats, rules="standard", deck="", options=None):
    page.goto(f"{base}/tables/new")
    page.select_option("#rules", rules)
    if deck:
        page.select_option("#deck", deck)
    for name, value in (options or {}).items():  # (the naming ones are offered once a deck of works is chosen)
        page.select_option(f"#opt_{name}", value)
    for i in range(8):
        kind, name = seats[i] if i < len(seats) else ("", "")
        page.select_option(f"select[name=seat{i}]", kind)
        if name:
            page.fill(f"input[name=seat{i}_name]", name)
    page.fill("input[name=match_value]", "1")
    page.click("#new-table button[type=submit]")
    page.wait_for_url(re.compile(r"/t/[A-Z0-9]{6}$"))
    return page.url.rsplit("/", 1)[1]


def click_and_wait(page, button):
    """Click a move's button and wait until the screen shows the table after it (or a refusal)."""
    version = page.get_attribute("#play", "data-version")
    button.click()
    page.wait_for_function("v => document.getElementById('play').dataset.version !== v || "
                           "document.getElementById('error').innerText !== ''", arg=version, timeout=5000)


# The ask on the play screen: two taps, what (a set of the hand, or a card) and whom (play.js askPanel).
PICK = "#ask .pick:not([disabled])"
TARGET = "#ask button.target:not([disabled])"


def can_ask(page) -> bool:
    """Is this seat's ask on screen (its turn, not paused)?"""
    return page.locator(PICK).first.is_visible()


def tap_ask(page, target=None, pick=None):
    """An ask as a thumb makes it: the first set (or card) offered (or `pick`'s button), then the first
    player (or `target`'s button); returns once the screen shows the table after it (or a refusal)."""
    page.locator(PICK if pick is None else f'{PICK}[data-pick="{pick}"]').first.click()
    click_and_wait(page, page.locator(TARGET if target is None else f'{TARGET}[data-target="{target}"]').first)


def game_now(app, code):
    with app.app_context():
        table = Table.query.filter_by(code=code).one()
        return server_game(table.current_deal)


def test_a_teacher_with_no_table_sees_a_sentence_not_an_empty_grid(live_app, teacher_page):
    from tests.web_support import make_teacher

    make_teacher(live_app, "Mr Newcomer")
    page = teacher_page("Mr Newcomer")
    page.wait_for_selector("#empty", state="visible")
    assert page.locator("#tables").is_hidden()


def test_two_students_and_two_computers_play_a_hand_to_its_end(live_app, new_page, teacher_page):
    base = live_app.base_url
    teacher = teacher_page()
    code = open_table_in_browser(teacher, base, [("student", ""), ("student", ""), ("computer:random", ""),
                                                 ("computer:random", "")])
    assert teacher.inner_text("#join-code").replace(" ", "") == code
    assert teacher.locator("img.qr").evaluate("img => img.complete && img.naturalWidth > 0")

    students = {}
    for name in ("Anna", "Boris"):
        page = new_page()
        page.goto(f"{base}/join")
        page.fill("#code", code.lower())
        page.fill("#name", name)
        page.click("button[type=submit]")
        page.wait_for_url(f"**/t/{code}/play")
        page.wait_for_selector("text=Waiting for the teacher")
        students[name] = page
    teacher.wait_for_selector("#seats >> text=Boris")
    projector = new_page()
    projector.goto(f"{base}/t/{code}/projector")
    projector.wait_for_selector("#lobby-seats >> text=Boris")
    teacher.click("#start")

    finished = set()
    started = time.monotonic()
    while len(finished) < 2:
        assert time.monotonic() - started < DEADLINE, "the hand did not end in time"
        for name, page in students.items():
            if name in finished:
                continue
            if page.locator("#final-scores").is_visible():
                finished.add(name)
                continue
            if can_ask(page):
                tap_ask(page)
        time.sleep(0.05)

    game = game_now(live_app, code)
    assert game.finished
    scores = [page.locator("#final-scores tbody").inner_text() for page in students.values()]
    assert scores[0] == scores[1]
    for name, score in game.scores().items():
        row = students["Anna"].locator(f'#final-scores tr[data-player="{name}"] td.score')
        assert row.inner_text() == str(score)
    said = students["Boris"].locator("#match-winners").inner_text()  # "Anna won the match with 5 points!"
    assert said.startswith(game.winners()[0]) and ("won the match with" in said or "tied for the match with" in said), said
    projector.wait_for_selector("#final-scores")
    assert projector.locator("#final-scores tbody").inner_text() == scores[0]
    teacher.goto(f"{base}/teacher")  # the overview lists the table with its match totals
    row = teacher.locator(f'#tables tr[data-code="{code}"]')
    row.wait_for()
    assert "finished" in row.inner_text() and "Anna" in row.inner_text()


def hidden_titles(app, code) -> dict[str, set[str]]:
    """Per player, the titles of the cards in their hand that no event has shown the table."""
    game = game_now(app, code)
    shown = set()
    for data in game.events_seen_by(None):
        for key in ("card", "given"):
            value = data.get(key)
            shown |= set(value if isinstance(value, list) else [value] if value else [])
    held = game.replay_state()["hands"]
    return {name: {game.deck.card(c).title for c in cards if c not in shown} for name, cards in held.items()}, held


def test_pass_and_play_hides_every_hand_between_turns(live_app, teacher_page):
    base = live_app.base_url
    device = teacher_page()
    code = open_table_in_browser(device, base, [("here", "Anna"), ("here", "Boris"), ("computer:random", "")],
                                 rules="classic",
                                 deck="authors-1861")
    device.click("#start")
    device.wait_for_selector("#status >> text=Playing")
    device.click("#play-link")
    device.wait_for_url(f"**/t/{code}/play")

    handoffs = 0
    started = time.monotonic()
    while handoffs < 4:
        assert time.monotonic() - started < DEADLINE
        device.wait_for_selector("#im-button")
        secret, held = hidden_titles(live_app, code)
        # The hand-off screen: no hand, no card of anyone's hand on the whole page.
        assert device.locator("#hand").count() == 0 and device.locator(".card").count() == 0
        text = device.inner_text("body")
        for name, titles in secret.items():
            for title in titles:
                assert title not in text, f"{title} of {name} is visible on the hand-off screen"
        player = device.inner_text("#im-button").removeprefix("I'm ")
        device.click("#im-button")
        device.wait_for_selector("#hand")
        shown = set(device.locator("#hand .card .title").all_inner_texts())
        game = game_now(live_app, code)
        assert shown == {game.deck.card(c).title for c in held[player]}
        handoffs += 1
        # Play until the turn passes to the other player (a miss in classic passes left).
        while can_ask(device):
            tap_ask(device)
            if device.locator("#im-button").count() or game_now(live_app, code).finished:
                break
        if game_now(live_app, code).finished:
            break
    assert handoffs >= 2
