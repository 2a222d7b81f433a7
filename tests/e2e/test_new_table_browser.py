"""The new-table form in a real browser: changing the rules shows the options that apply and hides (and
leaves out of the submission) the others; a table opens with an option changed under "More options";
the form passes axe, fits 320 px and has finger-sized controls on a phone."""
from __future__ import annotations

import re

import pytest

from app.decks.look import PLAYING_DECKS
from app.engine.options import DEFAULT_DECKS, OPTION_NAMES, OPTION_WORDS
from app.services.tables import NAMING_OPTIONS

from .a11y_support import Checker, axe_source, call


def shown(page) -> set[str]:
    """The options whose row is not hidden and whose control is enabled."""
    return set(page.eval_on_selector_all(
        "#options .option",
        "rows => rows.filter(r => !r.hidden && !r.querySelector('select, input').disabled)"
        ".map(r => r.querySelector('select, input').name.slice(4))"))


def applying(preset: str, deck: str | None = None) -> set[str]:
    """The options offered: those of the rules, but no naming for a deck of playing cards."""
    playing = (deck or DEFAULT_DECKS[preset]) in PLAYING_DECKS
    return {name for name in OPTION_NAMES if preset in OPTION_WORDS[name].rules
            and not (playing and name in NAMING_OPTIONS)}


def test_changing_the_rules_shows_and_hides_the_options(live_app, teacher_page):
    page = teacher_page()
    page.goto(f"{live_app.base_url}/tables/new")
    assert shown(page) == applying("standard")
    assert page.is_visible("#opt_stock") and page.is_visible("#opt_ask_by")
    assert not page.is_visible("#opt_claims_any_time")
    assert page.inner_text("#opt_miss_passes_to ~ .default") == "(the rules: the asker's left)"

    page.select_option("#rules", "literature")
    assert shown(page) == applying("literature")
    assert page.is_hidden("#opt_stock") and page.is_disabled("#opt_stock")
    assert page.inner_text("#opt_miss_passes_to ~ .default") == "(the rules: the player asked)"
    assert page.is_hidden("#opt_claims_any_time")  # a rare one, under the closed "More options"
    page.click("#more-options summary")
    assert page.is_visible("#opt_claims_any_time") and page.is_visible("#opt_removed_rank")

    page.select_option("#rules", "go-fish")
    assert shown(page) == applying("go-fish")
    assert page.is_visible("#opt_deal_size") and page.is_hidden("#opt_claims_any_time")
    assert page.inner_text("#opt_stock ~ .default") == "(the rules: yes)"


def test_a_table_opens_with_an_option_changed_and_a_hidden_one_left_out(live_app, teacher_page):
    page = teacher_page()
    page.goto(f"{live_app.base_url}/tables/new")
    page.select_option("#opt_stock", "yes")           # under Authors ...
    page.select_option("#rules", "literature")        # ... then hidden: it is not sent
    page.click("#more-options summary")
    page.select_option("#opt_claims_any_time", "yes")
    page.select_option("#opt_public_log", "yes")
    for i in range(8):
        page.select_option(f"select[name=seat{i}]", "student" if i < 6 else "")
    page.fill("input[name=match_value]", "1")
    page.click("#new-table button[type=submit]")
    page.wait_for_url(re.compile(r"/t/[A-Z0-9]{6}$"))
    code = page.url.rsplit("/", 1)[1]
    options = call(page, "GET", f"/api/tables/{code}")["options"]
    assert options["claims_any_time"] is True and options["public_log"] is True
    assert options["stock"] is False and options["teams"] is True


def test_a_refused_form_comes_back_with_its_rules_options_and_more_options_open(live_app, teacher_page):
    page = teacher_page()
    page.goto(f"{live_app.base_url}/tables/new")
    page.select_option("#rules", "go-fish")
    page.click("#more-options summary")
    page.fill("#opt_deal_size", "lots")
    page.click("#new-table button[type=submit]")
    page.wait_for_selector("#form-error")
    assert page.eval_on_selector("#rules", "s => s.value") == "go-fish"
    assert shown(page) == applying("go-fish")
    assert page.is_visible("#opt_deal_size") and page.input_value("#opt_deal_size") == "lots"


@pytest.mark.parametrize("rules", ["standard", "literature"])
def test_the_form_passes_axe_fits_a_phone_and_has_finger_sized_controls(live_app, teacher_page, rules):
    source = axe_source()
    page = teacher_page()
    axe = Checker(source)
    for width, height in ((320, 640), (390, 844), (1280, 800)):
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"{live_app.base_url}/tables/new?rules={rules}")
        page.click("#more-options summary")
        axe.check(page, f"/tables/new, {rules}, {width} px, More options open")
        assert page.eval_on_selector("html", "e => e.scrollWidth <= e.clientWidth"), f"sideways at {width} px"
        if width == 390:
            controls = page.eval_on_selector_all(
                "#options select, #options input, #options summary, #rules",
                "els => els.filter(e => e.offsetParent !== null).map(e => ({id: e.id || e.tagName, "
                "w: e.getBoundingClientRect().width, h: e.getBoundingClientRect().height, "
                "font: parseFloat(getComputedStyle(e).fontSize)}))")
            assert len(controls) == len(applying(rules)) + 2
            for control in controls:
                assert control["h"] >= 44 and control["w"] >= 44, control
                assert control["font"] >= 16, control
    axe.assert_clean()


def test_the_form_says_what_the_table_plays_once_naming_is_on(live_app, teacher_page):
    """The 1861 rules with naming on: each option's line says this table's value and a sentence says how
    naming goes; a deck of playing cards takes the naming options away."""
    page = teacher_page()
    page.goto(f"{live_app.base_url}/tables/new")
    page.select_option("#rules", "classic")
    page.select_option("#opt_name_the_work", "yes")
    page.wait_for_function("() => document.getElementById('naming-how').textContent.includes('asker types')")
    assert page.inner_text("#opt_answers ~ .default") == "(at this table: a typo forgiven)"
    assert page.inner_text("#opt_named_asks ~ .default") == "(at this table: yes)"
    page.select_option("#deck", "standard-52")
    page.wait_for_function("() => document.getElementById('opt_name_the_work').disabled")
    assert page.is_hidden("#opt_name_the_work") and page.is_visible("#playing-deck-note")
