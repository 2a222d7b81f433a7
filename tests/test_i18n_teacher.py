"""The teachers' pages in five languages (issue #9): the deck studio, reports, accounts and error pages
say their words, dates and numbers in the reader's language; printing says its own words in the deck's
language (card sheets) or the one asked for (score pad, alignment page), English staying as it was."""
from __future__ import annotations

import io
import re
from datetime import date, datetime, timezone

import pytest
from babel.dates import format_date
from click.testing import CliRunner
from pypdf import PdfReader

from app.decks import get_deck, load_deck_file
from app.printing.sheets import PrintOptions, render_deck

from .test_reports import played_table
from .web_support import for_play, teacher_client

NOV_30 = datetime(2026, 11, 30, 14, 39, tzinfo=timezone.utc).timestamp()


def pdf_text(data: bytes) -> str:
    return "\n".join(page.extract_text() or "" for page in PdfReader(io.BytesIO(data)).pages)


# ----------------------------------------------------------------------------------------------------
# Dates and numbers: the Jinja filters
# ----------------------------------------------------------------------------------------------------
def test_dates_and_numbers_are_written_as_each_language_writes_them(app):
    from flask_babel import force_locale

    from app.i18n import format_count, format_day, format_share, format_when, iso_time

    with app.test_request_context("/"):
        with force_locale("en"):
            assert format_when(NOV_30) == "Nov 30, 2026, 2:39\u202fPM"
            assert (format_day(date(2026, 11, 30)), format_count(1234.5), format_share(0.5)) == (
                "Nov 30, 2026", "1,234.5", "50%")
        with force_locale("ru"):
            assert format_when(NOV_30) == "30 нояб. 2026\u202fг., 14:39"
            assert format_count(1234.5) == "1\xa0234,5"
        with force_locale("fr"):
            assert format_day(NOV_30) == "30 nov. 2026" and format_count(0.5) == "0,5"
            assert re.fullmatch(r"50\s%", format_share(0.5))
        with force_locale("pt"):
            assert format_count(12345.5) == "12\xa0345,5" and format_day(NOV_30) == "30/11/2026"
        with force_locale("it"):
            assert format_count(1234.5) == "1.234,5"
    assert iso_time(NOV_30) == "2026-11-30T14:39:00Z" and format_when(None) == "" == iso_time(None)


# ----------------------------------------------------------------------------------------------------
# The deck studio
# ----------------------------------------------------------------------------------------------------
def test_the_studio_in_russian_and_french_with_localised_dates(app):
    from app.db import db
    from app.models import StudioDeck

    teacher = teacher_client(app)
    made = teacher.post("/studio/paste", data={"title": "Painters", "action": "create",
                                               "rows": "Monet\tWater Lilies\nMonet\tPoppies\n"
                                                       "Vermeer\tThe Milkmaid\nVermeer\tThe Astronomer\n"})
    assert made.status_code == 303
    with app.app_context():
        row = StudioDeck.query.one()
        row.updated_at = NOV_30
        db.session.commit()
        number = row.id
    page = teacher.get("/studio/?lang=ru").get_data(as_text=True)
    assert '<html lang="ru"' in page and "<h1>Мастерская колод</h1>" in page and "Ваши колоды" in page
    assert "30 нояб. 2026\u202fг., 14:39" in page and 'datetime="2026-11-30T14:39:00Z"' in page
    assert "Deck studio" not in page and "Your decks" not in page
    deck = teacher.get(f"/studio/decks/{number}?lang=fr").get_data(as_text=True)
    assert "modifié le 30 nov. 2026, 14:39" in deck and "Dupliquer" in deck and "4 cartes" in deck
    assert "à vous, privé" in deck and "Download" not in deck
    english = teacher.get(f"/studio/decks/{number}?lang=en").get_data(as_text=True)
    assert "changed Nov 30, 2026, 2:39\u202fPM" in english and "yours, private" in english


def test_studio_validation_messages_are_translated(app):
    teacher = teacher_client(app)
    form = {"title": "x" * 121, "language": "fr", "s0_name": "Monet", "s0c0_title": "Water Lilies"}
    page = teacher.post("/studio/new?lang=fr", data=form).get_data(as_text=True)
    assert "Le paquet n’a pas été enregistré" in page and "le titre : plus de 120 caractères" in page
    preview = teacher.post("/studio/paste?lang=it", data={"title": "T", "action": "preview",
                                                          "rows": "Set\tCard\n\nA\tx\tone;two\nB\n"})
    html = preview.get_data(as_text=True)
    assert "saltata: letta come intestazioni delle colonne" in html and "saltata: una riga vuota" in html
    assert "la seconda colonna (il titolo della carta) è vuota" in html and "la serie «A» ha solo 1 carta" in html
    assert "2 righe di carte in 2 serie, lette come colonne separate da tabulazioni." in html
    upload = teacher.post("/studio/upload?lang=pt", data={"text": "format: authors-deck/1\n"})
    assert upload.status_code == 400 and "o baralho não foi guardado" in upload.get_data(as_text=True)


# ----------------------------------------------------------------------------------------------------
# Reports
# ----------------------------------------------------------------------------------------------------
def test_a_report_in_french_has_french_words_dates_and_percentages(app):
    play_app = for_play(app)
    teacher = teacher_client(play_app)
    played_table(play_app, teacher)
    today = datetime.now(timezone.utc).date()
    page = teacher.get("/reports/?lang=fr").get_data(as_text=True)
    assert '<html lang="fr"' in page and "Rapports de la classe" in page and "<h2>Élèves</h2>" in page
    assert f"au {format_date(today, 'medium', locale='fr')} (UTC)" in page
    assert re.search(r"\(\d{1,3}\s%\)", page), "a share of right answers, written the French way"
    assert "Class reports" not in page and "No answer" not in page
    from app.rules import rules_page

    rules_column = re.findall(r"<td>{0}</td>".format(re.escape(rules_page("standard", "fr").title)), page)
    assert rules_column and "<td>standard</td>" not in page  # the rules by their French name, not the id
    russian = teacher.get("/reports/?lang=ru").get_data(as_text=True)
    assert "Отчёты по классу" in russian and format_date(today, "medium", locale="ru") in russian
    english = teacher.get("/reports/?lang=en").get_data(as_text=True)
    assert re.search(r"\(\d{1,3}%\)", english) and format_date(today, "medium", locale="en") in english
    # the CSV stays machine-readable in any language: English column names, ISO times, plain numbers
    rows = teacher.get("/reports/answers.csv?lang=fr").get_data(as_text=True).lstrip("\ufeff").splitlines()
    assert rows[0].startswith("time (UTC),table,") and re.match(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,", rows[1])


def test_a_bad_report_period_is_refused_in_the_readers_language(app):
    teacher = teacher_client(app)
    response = teacher.get("/reports/?from=2000-01-01&to=2020-01-01&lang=it")
    assert response.status_code == 400 and "un resoconto copre al massimo" in response.get_data(as_text=True)


# ----------------------------------------------------------------------------------------------------
# Accounts, refusals, errors
# ----------------------------------------------------------------------------------------------------
def test_log_in_and_sign_up_messages_are_translated(app):
    from .web_support import make_teacher

    make_teacher(app)
    client = app.test_client()
    page = client.get("/login?lang=ru").get_data(as_text=True)
    assert "Вход для учителей" in page and "Пароль" in page and ">Войти</button>" in page
    refused = client.post("/login", data={"name": "Ms Teacher", "password": "not the password"})
    assert refused.status_code == 401 and "Неверное имя или пароль." in refused.get_data(as_text=True)
    signup = app.test_client().post("/signup?lang=it", data={"name": "Ada", "password": "short", "repeat": "short"})
    assert signup.status_code == 400 and "una password ha almeno 8 caratteri" in signup.get_data(as_text=True)
    english = app.test_client().post("/login", data={"name": "Ms Teacher", "password": "nope"})
    assert "The name or the password is wrong." in english.get_data(as_text=True)


def test_the_account_page_in_portuguese(app):
    teacher = teacher_client(app)
    teacher.post("/account/invitations")
    page = teacher.get("/account?lang=pt").get_data(as_text=True)
    assert "A sua conta: Ms Teacher" in page and "durante 14 dias" in page and "ainda não" in page
    assert re.search(r"<td>\d\d/\d\d/\d{4}, \d\d:\d\d</td>", page), "made and expiry dates as Portugal writes them"


def test_error_pages_and_csrf_refusals_are_translated(app):
    client = app.test_client()
    missing = client.get("/no/such/page?lang=fr").get_data(as_text=True)
    assert "<h1>Introuvable</h1>" in missing and "Il n’y a rien à cette adresse" in missing
    bare = app.test_client(csrf=False)
    bare.get("/?lang=ru")
    refused = bare.post("/logout")
    text = refused.get_data(as_text=True)
    assert refused.status_code == 400 and "Запрос отклонён" in text and "нет CSRF-токена" in text
    assert "<h1>Неверный запрос</h1>" in text


# ----------------------------------------------------------------------------------------------------
# Printing in the deck's language
# ----------------------------------------------------------------------------------------------------
def test_a_russian_deck_prints_its_footer_title_and_subject_in_russian():
    deck = get_deck("russian-writers")
    data = render_deck(deck, PrintOptions(paper="a4", backs=True))
    text = pdf_text(data)
    assert "лист 1 из 5" in text and "печать в масштабе 100%" in text
    assert "sheet 1 of" not in text and "print at" not in text
    info = PdfReader(io.BytesIO(data)).metadata
    assert info.title == "Русские писатели - карты"
    assert info.subject == ("40 карт формата poker на бумаге a4, "
                            "рубашки для двусторонней печати с переворотом по длинному краю")


def test_an_english_decks_footer_is_unchanged():
    deck = get_deck("authors-1861")
    data = render_deck(deck, PrintOptions(paper="letter", backs=True))
    assert "Authors (1861) · sheet 1 of 5 · print at 100% (actual size)" in pdf_text(data)
    info = PdfReader(io.BytesIO(data)).metadata
    assert (info.title, info.subject) == ("Authors (1861) - cards",
                                          "44 poker cards on letter paper, backs for long-edge duplex")


def test_the_default_set_label_prints_in_the_decks_language(tmp_path):
    sets = "".join(f"  - id: s{i}\n    name: {name}\n    cards: [{{title: Card {i}a}}, {{title: Card {i}b}}]\n"
                   for i, name in enumerate(("Alpha", "Beta")))
    for language, label in (("ru", "Набор"), ("pt-BR", "Coleção"), ("en", "Set")):
        path = tmp_path / f"deck-{language.lower()}.yaml"
        path.write_text(f"format: authors-deck/1\nid: deck-{language.lower()}\ntitle: Колода\nlanguage: {language}\n"
                        f"sets:\n{sets}", encoding="utf-8")
        deck = load_deck_file(path)
        assert deck.set_label == "Set"  # the deck names none
        assert re.search(rf"^{label}\s", pdf_text(render_deck(deck, PrintOptions())), re.M), language


def test_the_score_pad_in_italian(tmp_path):
    from app.printing.cli import print_command
    from app.printing.scorepad import render_scorepad

    text = pdf_text(render_scorepad(3, 4, "a4", "it"))
    assert "Segnapunti" in text and "Mano 4" in text and "Totale" in text and "Giocatore" in text
    assert "Score pad" not in text and "Hand 1" not in text
    result = CliRunner().invoke(print_command, ["--scorepad", "--lang", "it", "--hands", "3",
                                                "-o", str(tmp_path / "pad.pdf")])
    assert result.exit_code == 0, result.output
    reader = PdfReader(tmp_path / "pad.pdf")
    assert reader.metadata.title == "Segnapunti" and reader.metadata.subject == "4 giocatori, 3 mani"
    assert round(float(reader.pages[0].mediabox.height)) == 842  # Italian: A4 by default
    english = pdf_text(render_scorepad(3, 4, "letter"))
    assert "Score pad" in english and "Hand 4" in english


def test_the_alignment_page_and_score_pad_on_the_web_use_the_interface_language(client):
    alignment = client.get("/print/alignment.pdf?lang=ru&duplex=short")
    assert alignment.status_code == 200 and alignment.mimetype == "application/pdf"
    text = pdf_text(alignment.data)
    assert "Проверка совмещения сторон: лицевая сторона" in text and "по короткому краю" in text
    pad = client.get("/print/scorepad.pdf?lang=fr&players=5")
    assert pad.status_code == 200 and "Feuille de score" in pdf_text(pad.data)
    refused = client.get("/print/scorepad.pdf?lang=fr&players=40")
    assert refused.status_code == 400 and "doit être un nombre entier de 2 à 12" in refused.get_data(as_text=True)
    assert client.get("/print/alignment.pdf?back_offset_x=nan").status_code == 400
    english = client.get("/print/alignment.pdf?lang=en")
    assert "Duplex alignment test: front" in pdf_text(english.data)


@pytest.mark.parametrize("language", ["ru", "fr", "pt", "it", "de", "es"])
def test_every_printed_text_has_its_glyphs_in_the_font(language):
    """The font check of printing covers the translated texts: DejaVu has Cyrillic and every accent."""
    from app.printing.alignment import render_alignment
    from app.printing.scorepad import render_scorepad

    assert render_scorepad(4, 5, "a4", language).startswith(b"%PDF")
    assert render_alignment(PrintOptions(paper="a4"), language).startswith(b"%PDF")


def test_card_sizes_are_named_in_the_readers_language(client):
    page = client.get("/decks/standard-52?lang=ru").get_data(as_text=True)
    assert '<option value="poker">покерная 63.5 × 88.9 mm</option>' in page
    page = client.get("/decks/standard-52?lang=it").get_data(as_text=True)
    assert '<option value="tarot">tarocchi 70 × 120 mm</option>' in page
