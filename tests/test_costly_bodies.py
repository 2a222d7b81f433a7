"""Bodies made to cost the server seconds are refused before the work: a deck file of thousands of
tiny sets, or of hundreds of thousands of empty lists, stops at the first YAML node past what any deck
needs; a paste of more rows than the largest deck has cards is refused before it is read; a long file's
problems are shown with the lines around them, not every line. (The CPU each costs is measured by
bench/costly_requests.py, not here.)"""
from __future__ import annotations

import io
import re

import pytest

from app.decks import DeckError, load_deck_text
from app.decks.loader import DECK_MAX_NODES
from app.services.studio import MAX_PASTE_ROWS

from .web_support import teacher_client

HEAD = {"title": "Paste", "language": "en", "set_label": "", "card_label": ""}


def tiny_sets(count: int) -> str:
    lines = ["format: authors-deck/1", "id: many", "title: Many", "sets:"]
    for i in range(count):
        lines += [f"  - id: s{i}", f"    name: S{i}", "    cards: [{title: A%d}, {title: B%d}]" % (i, i)]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("text", [
    tiny_sets(3000),
    "sets: [" + "[]," * 300_000 + "[]]\n",   # libyaml reads it
    "sets: [" + "[]," * 300_000 + "[]]",     # no final line break: the Python parser reads it, after a count
])
def test_a_file_of_more_nodes_than_any_deck_is_refused_at_the_first_node_too_many(text):
    with pytest.raises(DeckError) as refused:
        load_deck_text(text)
    problems = refused.value.problems
    assert len(problems) == 1 and f"more than {DECK_MAX_NODES:,} values" in str(problems[0])


def test_both_parsers_place_the_node_too_many_alike():
    where = []
    for text in ("sets: [" + "[]," * 30_000 + "[]]\n", "sets: [" + "[]," * 30_000 + "[]]"):
        with pytest.raises(DeckError) as refused:
            load_deck_text(text)
        where.append((refused.value.problems[0].line, refused.value.problems[0].column))
    assert where[0] == where[1] == (1, 3 * DECK_MAX_NODES - 1)  # the mapping, "sets", the list, then each []


def test_a_deck_of_61_sets_still_hears_how_many_sets_it_has():
    with pytest.raises(DeckError, match="a deck needs 2 to 60 sets; this one has 61"):
        load_deck_text(tiny_sets(61))


def test_a_deck_of_the_most_sets_is_read_whole():
    assert len(load_deck_text(tiny_sets(60)).sets) == 60


def test_a_long_files_problems_are_shown_with_the_lines_around_them(app):
    text = re.sub(r"(    name: S\d+\n)", r"\1    note: 1800\n", tiny_sets(59))  # 240 lines
    text = text.replace("name: S30\n", "name: S30\n    colour: red\n")
    page = teacher_client(app).post("/studio/upload", data={"text": text})
    assert page.status_code == 400
    html = page.get_data(as_text=True)
    bad = text.splitlines().index("    colour: red") + 1
    assert re.search(rf'<tr class="bad" id="line-{bad}">.*unknown key', html, re.S)
    shown = re.findall(r'id="line-(\d+)"', html)
    assert [int(n) for n in shown] == list(range(bad - 2, bad + 3))  # not the file's 240 lines
    assert 'class="gap"' in html


def test_a_paste_of_more_rows_than_a_deck_has_cards_is_refused_before_it_is_read(app):
    rows = "\n".join(f"Set {i}\tWork {i}" for i in range(20_000))
    for action in ("preview", "create"):
        page = teacher_client(app).post("/studio/paste", data={**HEAD, "rows": rows, "action": action})
        html = page.get_data(as_text=True)
        assert "these are 20000 rows" in html.replace(",", "").replace("\u202f", "").replace("\xa0", "")
        assert f"paste at most {MAX_PASTE_ROWS} rows" in html
        assert 'id="sheet-rows"' not in html and "data-row=" not in html  # no row was read
        assert "Work 19999" in html  # the text is kept in the form, to mend


def test_a_paste_of_many_rows_within_the_limit_is_still_read_row_by_row(app):
    rows = "\n".join(f"Set {i // 8}\tWork {i}" for i in range(MAX_PASTE_ROWS))
    page = teacher_client(app).post("/studio/paste", data={**HEAD, "rows": rows})
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and "Work 959" in html and "these rows make 120" in html


def test_an_upload_as_a_file_is_refused_the_same_way(app):
    data = {"file": (io.BytesIO(("sets: [" + "[]," * 300_000 + "[]]").encode()), "deck.yaml")}
    page = teacher_client(app).post("/studio/upload", data=data)
    assert page.status_code == 400 and f"more than {DECK_MAX_NODES:,} values" in page.get_data(as_text=True)
