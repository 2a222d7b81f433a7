"""In a real browser: a table its teacher opened in Russian shows its play screen in Russian, the parts
the scripts draw (the players' table, the status line, the log) included, with an English deck."""
from __future__ import annotations

import re

from .test_browser import PICK, tap_ask


def test_a_russian_table_draws_its_play_screen_in_russian(live_app, new_page, teacher_page):
    base = live_app.base_url
    teacher = teacher_page()
    teacher.goto(f"{base}/tables/new")
    assert teacher.input_value("#language") == "en"  # the teacher's own language by default
    teacher.select_option("#language", "ru")
    teacher.select_option("#rules", "standard")
    for i, kind in enumerate(["student", "computer:random", "computer:random"] + [""] * 5):
        teacher.select_option(f"select[name=seat{i}]", kind)
    teacher.click("#new-table button[type=submit]")
    teacher.wait_for_url(re.compile(r"/t/[A-Z0-9]{6}$"))
    code = teacher.url.rsplit("/", 1)[1]
    assert teacher.get_attribute("html", "lang") == "ru"

    anna = new_page()
    anna.goto(f"{base}/j/{code}")
    assert anna.get_attribute("html", "lang") == "ru"
    anna.fill("#name", "Anna")
    anna.click("button[type=submit]")
    anna.wait_for_url(f"**/t/{code}/play")
    anna.wait_for_selector("#status >> text=Anna, ждём, когда учитель начнёт игру.")
    anna.wait_for_selector("#lobby-seats >> text=Компьютер 1 (компьютер)")

    teacher.wait_for_selector("#seats >> text=Anna")
    teacher.click("#start")
    anna.wait_for_selector("#players")
    headers = anna.locator("#players thead th").all_inner_texts()
    assert headers == ["Игрок", "Карты", "Выложенные наборы", "Очки", "Матч"]  # no bonus: no Bonus column
    anna.wait_for_selector(PICK)  # the first seat asks first
    assert anna.inner_text("#status") == "Раздача 1: твой ход, Anna."
    assert anna.inner_text("#ask h2") == "Твой ход: спроси"  # a child is "ты"
    assert re.fullmatch(r"На руках \d+ карт[аы]?", anna.inner_text("#hand h2"))
    assert anna.locator("#ask legend").first.inner_text() == "1. Нажми на набор, который хочешь"
    tap_ask(anna)
    anna.locator("#log li").first.wait_for(state="attached")
    log = anna.locator("#log li").all_text_contents()
    assert any(re.fullmatch(r"Anna просит у игрока Компьютер \d: .+ — (нет|и получает: .+)\.", line) for line in log), log
    assert "Anna" in anna.inner_text("#last") and "Последний вопрос:" in anna.inner_text("#last")
    assert anna.get_attribute("html", "lang") == "ru"
