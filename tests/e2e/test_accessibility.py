"""Accessibility (WCAG 2.1 AA) in a real browser: axe-core on every page and every state of the play
screen, the play screen at 320 px, reduced motion, the live region, and a whole hand played with the
keyboard alone."""
from __future__ import annotations

import time

from .a11y_support import Checker, call, join, log_in, open_table, play_until, studio_deck
from .test_browser import PICK, TARGET


def finished(state) -> bool:
    return bool(state["hands"])


def test_every_page_passes_axe(live_app, teacher, new_page, axe):
    base = live_app.base_url
    axe_check = Checker(axe)
    deck_ref = studio_deck(live_app)
    number = deck_ref.split(":")[1]

    # Pages anyone may open.
    visitor = new_page()
    for label, path in [("library", "/"), ("a deck", "/decks/authors-1861"), ("rules index", "/rules"),
                        ("a rules page", "/rules/classic"), ("join", "/join"), ("log in", "/login"),
                        ("sign up", "/signup"), ("not found", "/decks/no-such-deck")]:
        visitor.goto(base + path)
        axe_check.check(visitor, label)

    # A class table: lobby, the middle of a hand with the ask form, the end of a hand (of two).
    code = open_table(teacher, hands=2)
    pupil = new_page()
    join(pupil, base, code, "Anna")
    pupil.wait_for_selector("#lobby-seats")
    axe_check.check(pupil, "play: lobby")
    teacher.goto(f"{base}/t/{code}")
    teacher.wait_for_selector("#seats >> text=Anna")
    axe_check.check(teacher, "table manage: lobby")
    projector = new_page()
    projector.goto(f"{base}/t/{code}/projector")
    projector.wait_for_selector("#lobby-seats")
    axe_check.check(projector, "projector: lobby")
    call(teacher, "POST", f"/api/tables/{code}/start")
    pupil.wait_for_selector(PICK)
    axe_check.check(pupil, "play: the ask")
    pupil.click(PICK)  # what is asked for, tapped: pressed, and the players invite the second tap
    axe_check.check(pupil, "play: the ask, a set tapped")
    projector.wait_for_selector("#players")
    axe_check.check(projector, "projector: a hand")
    teacher.goto(f"{base}/t/{code}")
    teacher.wait_for_selector("#status >> text=Playing")
    axe_check.check(teacher, "table manage: playing")
    teacher.goto(f"{base}/teacher")
    teacher.wait_for_selector(f'#tables tr[data-code="{code}"]')
    axe_check.check(teacher, "teacher overview")
    play_until(pupil, code, finished)
    pupil.wait_for_selector("#final-scores")
    axe_check.check(pupil, "play: end of a hand")
    projector.wait_for_selector("#final-scores")
    axe_check.check(projector, "projector: end of a hand")

    # Name the work: a classic table with the bonus, played until a card waits to be named.
    # (works listed and prompts as before: this table's helper picks moves from the deck it is sent)
    code = open_table(teacher, rules="classic", deck=deck_ref,
                      options={"name_the_work": True, "named_asks": False, "works_listed": True})
    pupil = new_page()
    join(pupil, base, code, "Boris")
    call(teacher, "POST", f"/api/tables/{code}/start")
    play_until(pupil, code, lambda s: s["game"] and (s["game"]["prompts"] or s["game"]["finished"]), seed=3)
    pupil.reload()
    pupil.wait_for_selector("#prompt")
    axe_check.check(pupil, "play: name the work")
    play_until(pupil, code, finished)

    # Literature: the claim form, with a half-suit chosen and its holders to name.
    code = open_table(teacher, rules="literature", seats=[{"kind": "human"}] + [{"kind": "computer"}] * 5)
    pupil = new_page()
    join(pupil, base, code, "Vera")
    call(teacher, "POST", f"/api/tables/{code}/start")
    pupil.wait_for_selector("#claim-set button:not([disabled])")
    pupil.click("#claim-set button")  # a half-suit tapped: a line per card, a button per teammate
    pupil.wait_for_selector("#claim-holders button.holder")
    pupil.click("#claim-holders button.holder:not([disabled])")  # one holder tapped (pressed)
    axe_check.check(pupil, "play: Literature, the claim form")

    # Pass-and-play: the hand-over screen.
    code = open_table(teacher, seats=[{"kind": "human", "here": True, "name": "Vera"},
                                      {"kind": "human", "here": True, "name": "Gleb"}, {"kind": "computer"}])
    call(teacher, "POST", f"/api/tables/{code}/start")
    teacher.goto(f"{base}/t/{code}/play")
    teacher.wait_for_selector("#im-button")
    axe_check.check(teacher, "play: the hand-over screen")

    # The teacher's other pages.
    for label, path in [("open a table", "/tables/new"), ("account", "/account"), ("studio", "/studio/"),
                        ("studio: a new deck", "/studio/new"), ("studio: paste", "/studio/paste"),
                        ("studio: upload", "/studio/upload"), ("studio: a deck", f"/studio/decks/{number}"),
                        ("studio: edit", f"/studio/decks/{number}/edit"),
                        ("studio: the YAML", f"/studio/decks/{number}/yaml"),
                        ("studio: images", f"/studio/decks/{number}/images"), ("reports", "/reports/"),
                        ("a table's report", f"/reports/tables/{code}"), ("library, with studio decks", "/")]:
        teacher.goto(base + path)
        axe_check.check(teacher, label)
    teacher.goto(f"{base}/studio/paste")
    teacher.fill("#title", "Pasted")
    teacher.fill("#rows", "Dickens\tOliver Twist\nDickens\tHard Times\nPoe\tThe Raven\nbad row")
    teacher.click("#preview")
    teacher.wait_for_selector("#sheet-rows")
    axe_check.check(teacher, "studio: a pasted preview")
    teacher.goto(f"{base}/studio/upload")
    teacher.fill("#text", "format: authors-deck/1\nid: x\nsets: 3\n")
    teacher.click("#save-yaml")
    teacher.wait_for_selector("#yaml-problems")
    axe_check.check(teacher, "studio: YAML problems")
    axe_check.assert_clean()


FOCUS = """() => {
  const e = document.activeElement;
  if (!e || e === document.body) return null;
  const style = getComputedStyle(e);
  const rgb = c => c.match(/[\\d.]+/g).map(Number);
  const lum = c => { const [r, g, b] = rgb(c).map(v => v / 255).map(v => v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
                     return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  let back = e.parentElement;  // the colour the ring is drawn on: the first ancestor with a background
  while (back && rgb(getComputedStyle(back).backgroundColor)[3] === 0) back = back.parentElement;
  const behind = back ? getComputedStyle(back).backgroundColor : "rgb(255, 255, 255)";
  const [a, b] = [lum(style.outlineColor), lum(behind)].sort((x, y) => y - x);
  return { id: e.id, tag: e.tagName, text: (e.innerText || e.value || "").slice(0, 40), visible: e.matches(":focus-visible"),
           ring: style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 2 && (a + 0.05) / (b + 0.05) >= 3 };
}"""


def focused(page) -> dict | None:
    return page.evaluate(FOCUS)


def press(page, key: str) -> dict | None:
    """Press a key and check that whatever has the focus then shows it."""
    page.keyboard.press(key)
    now = focused(page)
    assert now is None or (now["visible"] and now["ring"]), f"no visible focus after {key}: {now}"
    return now


def send_with(page, key: str) -> None:
    """Press the key that sends a move and wait until the screen shows the table after it."""
    version = page.get_attribute("#play", "data-version")
    press(page, key)
    page.wait_for_function("v => document.getElementById('play').dataset.version !== v || "
                           "document.getElementById('error').innerText !== ''", arg=version, timeout=5000)


def test_a_whole_hand_by_keyboard_alone(live_app, teacher, new_page):
    """A student joins and plays a hand of the classic game with name-the-work using only the keyboard:
    the screen puts the focus on what it asks for when the turn comes, and the focus is always visible."""
    base = live_app.base_url
    code = open_table(teacher, rules="classic", deck=studio_deck(live_app),  # the works listed, as before
                      options={"name_the_work": True, "named_asks": False, "works_listed": True,
                               "answers": "exact", "bonus_in_score": True})
    page = new_page()
    page.goto(f"{base}/j/{code}")
    assert press(page, "Tab")["text"].strip() == "Skip to the content"
    press(page, "Enter")
    assert press(page, "Tab")["id"] == "code"
    assert press(page, "Tab")["id"] == "name"
    page.keyboard.type("Anna")
    page.keyboard.press("Enter")
    page.wait_for_url(f"**/t/{code}/play")
    page.wait_for_selector("#lobby-seats")
    call(teacher, "POST", f"/api/tables/{code}/start")

    asks = answers = 0
    started = time.monotonic()
    while not page.locator("#final-scores").is_visible():
        assert time.monotonic() - started < 60, "the hand did not end in time"
        now = focused(page)
        where = now["id"] if now else None
        if where == "answer":
            assert now["visible"] and now["ring"], now
            page.keyboard.type("Oliver Twist" if answers % 2 else "I do not know")
            send_with(page, "Enter")
            answers += 1
        elif where and where.startswith("pick-"):  # the ask's first step: a card, offered when the turn comes
            assert now["visible"] and now["ring"], now
            if asks % 2 and page.locator("#ask .pick").count() > 1:
                where = press(page, "Tab")["id"]  # another card
            press(page, "Enter" if asks % 2 else "Space")  # pressed; the focus goes on to the players
            assert page.get_attribute(f'[id="{where}"]', "aria-pressed") == "true"
            now = focused(page)
            assert now and now["id"].startswith("ask-to-"), now
            if asks % 2 and page.locator("#ask button.target").count() > 1:
                assert press(page, "Tab")["id"].startswith("ask-to-")  # another player
            send_with(page, "Enter" if asks % 2 else "Space")
            asks += 1
        else:
            time.sleep(0.05)
    assert asks >= 1, "the student never had a turn"
    assert answers >= 1, "the student never named a work"
    # The end of the hand: the focus rests on the summary's heading, visibly.
    page.wait_for_function("() => document.activeElement && document.activeElement.closest('#summary')")
    now = focused(page)
    assert now["visible"] and now["ring"], now
    assert "Anna" in page.inner_text("#summary")


def test_pass_and_play_hands_over_by_keyboard(live_app, teacher):
    """On the hand-over screen the focus waits on "I'm <name>"; Enter shows that hand and its ask, the
    focus on its first step; Enter there goes on to the players."""
    base = live_app.base_url
    code = open_table(teacher, seats=[{"kind": "human", "here": True, "name": "Vera"},
                                      {"kind": "human", "here": True, "name": "Gleb"}, {"kind": "computer"}])
    call(teacher, "POST", f"/api/tables/{code}/start")
    teacher.goto(f"{base}/t/{code}/play")
    teacher.wait_for_function("() => document.activeElement && document.activeElement.id === 'im-button'")
    now = focused(teacher)
    assert now["visible"] and now["ring"], now  # a white ring on the dark hand-over screen
    player = now["text"].removeprefix("I'm ")
    press(teacher, "Enter")
    teacher.wait_for_function("() => document.activeElement && document.activeElement.id.startsWith('pick-')")
    assert teacher.inner_text("#status").endswith(f"your turn, {player}.")
    assert press(teacher, "Enter")["id"].startswith("ask-to-")


def test_the_live_region_says_each_move_for_the_seat_watching(live_app, teacher, new_page):
    base = live_app.base_url
    code = open_table(teacher)
    page = new_page()
    join(page, base, code, "Anna")
    page.wait_for_selector("#lobby-seats")
    region = page.locator("#announcements[aria-live=polite]")
    assert region.count() == 1
    call(teacher, "POST", f"/api/tables/{code}/start")
    page.wait_for_selector("#announcements >> text=Hand 1 has been dealt.")
    page.wait_for_selector(PICK)
    page.click(PICK)
    page.click(TARGET)
    page.wait_for_function("() => /You asked /.test(document.getElementById('announcements').innerText)")
    # Play on until a computer player's move has been said, in the third person or to "you".
    computers = [s["name"] for s in call(page, "GET", f"/api/tables/{code}")["seats"] if s["kind"] == "computer"]
    deadline = time.monotonic() + 30
    while not any(f"{name} asked " in region.inner_text() for name in computers):
        assert time.monotonic() < deadline, region.inner_text()
        if page.locator(PICK).first.is_visible():
            page.click(PICK)
            page.click(TARGET)
        time.sleep(0.1)
    text = region.inner_text()
    assert "asked Anna" not in text and "Anna asked" not in text, text  # the seat watching is "you"

    # The sentences themselves, for a listener and for the whole table.
    says = page.evaluate("""async () => {
      const [{ api }, { deckIndex }, { say }] = await Promise.all(  // the page's modules: the scripts keep no globals
        ["common", "deck", "events"].map(name => import(`/static/js/${name}.js`)));
      const index = deckIndex(await api("GET", document.getElementById("play").dataset.deckUrl));
      const none = new Set();
      const ask = { type: "ask", player: "Boris", target: "Anna", set: "J", card: null, given: ["JS", "JH"] };
      return [say(ask, index, "Anna", none), say(ask, index, "Boris", none), say(ask, index, null, none),
        say({ type: "ask", player: "Anna", target: "Boris", set: "Q", card: null, given: [] }, index, "Anna", none),
        say({ type: "draw", player: "Anna", card: "7H", lucky: false }, index, "Anna", none),
        say({ type: "laid-down", player: "Boris", set: "K", dealt: true }, index, "Anna", none),
        say({ type: "pass", player: "Boris", to: "Anna" }, index, "Anna", none)];
    }""")
    assert says == ["Boris asked you for Jacks; you gave 2 cards: J♠ and J♥.",
                    "You asked Anna for Jacks and got 2 cards: J♠ and J♥.",
                    "Boris asked Anna for Jacks and got 2 cards: J♠ and J♥.",
                    "You asked Boris for Queens: no.",
                    "You drew 7♥ from the stock.",
                    "Boris laid down Kings from the deal.",
                    "Boris handed the turn to you."]
    page.goto(page.url + "?lang=ru")  # in Russian, with its plural forms
    says = page.evaluate("""async () => {
      const [{ api }, { deckIndex }, { say }] = await Promise.all(  // the page's modules: the scripts keep no globals
        ["common", "deck", "events"].map(name => import(`/static/js/${name}.js`)));
      const index = deckIndex(await api("GET", document.getElementById("play").dataset.deckUrl));
      const ask = n => ({ type: "ask", player: "Борис", target: "Анна", set: "J", card: null, given: ["JS", "JH", "JD", "JC"].slice(0, n) });
      return [1, 2].map(n => say(ask(n), index, "Анна", new Set()));
    }""")
    assert says == ["Борис попросил(а) у тебя: Jacks; ты отдал(а) 1 карту: J♠.",  # a child is "ты"
                    "Борис попросил(а) у тебя: Jacks; ты отдал(а) 2 карты: J♠ и J♥."]


def test_the_play_screen_fits_320_pixels_and_passes_axe_there(live_app, teacher, new_page, axe):
    base = live_app.base_url
    code = open_table(teacher, hands=2)
    page = new_page(viewport={"width": 320, "height": 640})
    join(page, base, code, "Anna")
    projector = new_page(viewport={"width": 320, "height": 640})
    projector.goto(f"{base}/t/{code}/projector")
    projector.wait_for_selector("#lobby-seats")
    call(teacher, "POST", f"/api/tables/{code}/start")
    page.wait_for_selector(PICK)
    for summary in page.locator("details summary").all():  # the log and the sets down, open
        summary.click()
    axe_check = Checker(axe)
    widths = {}
    for label, screen in [("play, mid-hand", page), ("projector, mid-hand", projector)]:
        screen.wait_for_selector("#players")
        widths[label] = screen.evaluate("() => document.documentElement.scrollWidth")
        axe_check.check(screen, label + " at 320 px")
    play_until(page, code, finished)
    page.wait_for_selector("#final-scores")
    widths["play, end of a hand"] = page.evaluate("() => document.documentElement.scrollWidth")
    axe_check.check(page, "play, end of a hand at 320 px")
    # The other pages of a student and a teacher.
    teacher_narrow = new_page(viewport={"width": 320, "height": 640})
    log_in(teacher_narrow, base)
    drawn = {"/teacher": "#tables tbody tr", f"/t/{code}": "#seats tbody tr"}  # filled in by their scripts
    for path in ["/", "/decks/standard-52", "/rules", "/rules/standard", "/join", "/login", "/teacher",
                 f"/t/{code}", "/tables/new", "/studio/", "/reports/", "/account"]:
        teacher_narrow.goto(base + path)
        if path in drawn:
            teacher_narrow.wait_for_selector(drawn[path])
        axe_check.check(teacher_narrow, f"{path} at 320 px")
        widths[path] = teacher_narrow.evaluate("() => document.documentElement.scrollWidth")
    too_wide = {where: width for where, width in widths.items() if width > 320}
    assert not too_wide, f"wider than 320 px: {too_wide}"
    axe_check.assert_clean()


def test_reduced_motion_turns_off_every_transition_and_animation(live_app, teacher, new_page):
    base = live_app.base_url
    code = open_table(teacher)
    calm = new_page(reduced_motion="reduce")
    join(calm, base, code, "Anna")
    call(teacher, "POST", f"/api/tables/{code}/start")
    calm.wait_for_selector(PICK)
    moving = new_page()
    moving.goto(f"{base}/t/{code}/projector")
    moving.wait_for_selector("#players")
    durations = """() => {
      const seconds = v => v.split(",").map(parseFloat).reduce((a, b) => Math.max(a, b), 0);
      let most = 0;
      for (const e of document.querySelectorAll("*")) {
        for (const pseudo of [null, "::before", "::after"]) {
          const s = getComputedStyle(e, pseudo);
          most = Math.max(most, seconds(s.transitionDuration), seconds(s.animationDuration));
        }
      }
      return { most: most, smooth: getComputedStyle(document.documentElement).scrollBehavior };
    }"""
    assert moving.evaluate(durations)["most"] > 0  # the check can see motion where it is allowed
    calm_now = calm.evaluate(durations)
    assert calm_now["most"] == 0 and calm_now["smooth"] == "auto", calm_now


def test_the_projector_reads_from_the_back_of_the_room(live_app, teacher, new_page):
    base = live_app.base_url
    code = open_table(teacher)
    pupil = new_page()
    join(pupil, base, code, "Anna")
    call(teacher, "POST", f"/api/tables/{code}/start")
    wall = new_page(viewport={"width": 1920, "height": 1080})
    wall.goto(f"{base}/t/{code}/projector")
    wall.wait_for_selector("#players .on-turn")  # a tile per seat; the turn in the status line and on its tile
    sizes = wall.evaluate("""() => {
      const px = q => parseFloat(getComputedStyle(document.querySelector(q)).fontSize);
      return { cell: px("#players .figure"), name: px("#players .seat-name"), status: px("#status"), turn: px("#players .on-turn .seat-name"),
               tag: px("#players .tag"), width: document.querySelector("#players").getBoundingClientRect().width,
               scroll: document.documentElement.scrollWidth };
    }""")
    assert sizes["cell"] >= 24 and sizes["name"] >= 24 and sizes["tag"] >= 16, sizes
    assert sizes["status"] >= 28 and sizes["turn"] >= 28, sizes
    assert sizes["width"] >= 1500 and sizes["scroll"] <= 1920, sizes  # the whole width of the wall
