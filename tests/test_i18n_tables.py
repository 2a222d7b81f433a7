"""A table plays in the language its teacher chose (issue #9): its pages, the scripts' messages they
carry and the API's messages about it are in that language, unless the browser chose another one
(?lang= or the remembered cookie); the error codes never change."""
from __future__ import annotations

import json
import re


from .web_support import get_state, open_table, seat_student, teacher_client


def script_catalog(page: str) -> dict:
    block = re.search(r'<script type="application/json" id="script-catalog">(.*?)</script>', page, re.S)
    assert block, "every page carries the scripts' messages"
    return json.loads(block.group(1))


def page_language(page: str) -> str:
    return re.search(r'<html lang="(\w+)"', page).group(1)


def test_a_russian_table_plays_in_russian(play_app):
    teacher = teacher_client(play_app)
    code = open_table(teacher, language="ru")
    anna = seat_student(play_app, code, "Anna")
    seat_student(play_app, code, "Boris")
    assert teacher.post(f"/api/tables/{code}/start").status_code == 200

    page = anna.get(f"/t/{code}/play").get_data(as_text=True)
    assert page_language(page) == "ru" and "Загружаем стол…" in page
    catalog = script_catalog(page)
    assert catalog["lang"] == "ru"
    messages = catalog["messages"]
    assert messages["Players"] == "Игроки" and messages["Sets down"] == "Выложенные наборы"
    assert messages["%(player)s asked %(target)s for %(wanted)s: no."] == \
        "%(player)s просит у игрока %(target)s: %(wanted)s — нет."

    state = get_state(anna, code)
    assert state["language"] == "ru" and state["deck"]["language"] == "en"  # an English deck, a Russian table
    wrong = anna.post(f"/api/tables/{code}/moves", json={"move": {"ask": "Boris", "set": "nope"}})
    assert wrong.status_code == 409
    assert wrong.get_json()["error"] == {"code": "unknown-set", "message": "в этой колоде нет набора «nope»"}
    malformed = anna.post(f"/api/tables/{code}/moves", json={"move": {"ask": "Boris"}})
    assert malformed.get_json()["error"] == {"code": "bad-request",
                                             "message": "в запросе указывают либо «set», либо «card»"}


def test_russian_plurals_of_the_play_screen_come_by_cldr_category(play_app):
    code = open_table(teacher_client(play_app), language="ru")
    projector = play_app.test_client().get(f"/t/{code}/projector").get_data(as_text=True)
    plurals = script_catalog(projector)["plurals"]
    assert plurals["Stock: %(num)d card"] == {"one": "В стопке %(num)d карта", "few": "В стопке %(num)d карты",
                                              "many": "В стопке %(num)d карт"}
    assert plurals["Your hand (%(num)d card)"]["few"] == "На руках %(num)d карты"
    english = script_catalog(play_app.test_client().get(f"/t/{code}/projector?lang=en").get_data(as_text=True))["plurals"]
    assert english["Stock: %(num)d card"] == {"one": "Stock: %(num)d card", "other": "Stock: %(num)d cards"}


def test_a_french_table_is_french_for_a_browser_that_chose_nothing(play_app):
    teacher = teacher_client(play_app)
    code = open_table(teacher, language="fr")
    student = play_app.test_client()
    italian = {"Accept-Language": "it-IT,it;q=0.9"}  # the table's language comes before the browser's

    join = student.get(f"/j/{code}", headers=italian).get_data(as_text=True)
    assert page_language(join) == "fr" and "Rejoindre une table" in join and "Votre nom" in join
    joined = student.post("/join", data={"code": code, "name": "Anna", "csrf_token": csrf(student)}, headers=italian)
    assert joined.status_code == 303 and joined.headers["Location"].endswith(f"/t/{code}/play")
    play = student.get(f"/t/{code}/play", headers=italian).get_data(as_text=True)
    assert page_language(play) == "fr" and "Chargement de la table…" in play
    assert script_catalog(play)["messages"]["Players"] == "Joueurs"
    projector = student.get(f"/t/{code}/projector").get_data(as_text=True)
    assert page_language(projector) == "fr" and "Rejoindre sur" in projector
    manage = teacher.get(f"/t/{code}").get_data(as_text=True)
    assert page_language(manage) == "fr" and "Lancer la partie" in manage

    # A seated student's name typed on another device asks for her seat (issue #33): the waiting page
    # answers in the table's language.
    other = play_app.test_client()
    asked = other.post("/join", data={"code": code, "name": "anna", "csrf_token": csrf(other)})
    assert asked.status_code == 303 and asked.headers["Location"].endswith(f"/j/{code}/waiting")
    assert "Ton professeur a reçu ta demande" in other.get(asked.headers["Location"]).get_data(as_text=True)

    # The browser's own choice wins, and is remembered.
    english = student.get(f"/t/{code}/play?lang=en").get_data(as_text=True)
    assert page_language(english) == "en" and "Loading the table…" in english
    assert page_language(student.get(f"/t/{code}/projector").get_data(as_text=True)) == "en"
    # Elsewhere, and for a code that does not exist, the browser's language.
    assert page_language(play_app.test_client().get("/join", headers=italian).get_data(as_text=True)) == "it"


def csrf(client) -> str:
    return client.get("/api/csrf-token").get_json()["csrf_token"]


def test_an_api_error_about_a_french_table_is_in_french_with_its_code(play_app):
    teacher = teacher_client(play_app)
    code = open_table(teacher, language="fr")
    stranger = play_app.test_client()
    url = f"/api/tables/{code}/moves"

    response = stranger.post(url, json={"move": {"ask": "Boris", "set": "9"}})
    assert response.status_code == 403
    assert response.get_json()["error"] == {
        "code": "not-your-seat",
        "message": "Vous n’avez pas de place à cette table : rejoignez-la d’abord avec son code."}
    assert stranger.get(f"/api/tables/{code}").get_json()["language"] == "fr"
    not_teacher = stranger.post(f"/api/tables/{code}/start")
    assert not_teacher.get_json()["error"] == {
        "code": "not-teacher", "message": "Seul l’enseignant qui a ouvert cette table peut faire cela."}

    english = stranger.post(url + "?lang=en", json={"move": {"ask": "Boris", "set": "9"}})
    assert english.get_json()["error"] == {
        "code": "not-your-seat", "message": "You have no seat at this table: join it with its code first."}
    # No table: nothing to go by but the browser.
    unknown = play_app.test_client().get("/api/tables/ACEFHK", headers={"Accept-Language": "pt"})
    assert unknown.status_code == 404 and unknown.get_json()["error"]["code"] == "unknown-code"
    assert unknown.get_json()["error"]["message"].startswith("Não há nenhuma mesa com o código")


def test_the_table_language_defaults_to_the_teachers_and_is_checked(play_app):
    teacher = teacher_client(play_app)
    form = teacher.get("/tables/new?lang=it").get_data(as_text=True)
    assert re.search(r'<option value="it" lang="it" selected>Italiano</option>', form)
    assert "Lingua del tavolo" in form and "Apri il tavolo" in form
    opened = teacher.post("/tables/new", data={"csrf_token": csrf(teacher), "rules": "standard",
                                                "seat0": "student", "seat1": "student", "seat2": "computer:random",
                                                "language": "pt",
                                                "match_format": "hands", "match_value": "1"})
    assert opened.status_code == 303
    code = opened.headers["Location"].rstrip("/").rsplit("/", 1)[-1]
    assert get_state(teacher, code)["language"] == "pt"

    russian_teacher = teacher_client(play_app, "Mr Russian")
    code = open_table(russian_teacher)  # no language given: the teacher's, here from the browser
    assert get_state(russian_teacher, code)["language"] == "en"
    response = russian_teacher.post("/api/tables", json={"seats": [{}, {}, {}]}, headers={"Accept-Language": "ru"})
    assert response.status_code == 201 and response.get_json()["language"] == "ru"
    bad = russian_teacher.post("/api/tables", json={"seats": [{}, {}, {}], "language": "nl"})
    assert bad.status_code == 400 and bad.get_json()["error"]["code"] == "unknown-language"


def test_the_openapi_document_describes_the_table_language(client):
    from app.i18n import LANGUAGES

    document = client.get("/api/openapi.json").get_json()
    schemas = document["components"]["schemas"]
    assert schemas["NewTable"]["properties"]["language"]["enum"] == list(LANGUAGES)
    assert schemas["TableState"]["properties"]["language"]["enum"] == list(LANGUAGES)
    assert "table's language" in document["info"]["description"]


def test_a_table_without_a_name_is_called_by_its_game_on_the_projector(app):
    teacher = teacher_client(app)
    quartett = open_table(teacher, rules="quartett", deck="german-writers", language="de")
    assert "<h1>Quartett</h1>" in teacher.get(f"/t/{quartett}/projector?lang=de").get_data(as_text=True)
    go_fish = open_table(teacher, rules="go-fish", name="7B's table")
    assert "<h1>7B&#39;s table</h1>" in teacher.get(f"/t/{go_fish}/projector").get_data(as_text=True)
