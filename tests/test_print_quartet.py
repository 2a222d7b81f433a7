"""Quartet cards (issue #35): the German card size, 59 x 91 mm, and the index old quartets print on each
card (A1 ... H4: its set's letter and its place in the set), from the command line and the web."""
import io
import re

import pdfplumber
from click.testing import CliRunner

from app.cli import cli
from app.decks import get_deck
from app.decks.look import card_marks, set_letter
from app.printing import geometry
from app.printing.geometry import MM_TO_PT
from app.printing.sheets import PrintOptions, render_deck

from .test_print_pdf import card_text, pts


def test_set_letters_count_as_spreadsheets_do():
    assert [set_letter(i) for i in (0, 1, 7, 25, 26, 27, 51, 52)] == ["A", "B", "H", "Z", "AA", "AB", "AZ", "BA"]


def test_each_card_is_marked_by_its_sets_letter_and_its_place():
    deck = get_deck("authors-1861")
    marks = card_marks(deck)
    assert len(set(marks.values())) == deck.card_count  # one mark per card
    first, second = deck.sets[0], deck.sets[1]
    assert marks[first.cards[0].id] == "A1" and marks[second.cards[3].id] == "B4"


def test_quartet_cards_are_59_by_91_mm_with_their_index_in_the_corner():
    deck = get_deck("authors-1861")
    data = render_deck(deck, PrintOptions(paper="a4", card="quartet", index=True))
    layout = geometry.grid_layout(geometry.PAPERS["a4"], geometry.CARDS["quartet"])
    assert (layout.cols, layout.rows) == (3, 3)  # nine to an A4 sheet
    marks = card_marks(deck)
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        page = pdf.pages[0]
        bands = sorted({(round(r["x0"]), round(r["width"], 1)) for r in page.rects if r["height"] > 20})
        assert all(abs(width - 59 * MM_TO_PT) < 0.6 for _x, width in bands), bands
        for card, rect in zip(deck.cards, layout.cards):
            text = card_text(page, pts(rect))
            assert marks[card.id] in text and re.sub(r"\s+", "", card.title) in text, (marks[card.id], text)
            assert f"{card.index}/" not in text  # the index replaces "2/4"


def test_the_command_line_and_the_web_print_the_index(client, tmp_path):
    out = tmp_path / "q.pdf"
    result = CliRunner().invoke(cli, ["print", "authors-1861", "--card", "quartet", "--index", "-o", str(out)])
    assert result.exit_code == 0, result.output
    with pdfplumber.open(out) as pdf:
        assert "A1" in pdf.pages[0].extract_text()
    refused = CliRunner().invoke(cli, ["print", "--scorepad", "--index"])
    assert refused.exit_code == 1 and "--index cannot be used with --scorepad" in refused.output
    response = client.get("/decks/authors-1861/print.pdf?card=quartet&index=1&paper=a4")
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    with pdfplumber.open(io.BytesIO(response.data)) as pdf:
        text = pdf.pages[0].extract_text()
        assert "A1" in text and "1/4" not in text
    assert 'value="quartet"' in client.get("/decks/authors-1861").get_data(as_text=True)
