"""The Print button of a deck page and the PDF behind it."""
import io

import pytest
from pypdf import PdfReader

from app.printing.geometry import MM_TO_PT


def test_every_deck_page_has_a_print_form(client):
    page = client.get("/decks/authors-1861")
    assert page.status_code == 200
    assert b'action="/decks/authors-1861/print.pdf"' in page.data
    assert b"Print (PDF)" in page.data


def test_the_pdf_with_default_options(client):
    response = client.get("/decks/authors-1861/print.pdf", headers={"Accept-Language": "en-US,en;q=0.9"})
    assert response.status_code == 200
    assert response.mimetype == "application/pdf"
    assert 'filename="authors-1861-letter.pdf"' in response.headers["Content-Disposition"]  # the reader's paper
    reader = PdfReader(io.BytesIO(response.data))
    assert len(reader.pages) == 5  # 44 cards, 9 a sheet, no backs unless asked
    assert reader.pages[0].mediabox.width == pytest.approx(612)


def test_the_pdf_with_the_form_options(client):
    response = client.get("/decks/russian-writers/print.pdf?paper=&card=bridge&backs=1&duplex=short&bleed=1")
    assert response.status_code == 200
    reader = PdfReader(io.BytesIO(response.data))
    assert reader.pages[0].mediabox.height == pytest.approx(297 * MM_TO_PT)  # "ru": A4
    assert len(reader.pages) == 2 * 5  # 40 bridge cards with bleed: 9 a sheet, each with its backs
    assert "по короткому краю" in reader.metadata.subject  # short-edge duplex, said in the deck's language


@pytest.mark.parametrize("query,fragment", [
    ("paper=a3", b"paper"), ("card=jumbo", b"card"), ("backs=maybe", b"backs"), ("bleed=2", b"bleed"),
    ("duplex=sideways", b"duplex"), ("back_offset_x=left", b"back_offset_x"), ("backs=1&back_offset_y=99", b"offset"),
])
def test_bad_options_are_a_400_with_a_message(client, query, fragment):
    response = client.get(f"/decks/authors-1861/print.pdf?{query}")
    assert response.status_code == 400
    assert fragment in response.data


def test_bad_options_answer_json_to_the_api(client):
    response = client.get("/decks/authors-1861/print.pdf?paper=a3", headers={"Accept": "application/json"})
    assert response.status_code == 400
    assert "paper" in response.get_json()["error"]["message"]


def test_an_unknown_deck_is_a_404(client):
    response = client.get("/decks/no-such-deck/print.pdf")
    assert response.status_code == 404
    assert b"There is no deck" in response.data
