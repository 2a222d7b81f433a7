"""Card sheets, read back from the PDF itself: sizes, positions, text, fonts, refusals."""
import io
import re

import pdfplumber
import pytest
from PIL import Image
from pypdf import PdfReader

from app.decks import get_deck, load_deck_file
from app.printing import geometry
from app.printing.errors import PrintError
from app.printing.geometry import MM_TO_PT, SAFE, Rect
from app.printing.sheets import PrintOptions, render_deck

TOLERANCE = 0.2 * MM_TO_PT  # 0.2 mm in points


def pts(rect: Rect) -> Rect:
    return Rect(rect.x * MM_TO_PT, rect.y * MM_TO_PT, rect.w * MM_TO_PT, rect.h * MM_TO_PT)


def near(a: float, b: float) -> bool:
    return abs(a - b) <= TOLERANCE


def contains(rect: Rect, obj) -> bool:
    slack = 0.01
    return (obj["x0"] >= rect.x - slack and obj["x1"] <= rect.right + slack
            and obj["y0"] >= rect.y - slack and obj["y1"] <= rect.top + slack)


def card_text(page, rect: Rect) -> str:
    """The text inside one card, without whitespace."""
    top = page.height - rect.top
    crop = page.within_bbox((rect.x, top, rect.right, top + rect.h))
    return re.sub(r"\s+", "", crop.extract_text() or "")


def write_deck(tmp_path, sets_yaml: str, deck_id="test-deck", language="en", title="Test deck"):
    path = tmp_path / f"{deck_id}.yaml"
    path.write_text(f"format: authors-deck/1\nid: {deck_id}\ntitle: \"{title}\"\nlanguage: {language}\n"
                    f"sets:\n{sets_yaml}", encoding="utf-8")
    return load_deck_file(path)


@pytest.fixture(scope="module")
def authors():
    deck = get_deck("authors-1861")
    data = render_deck(deck, PrintOptions(paper="letter", backs=True))
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        yield deck, data, pdf


def test_pages_are_letter_and_each_front_sheet_is_followed_by_its_backs(authors):
    deck, data, pdf = authors
    sheets = -(-deck.card_count // 9)
    assert len(pdf.pages) == 2 * sheets
    for page in pdf.pages:
        assert (page.width, page.height) == (pytest.approx(612), pytest.approx(792))
    assert PdfReader(io.BytesIO(data)).metadata.title == "Authors (1861) - cards"


def test_crop_marks_sit_on_the_cut_lines_outside_the_cards(authors):
    _, _, pdf = authors
    layout = geometry.grid_layout(geometry.PAPERS["letter"], geometry.CARDS["poker"])
    xs, ys = geometry.cut_lines(layout)
    grid = pts(layout.grid)
    page = pdf.pages[0]
    marks = [line for line in page.lines if line["linewidth"] < 0.5 and line["stroking_color"] == (0, 0, 0)]
    vertical = [m for m in marks if near(m["x0"], m["x1"]) and m["y1"] - m["y0"] > 1]
    horizontal = [m for m in marks if near(m["y0"], m["y1"]) and m["x1"] - m["x0"] > 1]
    assert len(vertical) == 2 * len(xs) and len(horizontal) == 2 * len(ys)
    for x in xs:
        assert sum(near(m["x0"], x * MM_TO_PT) for m in vertical) == 2
    for y in ys:
        assert sum(near(m["y0"], y * MM_TO_PT) for m in horizontal) == 2
    for m in vertical:
        assert m["y1"] <= grid.y or m["y0"] >= grid.top
    for m in horizontal:
        assert m["x1"] <= grid.x or m["x0"] >= grid.right


def test_colour_bands_match_the_card_rectangles_and_cards_have_no_outline(authors):
    deck, _, pdf = authors
    layout = geometry.grid_layout(geometry.PAPERS["letter"], geometry.CARDS["poker"])
    page = pdf.pages[0]
    bands = sorted((r for r in page.rects if r["fill"]), key=lambda r: (-r["y1"], r["x0"]))
    assert len(bands) == 9
    for band, card in zip(bands, map(pts, layout.cards)):
        assert near(band["x0"], card.x) and near(band["x1"], card.right) and near(band["y1"], card.top)
    dickens = deck.set("dickens").color
    assert bands[0]["non_stroking_color"] == pytest.approx(tuple(int(dickens[i:i + 2], 16) / 255 for i in (1, 3, 5)),
                                                          abs=0.01)
    assert not [r for r in page.rects if r["stroke"]]


def test_every_card_prints_its_title_set_and_index_inside_the_safe_zone(authors):
    deck, _, pdf = authors
    layout = geometry.grid_layout(geometry.PAPERS["letter"], geometry.CARDS["poker"])
    safe = [pts(card.inset(SAFE)) for card in layout.cards]
    cards = deck.cards
    for sheet, batch in enumerate(geometry.sheets(len(cards), layout.per_sheet)):
        page = pdf.pages[2 * sheet]
        for char in page.chars:
            below_grid = char["y1"] <= layout.grid.y * MM_TO_PT  # the sheet's footer line
            assert below_grid or any(contains(zone, char) for zone in safe), char["text"]
        for index, rect in zip(batch, layout.cards):
            card = cards[index]
            text = card_text(page, pts(rect))
            card_set = deck.set(card.set_id)
            for wanted in (card.title, card_set.name, f"{card.index}/{len(card_set.cards)}", card_set.note):
                assert re.sub(r"\s+", "", wanted) in text, (wanted, text)


def test_fonts_are_embedded_subsets_of_the_unicode_font(authors):
    _, data, _ = authors
    reader = PdfReader(io.BytesIO(data))
    seen = set()

    def fonts_in(resources):
        for font in (resources.get("/Font") or {}).values():
            yield font.get_object()
        for xobject in (resources.get("/XObject") or {}).values():
            xobject = xobject.get_object()
            if "/Resources" in xobject:
                yield from fonts_in(xobject["/Resources"].get_object())

    for page in reader.pages:
        for font in fonts_in(page["/Resources"].get_object()):
            name = str(font["/BaseFont"])
            seen.add(name)
            assert "/FontFile2" in font["/FontDescriptor"].get_object(), name
            assert re.fullmatch(r"/[A-Z]{6}\+\S+", name), name
    assert seen and all("DejaVu" in name for name in seen)
    assert b"Helvetica" not in data


@pytest.mark.parametrize("duplex", geometry.DUPLEX)
def test_backs_sit_at_the_mirrored_positions(duplex):
    deck = get_deck("authors-1861")
    offset = (1.5, -0.75)
    options = PrintOptions(paper="a4", backs=True, duplex=duplex, back_offset=offset)
    layout = options.layout()
    with pdfplumber.open(io.BytesIO(render_deck(deck, options))) as pdf:
        last_sheet = pdf.pages[-1]
        count = deck.card_count % 9 or 9
        grounds = [r for r in last_sheet.rects if r["fill"]]
        assert len(grounds) == count
        for front in layout.cards[:count]:
            back = pts(geometry.back_rect(front, layout.paper, duplex, offset))
            assert sum(near(r["x0"], back.x) and near(r["y0"], back.y) and near(r["x1"], back.right)
                       and near(r["y1"], back.top) for r in grounds) == 1
        assert "Authors(1861)" in re.sub(r"\s+", "", last_sheet.extract_text())


def test_a_full_back_sheet_with_long_edge_duplex_swaps_columns():
    deck = get_deck("authors-1861")
    options = PrintOptions(paper="letter", backs=True)
    with pdfplumber.open(io.BytesIO(render_deck(deck, options))) as pdf:
        grounds = [r for r in pdf.pages[1].rects if r["fill"]]
    layout = options.layout()
    first_front = pts(layout.cards[0])
    third_front = pts(layout.cards[2])
    # the back of the top-left card is the top-right position, and the other way round
    assert any(near(r["x0"], third_front.x) and near(r["y1"], first_front.top) for r in grounds)
    assert len(grounds) == 9


def test_bleed_runs_the_band_three_millimetres_past_the_cut():
    deck = get_deck("authors-1861")
    options = PrintOptions(paper="a4", card="bridge", bleed=True)
    layout = options.layout()
    assert layout.per_sheet == 9
    with pdfplumber.open(io.BytesIO(render_deck(deck, options))) as pdf:
        bands = sorted((r for r in pdf.pages[0].rects if r["fill"]), key=lambda r: (-r["y1"], r["x0"]))
    for band, card in zip(bands, map(pts, layout.cards)):
        assert near(band["x0"], card.x - 3 * MM_TO_PT) and near(band["x1"], card.right + 3 * MM_TO_PT)
        assert near(band["y1"], card.top + 3 * MM_TO_PT)


def test_playing_cards_have_red_and_black_suits_in_their_corners():
    deck = get_deck("standard-52")
    with pdfplumber.open(io.BytesIO(render_deck(deck, PrintOptions(paper="a4")))) as pdf:
        page = pdf.pages[0]
        layout = geometry.grid_layout(geometry.PAPERS["a4"], geometry.CARDS["poker"])
        ace_of_hearts = pts(layout.cards[1])
        hearts = [c for c in page.chars if c["text"] == "♥" and contains(ace_of_hearts, c)]
        spades = [c for c in page.chars if c["text"] == "♠" and contains(pts(layout.cards[0]), c)]
    assert len(hearts) >= 3  # two corners and the middle
    for heart in hearts:
        red, green, blue = heart["non_stroking_color"]
        assert red > 0.6 and green < 0.2 and blue < 0.3
    for spade in spades:
        assert max(spade["non_stroking_color"]) < 0.2
    corner = min(hearts, key=lambda c: (-c["y1"], c["x0"]))  # the top-left corner
    assert corner["x0"] < ace_of_hearts.x + ace_of_hearts.w * 0.25


def test_markup_in_deck_strings_prints_literally(tmp_path):
    deck = write_deck(tmp_path, """\
  - id: tags
    name: "<font color=red>Tags</font>"
    note: "a &amp; b"
    cards:
      - title: "<img src=x/>"
        id: img
      - title: "<b>Bold</b> & <i>italic</i>"
        id: bold
      - title: "</para><para>"
        id: para
  - id: other
    name: "Other"
    cards:
      - title: "One"
      - title: "Two"
""", title="<u>Deck</u> &lt;")
    with pdfplumber.open(io.BytesIO(render_deck(deck, PrintOptions(paper="a4", backs=True)))) as pdf:
        text = "".join(re.sub(r"\s+", "", page.extract_text()) for page in pdf.pages)
    for literal in ("<img src=x/>", "<b>Bold</b> & <i>italic</i>", "</para><para>",
                    "<font color=red>Tags</font>", "a &amp; b", "<u>Deck</u> &lt;"):
        assert re.sub(r"\s+", "", literal) in text


def test_cyrillic_and_accented_titles_print():
    for deck_id in ("russian-writers", "french-writers"):
        deck = get_deck(deck_id)
        options = PrintOptions(paper="a4")
        layout = options.layout()
        with pdfplumber.open(io.BytesIO(render_deck(deck, options))) as pdf:
            for sheet, batch in enumerate(geometry.sheets(deck.card_count, layout.per_sheet)):
                for index, rect in zip(batch, layout.cards):
                    title = deck.cards[index].title
                    assert re.sub(r"\s+", "", title) in card_text(pdf.pages[sheet], pts(rect)), title


def test_a_deck_needing_glyphs_the_font_lacks_is_refused_naming_them(tmp_path):
    deck = write_deck(tmp_path, """\
  - id: han
    name: "漢字"
    cards: [{title: "One"}, {title: "Two"}]
  - id: b
    name: "B"
    cards: [{title: "Three"}, {title: "Four ☃"}]
""")
    with pytest.raises(PrintError) as refused:
        render_deck(deck, PrintOptions())
    message = str(refused.value)
    assert "U+6F22" in message and "U+5B57" in message and "DejaVu" in message
    assert "U+2603" not in message  # the snowman is in DejaVu Sans


def test_very_long_titles_shrink_and_wrap_inside_the_safe_zone(tmp_path):
    long_title = "The Remarkably Long and Winding Title of a Work " * 3
    deck = write_deck(tmp_path, f"""\
  - id: long
    name: "An Author With A Name Long Enough To Need Two Lines Or Even Three On A Card"
    note: "born somewhere, sometime, and the note goes on"
    cards:
      - title: "{long_title.strip()}"
        note: "a note that is rather long as well, for a card"
      - title: "Antidisestablishmentarianismically-speaking-hyphenated-word"
      - title: "Short"
  - id: other
    name: "Other"
    cards: [{{title: "One"}}, {{title: "Two"}}]
""")
    options = PrintOptions(paper="letter", card="mini")
    layout = options.layout()
    with pdfplumber.open(io.BytesIO(render_deck(deck, options))) as pdf:
        page = pdf.pages[0]
        safe = [pts(card.inset(SAFE)) for card in layout.cards]
        for char in page.chars:
            assert char["y1"] <= layout.grid.y * MM_TO_PT or any(contains(zone, char) for zone in safe)
        assert re.sub(r"\s+", "", long_title) in card_text(page, pts(layout.cards[0]))


def test_images_are_drawn_inside_their_card(tmp_path):
    (tmp_path / "images").mkdir()
    Image.new("RGB", (60, 80), (200, 30, 30)).save(tmp_path / "images" / "portrait.png")
    Image.new("RGB", (120, 60), (30, 30, 200)).save(tmp_path / "images" / "work.jpg")
    deck = write_deck(tmp_path, """\
  - id: painter
    name: "A Painter"
    image: images/portrait.png
    cards:
      - title: "A Painting"
        image: images/work.jpg
        note: "1900"
      - title: "Another"
  - id: other
    name: "Other"
    cards: [{title: "One"}, {title: "Two"}]
""")
    options = PrintOptions(paper="a4")
    layout = options.layout()
    with pdfplumber.open(io.BytesIO(render_deck(deck, options))) as pdf:
        images = pdf.pages[0].images
    first, second = pts(layout.cards[0].inset(SAFE)), pts(layout.cards[1].inset(SAFE))
    assert len([i for i in images if contains(first, i)]) == 2  # the set's portrait and the card's image
    assert len([i for i in images if contains(second, i)]) == 1  # the portrait only
    assert len(images) == 2 + 1


def test_an_unreadable_image_is_refused_by_name(tmp_path):
    (tmp_path / "broken.png").write_bytes(b"not a png")
    deck = write_deck(tmp_path, """\
  - id: a
    name: "A"
    image: broken.png
    cards: [{title: "One"}, {title: "Two"}]
  - id: b
    name: "B"
    cards: [{title: "Three"}, {title: "Four"}]
""")
    with pytest.raises(PrintError, match="broken.png"):
        render_deck(deck, PrintOptions())


def test_the_same_deck_makes_the_same_bytes():
    deck = get_deck("literature-54")
    options = PrintOptions(paper="a4", backs=True, duplex="short")
    assert render_deck(deck, options) == render_deck(deck, options)


@pytest.mark.parametrize("bad", [dict(paper="a5"), dict(card="jumbo"), dict(duplex="sideways"),
                                 dict(back_offset=(25.0, 0.0))])
def test_bad_options_are_refused(bad):
    with pytest.raises(PrintError):
        PrintOptions(**bad)
