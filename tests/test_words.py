"""The words of the last class walk (issue #33, "Words" and "Still there from the last walk"): Russian says
ты to a student on every screen she sees; computer players are named in the table's language; a recall
table's play screen links nowhere that lists the works; the play screen's header is bare (no teacher's
links on a device passed around); the new-table form says one true sentence about naming."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.extract import extract
from babel.messages.pofile import read_po

from .web_support import get_state, open_table, seat_student, teacher_client

ROOT = Path(__file__).resolve().parents[1]
APP = ROOT / "app"

# Every file whose words a student reads: the play screen's scripts, the join and play pages, the moves
# the engine refuses, the services' answers to a seat, the errors any page may show.
STUDENT_FILES = [
    *(APP / "static" / "js" / name for name in ("a11y.js", "cards.js", "common.js", "deck.js", "events.js",
                                               "feed.js", "join.js", "play.js", "table.js", "reach.js")),
    APP / "templates" / "play" / "play.html", APP / "templates" / "tables" / "join.html",
    APP / "engine" / "game.py", APP / "services" / "deals.py", APP / "services" / "moves.py",
    APP / "services" / "recall.py", APP / "web" / "errors.py", APP / "web" / "asking.py", APP / "web" / "guard.py",
    APP / "store" / "codes.py",
]
METHODS = {".js": "javascript", ".py": "python", ".html": "jinja2"}
KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "N_": None, "N_plural": (1, 2), "IllegalMove": (2,)}
# The polite "вы" and its forms, and the polite imperative ("выберите", "попробуйте"): a child is "ты".
POLITE = re.compile(r"(?<![а-яё])(вы|вас|вам|вами|ваш\w*|\w+(?:ите|йте)(?:сь)?)(?![а-яё])", re.IGNORECASE)
NOT_POLITE = {"сайте"}
# Said in those files to a teacher, or to a program setting a game up (a deal given whole), never to a child.
NOT_TO_A_CHILD = {
    "Log in first", "Log in as a teacher first: opening tables, the deck studio and reports are for teachers.",
    '"stock" goes with "hands": give the whole deal, or neither', 'these rules are not played in teams; leave out "teams"',
    'these rules have no stock; leave out "stock"'}


def student_messages() -> set[str]:
    found: set[str] = set()
    for path in STUDENT_FILES:
        if not path.exists():
            continue
        with open(path, "rb") as handle:
            for _line, message, _comments, _context in extract(METHODS[path.suffix], handle, keywords=KEYWORDS):
                found.add(message[0] if isinstance(message, tuple) else message)
    return {m for m in found if m and m not in NOT_TO_A_CHILD}


def test_russian_says_ty_to_a_student_on_every_screen_she_sees():
    with open(APP / "translations" / "ru" / "LC_MESSAGES" / "messages.po", "rb") as handle:
        catalog = read_po(handle, locale="ru")
    messages = student_messages()
    assert len(messages) > 150  # the extraction found the play screen's words
    polite = {}
    for message in messages:
        entry = catalog.get(message)
        if entry is None or not entry.string:
            continue
        texts = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        hits = [h.group(0) for text in texts for h in POLITE.finditer(text) if h.group(0).lower() not in NOT_POLITE]
        if hits:
            polite[message] = hits
    assert not polite, polite


@pytest.mark.parametrize("language,word", [("en", "Computer"), ("ru", "Компьютер"), ("fr", "Ordinateur"),
                                           ("pt", "Computador"), ("it", "Computer")])
def test_computers_are_named_in_the_tables_language(play_app, language, word):
    teacher = teacher_client(play_app)
    code = open_table(teacher, language=language, seats=[{"kind": "human"}, {"kind": "computer"},
                                                         {"kind": "human"}, {"kind": "computer"}])
    names = [seat["name"] for seat in get_state(teacher, code)["seats"]]
    assert names[1] == f"{word} 1" and names[3] == f"{word} 2", names
    # A computer put in a seat later, before play, takes the next number in the same language.
    response = teacher.patch(f"/api/tables/{code}/seats/0", json={"kind": "computer"})
    assert response.status_code == 200, response.get_json()
    assert get_state(teacher, code)["seats"][0]["name"] == f"{word} 3"


def test_the_teachers_interface_language_does_not_name_a_russian_tables_computers(play_app):
    teacher = teacher_client(play_app)
    teacher.get("/?lang=fr")  # the teacher reads French; the table plays in Russian
    code = open_table(teacher, language="ru", rules="go-fish", seats=[{"kind": "human"}, {"kind": "computer"}])
    assert get_state(teacher, code)["seats"][1]["name"] == "Компьютер 1"


def links_of(html: str) -> list[str]:
    return re.findall(r'<a\b[^>]*\bhref="([^"]*)"', html)


RECALL = {"rules": "go-fish", "deck": "authors-1861", "options": {"name_the_work": True}}


def test_a_recall_tables_play_screen_links_to_no_list_of_works(play_app):
    teacher = teacher_client(play_app)
    code = open_table(teacher, **RECALL, seats=[{"kind": "human"}, {"kind": "computer"}])
    student = seat_student(play_app, code, "Anna")
    html = student.get(f"/t/{code}/play").get_data(as_text=True)
    links = links_of(html)
    assert links, html[:500]  # the page has links (the rules, the languages), only none to the works
    assert "/" not in links and not any(link.startswith("/decks") or link.startswith("/?") for link in links), links
    assert 'class="brand"' in html  # the name is there, as words


def test_a_table_without_recall_keeps_the_library_link(play_app):
    teacher = teacher_client(play_app)
    code = open_table(teacher, rules="go-fish", deck="authors-1861", seats=[{"kind": "human"}, {"kind": "computer"}])
    student = seat_student(play_app, code, "Anna")
    assert "/" in links_of(student.get(f"/t/{code}/play").get_data(as_text=True))


def test_a_pass_and_play_screen_shows_children_no_teachers_links(play_app):
    teacher = teacher_client(play_app)
    code = open_table(teacher, **RECALL, seats=[{"kind": "human", "here": True, "name": "Vera"},
                                                {"kind": "human", "here": True, "name": "Gleb"}, {"kind": "computer"}])
    teacher.post(f"/api/tables/{code}/start")
    html = teacher.get(f"/t/{code}/play").get_data(as_text=True)
    links = links_of(html)
    for page in ("/studio", "/classes", "/reports", "/account", "/tables", "/teacher"):
        assert not any(link.startswith(page) for link in links), (page, links)
    assert "Log out" not in html and "Ms Teacher" not in html
    assert "/rules" in links  # the rules stay one tap away
    # The teacher's own pages keep the header.
    assert any(link.startswith("/studio") for link in links_of(teacher.get("/tables/new").get_data(as_text=True)))


def test_the_new_table_form_says_one_sentence_about_naming(play_app):
    teacher = teacher_client(play_app)
    html = teacher.get("/tables/new?rules=classic").get_data(as_text=True)
    row = re.search(r'id="help_name_the_work">(.*?)</span></span>', html, re.S)
    assert row, "no help for name_the_work"
    text = re.sub(r"<[^>]+>", "", row.group(1)).strip()
    assert text.startswith("Off: no work is named.")
    assert "Each card received by an ask asks its receiver" not in html  # the generic help, said nowhere
    words = teacher.get("/tables/new/words?rules=classic&opt_name_the_work=yes").get_json()
    assert words["naming"].startswith("The asker types the work")
