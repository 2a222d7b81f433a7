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


def _translated(template: Template, params: Mapping[str, Any], translations: Translations) -> str:
    """The template in the language of `translations`; a plural chosen by the field `count` (else `num`)."""
    if isinstance(template, tuple):
        return translations.ngettext(template[0], template[1], params["count"] if "count" in params else params["num"])
    return translations.gettext(template)


def _values(params: Mapping[str, Any], translations: Translations) -> dict[str, Any]:
    """The fields, each phrase among them (a Text, or a Sentence's) said in the same language."""
    return {name: value.render(translations) if isinstance(value, (Text, Sentence)) else value
            for name, value in params.items()}


def render(template: Template, params: Mapping[str, Any], translations: Translations = ENGLISH) -> str:
    """The template in the language of `translations`, its fields filled in (Text fields rendered too)."""
    text = _translated(template, params, translations)
    if not params:
        return text
    return text % _values(params, translations)


@dataclass(frozen=True)
class Text:
    """A sentence or a phrase to translate: an English template and its fields. The one sentence type:
    a deck problem, an engine or printing error (Sentence), a service's refusal all carry one, and the
    web app says it in the reader's language (`render(translations)`); str() is the English."""
    template: Template
    params: Mapping[str, Any] = field(default_factory=dict, hash=False)
    capital: bool = field(default=False, repr=False)  # said with a capital letter (a phrase that opens a sentence)

    @classmethod
    def of(cls, template: Template, **params: Any) -> "Text":
        return cls(template, params)

    def render(self, translations: Translations = ENGLISH) -> str:
        text = self.fill(_translated(self.template, self.params, translations), translations)
        return text[:1].upper() + text[1:] if self.capital else text

    def fill(self, text: str, translations: Translations) -> str:
        """The translated template with its fields filled in: `%(name)s` fields."""
        return text % _values(self.params, translations) if self.params else text

    def capitalized(self) -> "Text":
        """The same phrase, said with a capital letter in every language."""
        return replace(self, capital=True)

    def __str__(self) -> str:
        return self.render()


class BracedText(Text):
    """A sentence whose fields are written `{name}` (str.format): the engine's refusals (IllegalMove),
    whose templates in app/engine/game.py are written so; otherwise a Text like any other."""

    def fill(self, text: str, translations: Translations) -> str:
        return text.format(**_values(self.params, translations)) if self.params else text


def say(template: Template, **params: Any) -> Text:
    """A sentence: a marked template (`N_`, `N_plural`) and its fields, e.g.
    `BadRequest(say(N_("a name has at most %(max)d characters"), max=80))`."""
    return Text(template, params)


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

    @property
    def text(self) -> Text:
        """The problem's sentence, without its place (a problem written without a template: as it is)."""
        return Text(self.message) if self.template is None else Text(self.template, self.params)

    def with_params(self, **changes: Any) -> "Problem":
        """The same problem with some fields changed (e.g. "first at line 8" said another way)."""
        if self.template is None:
            return self
        params = {**self.params, **changes}
        return replace(self, message=render(self.template, params), params=params)

    def __str__(self) -> str:
        return f"{self.source}:{self.line}:{self.column}: {self.message}"


class Sentence(Exception):
    """An error whose message is a sentence (a `Text`: a marked template with its fields), like a
    Problem's: `message` and str() are the English sentence (what the command line prints and the logs
    keep), `render(translations)` says it in another language. The engine's OptionsError, SetupError and
    IllegalMove, printing's PrintError and the services' ServiceError are Sentences."""

    def __init__(self, template: Template | Text, **params: Any):
        if isinstance(template, Text):
            if params:
                raise TypeError("a Sentence made from a Text takes no other fields")
            self.text = template
        else:
            self.text = Text(template, params)
        self.message = self.text.render()
        super().__init__(self.message)

    @property
    def template(self) -> Template:
        return self.text.template

    @property
    def params(self) -> Mapping[str, Any]:
        return self.text.params

    def render(self, translations: Translations = ENGLISH) -> str:
        """The sentence in the language of `translations` (English by default: `message`)."""
        return self.text.render(translations)


class DeckError(Exception):
    """A deck refused whole, with every problem found in it."""

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))
