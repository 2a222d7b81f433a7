"""Five languages: English, Russian, French, Portuguese, Italian (Flask-Babel, gettext catalogs).

The language comes from `?lang=xx` (remembered in a cookie), else the cookie, else, on a table's pages
and in the API's answers about it, the language its teacher chose for the table, else the browser's
Accept-Language, else English. Catalogs live in app/translations/ (`make i18n-update`, `make i18n-compile`).
"""
from __future__ import annotations

from datetime import date, datetime, timezone, tzinfo
from decimal import Decimal
from pathlib import Path
from typing import Any, Protocol
from zoneinfo import ZoneInfo

from babel import Locale, dates, numbers
from babel.messages.extract import extract
from flask import Flask, Response, current_app, g, has_request_context, request
from flask_babel import Babel, get_locale, gettext

from .decks.errors import Translations
from .decks.model import Deck
from .languages import DEFAULT_LANGUAGE, LANGUAGES
from .web.table_code import request_table_code

COOKIE = "lang"
COOKIE_AGE = 365 * 24 * 3600

babel = Babel()


def select_language() -> str:
    """This browser's explicit choice (?lang=, then the cookie), then the table's language, then the browser's."""
    if not has_request_context():
        return DEFAULT_LANGUAGE  # a command or a test outside any request: English
    asked = request.args.get("lang")
    if asked in LANGUAGES:
        g.remember_language = asked
        return asked
    remembered = request.cookies.get(COOKIE)
    if remembered in LANGUAGES:
        return remembered
    table = table_language()
    if table in LANGUAGES:
        return table
    return request.accept_languages.best_match(LANGUAGES, default=DEFAULT_LANGUAGE)


def preset_title(preset: str) -> str:
    """A rules preset (standard, go-fish ...) by the title of its rules page in the reader's language."""
    from . import rules

    if preset not in rules.PRESETS:
        return preset
    return rules.rules_page(preset, rules_language()).title


def deck_word(deck: Deck, which: str) -> str:
    """What the deck calls a set ("Author") or a card ("Work"); a deck that says nothing gets the
    format's word (Deck.set_label "Set", Deck.card_label "Card") in the reader's language."""
    word: str = getattr(deck, which)
    return gettext(word) if word == getattr(Deck, which) else word


def current_language() -> str:
    """The language of this request's pages and messages (a teacher's interface language): the one
    answer to "which language does this request read", chosen once by `select_language`."""
    locale = get_locale()
    return locale.language if locale else DEFAULT_LANGUAGE


def first_language_tag() -> str:
    """The browser's first language as it names it, with its region when it gives one ("en-GB"): what
    a printer beside it holds (the page's own language is `current_language`)."""
    tags = [tag for tag, _quality in request.accept_languages]
    return tags[0] if tags else ""


def rules_language() -> str:
    """The language of the rules this request reads: its own, when the rules are written in it."""
    from . import rules

    language = current_language()
    return language if language in rules.LANGUAGES else rules.DEFAULT_LANGUAGE


class Sayable(Protocol):
    """A sentence that can be said in any language: a Text, an error that carries one, a deck Problem."""

    def render(self, translations: Translations) -> str: ...


def translated(sentence: Sayable) -> str:
    """A sentence in this request's language: a Text, or an error that carries one (a service's
    refusal, the engine's IllegalMove, OptionsError and SetupError, printing's PrintError, a deck
    Problem: anything with `render(translations)`). The services build sentences; they are said here,
    at the edge, once. Their str() stays English for the command line and the logs."""
    from flask_babel import get_translations

    return sentence.render(get_translations())


def table_language() -> str | None:
    """The language the teacher chose for the table this request is about, if it is about one (looked
    up once per request, and only when something is translated: an unchanged poll never asks)."""
    if "table_language" not in g:
        g.table_language = _lookup_table_language(request_table_code())
    language: str | None = g.table_language
    return language


def without_table_language() -> None:
    """This request's messages leave its table's language out (unless already found): the database does
    not answer, and is not asked a second question."""
    g.setdefault("table_language", None)


def _lookup_table_language(code: str | None) -> str | None:
    if code is None:
        return None
    from . import store

    return store.language_of(code)


def init_app(app: Flask) -> None:
    babel.init_app(app, locale_selector=select_language)

    @app.context_processor
    def language_choices() -> dict[str, Any]:
        return {"current_language": current_language(), "languages": LANGUAGES, "script_catalog": script_catalog}

    app.add_template_filter(format_when, "datetime")
    app.add_template_filter(format_day, "date")
    app.add_template_filter(format_count, "number")
    app.add_template_filter(format_share, "percent")
    app.add_template_filter(iso_time, "iso_time")
    app.add_template_filter(preset_title, "preset_title")
    app.add_template_filter(lambda deck: deck_word(deck, "set_label"), "set_word")
    app.add_template_filter(lambda deck: deck_word(deck, "card_label"), "card_word")

    @app.after_request
    def remember_language(response: Response) -> Response:
        chosen = g.get("remember_language")
        if chosen:
            response.set_cookie(COOKIE, chosen, max_age=COOKIE_AGE, samesite="Lax", httponly=True)
        return response


# ----------------------------------------------------------------------------------------------------
# Dates and numbers as the reader's language writes them (CLDR, with Babel), as the Jinja
# filters datetime, date, number and percent. Times are in the reader's time zone: a teacher's, once
# the browser has told it (app/services/time_zones.py; the web edge puts its name in g.time_zone), else
# UTC, and the pages say which. CSV exports do not use these: they keep ISO dates and plain numbers for the programs that read them.
# ----------------------------------------------------------------------------------------------------
# A stored time: seconds since the epoch (as the models keep them), a datetime, or none (None, "").
Moment = datetime | float | str | None
FORMAT_LOCALES = {"pt": "pt_PT"}  # the catalogs' Portuguese is European: so are its dates and numbers


def format_locale() -> Locale:
    """The locale whose conventions the page's dates and numbers follow (the interface language's)."""
    locale = get_locale() or Locale.parse(DEFAULT_LANGUAGE)
    return Locale.parse(FORMAT_LOCALES.get(str(locale), str(locale)))


def time_zone_name() -> str | None:
    """The reader's time zone by name ("Europe/Paris"), None when it is not known (then times are UTC)."""
    return g.get("time_zone") if has_request_context() else None


def reader_zone() -> tzinfo:
    name = time_zone_name()
    return ZoneInfo(name) if name else timezone.utc


def _moment(value: Moment) -> datetime | None:
    """A stored time (seconds since the epoch, as the models keep them) or a datetime, in UTC."""
    if value is None or value == "":
        return None
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=timezone.utc)
    return datetime.fromtimestamp(float(value), timezone.utc)


def _local(value: Moment) -> datetime | None:
    """The moment in the reader's time zone."""
    moment = _moment(value)
    return None if moment is None else moment.astimezone(reader_zone())


def iso_time(value: Moment) -> str:
    """The same moment for machines (a <time datetime> attribute): 2026-11-30T14:39:00Z."""
    moment = _moment(value)
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ") if moment else ""


def format_when(value: Moment) -> str:
    """A date and time to the minute, in the reader's time zone (UTC when it is not known): "Nov 30, 2026,
    2:39 PM", "30 нояб. 2026 г., 14:39", "30 nov. 2026, 14:39", "30/11/2026, 14:39"."""
    moment = _local(value)
    if moment is None:
        return ""
    locale = format_locale()
    pattern: str = locale.datetime_formats.get("medium", "{1} {0}")
    return pattern.replace("{1}", dates.format_date(moment, "medium", locale=locale)).replace(
        "{0}", dates.format_time(moment, "short", tzinfo=moment.tzinfo, locale=locale))


def format_day(value: date | str | Moment) -> str:
    """A day (a date, a calendar day as "2026-11-30", a datetime or a stored time): "Nov 30, 2026",
    "30 нояб. 2026 г.", "30 nov. 2026"."""
    if value is None or value == "":
        return ""
    if isinstance(value, str):  # a calendar day as stored (a homework's days): no time zone to apply
        value = date.fromisoformat(value)
    if isinstance(value, datetime) or not isinstance(value, date):
        value = _local(value)
    return dates.format_date(value, "medium", locale=format_locale())


def format_count(value: float | Decimal) -> str:
    """A number with the reader's grouping and decimal signs: 12,345.5 · 12 345,5 · 12.345,5."""
    return numbers.format_decimal(value, locale=format_locale())


def format_share(value: float | Decimal) -> str:
    """A share (0.5) as a whole percentage: "50%", "50 %" (fr, ru)."""
    return numbers.format_percent(value, locale=format_locale())


# ----------------------------------------------------------------------------------------------------
# The JavaScript's messages: the scripts call AC.gettext("...") / AC.ngettext("...", "...", n), which
# `pybabel extract` reads (babel.cfg); each page carries their translations as a JSON data block.
# ----------------------------------------------------------------------------------------------------
SCRIPTS = Path(__file__).resolve().parent / "static" / "js"
_script_messages: list[str | tuple[str, ...]] | None = None
_script_catalogs: dict[str, dict[str, Any]] = {}
PLURAL_SAMPLES = range(0, 200)


def script_messages() -> list[str | tuple[str, ...]]:
    """Every message the scripts mark, read once from the files (the same reading `pybabel extract` does)."""
    global _script_messages
    if _script_messages is None:
        found: dict[str | tuple[str, ...], None] = {}
        for path in sorted(SCRIPTS.glob("*.js")):
            with open(path, "rb") as handle:
                for _lineno, message, _comments, _context in extract("javascript", handle):
                    found.setdefault(message, None)
        _script_messages = list(found)
    return _script_messages


def script_catalog() -> dict[str, Any]:
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
