"""The projector as a class sees it on a 1920 x 1080 wall, and as a phone opens it at 390 px: before play
the join code large beside the QR code; during play one status line, a tile per seat, the last moves in
large type, no site navigation; nothing wider than a phone; axe clean in the lobby and during play."""
from __future__ import annotations

import re

from .a11y_support import Checker, call, join, open_table, play_until

WALL = {"width": 1920, "height": 1080}
PHONE = {"width": 390, "height": 844}


def no_site_navigation(page) -> dict:
    """Links away from the page and navigation landmarks: the wall has nothing to click."""
    return page.evaluate("""() => ({
      nav: document.querySelectorAll("nav, header.site, [role=navigation]").length,
      links: Array.from(document.querySelectorAll("a[href]")).map(a => a.getAttribute("href")).filter(h => !h.startsWith("#")),
    })""")


def no_sideways_scroll(page) -> None:
    widths = page.evaluate("() => [document.scrollingElement.scrollWidth, window.innerWidth]")
    assert widths[0] <= widths[1], f"sideways scroll: {widths}"


def waiting_for_anna(code):
    """Some moves made, and the table waits for Anna (the computers have played): nothing moves now."""
    def done(state):
        game = state["game"]
        return bool(game and (game["finished"] or (len(game["log"] or []) >= 4 and game["to_act"])))
    return done


def test_the_lobby_shows_the_code_large_beside_the_qr_code(live_app, teacher, new_page, axe):
    base = live_app.base_url
    code = open_table(teacher)
    wall = new_page(viewport=WALL)
    wall.goto(f"{base}/t/{code}/projector")
    wall.wait_for_selector("#lobby-seats li")
    join(new_page(), base, code, "Anna")
    wall.wait_for_selector("#lobby-seats >> text=Anna")
    box = wall.evaluate("""() => {
      const rect = q => { const r = document.querySelector(q).getBoundingClientRect();
                          return { top: r.top, bottom: r.bottom, left: r.left, right: r.right }; };
      return { size: parseFloat(getComputedStyle(document.getElementById("join-code")).fontSize),
               players: parseFloat(getComputedStyle(document.querySelector("#lobby-seats li")).fontSize),
               code: rect("#join-code"), qr: rect("#qr"), line: rect("#join-line"),
               text: document.getElementById("join-code").textContent, status: document.getElementById("status").textContent };
    }""")
    assert box["size"] >= 64, box
    assert box["players"] >= 32, box
    assert box["text"].replace(" ", "") == code
    code_box, qr = box["code"], box["qr"]
    for rect in (code_box, qr):  # both on the wall without scrolling
        assert rect["top"] >= 0 and rect["bottom"] <= WALL["height"] and rect["right"] <= WALL["width"], box
    # Beside: side by side, at the same height.
    assert qr["left"] >= code_box["right"] and qr["top"] < code_box["bottom"] and code_box["top"] < qr["bottom"], box
    assert box["status"] == "Every seat is taken: the teacher starts the game soon."  # Anna took the one free seat
    assert no_site_navigation(wall) == {"nav": 0, "links": []}
    axe_check = Checker(axe)
    axe_check.check(wall, "projector: lobby at 1920 px")

    phone = new_page(viewport=PHONE)
    phone.goto(f"{base}/t/{code}/projector")
    phone.wait_for_selector("#lobby-seats >> text=Anna")
    no_sideways_scroll(phone)
    axe_check.check(phone, "projector: lobby at 390 px")
    axe_check.assert_clean()


def test_during_play_one_status_line_a_tile_per_seat_and_the_last_moves_large(live_app, teacher, new_page, axe):
    base = live_app.base_url
    code = open_table(teacher, seats=[{"kind": "human"}, {"kind": "computer"}, {"kind": "computer"}])
    pupil = new_page()
    join(pupil, base, code, "Anna")
    wall = new_page(viewport=WALL)
    wall.goto(f"{base}/t/{code}/projector")
    wall.wait_for_selector("#lobby-seats >> text=Anna")
    call(teacher, "POST", f"/api/tables/{code}/start")
    state = play_until(pupil, code, waiting_for_anna(code))
    game = state["game"]
    assert not game["finished"], "the hand ended before the checks"
    sentence = f"Hand 1 · {game['turn']} to play"
    wall.wait_for_function("s => document.getElementById('status').textContent === s", arg=sentence)
    wall.wait_for_function("n => document.querySelectorAll('#feed li:not(.muted)').length === n", arg=3)
    # (the wall may still be drawing an earlier turn of the same player: wait for the table as it is now)
    for name, count in game["hand_counts"].items():
        wall.wait_for_function("([n, c]) => { const t = document.querySelector(`.seat-tile[data-player='${n}'] .count b`);"
                               " return !!t && t.textContent === c; }", arg=[name, str(count)])

    seen = wall.evaluate("""() => {
      const tiles = Array.from(document.querySelectorAll(".seat-tile")).map(t => ({
        player: t.dataset.player, count: t.querySelector(".count b").textContent, onTurn: t.classList.contains("on-turn"),
        turnTag: Array.from(t.querySelectorAll(".tag")).map(x => x.textContent).includes("to play"),
        border: parseFloat(getComputedStyle(t).borderTopWidth), computer: t.textContent.includes("computer") }));
      const feed = Array.from(document.querySelectorAll("#feed li")).map(li => ({
        text: li.textContent, size: parseFloat(getComputedStyle(li).fontSize) }));
      return { tiles: tiles, feed: feed, text: document.body.innerText };
    }""")
    # One status line: the turn said in one sentence, once; no "Turn:" line, no match over.
    assert seen["text"].count(sentence) == 1, seen["text"]
    assert "Turn:" not in seen["text"] and "The match is over" not in seen["text"]
    assert seen["text"].count("to play") == 2  # the status line, and the tag on the tile of the player to play
    # A tile per seat, with its cards in hand; the player to play marked in words and by a thicker border.
    tiles = {t["player"]: t for t in seen["tiles"]}
    assert set(tiles) == set(game["players"])
    for name, tile in tiles.items():
        assert tile["count"] == str(game["hand_counts"][name]), tile
        assert tile["onTurn"] == tile["turnTag"] == (name == game["turn"]), tile
        assert tile["computer"] == (name != "Anna"), tile
    assert tiles[game["turn"]]["border"] >= 2 * max(t["border"] for t in seen["tiles"] if not t["onTurn"])
    # The last three moves, newest first, as sentences, large.
    assert len(seen["feed"]) == 3
    for line in seen["feed"]:
        assert line["size"] >= 32 and re.match(r"^\S.*\.$", line["text"]), line
    assert no_site_navigation(wall) == {"nav": 0, "links": []}
    # The sets laid down, each a stack in its set's colour where the deck gives one.
    stacks = wall.evaluate("""() => Array.from(document.querySelectorAll(".set-stack")).map(s => s.textContent)""")
    laid = sum(len(books) for books in game["books"].values())
    assert len(stacks) == laid
    axe_check = Checker(axe)
    axe_check.check(wall, "projector: a hand at 1920 px")

    phone = new_page(viewport=PHONE)
    phone.goto(f"{base}/t/{code}/projector")
    phone.wait_for_selector(".seat-tile")
    phone.wait_for_selector("#feed li:not(.muted)")
    no_sideways_scroll(phone)
    axe_check.check(phone, "projector: a hand at 390 px")
    axe_check.assert_clean()


def test_literature_shows_two_teams_with_their_scores(live_app, teacher, new_page, axe):
    base = live_app.base_url
    code = open_table(teacher, rules="literature", seats=[{"kind": "human"}] + [{"kind": "computer"}] * 5)
    pupil = new_page()
    join(pupil, base, code, "Vera")
    wall = new_page(viewport=WALL)
    wall.goto(f"{base}/t/{code}/projector")
    wall.wait_for_selector("#lobby-seats >> text=Vera")
    call(teacher, "POST", f"/api/tables/{code}/start")
    pupil.wait_for_selector("#claim-set button")  # Vera's turn: the table waits for her
    state = call(pupil, "GET", f"/api/tables/{code}")
    game = state["game"]
    wall.wait_for_function("s => document.getElementById('status').textContent === s",
                           arg=f"Hand 1 · {game['turn']} to play")
    groups = wall.evaluate("""() => Array.from(document.querySelectorAll(".team-group")).map(g => ({
      head: g.querySelector("h2").textContent, players: Array.from(g.querySelectorAll(".seat-tile")).map(t => t.dataset.player),
      sets: g.querySelectorAll(".set-stack").length }))""")
    assert [g["head"] for g in groups] == [f"Team {t}: {game['team_scores'][i]}" for i, t in enumerate("AB")]
    assert [g["players"] for g in groups] == [list(team) for team in game["teams"]]
    assert [g["sets"] for g in groups] == [len(books) for books in game["team_books"]]
    axe_check = Checker(axe)
    axe_check.check(wall, "projector: Literature at 1920 px")
    axe_check.assert_clean()


def test_the_feed_marks_the_lines_it_has_not_shown_yet(live_app, new_page):
    """feed.js on its own: sentences newest first from the log, `mine` for the reader's moves, `new` once."""
    page = new_page()
    page.goto(f"{live_app.base_url}/rules")
    out = page.evaluate("""async () => {
      const feed = await import("/static/js/feed.js");
      const deck = await import("/static/js/deck.js");
      const index = deck.deckIndex({ sets: [{ id: "jacks", name: "Jacks", cards: [{ id: "JS", title: "J♠" }, { id: "JH", title: "J♥" }] }] });
      const state = { match: { hand: 2 }, game: { prompts: [], log: [
        { type: "ask", player: "Anna", target: "Boris", set: "jacks", given: [] },
        { type: "draw", player: "Anna" },
        { type: "ask", player: "Boris", target: "Anna", set: "jacks", given: ["JS"] },
        { type: "unknown-kind", player: "Boris" } ] } };
      const lines = feed.feedLines(state, index, "Anna", 2);
      const list = document.createElement("ol");
      feed.drawFeed(list, lines.slice(1));
      const first = Array.from(list.children).map(li => li.className);
      feed.drawFeed(list, lines);
      const second = Array.from(list.children).map(li => li.className);
      const none = document.createElement("ol");
      feed.drawFeed(none, feed.feedLines({ match: { hand: 1 }, game: null }, index, null));
      return { lines: lines, first: first, second: second, none: none.textContent, table: feed.feedLines(state, index, null).map(l => l.text) };
    }""")
    assert [line["text"] for line in out["lines"]] == [
        "Boris asked you for Jacks; you gave 1 card: J♠.", "You drew a card from the stock."]
    assert [line["mine"] for line in out["lines"]] == [True, True]
    assert [line["key"] for line in out["lines"]] == ["2:2", "2:1"]
    assert out["first"] == ["mine"]  # the first drawing: nothing is new yet
    assert out["second"] == ["mine new", "mine"]
    assert out["none"] == "No moves yet."
    assert out["table"] == ["Boris asked Anna for Jacks and got 1 card: J♠.", "Anna drew a card from the stock.",
                            "Anna asked Boris for Jacks: no."]
