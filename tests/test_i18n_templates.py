"""Every word a template shows is marked for translation: the catalogs' test (test_i18n.py) checks what
is marked; this one finds what was never marked (text and the attributes people read, outside
{{ }}, {% %} and {% trans %} blocks)."""
from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

TEMPLATES = Path(__file__).resolve().parents[1] / "app" / "templates"
TRANS_BLOCK = re.compile(r"\{%-?\s*trans\b.*?\{%-?\s*endtrans\s*-?%\}", re.S)
JINJA = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.S)
READ_ATTRIBUTES = {"title", "placeholder", "aria-label", "alt", "label"}
WORD = re.compile(r"[^\W\d_]{2,}")
NOT_LANGUAGE = {"mm"}  # units
EXAMPLES = {("studio/paste.html", "placeholder")}  # sample rows of a spreadsheet: data, not sentences


class TextFinder(HTMLParser):
    def __init__(self):
        super().__init__()
        self.found: list[tuple[int, str]] = []
        self.in_code = 0

    def handle_starttag(self, tag, attrs):
        self.in_code += tag in ("script", "style")
        for name, value in attrs:
            if name in READ_ATTRIBUTES and value and self._words(value):
                self.found.append((self.getpos()[0], f"{name}={value!r}"))

    def handle_endtag(self, tag):
        self.in_code -= tag in ("script", "style")

    def handle_data(self, data):
        if not self.in_code and self._words(data):
            self.found.append((self.getpos()[0], data.strip()))

    @staticmethod
    def _words(text: str) -> bool:
        return any(word not in NOT_LANGUAGE for word in WORD.findall(text))


def unmarked(path: Path, root: Path = TEMPLATES) -> list[str]:
    blank = lambda match: "\n" * match.group(0).count("\n")  # noqa: E731 - keeps line numbers
    source = JINJA.sub(blank, TRANS_BLOCK.sub(blank, path.read_text(encoding="utf-8")))
    finder = TextFinder()
    finder.feed(source)
    name = path.relative_to(root).as_posix()
    return [f"{name}:{line}: {text}" for line, text in finder.found
            if (name, text.split("=", 1)[0]) not in EXAMPLES]


def test_no_template_shows_words_that_were_never_marked():
    found = [problem for path in sorted(TEMPLATES.rglob("*.html")) for problem in unmarked(path)]
    assert not found, "mark these with _() or {% trans %}:\n" + "\n".join(found)


def test_the_finder_finds_unmarked_words(tmp_path):
    page = tmp_path / "page.html"
    page.write_text('<h2>Decks of the studio</h2><p>{{ _("marked") }} 63.5 mm</p><img alt="A picture">\n'
                    '<p>{% trans n=1 %}Marked {{ n }}{% endtrans %}</p>', encoding="utf-8")
    assert unmarked(page, tmp_path) == ["page.html:1: Decks of the studio", "page.html:1: alt='A picture'"]
