"""Helpers for the accessibility tests: axe-core (from npm, tests/e2e/axe) injected into a page, a teacher's
browser context, tables opened and played through the API from a browser context, as the pages do."""
from __future__ import annotations

import json
import os
import random
import time
from pathlib import Path

import pytest
from babel.support import Translations

from ..web_support import TEACHER_PASSWORD, choose_move

AXE = Path(__file__).resolve().parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"
TRANSLATIONS = Path(__file__).resolve().parents[2] / "app" / "translations"
SHOTS = Path(os.environ.get("AUTHORS_SHOTS", "/tmp/shots"))
PHONE = {"width": 390, "height": 844}
WALL = {"width": 1920, "height": 1080}
WCAG_AA = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]}}
SMALL_DECK = """format: authors-deck/1
id: four-trios
title: "Four trios"
language: en
set_label: "Writer"
card_label: "Work"
sets:
  - id: dickens
    name: "Charles Dickens"
    cards: [{id: twist, title: "Oliver Twist"}, {id: bleak, title: "Bleak House"}, {id: hard, title: "Hard Times"}]
  - id: poe
    name: "Edgar Allan Poe"
    cards: [{id: raven, title: "The Raven"}, {id: bug, title: "The Gold-Bug"}, {id: ulalume, title: "Ulalume"}]
  - id: austen
    name: "Jane Austen"
    cards: [{id: emma, title: "Emma"}, {id: persuasion, title: "Persuasion"}, {id: mansfield, title: "Mansfield Park"}]
  - id: bronte
    name: "Charlotte Bronte"
    cards: [{id: eyre, title: "Jane Eyre"}, {id: villette, title: "Villette"}, {id: shirley, title: "Shirley"}]
"""


def axe_source() -> str:
    if not AXE.exists():
        pytest.skip(f"no axe-core at {AXE}: run `npm ci --prefix tests/e2e/axe` (make test does)")
    return AXE.read_text(encoding="utf-8")


def axe_violations(page, source: str) -> list[str]:
    """axe-core's WCAG 2.1 A and AA rules on the page as it is now: one readable line per violation.
    page.evaluate is not subject to the page's Content-Security-Policy (an injected <script> would be)."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(source)
    # The page at rest: a card that is fading in (cards.css) would be measured half transparent, its
    # contrast a moment's. With reduced motion (site.css) nothing new animates during the run; what
    # already runs is finished first.
    calm = page.evaluate("() => matchMedia('(prefers-reduced-motion: reduce)').matches")
    page.emulate_media(reduced_motion="reduce")
    try:
        page.evaluate("() => document.getAnimations().forEach(a => { try { a.finish(); } catch (e) {} })")
        results = page.evaluate("options => axe.run(document, options)", WCAG_AA)
    finally:
        page.emulate_media(reduced_motion="reduce" if calm else "no-preference")
    lines = []
    for rule in results["violations"]:
        targets = "; ".join(" ".join(node["target"]) + " — " + node["failureSummary"].replace("\n", " ")
                            for node in rule["nodes"][:6])
        lines.append(f"{rule['id']} ({rule['impact']}): {rule['help']} [{len(rule['nodes'])}] {targets}")
    return lines


class Checker:
    """Runs axe on pages and gathers every violation, by page, for one readable failure at the end."""

    def __init__(self, source: str):
        self.source, self.found, self.pages = source, {}, []

    def check(self, page, label: str) -> None:
        self.pages.append(label)
        lines = axe_violations(page, self.source)
        if lines:
            self.found[f"{label} ({page.url})"] = lines

    def assert_clean(self) -> None:
        report = "\n".join(f"{where}:\n  " + "\n  ".join(lines) for where, lines in self.found.items())
        assert not self.found, f"axe found WCAG 2.1 AA violations:\n{report}"


def new_context(browser, **options):
    context = browser.new_context(**options)
    context.set_default_timeout(10_000)
    return context


def watch(page) -> list[str]:
    """Script errors and refusals of the Content-Security-Policy on this page."""
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text)
            if msg.type == "error" and "Content Security Policy" in msg.text else None)
    page.js_errors = errors
    return errors


def log_in(page, base: str, name: str = "Ms Teacher") -> None:
    page.goto(f"{base}/login")
    page.fill("#name", name)
    page.fill("#password", TEACHER_PASSWORD)
    page.click("form.account-form button[type=submit]")
    page.wait_for_url("**/teacher")


def call(page, method: str, path: str, body=None) -> dict:
    """The JSON API with this page's cookies and CSRF token, as common.js calls it."""
    base = page.url.split("/", 3)[:3]
    token = page.evaluate("() => document.querySelector('meta[name=csrf-token]').content")
    response = page.request.fetch("/".join(base) + path, method=method, headers={
        "X-CSRFToken": token, "Content-Type": "application/json", "Accept": "application/json"},
        data=None if body is None else json.dumps(body))
    assert response.ok, (path, response.status, response.text())
    return response.json()


def open_table(page, rules: str = "standard", deck: str | None = None, seats=None, options=None,
               hands: int = 1) -> str:
    spec = {"rules": rules, "seats": seats or [{"kind": "human"}, {"kind": "computer"}, {"kind": "computer"}],
            "options": options or {}, "match": {"format": "hands", "value": hands}}
    if deck:
        spec["deck"] = deck
    return call(page, "POST", "/api/tables", spec)["code"]


def join(page, base: str, code: str, name: str) -> None:
    page.goto(f"{base}/join?code={code}")
    page.fill("#name", name)
    page.click("form.join button[type=submit]")
    page.wait_for_url(f"**/t/{code}/play")


def play_until(page, code: str, done, seat: int | None = None, seed: int = 5, deadline: float = 30) -> dict:
    """Play this page's seat (random legal moves, through the API) until done(state) holds."""
    rng = random.Random(seed)
    deck = call(page, "GET", f"/api/tables/{code}/deck")
    started = time.monotonic()
    while True:
        state = call(page, "GET", f"/api/tables/{code}" + ("" if seat is None else f"?seat={seat}"))
        if done(state):
            return state
        assert time.monotonic() - started < deadline, "the table did not get there in time"
        game = state["game"]
        if game and state["you"] and game["seat"] and (game["to_act"] or game["prompts"]):
            move = choose_move(state, deck, rng)
            call(page, "POST", f"/api/tables/{code}/moves",
                 {"seat": state["you"]["position"], "version": state["version"], "move": move})
        else:
            time.sleep(0.05)


def studio_deck(app, text: str = SMALL_DECK, teacher: str = "Ms Teacher") -> str:
    """A studio deck of the teacher's; returns its table reference (studio:<number>)."""
    from app.services import accounts, studio

    with app.app_context():
        row = studio.create_from_text(accounts.find_by_name(teacher).id, text)
        return studio.ref_of(row)


def said(language: str, message: str) -> str:
    """A message as the app's catalog says it in `language`."""
    return Translations.load(str(TRANSLATIONS), [language]).gettext(message)


def shoot_phone_and_wall(page, stem: str, checker: "Checker", label: str, screen: bool = False) -> None:
    """The page at 390 px (the whole page; with `screen`, the phone's screen as she sees it too) and at
    1920 px, into SHOTS as <stem>_390.png, <stem>_1920.png, each checked by axe; back to the phone's size."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.wait_for_timeout(400)  # (a card that just left the hand fades out in 300 ms)
    page.evaluate("() => document.getAnimations().forEach(a => { try { a.finish(); } catch (e) {} })")
    for size, tag in ((PHONE, "390"), (WALL, "1920")):
        page.set_viewport_size(size)
        page.screenshot(path=str(SHOTS / f"{stem}_{tag}.png"), full_page=tag == "390")
        if screen and tag == "390":  # (the feed stays at the top as she scrolls)
            page.screenshot(path=str(SHOTS / f"{stem}_{tag}_screen.png"))
        checker.check(page, f"{label}, {tag} px")
    page.set_viewport_size(PHONE)
