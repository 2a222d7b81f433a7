"""Accessibility of the recall screens (issue 17): axe-core (WCAG 2.1 AA) on a recall table's play
screen in each state a student sees: a work to name (and its hint), the verdict box, the typed named
ask form and its refusal (and the hint offered after it). Also: the log says an almost answer is
almost, with the spelling."""
from __future__ import annotations

from .a11y_support import Checker
from .test_recall_browser import _game, _named_ask, _open, _start, _until_a_prompt


def _settled(page):
    """The verdict's fade-in (once, .4 s) over: axe reads colours as they are drawn."""
    page.wait_for_function("() => document.getAnimations().every(a => a.playState !== 'running')")
    return page


def test_the_recall_play_screen_passes_axe_in_every_state(live_app, teacher_page, axe):
    page = teacher_page()
    checker = Checker(axe)
    code = _open(page, live_app.base_url, "standard", {"name_the_work": "yes", "hints": "yes"})
    _start(page, live_app.base_url, code)
    _until_a_prompt(page)
    checker.check(page, "recall: a work to name")
    page.click("#hint-button")
    page.wait_for_selector("#hint-text")
    checker.check(page, "recall: a work to name, with a hint")
    game = _game(live_app, code)
    title = game.deck.card(game.prompts("Anna")[0]).title
    page.fill("#answer", title)
    page.click("#prompt button[type=submit]")
    page.wait_for_selector("#reveal")
    checker.check(_settled(page), "recall: the verdict box (right with a hint)")
    page.click("#reveal-ok")
    for _ in range(8):  # a typo in a long title: almost, with the spelling, in the box and in the log
        _until_a_prompt(page)
        game = _game(live_app, code)
        title = game.deck.card(game.prompts("Anna")[0]).title
        page.fill("#answer", title[:-1] + ("x" if title[-1] != "x" else "y") if len(title) >= 8 else "Moby-Dick")
        page.click("#prompt button[type=submit]")
        page.wait_for_selector("#reveal")
        verdict = page.get_attribute("#reveal", "data-verdict")
        checker.check(_settled(page), f"recall: the verdict box ({verdict})")
        if verdict == "almost":
            page.wait_for_function("() => /almost right/.test(document.getElementById('play').innerText)")
            text = page.inner_text("#play")
            assert title in text and "right, +1" not in text.split("almost right", 1)[0][-200:]
            break
        page.click("#reveal-ok")
    else:
        raise AssertionError("no long title came to name")

    page = teacher_page()
    code = _open(page, live_app.base_url, "classic", {"name_the_work": "yes", "hints": "yes"})
    _start(page, live_app.base_url, code)
    page.wait_for_selector("#ask-work", timeout=10_000)
    checker.check(page, "recall: the typed named ask form")
    page.click("#ask .pick")
    page.click("#ask button.target")
    checker.check(page, "recall: the typed named ask form, an author and a player tapped")
    _named_ask(page, "Moby-Dick")
    page.wait_for_selector("#ask-refusal")
    checker.check(page, "recall: a named ask refused")
    _named_ask(page, "Moby-Dick")
    page.wait_for_selector("#hint-button")
    checker.check(page, "recall: a named ask refused twice, a hint offered")
    page.click("#hint-button")
    page.wait_for_selector("#hint-text")
    checker.check(page, "recall: a named ask with a hint")
    checker.assert_clean()
