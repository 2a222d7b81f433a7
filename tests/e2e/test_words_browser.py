"""The words of the last class walk in a real browser (issue #33): the feed says "got a card of Washington
Irving" (never "1 card: 1 card of"), tells the namer of herself as "you" and the others in the third
person, in English and in Russian (ты); the projector's lobby stops waiting once every seat is taken; the
projector's end says who won the match, with points, once and large; a hand's end says who won it and
that the next hand is coming. AUTHORS_SHOTS=<folder> keeps screenshots of the phone and the wall."""
from __future__ import annotations

import os

from .a11y_support import call, join, open_table, play_until

WALL = {"width": 1920, "height": 1080}
PHONE = {"width": 390, "height": 844}

# A recall table's reader knows the set of a card she has not named yet, not its title: the deck of the
# page with one set, its cards named by tokens whose titles are null.
SENTENCES = """async (me) => {
  const [{ deckIndex }, { say }] = await Promise.all(["deck", "events"].map(name => import(`/static/js/${name}.js`)));
  const index = Object.assign(deckIndex({ sets: [{ id: "irving", name: "Washington Irving", cards: [] }] }), {
    recall: true, cards: { w1: { id: "w1", set: "irving", title: null }, w2: { id: "w2", set: "irving", title: null } } });
  const ask = given => ({ type: "ask", player: "Anna", target: "Boris", set: "irving", card: null, given: given });
  const hide = new Set(["w1", "w2"]);
  const wrong = { type: "answer", player: "Anna", card: "w1", text: "", title: null, correct: false, verdict: "wrong" };
  const right = { type: "answer", player: "Anna", card: "w1", text: "", title: null, correct: true, verdict: "right" };
  return [say(ask(["w1"]), index, me, hide), say(ask(["w1", "w2"]), index, me, hide), say(wrong, index, me),
          say(right, index, me), say(Object.assign({}, wrong, { text: null }), index, me)];
}"""


def shoot(page, name):
    folder = os.environ.get("AUTHORS_SHOTS")
    if folder:
        os.makedirs(folder, exist_ok=True)
        page.screenshot(path=os.path.join(folder, name), full_page=True)


def test_the_feed_says_a_card_of_an_author_and_you_to_the_namer(live_app, teacher, new_page):
    base = live_app.base_url
    code = open_table(teacher)
    page = new_page()
    page.goto(f"{base}/t/{code}/projector")
    page.wait_for_selector("#lobby-seats li")
    assert page.evaluate(SENTENCES, "Anna") == [
        "You asked Boris for Washington Irving and got a card of Washington Irving.",
        "You asked Boris for Washington Irving and got 2 cards of Washington Irving.",
        "You named a card of Washington Irving: not right.",
        "You named a card of Washington Irving: right, +1.",
        "You passed on naming a card of Washington Irving."]
    assert page.evaluate(SENTENCES, "Boris") == [
        "Anna asked you for Washington Irving; you gave a card of Washington Irving.",
        "Anna asked you for Washington Irving; you gave 2 cards of Washington Irving.",
        "Anna named a card of Washington Irving: not right.",
        "Anna named a card of Washington Irving: right, +1.",
        "Anna passed on naming a card of Washington Irving."]
    assert page.evaluate(SENTENCES, None)[:2] == [
        "Anna asked Boris for Washington Irving and got a card of Washington Irving.",
        "Anna asked Boris for Washington Irving and got 2 cards of Washington Irving."]
    page.goto(f"{base}/t/{code}/projector?lang=ru")
    page.wait_for_selector("#lobby-seats li")
    russian = page.evaluate(SENTENCES, "Anna")
    assert russian[0] == "Ты попросил(а) у Boris: Washington Irving — и получил(а): карта набора Washington Irving."
    assert russian[1] == "Ты попросил(а) у Boris: Washington Irving — и получил(а): 2 карты автора Washington Irving."
    assert russian[2] == "Ты назвал(а) карту автора Washington Irving: неверно."


def test_the_projector_lobby_stops_waiting_once_every_seat_is_taken(live_app, teacher, new_page):
    base = live_app.base_url
    code = open_table(teacher, rules="go-fish", seats=[{"kind": "human"}, {"kind": "computer"}])
    wall = new_page(viewport=WALL)
    wall.goto(f"{base}/t/{code}/projector")
    wall.wait_for_selector("#lobby-seats li.free")
    assert wall.inner_text("#status") == "Waiting for players…"
    join(new_page(viewport=PHONE), base, code, "Anna")
    wall.wait_for_function("() => !document.querySelector('#lobby-seats li.free')")
    wall.wait_for_function("() => document.getElementById('status').textContent.startsWith('Every seat')")
    assert wall.inner_text("#status") == "Every seat is taken: the teacher starts the game soon."
    shoot(wall, "projector-lobby-full-1920.png")


def test_the_projector_says_who_won_the_match_once_and_large(live_app, teacher, new_page):
    base = live_app.base_url
    code = open_table(teacher, rules="go-fish", deck="authors-1861", seats=[{"kind": "human"}, {"kind": "computer"}],
                      options={"name_the_work": True}, hands=2)
    phone = new_page(viewport=PHONE)
    join(phone, base, code, "Anna")
    wall = new_page(viewport=WALL)
    wall.goto(f"{base}/t/{code}/projector")
    call(teacher, "POST", f"/api/tables/{code}/start")
    # The first hand's end: who won it, and that the next hand is coming (on the wall and the phone).
    play_until(phone, code, lambda s: s["match"]["hands_played"] >= 1, deadline=60)
    wall.wait_for_selector("#summary #hand-winners")
    said = wall.inner_text("#summary")
    assert "won hand 1." in said or "tied for hand 1." in said, said
    assert "Hand 2 " in wall.inner_text("#summary .next-hand")
    assert "Hand 1 is over" not in said and "won by" not in said
    shoot(wall, "projector-hand-end-1920.png")
    # A computer's bonus is not set beside Anna's: "—", and a sentence says why.
    assert wall.locator("#summary td.computer-bonus").first.inner_text() == "—"
    assert "Computers do not name works from memory" in said
    state = play_until(phone, code, lambda s: s["status"] == "finished", deadline=90)
    winners = state["match"]["winners"]
    wall.wait_for_selector("#summary #final-scores")
    wall.wait_for_function("() => document.getElementById('projector').classList.contains('is-over')")
    status = wall.inner_text("#status")
    assert status.startswith(" and ".join(winners) if len(winners) < 3 else winners[0]), status
    assert "won the match with" in status or "tied for the match with" in status, status
    text = wall.inner_text(".projector-head") + wall.inner_text("#summary")  # what the wall shows of the end
    for old in ("The match is over", "Hand 2 is over", "Winner:", "won by"):
        assert old not in text, (old, text)
    size = wall.evaluate("() => parseFloat(getComputedStyle(document.getElementById('status')).fontSize)")
    assert size >= 48, size  # read from the back of the room
    box = wall.evaluate("() => document.getElementById('status').getBoundingClientRect().bottom")
    assert box <= WALL["height"], box
    shoot(wall, "projector-match-end-1920.png")
    phone.wait_for_selector("#match-winners")
    assert "won the match with" in phone.inner_text("#match-winners") or "tied" in phone.inner_text("#match-winners")
    shoot(phone, "phone-match-end-390.png")
