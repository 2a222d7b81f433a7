"""The student rules pages: every preset in seven languages, on the web (/rules) and on paper."""
import io
import re

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from app import rules
from app.cli import cli
from app.printing.geometry import MM_TO_PT
from app.rules import markup

PAGES = [(preset, language) for preset in rules.PRESETS for language in rules.LANGUAGES]
# Names natural in each language, used by the worked examples.
NAMES = {"en": ("Sam", "Maya", "Leo"), "ru": ("Анна", "Борис", "Вера"), "fr": ("Léa", "Tom", "Inès"),
         "pt": ("Ana", "Pedro", "Sofia"), "it": ("Giulia", "Marco", "Sara"), "de": ("Jonas", "Lena", "Mia"),
         "es": ("Lucía", "Pablo", "Marta")}
# The numbers every translation must keep (players, cards, sets, how many are dealt).
FACTS = {
    "standard": {"summary": ("3", "6", "52", "13"), "end": ("13",)},
    "classic": {"summary": ("2", "6", "44", "11"), "end": ("11",)},
    "go-fish": {"summary": ("2", "6", "52", "13"), "setup": ("7", "5")},
    "literature": {"summary": ("6", "8", "48"), "setup": ("8", "6"), "end": ("4",)},
    "quartett": {"summary": ("2", "6", "32", "8"), "setup": ("2", "10")},
    "familles": {"summary": ("2", "6", "44", "11"), "setup": ("6",)},
    "familias": {"summary": ("2", "6", "42", "7"), "setup": ("7",)},
}


def text_of(section: markup.Section) -> str:
    parts = []
    for block in section.blocks:
        items = [block.runs] if isinstance(block, markup.Paragraph) else block.items
        parts += [markup.plain(runs) for runs in items]
    return " ".join(parts)


# --- the content -------------------------------------------------------------------------------

@pytest.mark.parametrize("preset,language", PAGES)
def test_every_page_loads_with_every_section_and_a_worked_example(preset, language):
    page = rules.rules_page(preset, language)
    assert (page.preset, page.language) == (preset, language)
    assert page.title and page.summary_text
    assert tuple(section.key for section in page.sections) == rules.SECTIONS
    assert all(section.heading and section.blocks for section in page.sections)
    example = text_of(page.section("example"))
    assert sum(name in example for name in NAMES[language]) >= 2, example
    assert len(example) > 200
    for key, numbers in FACTS[preset].items():
        text = page.summary_text if key == "summary" else text_of(page.section(key))
        for number in numbers:
            assert re.search(rf"(?<!\d){number}(?!\d)", text), f"{preset}.{language} {key}: no {number}"


@pytest.mark.parametrize("language", [code for code in rules.LANGUAGES if code != "en"])
def test_translations_are_translated(language):
    for preset in rules.PRESETS:
        english, page = rules.rules_page(preset, "en"), rules.rules_page(preset, language)
        assert not {s.heading for s in english.sections} & {s.heading for s in page.sections}
        assert text_of(english.section("turn")) != text_of(page.section("turn"))


def test_the_presets_and_languages_are_the_engines_and_the_interfaces():
    from app.engine.options import PRESETS
    from app.i18n import LANGUAGES

    assert set(rules.PRESETS) == set(PRESETS)
    assert rules.LANGUAGES == LANGUAGES


def test_the_pages_follow_the_project_rules():
    """A few rules of docs/rules.md that each page must state (checked on the English pages)."""
    standard = rules.rules_page("standard", "en")
    assert "nobody ever draws" in text_of(standard.section("turn"))
    assert "your** left" in open(rules.content_path("standard", "en"), encoding="utf-8").read()
    go_fish = text_of(rules.rules_page("go-fish", "en").section("turn"))
    assert "If it is the rank you asked for, show it and ask again" in go_fish
    literature = rules.rules_page("literature", "en")
    turn, claims = text_of(literature.section("turn")), text_of(literature.section("sets"))
    assert "the player you asked" in turn and "never ask a teammate" in turn
    for phrase in ("the other team wins it", "cancelled", "keep the turn", "pass the turn to a teammate"):
        assert phrase in claims


def test_the_1861_bonus_is_the_one_the_table_plays():
    """With the bonus on, a table of the 1861 rules has the asker type the work, forgives a typo and counts
    the bonus apart from sets (services/tables.py, app_defaults): the page says so."""
    end = text_of(rules.rules_page("classic", "en").section("end"))
    for phrase in ("when you ask, type the work yourself", "a small typo is\nforgiven", "counted apart"):
        assert " ".join(phrase.split()) in " ".join(end.split())
    assert "receive a card, name its work" not in end


def test_unknown_preset_or_language_is_refused():
    with pytest.raises(rules.UnknownPreset, match="poker"):
        rules.rules_page("poker", "en")
    with pytest.raises(rules.UnknownLanguage, match="nl"):
        rules.rules_page("standard", "nl")


# --- the Markdown subset -----------------------------------------------------------------------

SAMPLE = """# A <title> & more

Two **bold** words & a summary.

## First {#one}

A paragraph
on two lines.

- An item with **bold**
  going on.
- Another <b>item</b>.

## Second {#two}

Last.
"""


def test_the_subset_parses():
    doc = markup.parse(SAMPLE)
    assert doc.title == "A <title> & more"
    assert doc.summary == (markup.Run("Two "), markup.Run("bold", True), markup.Run(" words & a summary."))
    one, two = doc.sections
    assert (one.key, one.heading, two.key) == ("one", "First", "two")
    paragraph, bullets = one.blocks
    assert markup.plain(paragraph.runs) == "A paragraph on two lines."
    assert [markup.plain(item) for item in bullets.items] == ["An item with bold going on.", "Another <b>item</b>."]


def test_html_escapes_every_text():
    doc = markup.parse(SAMPLE.replace("Last.", '<script>alert("x")</script> & **<i>bold</i>**'))
    html = str(markup.sections_html(doc.sections))
    assert "<script>" not in html and "<b>" not in html and "<i>" not in html
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; &amp; <strong>&lt;i&gt;bold&lt;/i&gt;</strong>" in html
    assert '<section id="one" class="rules-section">' in html and "<li>An item with <strong>bold</strong> going on.</li>" in html
    assert str(markup.inline_html(doc.summary)) == "Two <strong>bold</strong> words &amp; a summary."
    assert markup.inline_reportlab((markup.Run("a <b> & "), markup.Run("c", True))) == "a &lt;b&gt; &amp; <b>c</b>"


@pytest.mark.parametrize("change,fragment", [
    (("# A <title> & more", "A title"), ":1: the file must begin with the title"),
    (("Two **bold** words", "Two **bold words"), "without its closing"),
    (("## Second {#two}", "## Second {#one}"), 'key "one" is used twice'),
    (("## Second {#two}", "## Second"), "## Heading {#key}"),
    (("## Second {#two}", "### Second {#two}"), "not in the rules subset"),
    (("Last.", "1. Last."), "not in the rules subset"),
    (("Last.", "Last *one*."), "'*' is not allowed"),
    (("Last.", "Last `code`."), "'`' is not allowed"),
    (("Last.", "\tLast."), "a tab"),
    (("Last.", "Last. "), "trailing spaces"),
    (("  going on.", "going on."), "indent a list item"),
    (("A paragraph\non two lines.\n", "A paragraph\n- on two lines.\n"), "blank line between a paragraph and a list"),
    (("Last.", "** Last**"), "bold text must be"),
])
def test_the_subset_refuses_anything_else_with_the_line(change, fragment):
    old, new = change
    assert old in SAMPLE
    with pytest.raises(markup.MarkupError, match=re.escape(fragment)) as caught:
        markup.parse(SAMPLE.replace(old, new), "x.md")
    assert re.match(r"x\.md:\d+: ", str(caught.value))


# --- the web page ------------------------------------------------------------------------------

def test_the_index_links_every_preset_in_every_language(client):
    response = client.get("/rules", headers={"Accept-Language": "en"})
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    for preset in rules.PRESETS:
        assert rules.rules_page(preset, "en").title in html
        for language in rules.LANGUAGES:
            assert f'href="/rules/{preset}?lang={language}" lang="{language}"' in html
            assert f'href="/rules/{preset}.pdf?lang={language}"' in html


@pytest.mark.parametrize("preset,language", PAGES)
def test_each_page_in_its_language(client, preset, language):
    response = client.get(f"/rules/{preset}?lang={language}")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    page = rules.rules_page(preset, language)
    assert f'<html lang="{language}">' in html
    assert f"<h1>{markupsafe_escape(page.title)}</h1>" in html
    for section in page.sections:
        assert f'<section id="{section.key}" class="rules-section">\n<h2>{markupsafe_escape(section.heading)}</h2>' in html
    assert f'href="/rules/{preset}.pdf?lang={language}"' in html
    assert "<script" not in html and "style=" not in html


def markupsafe_escape(text: str) -> str:
    from markupsafe import escape

    return str(escape(text))


@pytest.mark.parametrize("accept,language", [("ru-RU,ru;q=0.9,en;q=0.5", "ru"), ("fr-CA", "fr"), ("pt-BR,pt;q=0.8", "pt"),
                                             ("nl-NL,it;q=0.7", "it"), ("nl, ja", "en"), ("de-AT,de;q=0.9,en;q=0.5", "de"), ("es-MX", "es"), (None, "en")])
def test_without_lang_the_browser_language_is_used(client, accept, language):
    headers = {"Accept-Language": accept} if accept else {}
    response = client.get("/rules/go-fish", headers=headers)
    assert response.status_code == 200
    assert f'<html lang="{language}">' in response.get_data(as_text=True)
    assert rules.rules_page("go-fish", language).title in response.get_data(as_text=True).replace("&#34;", '"')
    assert "Accept-Language" in response.headers["Vary"]


def test_lang_wins_over_the_browser(client):
    response = client.get("/rules/classic?lang=pt", headers={"Accept-Language": "ru"})
    assert '<html lang="pt">' in response.get_data(as_text=True)
    assert "Accept-Language" not in response.headers.get("Vary", "")


def test_the_page_escapes_its_content(client, monkeypatch):
    nasty = markup.parse("# <b>T</b>\n\nS & <i>s</i>\n\n## <h> {#goal}\n\n- <script>alert(1)</script> **&**\n")
    page = rules.RulesPage("standard", "en", nasty.title, nasty.summary, nasty.sections)
    monkeypatch.setattr(rules, "rules_page", lambda preset, language: page)
    html = client.get("/rules/standard?lang=en").get_data(as_text=True)
    assert "<script>" not in html and "<b>T" not in html and "<i>s" not in html and "<h>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt; <strong>&amp;</strong>" in html
    assert "<h1>&lt;b&gt;T&lt;/b&gt;</h1>" in html and "S &amp; &lt;i&gt;s&lt;/i&gt;" in html


def test_an_unknown_preset_is_a_404_with_a_message(client):
    response = client.get("/rules/poker?lang=en")
    assert response.status_code == 404
    assert "There are no rules called &#34;poker&#34;." in response.get_data(as_text=True)
    assert client.get("/rules/poker.pdf").status_code == 404
    api = client.get("/rules/poker", headers={"Accept": "application/json"})
    assert api.get_json()["error"]["message"] == 'There are no rules called "poker".'
    assert "«poker»" in client.get("/rules/poker?lang=ru").get_data(as_text=True)


@pytest.mark.parametrize("url", ["/rules/standard?lang=nl", "/rules/standard?lang=RU", "/rules/standard.pdf?lang=xx",
                                 "/rules/literature.pdf?lang=en&paper=a3"])
def test_an_unknown_language_or_paper_is_a_400(client, url):
    response = client.get(url, headers={"Accept": "application/json"})
    assert response.status_code == 400
    message = response.get_json()["error"]["message"]
    assert "must be one of" in message and ("en, ru, fr, pt, it, de, es" in message or "a4, letter" in message)


# --- printing ----------------------------------------------------------------------------------

@pytest.mark.parametrize("preset,language", PAGES)
def test_every_sheet_is_one_page_with_its_text(preset, language):
    from app.printing.rules_sheet import render_rules

    page = rules.rules_page(preset, language)
    for paper in ("a4", "letter"):
        reader = PdfReader(io.BytesIO(render_rules(preset, paper, language)))
        assert len(reader.pages) == 1
        text = " ".join(reader.pages[0].extract_text().split())
        assert " ".join(page.title.split()) in text
        assert page.section("example").heading in text
        assert reader.metadata.title == page.title


def test_the_print_route_makes_the_pdf_in_the_language(client):
    response = client.get("/rules/literature.pdf?lang=ru")
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    assert 'filename="rules-literature-ru-a4.pdf"' in response.headers["Content-Disposition"]
    reader = PdfReader(io.BytesIO(response.data))
    assert len(reader.pages) == 1
    assert reader.pages[0].mediabox.height == pytest.approx(297 * MM_TO_PT)  # A4 for Russian
    assert "«Литература» (Канадская рыба)" in reader.pages[0].extract_text()
    letter = client.get("/rules/standard.pdf?lang=en")
    assert 'filename="rules-standard-en-letter.pdf"' in letter.headers["Content-Disposition"]
    assert "Authors with an ordinary deck" in PdfReader(io.BytesIO(letter.data)).pages[0].extract_text()
    a4 = client.get("/rules/standard.pdf?lang=en&paper=a4")
    assert PdfReader(io.BytesIO(a4.data)).pages[0].mediabox.height == pytest.approx(297 * MM_TO_PT)


def run_print(*args):
    return CliRunner().invoke(cli, ["print", *map(str, args)])


def test_the_cli_prints_the_rules_in_a_language(tmp_path):
    out = tmp_path / "r.pdf"
    result = run_print("--rules", "go-fish", "--lang", "it", "-o", out)
    assert result.exit_code == 0, result.output
    assert "go-fish rules (Italiano), a4" in result.output
    text = PdfReader(out).pages[0].extract_text()
    assert "Go Fish (Vai a pescare)" in text and "Vai a pescare!" in text


def test_the_cli_names_the_file_after_preset_language_and_paper(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert run_print("--rules", "classic", "--lang", "fr").exit_code == 0
    assert run_print("--rules", "classic").exit_code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rules-classic-en-letter.pdf", "rules-classic-fr-a4.pdf"]


@pytest.mark.parametrize("args,fragment", [
    (["--rules", "standard", "--lang", "nl"], "--lang"),
    (["authors-1861", "--lang", "ru"], "--lang cannot be used with DECK"),
    (["--scorepad", "--lang", "nl"], "--lang"),  # the score pad takes --lang too (issue #9), of the seven
])
def test_the_cli_refuses_a_wrong_lang(args, fragment):
    result = run_print(*args)
    assert result.exit_code == 1
    assert fragment in result.stderr and len(result.stderr.strip().splitlines()) == 1
