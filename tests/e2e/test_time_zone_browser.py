"""The teacher's time zone in a real browser: the reports page sends the browser's zone once
(js/time_zone.js, under the strict CSP), is drawn again in it and says which; axe clean.
AUTHORS_SHOTS=<folder> keeps a screenshot."""
from __future__ import annotations

import os
from pathlib import Path

from ..web_support import make_teacher
from .a11y_support import Checker, call, join, log_in, new_context, open_table, play_until, watch


def test_the_reports_page_learns_the_browsers_zone_and_says_it(live_app, browser, axe):
    base = live_app.base_url
    make_teacher(live_app, "Ms Zone")
    context = new_context(browser, timezone_id="Europe/Paris", viewport={"width": 1280, "height": 900})
    pupil_context = new_context(browser)
    try:
        teacher = context.new_page()
        errors = watch(teacher)
        log_in(teacher, base, name="Ms Zone")  # a teacher of her own: no zone yet
        code = open_table(teacher, options={"name_the_work": True, "works_listed": True})
        pupil = pupil_context.new_page()
        join(pupil, base, code, "Anna")
        call(teacher, "POST", f"/api/tables/{code}/start")
        play_until(pupil, code, lambda s: s["status"] == "finished", deadline=90)
        teacher.goto(f"{base}/reports/")
        # The first drawing is in UTC; the script sends Europe/Paris and the page comes back in it.
        teacher.wait_for_selector("#time-zone[data-zone='Europe/Paris']")
        # (each student's answers are folded: open them to read their column)
        text = teacher.evaluate("() => { document.querySelectorAll('details').forEach(d => { d.open = true; });"
                                " return document.body.innerText; }")
        assert "Times in Europe/Paris" in text and "When (Europe/Paris)" in text, text
        assert "When (UTC)" not in text
        # Once known, no more sending: a reload stays put (no loop of reloads).
        teacher.reload()
        teacher.wait_for_selector("#time-zone[data-zone='Europe/Paris']")
        teacher.wait_for_timeout(300)
        assert teacher.url.endswith("/reports/")
        folder = os.environ.get("AUTHORS_SHOTS")
        if folder:
            Path(folder).mkdir(parents=True, exist_ok=True)
            teacher.screenshot(path=str(Path(folder) / "report-local-times.png"), full_page=True)
        checker = Checker(axe)
        checker.check(teacher, "reports, times in Europe/Paris")
        checker.assert_clean()
        assert not errors, errors
    finally:
        context.close()
        pupil_context.close()
