"""Sheet geometry, in millimetres, with numbers worked out by hand."""
import itertools

import pytest

from app.printing import geometry
from app.printing.geometry import CARDS, MIN_MARGIN, PAPERS, Rect, back_rect, crop_marks, cut_lines, grid_layout


def approx(value):
    return pytest.approx(value, abs=1e-6)


def test_nine_poker_cards_centred_on_letter():
    layout = grid_layout(PAPERS["letter"], CARDS["poker"])
    assert (layout.cols, layout.rows) == (3, 3)
    # 3 x 63.5 = 190.5 of 215.9 leaves 12.7 a side; 3 x 88.9 = 266.7 of 279.4 leaves 6.35 top and bottom
    first, last = layout.cards[0], layout.cards[-1]
    assert (first.x, first.top) == (approx(12.7), approx(279.4 - 6.35))
    assert (last.right, last.y) == (approx(215.9 - 12.7), approx(6.35))
    assert layout.cards[1].x == approx(12.7 + 63.5)  # cards touch: one cut between neighbours
    assert layout.cards[3].top == approx(first.y)


def test_nine_poker_cards_centred_on_a4():
    layout = grid_layout(PAPERS["a4"], CARDS["poker"])
    assert layout.per_sheet == 9
    assert layout.cards[0].x == approx(9.75)
    assert layout.cards[0].top == approx(297 - 15.15)


@pytest.mark.parametrize("paper,card", list(itertools.product(PAPERS, CARDS)))
@pytest.mark.parametrize("bleed", [0.0, geometry.BLEED])
def test_every_layout_fits_centred_and_never_overlaps(paper, card, bleed):
    layout = grid_layout(PAPERS[paper], CARDS[card], bleed)
    width, height = PAPERS[paper]
    grid = layout.grid
    assert grid.x >= MIN_MARGIN - 1e-9 and grid.y >= MIN_MARGIN - 1e-9
    assert grid.x == approx(width - grid.right) and grid.y == approx(height - grid.top)
    for a, b in itertools.combinations(layout.cards, 2):
        apart_x = max(a.x, b.x) - min(a.right, b.right)
        apart_y = max(a.y, b.y) - min(a.top, b.top)
        assert max(apart_x, apart_y) >= 2 * bleed - 1e-9  # never overlapping, bleed areas included
    assert layout.cards == tuple(sorted(layout.cards, key=lambda r: (-r.y, r.x)))  # row by row from the top


def test_card_counts_per_sheet():
    counts = {(paper, card, bleed): grid_layout(PAPERS[paper], CARDS[card], bleed).per_sheet
              for paper in PAPERS for card in CARDS for bleed in (0.0, 3.0)}
    assert counts[("a4", "poker", 0.0)] == counts[("letter", "poker", 0.0)] == 9
    assert counts[("a4", "bridge", 0.0)] == counts[("letter", "bridge", 0.0)] == 9
    assert counts[("a4", "bridge", 3.0)] == 9  # bleed fits bridge cards on A4 without losing one
    assert counts[("a4", "poker", 3.0)] == 6 and counts[("letter", "poker", 3.0)] == 4
    assert counts[("a4", "mini", 0.0)] == 16 and counts[("a4", "tarot", 0.0)] == 4


def test_bleed_keeps_six_millimetres_between_cards():
    layout = grid_layout(PAPERS["a4"], CARDS["poker"], 3.0)
    assert (layout.cols, layout.rows) == (2, 3)
    assert layout.cards[1].x - layout.cards[0].right == approx(6.0)
    assert layout.cards[0].y - layout.cards[2].top == approx(6.0)
    assert layout.grid.x == approx(layout.cards[0].x - 3.0)


def test_a_card_bigger_than_the_paper_is_refused():
    with pytest.raises(geometry.LayoutError):
        grid_layout((100.0, 100.0), CARDS["tarot"])


def test_cut_lines_of_touching_cards_are_shared():
    xs, ys = cut_lines(grid_layout(PAPERS["letter"], CARDS["poker"]))
    assert xs == approx((12.7, 76.2, 139.7, 203.2))
    assert len(ys) == 4


@pytest.mark.parametrize("bleed", [0.0, 3.0])
def test_crop_marks_continue_every_cut_line_outside_the_grid(bleed):
    layout = grid_layout(PAPERS["letter"], CARDS["poker"], bleed)
    grid = layout.grid
    width, height = PAPERS["letter"]
    xs, ys = cut_lines(layout)
    marks = crop_marks(layout)
    vertical = [m for m in marks if m.x1 == m.x2]
    horizontal = [m for m in marks if m.y1 == m.y2]
    assert sorted({m.x1 for m in vertical}) == approx(list(xs))
    assert sorted({m.y1 for m in horizontal}) == approx(list(ys))
    assert len(vertical) == 2 * len(xs) and len(horizontal) == 2 * len(ys)
    for m in vertical:
        low, high = sorted((m.y1, m.y2))
        assert high <= grid.y - geometry.MARK_GAP + 1e-9 or low >= grid.top + geometry.MARK_GAP - 1e-9
        assert 0 < low and high < height and high - low > 2
    for m in horizontal:
        low, high = sorted((m.x1, m.x2))
        assert high <= grid.x - geometry.MARK_GAP + 1e-9 or low >= grid.right + geometry.MARK_GAP - 1e-9
        assert 0 < low and high < width and high - low > 2


def test_long_edge_backs_mirror_left_and_right():
    paper = PAPERS["letter"]
    front = Rect(12.7, 184.15, 63.5, 88.9)
    assert back_rect(front, paper, "long") == Rect(approx(139.7), approx(184.15), 63.5, 88.9)
    assert back_rect(front, paper, "short") == Rect(approx(12.7), approx(6.35), 63.5, 88.9)
    moved = back_rect(front, paper, "long", (1.5, -0.5))
    assert (moved.x, moved.y) == (approx(141.2), approx(183.65))


@pytest.mark.parametrize("duplex", geometry.DUPLEX)
def test_backs_of_a_full_sheet_land_on_the_grid_and_mirroring_twice_is_nothing(duplex):
    layout = grid_layout(PAPERS["a4"], CARDS["poker"])
    backs = [back_rect(r, layout.paper, duplex) for r in layout.cards]
    assert sorted((round(r.x, 6), round(r.y, 6)) for r in backs) == \
        sorted((round(r.x, 6), round(r.y, 6)) for r in layout.cards)
    for front in layout.cards:
        again = back_rect(back_rect(front, layout.paper, duplex), layout.paper, duplex)
        assert (again.x, again.y) == (approx(front.x), approx(front.y))
    # the first card (top left) is backed top right (long edge) or bottom left (short edge)
    expected = layout.cards[2] if duplex == "long" else layout.cards[6]
    assert (backs[0].x, backs[0].y) == (approx(expected.x), approx(expected.y))


@pytest.mark.parametrize("language,paper", [
    ("en", "letter"), ("en-US", "letter"), ("en-CA", "letter"), ("es-MX", "letter"), ("fr-CA", "letter"),
    ("en-GB", "a4"), ("en-AU", "a4"), ("fr", "a4"), ("ru", "a4"), ("pt-BR", "a4"), ("es", "a4"),
    ("zh-Hant-TW", "a4"), ("es-419", "a4"), ("en_PH", "letter"),
])
def test_default_paper_follows_the_language(language, paper):
    assert geometry.default_paper(language) == paper


def test_sheets_split_cards_in_order():
    assert [list(r) for r in geometry.sheets(20, 9)] == [list(range(9)), list(range(9, 18)), [18, 19]]
