"""Sentences: what the app says to a person, written once in English and said in any language.

A sentence is an English template with named fields (`%(name)s`), marked with `N_` (or `N_plural`) for
the translation catalogs, and its fields: a `Text`. A field may itself be a Text (a place such as
'set "monet"', a shape such as "a list"), said in the same language. An error that says a sentence is a
`Sentence`: `message` and str() are the English (what the command line prints and the logs keep),
`render(translations)` says it in another language. Deck problems, the engine's refusals, options and
set-up errors, printing's errors and the services' refusals all carry one; the web app says them in the
reader's language at its edge, once. This module knows nothing of Flask, nor of the rest of the app:
`translations` is anything with gettext and ngettext.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from gettext import NullTranslations
from typing import Any, Mapping, Protocol, Union

__all__ = ["Template", "N_", "N_plural", "Translations", "ENGLISH", "render", "Text", "say",
           "Sentence"]

Template = Union[str, tuple[str, str]]  # a sentence, or (singular, plural) chosen by the field `count`


def N_(template: str) -> str:
    """Marks an English template for the translation catalogs (said in a language where it is shown)."""
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


def say(template: Template, **params: Any) -> Text:
    """A sentence: a marked template (`N_`, `N_plural`) and its fields, e.g.
    `BadRequest(say(N_("a name has at most %(max)d characters"), max=80))`."""
    return Text(template, params)


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
