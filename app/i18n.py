"""Five languages: English, Russian, French, Portuguese, Italian (Flask-Babel, gettext catalogs).

The language comes from `?lang=xx` (remembered in a cookie), else the cookie, else the browser's
Accept-Language, else English. Catalogs live in app/translations/ (`make i18n-update`, `make i18n-compile`).
"""
from __future__ import annotations

from pathlib import Path

from babel import Locale
from babel.messages.extract import extract
from flask import Flask, current_app, g, request
from flask_babel import Babel

LANGUAGES = {"en": "English", "ru": "Русский", "fr": "Français", "pt": "Português", "it": "Italiano"}
DEFAULT_LANGUAGE = "en"
COOKIE = "lang"
COOKIE_AGE = 365 * 24 * 3600

babel = Babel()


def select_language() -> str:
    asked = request.args.get("lang")
    if asked in LANGUAGES:
        g.remember_language = asked
        return asked
    remembered = request.cookies.get(COOKIE)
    if remembered in LANGUAGES:
        return remembered
    return request.accept_languages.best_match(LANGUAGES, default=DEFAULT_LANGUAGE)


def init_app(app: Flask) -> None:
    babel.init_app(app, locale_selector=select_language)

    @app.context_processor
    def language_choices():
        from flask_babel import get_locale

        locale = get_locale()
        return {"current_language": locale.language if locale else DEFAULT_LANGUAGE, "languages": LANGUAGES,
                "script_catalog": script_catalog}

    @app.after_request
    def remember_language(response):
        chosen = g.get("remember_language")
        if chosen:
            response.set_cookie(COOKIE, chosen, max_age=COOKIE_AGE, samesite="Lax", httponly=True)
        return response


# ----------------------------------------------------------------------------------------------------
# The JavaScript's messages: the scripts call AC.gettext("...") / AC.ngettext("...", "...", n), which
# `pybabel extract` reads (babel.cfg); each page carries their translations as a JSON data block.
# ----------------------------------------------------------------------------------------------------
SCRIPTS = Path(__file__).resolve().parent / "static" / "js"
_script_messages: list | None = None
_script_catalogs: dict[str, dict] = {}
PLURAL_SAMPLES = range(0, 200)


def script_messages() -> list:
    """Every message the scripts mark, read once from the files (the same reading `pybabel extract` does)."""
    global _script_messages
    if _script_messages is None:
        found: dict = {}
        for path in sorted(SCRIPTS.glob("*.js")):
            with open(path, "rb") as handle:
                for _lineno, message, _comments, _context in extract("javascript", handle):
                    found.setdefault(message, None)
        _script_messages = list(found)
    return _script_messages


def script_catalog() -> dict:
    """The scripts' messages in the current language: {"lang", "messages": {id: text},
    "plurals": {singular: {CLDR category: text}}}; the browser picks a category with Intl.PluralRules."""
    from flask_babel import get_locale, get_translations

    translations = get_translations()  # raw texts: the browser fills in the %(name)s fields itself
    locale = get_locale() or Locale.parse(DEFAULT_LANGUAGE)
    lang = locale.language
    cached = _script_catalogs.get(lang)
    if cached is not None:
        return cached
    samples: dict[str, int] = {}
    for number in PLURAL_SAMPLES:
        samples.setdefault(locale.plural_form(number), number)
    messages, plurals = {}, {}
    for message in script_messages():
        if isinstance(message, tuple):
            singular, plural = message[0], message[1]
            plurals[singular] = {category: translations.ngettext(singular, plural, number)
                                 for category, number in samples.items()}
        else:
            messages[message] = translations.gettext(message)
    catalog = {"lang": lang, "messages": messages, "plurals": plurals}
    if not current_app.debug:
        _script_catalogs[lang] = catalog
    return catalog
