"""The rules of every preset written for students, in the seven languages of the interface.

One file per preset and language, content/PRESET.LANG.md, in the small Markdown subset of
`markup` (headings, paragraphs, bullet lists, bold). Every page has the same sections, by key:
goal, setup, turn, sets (in Literature: claims), end, example. The pages follow docs/rules.md; the web
page (/rules) and the printed sheet (`authors print --rules PRESET --lang xx`) are both made from them.

    rules_page("go-fish", "ru") -> RulesPage(preset, language, title, summary, sections)

No Flask and no reportlab here: the printing CLI imports this at start-up.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ..languages import DEFAULT_LANGUAGE, LANGUAGES
from ..sentences import N_  # printing says these in the reader's language
from .markup import (Block, BulletList, Inline, MarkupError, Paragraph, Run, Section, parse, plain)

CONTENT_DIR = Path(__file__).resolve().parent / "content"
PRESETS: tuple[str, ...] = ("standard", "classic", "go-fish", "literature", "quartett", "familles", "familias")
SECTIONS: tuple[str, ...] = ("goal", "setup", "turn", "sets", "end", "example")

__all__ = ["PRESETS", "LANGUAGES", "DEFAULT_LANGUAGE", "SECTIONS", "RulesPage", "RulesError", "UnknownPreset",
           "UnknownLanguage", "MarkupError", "rules_page", "all_pages", "Section", "Paragraph", "BulletList",
           "Run", "Block", "Inline"]


class RulesError(LookupError):
    """str() is the English sentence; `template` (marked, with `%(name)s` fields) and `params` let
    printing's PrintError carry it into another language."""

    def __init__(self, template: str, **params: str):
        self.template = template
        self.params = params
        super().__init__(template % params if params else template)


class UnknownPreset(RulesError):
    def __init__(self, preset: str):
        super().__init__(N_('there are no rules called "%(preset)s"; choose one of %(choices)s'), preset=preset,
                         choices=", ".join(PRESETS))
        self.preset = preset


class UnknownLanguage(RulesError):
    def __init__(self, language: str):
        super().__init__(N_('the rules are written in %(languages)s, not "%(language)s"'),
                         languages=", ".join(LANGUAGES), language=language)
        self.language = language


@dataclass(frozen=True)
class RulesPage:
    preset: str
    language: str
    title: str
    summary: Inline
    sections: tuple[Section, ...]

    def section(self, key: str) -> Section:
        for section in self.sections:
            if section.key == key:
                return section
        raise KeyError(key)

    @property
    def summary_text(self) -> str:
        return plain(self.summary)

    def texts(self) -> list[str]:
        """Every text of the page, in order (headings, paragraphs, list items), without markup."""
        out = [self.title, plain(self.summary)]
        for section in self.sections:
            out.append(section.heading)
            for block in section.blocks:
                out.extend([plain(block.runs)] if isinstance(block, Paragraph) else map(plain, block.items))
        return out


def content_path(preset: str, language: str) -> Path:
    return CONTENT_DIR / f"{preset}.{language}.md"


def rules_page(preset: str, language: str = DEFAULT_LANGUAGE) -> RulesPage:
    """The student page of `preset` in `language`; UnknownPreset, UnknownLanguage, or MarkupError for
    a file outside the subset or without the sections every page has."""
    if preset not in PRESETS:
        raise UnknownPreset(preset)
    if language not in LANGUAGES:
        raise UnknownLanguage(language)
    return _load(preset, language)


@lru_cache(maxsize=None)
def _load(preset: str, language: str) -> RulesPage:
    path = content_path(preset, language)
    source = f"app/rules/content/{path.name}"
    document = parse(path.read_text(encoding="utf-8"), source)
    keys = tuple(section.key for section in document.sections)
    if keys != SECTIONS:
        raise MarkupError(f"{source}: the sections must be {', '.join(SECTIONS)} in this order, not {', '.join(keys)}")
    return RulesPage(preset=preset, language=language, title=document.title, summary=document.summary,
                     sections=document.sections)


def all_pages() -> list[RulesPage]:
    return [rules_page(preset, language) for preset in PRESETS for language in LANGUAGES]
