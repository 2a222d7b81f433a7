"""The paper a printout goes on when none is asked: the reader's, by the region of her browser's first
language (issue #33: an English deck printed by a teacher in Britain came out on US Letter). en-US and
fr-CA: Letter; en-GB, a bare "en", and everything else: A4. The print form preselects it, and a paper
asked for in the query always wins."""
import io

import pytest
from pypdf import PdfReader

from app.printing.geometry import MM_TO_PT

A4_WIDTH = pytest.approx(210 * MM_TO_PT)
LETTER_WIDTH = pytest.approx(612)


def width_of(response):
    assert response.status_code == 200, response.data[:300]
    return PdfReader(io.BytesIO(response.data)).pages[0].mediabox.width


@pytest.mark.parametrize("accept,paper", [
    ("en-GB,en;q=0.9", "a4"), ("en-US,en;q=0.9", "letter"), ("en", "a4"), ("fr-CA,fr;q=0.8", "letter"),
    ("fr-FR", "a4"), ("ru-RU,ru;q=0.9,en-US;q=0.8", "a4"), ("pt-BR", "a4"), ("", "a4")])
def test_an_english_deck_goes_on_the_readers_paper(client, accept, paper):
    response = client.get("/decks/authors-1861/print.pdf", headers={"Accept-Language": accept} if accept else {})
    assert width_of(response) == (LETTER_WIDTH if paper == "letter" else A4_WIDTH)
    assert f'filename="authors-1861-{paper}.pdf"' in response.headers["Content-Disposition"]
    assert "Accept-Language" in response.headers["Vary"]


def test_the_paper_asked_for_wins_over_the_readers(client):
    british = {"Accept-Language": "en-GB"}
    assert width_of(client.get("/decks/authors-1861/print.pdf?paper=letter", headers=british)) == LETTER_WIDTH
    american = {"Accept-Language": "en-US"}
    assert width_of(client.get("/decks/authors-1861/print.pdf?paper=a4", headers=american)) == A4_WIDTH


def test_the_score_pad_and_alignment_page_follow_the_reader_too(client):
    british, american = {"Accept-Language": "en-GB"}, {"Accept-Language": "en-US"}
    assert width_of(client.get("/print/scorepad.pdf", headers=british)) == A4_WIDTH
    assert width_of(client.get("/print/scorepad.pdf", headers=american)) == LETTER_WIDTH
    assert width_of(client.get("/print/alignment.pdf", headers=british)) == A4_WIDTH


def test_the_print_form_preselects_the_readers_paper(client):
    british = client.get("/decks/authors-1861", headers={"Accept-Language": "en-GB"}).get_data(as_text=True)
    assert '<option value="a4" selected>A4</option>' in british
    assert '<option value="letter">US Letter</option>' in british
    american = client.get("/decks/authors-1861", headers={"Accept-Language": "en-US"}).get_data(as_text=True)
    assert '<option value="a4">A4</option>' in american
    assert '<option value="letter" selected>US Letter</option>' in american
