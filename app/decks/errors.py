"""A deck problem names its place (file:line:col) and says what is wrong in plain words.

Every sentence is an English template with named fields (`%(name)s`), marked with `N_` for the
translation catalogs: `message` is the English sentence (what the command line prints), `template`
and `params` let the web app say it in the reader's language (`Problem.render(translations)`). A
field may itself be a `Text` (a place such as 'set "monet"', a shape such as "a list"), rendered the
same way. This module knows nothing of Flask: `translations` is anything with gettext and ngettext.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from gettext import NullTranslations
from typing import Any, Mapping, Protocol, Union

Template = Union[str, tuple[str, str]]  # a sentence, or (singular, plural) chosen by the field `count`


def N_(template: str) -> str:
    """Marks an English template for the translation catalogs (the web app translates it, not the decks)."""
    return template


def N_plural(singular: str, plural: str) -> tuple[str, str]:
    """Marks a template whose words depend on the number in its field `count` (extracted as a plural)."""
    return singular, plural


class Translations(Protocol):
    def gettext(self, message: str) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int) -> str: ...


ENGLISH: Translations = NullTranslations()


def render(template: Template, params: Mapping[str, Any], translations: Translations = ENGLISH) -> str:
    """The template in the language of `translations`, its fields filled in (Text fields rendered too)."""
    if isinstance(template, tuple):
        text = translations.ngettext(template[0], template[1], params["count"])
    else:
        text = translations.gettext(template)
    if not params:
        return text
    return text % {name: value.render(translations) if isinstance(value, Text) else value
                   for name, value in params.items()}


@dataclass(frozen=True)
class Text:
    """A phrase to translate inside a sentence: an English template and its fields."""
    template: Template
    params: Mapping[str, Any] = field(default_factory=dict, hash=False)

    @classmethod
    def of(cls, template: Template, **params: Any) -> "Text":
        return cls(template, params)

    def render(self, translations: Translations = ENGLISH) -> str:
        return render(self.template, self.params, translations)

    def __str__(self) -> str:
        return self.render()


@dataclass(frozen=True)
class Problem:
    source: str
    line: int  # 1-based
    column: int  # 1-based
    message: str  # the English sentence
    template: Template | None = field(default=None, compare=False, repr=False)  # None: `message` as it is
    params: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False, hash=False)

    @classmethod
    def at(cls, source: str, line: int, column: int, template: Template, **params: Any) -> "Problem":
        """A problem whose sentence is a marked template with its fields."""
        return cls(source, line, column, render(template, params), template, params)

    def render(self, translations: Translations = ENGLISH) -> str:
        """The sentence in the language of `translations` (English by default: `message`)."""
        if self.template is None:
            return self.message
        return render(self.template, self.params, translations)

    def with_params(self, **changes: Any) -> "Problem":
        """The same problem with some fields changed (e.g. "first at line 8" said another way)."""
        if self.template is None:
            return self
        params = {**self.params, **changes}
        return replace(self, message=render(self.template, params), params=params)

    def __str__(self) -> str:
        return f"{self.source}:{self.line}:{self.column}: {self.message}"


class Sentence(Exception):
    """An error whose message is a marked template with its fields, like a Problem's: `message` and str()
    are the English sentence (what the command line prints), `render(translations)` says it in another
    language. The engine's OptionsError and SetupError and printing's PrintError are Sentences."""

    def __init__(self, template: Template, **params: Any):
        self.template = template
        self.params = params
        self.message = render(template, params)
        super().__init__(self.message)

    def render(self, translations: Translations = ENGLISH) -> str:
        """The sentence in the language of `translations` (English by default: `message`)."""
        return render(self.template, self.params, translations)


class DeckError(Exception):
    """A deck refused whole, with every problem found in it."""

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))
