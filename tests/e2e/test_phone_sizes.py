"""A phone at 390 x 844 during play: the header is at most 80 px high (the languages in a menu), every
control is at least 44 x 44 px with 16 px text (iOS zooms into smaller), and nothing scrolls sideways."""
from __future__ import annotations

from .test_browser import PICK, open_table_in_browser


def test_a_phone_gets_a_compact_header_and_controls_a_finger_can_hit(live_app, teacher_page):
    base = live_app.base_url
    page = teacher_page()
    code = open_table_in_browser(page, base, [("here", "Anna"), ("computer:random", ""), ("computer:random", "")],
                                 rules="classic", deck="authors-1861")
    page.click("#start")
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{base}/t/{code}/play")
    page.wait_for_selector(PICK)
    assert page.eval_on_selector("header.site", "e => e.getBoundingClientRect().height") <= 80
    controls = page.eval_on_selector_all(
        "button, select, input:not([type=hidden]):not([type=checkbox]):not([type=radio]), summary",
        "els => els.filter(e => e.offsetParent !== null).map(e => ({id: e.id || e.tagName, "
        "w: e.getBoundingClientRect().width, h: e.getBoundingClientRect().height, "
        "font: parseFloat(getComputedStyle(e).fontSize)}))")
    assert controls, "no control on the play screen"
    for control in controls:
        assert control["h"] >= 44 and control["w"] >= 44, control
        if control["id"] not in ("SUMMARY",):
            assert control["font"] >= 16, control
    assert page.eval_on_selector("html", "e => e.scrollWidth <= e.clientWidth")
    page.click("header.site details.languages summary")
    page.click("header.site nav.languages a[lang=fr]")
    page.wait_for_selector("html[lang=fr]")
