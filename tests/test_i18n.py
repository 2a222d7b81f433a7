"""Five languages: every marked message is translated in every catalog, and the language is chosen
from the browser, switched with ?lang= and remembered."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[1]
TRANSLATIONS = ROOT / "app" / "translations"
LOCALES = ("ru", "fr", "pt", "it", "de", "es")


def catalog(lang: str):
    with open(TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po", "rb") as handle:
        return read_po(handle, locale=lang)


def extracted_ids(tmp_path) -> set[str]:
    pot = tmp_path / "messages.pot"
    subprocess.run([str(Path(sys.executable).parent / "pybabel"), "-q", "extract", "-F", str(ROOT / "babel.cfg"),
                    "-k", "_l", "-k", "lazy_gettext", "-k", "N_", "-k", "N_plural:1,2", "-k", "IllegalMove:2",
                    "-o", str(pot), str(ROOT / "app")], check=True, capture_output=True)
    with open(pot, "rb") as handle:
        return {m.id[0] if isinstance(m.id, tuple) else m.id for m in read_po(handle) if m.id}


@pytest.mark.parametrize("lang", LOCALES)
def test_every_message_is_translated(lang, tmp_path):
    translated = {}
    for message in catalog(lang):
        if not message.id:
            continue
        key = message.id[0] if isinstance(message.id, tuple) else message.id
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        assert all(strings) and "fuzzy" not in message.flags, f"{lang}: not translated: {key!r}"
        translated[key] = strings
    missing = extracted_ids(tmp_path) - set(translated)
    assert not missing, f"{lang}: run `make i18n-update` and translate: {sorted(missing)[:5]}"


def test_russian_has_three_plural_forms(app):
    from flask_babel import force_locale, ngettext

    with app.test_request_context("/"), force_locale("ru"):
        assert [ngettext("%(num)d card", "%(num)d cards", n) for n in (1, 3, 5, 21)] == [
            "1 карта", "3 карты", "5 карт", "21 карта"]


def test_the_language_comes_from_the_browser_and_can_be_switched(client):
    page = client.get("/", headers={"Accept-Language": "it-IT,it;q=0.9,en;q=0.5"}).get_data(as_text=True)
    assert '<html lang="it"' in page and "I mazzi" in page
    page = client.get("/?lang=fr", headers={"Accept-Language": "it"}).get_data(as_text=True)
    assert '<html lang="fr"' in page and "Les paquets" in page
    page = client.get("/decks/standard-52", headers={"Accept-Language": "it"}).get_data(as_text=True)
    assert '<html lang="fr"' in page  # remembered in a cookie
    assert '<html lang="en"' in client.get("/?lang=en").get_data(as_text=True)
    assert client.get("/?lang=xx").status_code == 200  # an unknown language is ignored


def test_a_404_message_is_translated(client):
    page = client.get("/decks/nope?lang=ru").get_data(as_text=True)
    assert "Колоды «nope» нет." in page


def test_engine_refusals_translate_with_their_fields(app):
    from flask_babel import force_locale, gettext

    from app.decks import get_deck
    from app.engine.game import Game
    from app.engine.moves import Ask
    from app.engine.options import make_options

    game = Game(get_deck("standard-52"), make_options("standard"), ["Anna", "Boris", "Vera"], seed=1)
    refusal = game.check(Ask("Boris", "Anna", set="A"))
    assert refusal.code == "not-your-turn"
    with app.test_request_context("/"), force_locale("pt"):
        assert gettext(refusal.template) % refusal.params == "é a vez de Anna, não de Boris"


def _script_catalog(page: str) -> dict:
    import json
    import re

    block = re.search(r'<script type="application/json" id="script-catalog">(.*?)</script>', page, re.S)
    assert block, "every page carries the scripts' messages"
    return json.loads(block.group(1))


def test_pages_carry_the_scripts_messages_in_their_language(app, client):
    from app.i18n import script_messages

    from .web_support import teacher_client

    client = teacher_client(app)  # the form to open a table has a script

    marked = script_messages()
    assert "The connection dropped; trying again…" in marked  # read from app/static/js/common.js
    assert 'id="script-catalog"' not in client.get("/?lang=ru").get_data(as_text=True)  # a page without scripts
    catalog = _script_catalog(client.get("/tables/new?lang=ru").get_data(as_text=True))
    assert catalog["lang"] == "ru"
    assert catalog["messages"]["The connection dropped; trying again…"] == "Связь прервалась; пробуем снова…"
    english = _script_catalog(client.get("/tables/new?lang=en").get_data(as_text=True))
    assert english["messages"]["The connection dropped; trying again…"] == "The connection dropped; trying again…"


def test_script_plurals_come_by_cldr_category(app):
    """The browser chooses a plural form with Intl.PluralRules, so each form is filed under its CLDR
    category: Russian needs one, few and many; English one and other."""
    from flask_babel import force_locale

    import app.i18n as i18n

    saved = i18n._script_messages
    i18n._script_messages = [("%(num)d card", "%(num)d cards")]
    i18n._script_catalogs.clear()
    try:
        with app.test_request_context("/"), force_locale("ru"):
            forms = i18n.script_catalog()["plurals"]["%(num)d card"]
        assert forms == {"many": "%(num)d карт", "one": "%(num)d карта", "few": "%(num)d карты"}
        with app.test_request_context("/"), force_locale("en"):
            assert i18n.script_catalog()["plurals"]["%(num)d card"] == {"other": "%(num)d cards",
                                                                         "one": "%(num)d card"}
    finally:
        i18n._script_messages = saved
        i18n._script_catalogs.clear()
