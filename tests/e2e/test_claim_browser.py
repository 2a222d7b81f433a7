"""The Literature claim for a thumb (issue #33), in Chromium at 390 x 844: no drop-down; the half-suits are
buttons in the first screen, then one line per card of the one tapped with a button per teammate; the
claimer's own cards are filled in as hers and nothing else is (the screen knows no other hand); "Claim" is
off, with a sentence saying what is missing, until every card has a holder; the claim sent is the one the
engine always took, and the table applies it. Paused, every control is off with the reason beside it.
Screenshots of each step at 390 x 844 and 1920 x 1080 go to AUTHORS_SHOTS/claim (default /tmp/shots/claim)."""
from __future__ import annotations

import os
from pathlib import Path

from .a11y_support import call
from .test_browser import game_now
from .test_thumb_table_browser import PHONE, WALL, annas_table, tap

SHOTS = Path(os.environ.get("AUTHORS_SHOTS", "/tmp/shots")) / "claim"

# The half-suits' buttons: each inside the window of a page not scrolled.
SETS_IN_VIEW = """() => {
  const buttons = Array.from(document.querySelectorAll("#claim-set button"));
  return { scrollY: window.scrollY, count: buttons.length, wide: document.documentElement.scrollWidth > innerWidth,
           out: buttons.filter(b => { const r = b.getBoundingClientRect();
             return r.top < 0 || r.bottom > innerHeight || r.right > innerWidth || r.height < 44; }).map(b => b.id) };
}"""


def shots(page, name: str) -> None:
    """The screen as it is, at the phone's size and at a wall's; the phone's size and scroll kept."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.evaluate("() => document.getAnimations().forEach(a => { try { a.finish(); } catch (e) {} })")
    y = page.evaluate("() => window.scrollY")
    page.screenshot(path=str(SHOTS / f"{name}_390.png"))
    page.set_viewport_size(WALL)
    page.screenshot(path=str(SHOTS / f"{name}_1920.png"))
    page.set_viewport_size(PHONE)
    page.evaluate("y => window.scrollTo(0, y)", y)


def missing(page) -> str:
    return page.inner_text("#claim-missing")


def test_a_half_suit_is_claimed_by_taps_alone(live_app, teacher, new_page):
    code, phone = annas_table(live_app, teacher, new_page, players=6, rules="literature")
    phone.wait_for_selector("#claim-set button:not([disabled])")
    state = call(phone, "GET", f"/api/tables/{code}")
    game = state["game"]
    assert game["turn"] == "Anna" and game["claimable"], game
    assert phone.locator("#claim select").count() == 0 and phone.locator("#play select").count() == 0
    where = phone.evaluate(SETS_IN_VIEW)
    assert where["scrollY"] == 0 and where["count"] == len(game["claimable"]) and not where["out"], where
    assert not where["wide"], where
    assert phone.is_disabled("#claim-button") and missing(phone) == "First tap the half-suit you claim."
    shots(phone, "1_your_turn")

    # A half-suit all in Anna's team, some of it in her hand and some not (the server knows; the phone not).
    team = game["teams"][game["team"]]
    deck = call(phone, "GET", f"/api/tables/{code}/deck")
    cards_of = {s["id"]: [c["id"] for c in s["cards"]] for s in deck["sets"]}
    title = {c["id"]: c["title"] for s in deck["sets"] for c in s["cards"]}
    holder = {c: name for name, cards in game_now(live_app, code).replay_state()["hands"].items() for c in cards}
    mine = set(game["hand"])

    def rank(set_id):
        cards = cards_of[set_id]
        in_team = all(holder[c] in team for c in cards)
        return (in_team, 0 < sum(c in mine for c in cards) < len(cards), sum(c not in mine for c in cards))

    chosen = max(game["claimable"], key=rank)
    correct = rank(chosen)[0]
    cards = cards_of[chosen]
    others = [c for c in cards if c not in mine]
    assert others, "Anna holds the whole half-suit: nothing to tap"

    tap(phone, f'#claim-set button[data-set="{chosen}"]')
    phone.wait_for_selector("#claim-holders")
    assert phone.get_attribute(f'#claim-set button[data-set="{chosen}"]', "aria-pressed") == "true"
    assert phone.locator('#claim-set button[aria-pressed="true"]').count() == 1
    # Her own cards are hers, with nothing to tap; the others have a button per teammate and none pressed.
    for c in cards:
        row = phone.locator(f'#claim-holders .claim-card[data-card="{c}"]')
        if c in mine:
            assert row.locator("button").count() == 0 and row.locator(".claim-own").inner_text() == "You have it"
        else:
            holders = row.locator("button.holder").evaluate_all("bs => bs.map(b => b.dataset.holder)")
            assert holders == [n for n in team if n != "Anna"], holders
            assert row.locator('button[aria-pressed="true"]').count() == 0
    assert phone.is_disabled("#claim-button")
    assert missing(phone) == "Still to tap: who holds " + _list([title[c] for c in others]) + "."
    shots(phone, "2_half_suit_tapped")

    # Each card's holder, tapped (the right one when the half-suit is all in the team): "Claim" stays off,
    # and the sentence names what is left, until the last.
    guess = {c: holder[c] if holder[c] in team and holder[c] != "Anna" else team[1] for c in others}
    for i, c in enumerate(others):
        tap(phone, f'#claim-holders button.holder[data-card="{c}"][data-holder="{guess[c]}"]')
        assert phone.get_attribute(f'button.holder[data-card="{c}"][data-holder="{guess[c]}"]', "aria-pressed") == "true"
        left = others[i + 1:]
        if left:
            assert phone.is_disabled("#claim-button")
            assert missing(phone) == "Still to tap: who holds " + _list([title[x] for x in left]) + "."
            if i == 0:
                shots(phone, "3_one_holder_tapped")
    assert phone.is_enabled("#claim-button") and missing(phone) == "Every card has a holder: tap Claim."
    shots(phone, "4_ready")

    before = game["team_scores"]
    version = phone.get_attribute("#play", "data-version")
    tap(phone, "#claim-button")
    phone.wait_for_function("v => document.getElementById('play').dataset.version !== v", arg=version)
    after = call(phone, "GET", f"/api/tables/{code}")
    events = game_now(live_app, code).events_seen_by(None)  # (Literature keeps no log on the screen: no notes)
    claims = [e for e in events if e.get("type") == "claim" and e.get("player") == "Anna"]
    assert len(claims) == 1, claims
    sent = {}
    for c in cards:
        sent.setdefault("Anna" if c in mine else guess[c], []).append(c)
    assert claims[0]["set"] == chosen and claims[0]["holders"] == sent, claims[0]
    if correct:
        assert claims[0]["outcome"] == "correct"
        assert after["game"]["team_scores"][game["team"]] == before[game["team"]] + 1
        phone.wait_for_selector("#feed li >> text=You claimed")
        assert "your team wins the set" in phone.inner_text("#feed")
    else:  # (the deal of the fixed seed: no half-suit is all in Anna's team when her turn comes)
        assert claims[0]["outcome"] == "opponents"
        other = 1 - game["team"]
        assert after["game"]["team_scores"][other] == before[other] + 1
        phone.wait_for_selector("#feed li >> text=You claimed")
        assert "the set goes to the other team" in phone.inner_text("#feed")
    # The half-suit is down: no longer offered, and no choice of the claim made is left pressed.
    assert chosen not in after["game"]["claimable"]
    assert phone.locator(f'#claim-set button[data-set="{chosen}"]').count() == 0
    assert phone.locator("#claim-holders").count() == 0
    shots(phone, "5_claimed")


def test_paused_the_claim_is_off_with_the_reason(live_app, teacher, new_page):
    code, phone = annas_table(live_app, teacher, new_page, players=8, rules="literature")
    phone.wait_for_selector("#claim-set button:not([disabled])")
    first = phone.get_attribute("#claim-set button", "data-set")
    tap(phone, "#claim-set button")  # a half-suit chosen before the pause stays chosen
    phone.wait_for_selector("#claim-holders")
    call(teacher, "POST", f"/api/tables/{code}/pause", {"paused": True})
    phone.wait_for_selector("#claim #act-reason")
    assert "Paused by the teacher" in phone.inner_text("#claim #act-reason")
    assert phone.locator("#claim button:not([disabled])").count() == 0
    assert phone.locator("#claim button").count() > 2
    assert phone.get_attribute(f'#claim-set button[data-set="{first}"]', "aria-pressed") == "true"
    shots(phone, "6_paused")
    call(teacher, "POST", f"/api/tables/{code}/pause", {"paused": False})
    phone.wait_for_selector("#claim-set button:not([disabled])")
    assert phone.locator("#claim #act-reason").count() == 0


def _list(items: list[str]) -> str:
    """Intl.ListFormat's English conjunction, as the page says a list."""
    if len(items) <= 2:
        return " and ".join(items)
    return ", ".join(items[:-1]) + ", and " + items[-1]
