"""Five languages: English, Russian, French, Portuguese, Italian (Flask-Babel, gettext catalogs).

The language comes from `?lang=xx` (remembered in a cookie), else the cookie, else the browser's
Accept-Language, else English. Catalogs live in app/translations/ (`make i18n-update`, `make i18n-compile`).
"""
from __future__ import annotations

from flask import Flask, g, request
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
        return {"current_language": locale.language if locale else DEFAULT_LANGUAGE, "languages": LANGUAGES}

    @app.after_request
    def remember_language(response):
        chosen = g.get("remember_language")
        if chosen:
            response.set_cookie(COOKIE, chosen, max_age=COOKIE_AGE, samesite="Lax", httponly=True)
        return response
