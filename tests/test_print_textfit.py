"""Shrink to fit, then wrap; never overflow, never cut."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reportlab.pdfbase.pdfmetrics import stringWidth

from app.printing import textfit
from app.printing.errors import PrintError
from app.printing.fonts import fonts


@pytest.fixture(scope="module")
def font():
    return fonts()


def fit(font, texts, width, height, max_size=14, min_size=8):
    return textfit.fit(texts, font.bold, font.descent, width, height, max_size, min_size)


def assert_inside(fitted, width, height):
    assert fitted.height <= height + 1e-9
    for line in fitted.lines:
        assert stringWidth(line, fitted.font, fitted.size) <= width + 1e-9


def test_short_text_keeps_the_largest_size(font):
    fitted = fit(font, ["Hamlet"], 160, 60)
    assert fitted.size == 14 and fitted.lines == ("Hamlet",)


def test_text_shrinks_before_it_wraps(font):
    width = stringWidth("A Midsummer Night's Dream", font.bold, 11)
    fitted = fit(font, ["A Midsummer Night's Dream"], width, 60)
    assert fitted.lines == ("A Midsummer Night's Dream",)
    assert 8 <= fitted.size <= 11


def test_text_too_long_for_one_line_at_the_minimum_wraps(font):
    title = "A Connecticut Yankee in King Arthur's Court"
    fitted = fit(font, [title], 100, 80)
    assert len(fitted.lines) > 1 and fitted.size >= 8
    assert " ".join(fitted.lines) == title
    assert_inside(fitted, 100, 80)


def test_a_word_wider_than_the_box_is_broken_not_cut(font):
    word = "Donaudampfschifffahrtsgesellschaftskapitän"
    fitted = fit(font, [word], 40, 200)
    assert "".join(fitted.lines) == word
    assert_inside(fitted, 40, 200)


def test_below_the_minimum_only_when_nothing_else_fits(font):
    fitted = fit(font, ["word " * 30], 60, 40)
    assert textfit.FLOOR <= fitted.size < 8
    assert_inside(fitted, 60, 40)


def test_text_that_cannot_fit_at_all_is_refused_not_cut(font):
    with pytest.raises(PrintError, match="too long to print"):
        fit(font, ["word " * 400], 60, 40)


def test_whitespace_and_decomposed_accents_are_cleaned(font):
    fitted = fit(font, ["  Les   Mise\u0301rables\n"], 160, 60)
    assert fitted.lines == ("Les Misérables",)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(alphabet=st.sampled_from("abcdefghij ÉéЖж♠♥-'.,WMm"), min_size=1, max_size=90),
                min_size=1, max_size=4),
       st.floats(20, 200), st.floats(15, 150))
def test_fitted_text_is_inside_the_box_and_nothing_is_lost(texts, width, height):
    font = fonts()
    try:
        fitted = textfit.fit(texts, font.regular, font.descent, width, height, 12, 7)
    except textfit.TextDoesNotFit:
        return
    assert_inside(fitted, width, height)
    wanted = "".join("".join(textfit.clean(t).split()) for t in texts)
    assert "".join("".join(line.split()) for line in fitted.lines) == wanted
