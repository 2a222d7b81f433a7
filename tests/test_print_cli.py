"""`authors print`: what it writes, and how it refuses (one line on stderr, exit 1)."""
import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pdfplumber
import pytest
import reportlab
from click.testing import CliRunner
from pypdf import PdfReader

from app.cli import cli
from app.printing import alignment, geometry, scorepad
from app.printing.geometry import MM_TO_PT

VERA = Path(reportlab.__file__).parent / "fonts"  # Bitstream Vera: Latin only, no Cyrillic, no suits


def run(*args, env=None):
    result = CliRunner().invoke(cli, ["print", *map(str, args)], env=env)
    return result


def refused(result, *fragments):
    assert result.exit_code == 1, result.output
    message = result.stderr.strip()
    assert "Traceback" not in message
    for fragment in fragments:
        assert fragment in message, message
    return message


def pages(path) -> int:
    return len(PdfReader(path).pages)


def test_prints_a_builtin_deck_with_backs(tmp_path):
    out = tmp_path / "cards.pdf"
    result = run("authors-1861", "--backs", "-o", out)
    assert result.exit_code == 0, result.output
    assert "44 cards" in result.stdout
    assert pages(out) == 10
    assert PdfReader(out).pages[0].mediabox.width == pytest.approx(612)  # "en": US Letter


def test_default_file_name_and_paper(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert run("russian-writers", "--card", "mini").exit_code == 0
    reader = PdfReader(tmp_path / "russian-writers-a4.pdf")  # "ru": A4
    assert reader.pages[0].mediabox.height == pytest.approx(297 * MM_TO_PT)
    assert len(reader.pages) == 3  # 40 mini cards, 16 a sheet, no backs


def test_prints_a_deck_file_to_standard_output(tmp_path):
    result = run(Path(__file__).parents[1] / "decks" / "standard-52.yaml", "--paper", "a4", "--duplex", "short",
                 "-o", "-")
    assert result.exit_code == 0
    assert result.stdout_bytes.startswith(b"%PDF")
    assert len(PdfReader(io.BytesIO(result.stdout_bytes)).pages) == 12  # --duplex implies --backs


def test_bleed_that_costs_cards_says_so(tmp_path):
    result = run("standard-52", "--bleed", "--paper", "a4", "-o", tmp_path / "b.pdf")
    assert result.exit_code == 0
    assert "6 poker cards fit" in result.stderr


@pytest.mark.parametrize("args,fragments", [
    (["no-such-deck"], ['no deck "no-such-deck"', "authors-1861"]),
    (["missing.yaml"], ["no deck file missing.yaml"]),
    ([], ["give a deck id or deck file"]),
    (["authors-1861", "--paper", "a5"], ["--paper", "a5"]),
    (["authors-1861", "--card", "jumbo"], ["--card"]),
    (["authors-1861", "--duplex", "diagonal"], ["--duplex"]),
    (["authors-1861", "--back-offset-x", "left"], ["--back-offset-x"]),
    (["authors-1861", "--back-offset-y", "40"], ["back offset", "40"]),
    (["authors-1861", "--scorepad"], ["cannot be printed together"]),
    (["authors-1861", "--players", "3"], ["--players", "DECK"]),
    (["--rules", "standard", "--backs"], ["--backs"]),
    (["--rules", "poker"], ["--rules"]),
    (["--scorepad", "--players", "1"], ["2 to 12 players"]),
    (["--scorepad", "--players", "0"], ["2 to 12 players"]),
    (["--scorepad", "--hands", "31"], ["1 to 30 hands"]),
    (["authors-1861", "--no-such-option"], ["no-such-option"]),
])
def test_mistakes_are_one_line_and_exit_1(args, fragments):
    message = refused(run(*args), *fragments)
    assert len(message.splitlines()) == 1


def test_an_unwritable_output_is_refused(tmp_path):
    refused(run("authors-1861", "-o", tmp_path / "no" / "such" / "dir.pdf"), "cannot write")


def test_a_broken_deck_file_lists_its_problems(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("format: authors-deck/1\nid: bad\ntitle: Bad\nsets: []\ntitel: x\n")
    message = refused(run(bad), "bad.yaml:")
    assert re.search(r"bad\.yaml:\d+:\d+: ", message)


def test_a_font_without_the_glyphs_refuses_the_deck_naming_them(tmp_path):
    env = {"AUTHORS_PRINT_FONT": str(VERA / "Vera.ttf"), "AUTHORS_PRINT_FONT_BOLD": str(VERA / "VeraBd.ttf")}
    message = refused(run("russian-writers", "-o", tmp_path / "x.pdf", env=env), "U+0420", "Vera.ttf",
                      "AUTHORS_PRINT_FONT", 'the first in the deck\'s title')
    assert "А" in message and "Ш" in message  # every missing letter is named
    refused(run("standard-52", "-o", tmp_path / "x.pdf", env=env), "U+2660")
    assert not (tmp_path / "x.pdf").exists()
    # the same font prints a deck it covers
    ok = run("authors-1861", "-o", tmp_path / "ok.pdf", env=env)
    assert ok.exit_code == 0, ok.output
    with pdfplumber.open(tmp_path / "ok.pdf") as pdf:
        assert {c["fontname"].split("+")[1] for c in pdf.pages[0].chars} == {"BitstreamVeraSans-Roman",
                                                                            "BitstreamVeraSans-Bold"}


def test_a_missing_font_file_is_refused(tmp_path):
    refused(run("authors-1861", "-o", tmp_path / "x.pdf", env={"AUTHORS_PRINT_FONT": str(tmp_path / "none.ttf")}),
            "none.ttf", "fonts-dejavu-core")


def test_the_real_command_exits_1_without_a_traceback(tmp_path):
    code = "import sys; from app.cli import main; sys.argv[0] = 'authors'; main()"
    result = subprocess.run([sys.executable, "-c", code, "print", "authors-1861", "--paper", "a3"],
                            capture_output=True, text=True, cwd=tmp_path, env={**os.environ})
    assert result.returncode == 1
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr


@pytest.mark.parametrize("preset,phrase", [("standard", "nobody ever draws"), ("classic", "Tale of Two Cities"),
                                           ("literature", "cancelled"), ("go-fish", "Go fish!")])
def test_each_rules_sheet_is_one_page(tmp_path, preset, phrase):
    out = tmp_path / "rules.pdf"
    assert run("--rules", preset, "--paper", "a4", "-o", out).exit_code == 0
    with pdfplumber.open(out) as pdf:
        assert len(pdf.pages) == 1
        assert phrase in pdf.pages[0].extract_text().replace("\n", " ")


def test_go_fish_rules_say_how_many_cards_and_what_a_lucky_draw_does(tmp_path):
    out = tmp_path / "rules.pdf"
    run("--rules", "go-fish", "-o", out)
    with pdfplumber.open(out) as pdf:
        text = pdf.pages[0].extract_text().replace("\n", " ")
    for phrase in ("7 cards each with 2 or 3 players", "5 each with 4 to 6 players", "stock",
                   "If it is the rank you asked for, show it and ask again", "passes to your left",
                   "Once the stock is empty, a player with no cards is out"):
        assert phrase in text


def test_score_pad_has_a_column_per_player_and_a_row_per_hand(tmp_path):
    out = tmp_path / "pad.pdf"
    result = run("--scorepad", "--players", "5", "--hands", "8", "-o", out)
    assert result.exit_code == 0
    layout = scorepad.pad_layout(geometry.PAPERS["letter"], 5, 8)
    assert len(layout.xs) == 5 + 2 and len(layout.ys) == 8 + 3
    with pdfplumber.open(out) as pdf:
        page = pdf.pages[0]
        vertical = {round(line["x0"] / MM_TO_PT, 1) for line in page.lines if line["x0"] == line["x1"]}
        horizontal = {round(line["y0"] / MM_TO_PT, 1) for line in page.lines if line["y0"] == line["y1"]}
        text = page.extract_text()
    assert vertical == {round(x, 1) for x in layout.xs}
    assert horizontal == {round(y, 1) for y in layout.ys}
    assert "Hand 8" in text and "Total" in text and "Hand 9" not in text


@pytest.mark.parametrize("duplex", geometry.DUPLEX)
def test_alignment_page_puts_its_scales_behind_the_crosses(tmp_path, duplex):
    out = tmp_path / "align.pdf"
    result = run("--alignment", "--paper", "a4", "--duplex", duplex, "--back-offset-x", "1.5",
                 "--back-offset-y", "-2", "-o", out)
    assert result.exit_code == 0, result.output
    paper = geometry.PAPERS["a4"]
    with pdfplumber.open(out) as pdf:
        assert len(pdf.pages) == 2
        front, back = pdf.pages
        for x, y in alignment.targets(paper):  # the front's crosses
            assert any(abs(line["x0"] - x * MM_TO_PT) < 0.5 and line["x0"] == line["x1"] for line in front.lines)
            assert any(abs(line["y0"] - y * MM_TO_PT) < 0.5 and line["y0"] == line["y1"] for line in front.lines)
        for x, y in alignment.scale_origins(paper, duplex, (1.5, -2.0)):
            mirrored = geometry.mirror_point(*alignment.targets(paper)[0], paper, duplex)
            assert mirrored  # the scales' zeros: the long tick of each scale
            zero_x = [line for line in back.lines if line["x0"] == line["x1"] and abs(line["x0"] - x * MM_TO_PT) < 0.05
                      and line["y1"] - line["y0"] > 4 * MM_TO_PT]
            zero_y = [line for line in back.lines if line["y0"] == line["y1"] and abs(line["y0"] - y * MM_TO_PT) < 0.05
                      and line["x1"] - line["x0"] > 4 * MM_TO_PT]
            assert zero_x and zero_y
        assert "back-offset-x" in back.extract_text()


def test_alignment_scales_are_mirrored_copies_of_the_crosses():
    paper = geometry.PAPERS["letter"]
    crosses = alignment.targets(paper)
    long_edge = alignment.scale_origins(paper, "long", (0.0, 0.0))
    short_edge = alignment.scale_origins(paper, "short", (0.0, 0.0))
    for (x, y), (lx, ly), (sx, sy) in zip(crosses, long_edge, short_edge):
        assert (lx, ly) == (pytest.approx(paper[0] - x), pytest.approx(y))
        assert (sx, sy) == (pytest.approx(x), pytest.approx(paper[1] - y))
