"""The family's European games (issue #35) played to their end in Chromium on a phone, 390 x 844, in German
and in Spanish: Quartett (four players, and two with the talon), 7 familles and siete familias, a student
against computer players, tapping her asks. The pages speak the table's language; the talon shows while
it lasts; with card_index each card of her hand shows its quartet index. Axe-clean; screenshots at 390
and 1920 px go to AUTHORS_SHOTS (default /tmp/shots), named family_*.png, for a person to look at."""
from __future__ import annotations

import re
import time

import pytest

from .a11y_support import PHONE, Checker, call, join, said, shoot_phone_and_wall
from .test_browser import PICK, TARGET, can_ask, game_now, tap_ask

DEADLINE = 240  # seconds for a whole hand (about 12 s here, alone; far more on a busy machine)
FROZEN = 30  # seconds a screen may show an older table than the server's before the test says it froze

GAMES = [  # preset, language, deck, players, options
    ("quartett", "de", "german-writers", 4, {"card_index": True}),
    ("quartett", "es", "german-writers", 2, {}),
    ("familles", "de", "french-writers", 3, {}),
    ("familles", "es", "french-writers", 3, {"card_index": True}),
    ("familias", "de", "spanish-writers", 3, {}),
    ("familias", "es", "spanish-writers", 4, {}),
]


def sure_ask(page, app, code) -> tuple[str | None, str | None]:
    """Of the cards her screen offers, the first that a player she may ask holds, and that player, as the
    server's game has them (the test drives the page, it checks no play); (None, None) when no one holds
    any: the first card and player. (Always the first card and player, she asked one player again and again,
    once the stock was empty, for a card another held: the hand took three times the moves.)"""
    hands = game_now(app, code).replay_state()["hands"]
    targets = page.locator(TARGET).evaluate_all("buttons => buttons.map(b => b.dataset.target)")
    for card in page.locator(PICK).evaluate_all("buttons => buttons.map(b => b.dataset.pick)"):
        for target in targets:
            if card in hands.get(target, ()):
                return card, target
    return None, None


@pytest.mark.parametrize("preset, language, deck, players, options", GAMES,
                         ids=[f"{g[0]}-{g[1]}-{g[3]}" for g in GAMES])
def test_a_whole_game_on_a_phone_in_german_and_spanish(live_app, teacher, new_page, axe, preset, language, deck,
                                                       players, options):
    checker = Checker(axe)
    # The computers are the spec's default, "random", the weakest: kept, as a stronger kind ("memory") makes the
    # hand no shorter once she asks the holders (about 50 moves against 60, simulated), and this test is of the page.
    spec = {"rules": preset, "deck": deck, "language": language, "options": options,
            "seats": [{"kind": "human"}] + [{"kind": "computer"}] * (players - 1),
            "match": {"format": "hands", "value": 1}}
    code = call(teacher, "POST", "/api/tables", spec)["code"]
    phone = new_page(viewport=PHONE, has_touch=True, is_mobile=True)
    join(phone, live_app.base_url, code, "Lena" if language == "de" else "Lucía")
    phone.wait_for_selector("#lobby-seats")
    call(teacher, "POST", f"/api/tables/{code}/start")

    name = f"{preset}_{language}_{players}"
    first_turn, talon_seen, asks = True, False, 0
    started = shown_at = time.monotonic()
    shown = None  # the table's version on her screen, since shown_at
    while not phone.locator("#final-scores").is_visible():
        now = time.monotonic()
        version = phone.get_attribute("#play", "data-version")
        if version != shown or can_ask(phone):
            shown, shown_at = version, now
        if now - started > DEADLINE or now - shown_at > FROZEN:
            state = call(phone, "GET", f"/api/tables/{code}")
            game = state.get("game") or {}
            if now - started <= DEADLINE and str(state["version"]) == shown:
                shown_at = now  # nothing new to show: a computer's long think, not a frozen screen
                continue
            what = "the hand did not end in time" if now - started > DEADLINE else "her screen froze"
            raise AssertionError(f"{what}: {state['status']}, turn {game.get('turn')}, "
                                 f"hand {game.get('hand')}, asks {game.get('asks')}, stock {game.get('stock')}, "
                                 f"{asks} asks made; her screen shows version {shown} (for {now - shown_at:.0f} s), "
                                 f"the server {state['version']}; the screen: {phone.inner_text('main')[:600]}")
        if phone.locator("p.stock").count() and phone.locator("p.stock").first.is_visible():
            talon_seen = True
        if can_ask(phone):
            if first_turn:  # her first turn, as she sees it: her hand and the ask, in the table's language
                first_turn = False
                assert phone.get_attribute("html", "lang") == language
                assert phone.inner_text("#ask h2") == said(language, "Your turn: ask")
                if options.get("card_index"):
                    marks = phone.locator("#hand .mark").all_inner_texts()
                    assert marks and all(re.fullmatch(r"[A-K][1-6]", m) for m in marks), marks
                    assert re.fullmatch(r"[A-K][1-6]", phone.locator("#ask .pick .mark").first.inner_text())
                shoot_phone_and_wall(phone, f"family_{name}_turn", checker, f"{preset} in {language}, her turn")
            card, target = sure_ask(phone, live_app, code)
            tap_ask(phone, target=target, pick=card)
            asks += 1
        time.sleep(0.05)

    assert asks > 0, "she never asked"
    state = call(phone, "GET", f"/api/tables/{code}")
    assert state["status"] == "finished", state["status"]
    if players == 2 and preset == "quartett":  # two players of Quartett keep a talon, shown while it lasts
        assert talon_seen
    shoot_phone_and_wall(phone, f"family_{name}_end", checker, f"{preset} in {language}, the end")
    assert phone.get_attribute("html", "lang") == language
    checker.assert_clean()
