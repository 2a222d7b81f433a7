"""Challenge a set (`challenge_sets`, issue #35) in Chromium on a phone, 390 x 844: a student plays a whole
match against two computer players until both have happened, in English (Authors), German (Quartett) and Spanish (siete familias).
When a computer lays down a set with her card, she is offered the challenge and taps it (the projector says
who may challenge whom meanwhile; she challenges the first, lets the second stand); when she lays one down, the computer challenges her (a computer whose
memory names four works with a chance under 2 in 3 always does) and she types the works from memory into
one field per work, in any order; the verdict says she keeps the set (+1). Her asks are typed, as at every
table where works are named from memory. Axe-clean; the screens at 390 and 1920 px go to AUTHORS_SHOTS
(default /tmp/shots), named challenge_*.png, for a person to look at."""
from __future__ import annotations

import time

import pytest

from .a11y_support import PHONE, SHOTS, WALL, Checker, call, join, said, shoot_phone_and_wall
from .test_browser import game_now

HANDS = 3        # up to three hands, until a computer has laid down a set with her card and she one of hers
DEADLINE = 300  # seconds to see both (about 15 s here, alone; far more on a busy machine)

GAMES = [("classic", "en", "authors-1861", "Lena"), ("quartett", "de", "german-writers", "Lena"),
         ("familias", "es", "spanish-writers", "Lucía")]


def ask_someone(page, app, code: str, me: str, hit: bool) -> None:
    """Her typed ask, as a student who knows the deck would make it: a work of an author she holds, lacked,
    asked of the player who holds it when `hit`, else of another (a miss, so the computers play and ask her
    too). The driver reads the server to choose; the page is tapped and typed."""
    game = game_now(app, code)
    hands = game.replay_state()["hands"]
    mine = set(hands[me])
    holder = {card: name for name, cards in hands.items() if name != me for card in cards}
    for card in sorted(mine):
        set_id = game.deck.card(card).set_id
        lacked = [c for c in game.deck.set(set_id).cards if c.id not in mine and c.id in holder]
        if lacked:
            work = lacked[0]
            break
    else:  # what she lacks is in the stock: a work she lacks, of the first player (a miss draws)
        set_id = game.deck.card(sorted(mine)[0]).set_id
        work = next(c for c in game.deck.set(set_id).cards if c.id not in mine)
    page.click(f'#ask .pick[data-pick="{set_id}"]')
    targets = [b.get_attribute("data-target") for b in page.locator("#ask button.target").all()]
    others = [t for t in targets if t != holder.get(work.id)]
    target = holder.get(work.id) if hit and work.id in holder or not others else others[0]
    page.click(f'#ask button.target[data-target="{target}"]')
    page.fill("#ask-work", work.title)
    version = page.get_attribute("#play", "data-version")
    page.click("#ask-button")
    # The table moves on (her ask, or a move before it: the tap then comes too late and is not played), or
    # the screen says why not.
    try:
        page.wait_for_function("""v => document.getElementById('play').dataset.version !== v
            || document.getElementById('ask-refusal') || !document.getElementById('error').hidden""",
                               arg=version, timeout=15_000)
    except Exception:
        raise AssertionError(f"her ask ({set_id}, {target}) changed nothing: {page.inner_text('main')[:800]}") from None


@pytest.mark.parametrize("preset, language, deck, name", GAMES, ids=[f"{g[0]}-{g[1]}" for g in GAMES])
def test_a_set_challenged_and_defended_on_a_phone(live_app, teacher, new_page, axe, preset, language, deck, name):
    checker = Checker(axe)
    spec = {"rules": preset, "deck": deck, "language": language, "options": {"challenge_sets": True},
            "seats": [{"kind": "human"}] + [{"kind": "computer", "bot": "memory"}] * 2,
            "match": {"format": "hands", "value": HANDS}}
    code = call(teacher, "POST", "/api/tables", spec)["code"]
    phone = new_page(viewport=PHONE, has_touch=True, is_mobile=True)
    join(phone, live_app.base_url, code, name)
    phone.wait_for_selector("#lobby-seats")
    projector = new_page(viewport=WALL)
    projector.goto(f"{live_app.base_url}/t/{code}/projector")
    call(teacher, "POST", f"/api/tables/{code}/start")

    offered = defended = asks = 0
    started = time.monotonic()
    while not (offered and defended):  # (then the rest of the match is the computers' and hers as before)
        if phone.locator("#final-scores").is_visible() and call(phone, "GET", f"/api/tables/{code}")["status"] == "finished":
            break
        if time.monotonic() - started > DEADLINE:
            raise AssertionError(f"no challenge both ways in time: {offered} challenges offered, {defended} defended; "
                                 f"the screen: {phone.inner_text('main')[:600]}")
        if phone.locator("#challenge").is_visible():
            # A computer laid down a set with her card: hers to challenge, and the projector says so.
            contest = call(phone, "GET", f"/api/tables/{code}")["game"]["challenge"]
            assert contest["challenger"] == name and contest["stage"] == "offer"
            assert phone.inner_text("#challenge h2") == said(language, "Challenge %(player)s?") % {"player": contest["player"]}
            if not offered:
                shoot_phone_and_wall(phone, f"challenge_{preset}_{language}_offer", checker, f"{preset} in {language}, the offer",
                                     screen=True)
                projector.wait_for_function("name => document.getElementById('status').textContent.includes(name)",
                                            arg=contest["player"], timeout=10_000)
                projector.screenshot(path=str(SHOTS / f"challenge_{preset}_{language}_projector_1920.png"))
                checker.check(projector, f"{preset} in {language}, the projector during a challenge")
            offered += 1
            version = phone.get_attribute("#play", "data-version")
            phone.click("#challenge-yes" if offered % 2 else "#challenge-no")
            try:
                phone.wait_for_function("v => document.getElementById('play').dataset.version !== v", arg=version,
                                        timeout=15_000)
            except Exception:
                raise AssertionError(f"her answer to the challenge changed nothing: {phone.inner_text('main')[:900]}; "
                                     f"{call(phone, 'GET', f'/api/tables/{code}')['game']['challenge']}") from None
        elif phone.locator("#defence").is_visible():
            # The computer challenged her set: she types its works from memory, the last one first.
            contest = call(phone, "GET", f"/api/tables/{code}")["game"]["challenge"]
            assert contest["player"] == name and contest["stage"] == "defend"
            titles = [c.title for c in game_now(live_app, code).deck.set(contest["set"]).cards]
            fields = phone.locator("#defence input[name=work]")
            assert fields.count() == len(titles)
            shown = [t for t in titles if t in phone.inner_text("main")]
            where = phone.evaluate("""ts => Array.from(document.querySelectorAll('main *')).filter(e => e.children.length === 0
                && ts.some(t => e.textContent.includes(t))).map(e => e.outerHTML + ' IN ' + (e.parentElement.id || e.parentElement.className))""", titles)
            assert not shown, f"{shown} of the challenged set on screen: {where}"
            for i, title in enumerate(reversed(titles)):
                fields.nth(i).fill(title.lower())
            if not defended:
                shoot_phone_and_wall(phone, f"challenge_{preset}_{language}_defence", checker, f"{preset} in {language}, the defence")
            phone.click("#defence-button")
            phone.wait_for_selector("#reveal[data-verdict=right]", timeout=15_000)
            if not defended:
                shoot_phone_and_wall(phone, f"challenge_{preset}_{language}_kept", checker, f"{preset} in {language}, the set kept")
            defended += 1
            phone.click("#reveal-ok")
        elif phone.locator("#next-hand").is_visible():
            phone.click("#next-hand")
        elif phone.locator("#ask-work").is_visible() and not phone.locator("#ask .pick[disabled]").count():
            asks += 1
            ask_someone(phone, live_app, code, name, hit=asks % 3 != 0)
        time.sleep(0.05)

    assert defended >= 1, "no set of hers was challenged in three hands"
    assert offered >= 1, "no computer laid down a set with her card in three hands"
    checker.assert_clean()
