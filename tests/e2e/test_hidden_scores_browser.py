"""Scores hidden until the end of the hand, in a real browser: the play screen (390 x 844) and the
projector (1920 x 1080) say so in words where the scores were, never "undefined" or "NaN"; axe clean;
once the hand is over its summary has the scores. AUTHORS_SHOTS=<folder> keeps screenshots of both."""
from __future__ import annotations

import os
from pathlib import Path

from .a11y_support import Checker, call, join, log_in, open_table, play_until

WALL = {"width": 1920, "height": 1080}
PHONE = {"width": 390, "height": 844}
WORDS = "hidden until the end of the hand"


def shot(page, name: str) -> None:
    folder = os.environ.get("AUTHORS_SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / name), full_page=True)


def no_junk(page) -> str:
    text = page.evaluate("() => document.body.innerText")
    assert "undefined" not in text and "NaN" not in text, text
    return text


def test_the_screens_say_the_scores_are_hidden_and_show_them_after_the_hand(live_app, new_page, axe):
    base = live_app.base_url
    teacher = new_page()
    log_in(teacher, base)
    code = open_table(teacher, options={"hide_scores": True, "name_the_work": True, "works_listed": True}, hands=2)
    phone = new_page(viewport=PHONE)
    join(phone, base, code, "Anna")
    wall = new_page(viewport=WALL)
    wall.goto(f"{base}/t/{code}/projector")
    wall.wait_for_selector("#lobby-seats >> text=Anna")
    call(teacher, "POST", f"/api/tables/{code}/start")

    def some_sets_down(state):
        game = state["game"]
        return bool(game and (game["finished"] or (any(game["books"].values()) and game["to_act"]
                                                   and not game["prompts"])))

    state = play_until(phone, code, some_sets_down, deadline=60)
    assert not state["game"]["finished"], "the hand ended before the checks"
    assert state["scores_hidden"] and "scores" not in state["game"]
    checker = Checker(axe)
    for page, label in ((phone, "play screen"), (wall, "projector")):
        page.wait_for_selector("#scores-hidden")
        page.wait_for_function("v => document.getElementById('status').textContent !== ''", arg=None)
        text = no_junk(page)
        assert WORDS in text, text
        # No score or bonus figure anywhere: the play screen's table has no such column, the tiles no figure.
        assert page.locator("td.score, td.bonus").count() == 0
        labels = page.evaluate("() => Array.from(document.querySelectorAll('.figure span, #players th')).map(x => x.textContent)")
        assert "Score" not in labels and "Bonus" not in labels and "Sets" not in labels, labels
        assert page.locator(".stack, .set-stack").count() > 0  # the sets laid down stay on the table
        checker.check(page, f"{label}, scores hidden")
    size = phone.evaluate("() => parseFloat(getComputedStyle(document.getElementById('scores-hidden')).fontSize)")
    assert size >= 16
    shot(phone, "play-hidden-390.png")
    shot(wall, "projector-hidden-1920.png")

    # The hand ends: its summary has the scores (the next hand's are hidden again).
    play_until(phone, code, lambda s: s["match"]["hands_played"] >= 1, deadline=90)
    phone.wait_for_selector("#final-scores td.score")
    scores = phone.evaluate("() => Array.from(document.querySelectorAll('#final-scores td.score')).map(td => td.textContent)")
    assert scores and all(s.strip().isdigit() for s in scores), scores
    no_junk(phone)
    wall.wait_for_selector("#summary #final-scores td.score")
    no_junk(wall)
    shot(phone, "play-summary-390.png")
    shot(wall, "projector-summary-1920.png")
    checker.assert_clean()
