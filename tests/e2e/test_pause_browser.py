"""The teacher pauses a table from its page: the student's phone says so and refuses nothing silently;
Resume lets play go on; Lock keeps a late student out with a sentence."""
from __future__ import annotations

from .test_browser import open_table_in_browser


def test_pause_resume_and_lock_from_the_teachers_page(live_app, new_page, teacher_page):
    base = live_app.base_url
    teacher = teacher_page()
    code = open_table_in_browser(teacher, base, [("student", ""), ("computer:random", ""), ("computer:random", "")])
    phone = new_page()
    phone.set_viewport_size({"width": 390, "height": 844})
    phone.goto(f"{base}/j/{code}")
    phone.fill("#name", "Anna")
    phone.click("form button[type=submit]")
    phone.wait_for_url(f"**/t/{code}/play")
    teacher.click("#start")
    teacher.wait_for_selector("#pause", state="visible")
    teacher.click("#pause")
    teacher.wait_for_function("() => document.getElementById('pause').getAttribute('aria-pressed') === 'true'")
    assert "Paused" in teacher.inner_text("#status")
    phone.wait_for_function("() => document.getElementById('status').innerText.includes('Paused by the teacher')")
    teacher.click("#pause")  # Resume
    phone.wait_for_function("() => !document.getElementById('status').innerText.includes('Paused')")
    teacher.click("#lock")
    teacher.wait_for_function("() => document.getElementById('lock').getAttribute('aria-pressed') === 'true'")
    late = new_page()
    late.goto(f"{base}/j/{code}")
    late.fill("#name", "Zoe")
    late.click("form button[type=submit]")
    late.wait_for_selector("text=locked this table")
