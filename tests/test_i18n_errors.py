"""The engine's OptionsError and SetupError and printing's PrintError in five languages (issue #9).

Each keeps its English sentence for the command line and carries a marked template with its fields
(app.decks.errors.Sentence); the web app says it in the reader's language: the API's 400 when a table
is opened with bad options, the new-table form's error, a print refused by the server. Every raise
site is made to raise here and checked by `assert_translatable` (tests/deck_problems.py); the autouse
fixture of tests/error_sentences.py checks every such error the rest of the suite makes.
"""
from __future__ import annotations

import ast
import html
import json
import re
from pathlib import Path

import pytest

from app.decks import get_deck
from app.decks.errors import Sentence
from app.decks.model import Card, CardSet, Deck
from app.engine.decks import doubled, playing_card_deck
from app.engine.game import Game, SetupError
from app.engine.match import Match, MatchFormat
from app.engine.options import OptionsError, make_options
from app.printing import fonts as fonts_module
from app.printing.errors import PrintError

from .deck_problems import assert_translatable, catalog
from .web_support import teacher_client

ROOT = Path(__file__).resolve().parents[1]


def _deck(*sizes: int, deck_id: str = "tiny", ids: tuple[str, ...] | None = None) -> Deck:
    """A deck with sets of these sizes (set ids s1, s2, ...; card ids s1c1, ...)."""
    sets = []
    for n, size in enumerate(sizes, 1):
        set_id = ids[n - 1] if ids else f"s{n}"
        sets.append(CardSet(id=set_id, name=f"Set {n}", cards=tuple(
            Card(id=f"{set_id}c{i}", title=f"Card {n}.{i}", set_id=set_id, index=i) for i in range(1, size + 1))))
    return Deck(id=deck_id, title="Tiny", sets=tuple(sets))


STANDARD = get_deck("standard-52")
PLAYERS = ["Anna", "Boris", "Vera"]


def _game(rules="standard", deck=STANDARD, players=PLAYERS, overrides=None, **kwargs):
    return Game(deck, make_options(rules, overrides), players, **kwargs)


def _finish_not():
    match = Match(STANDARD, make_options("standard"), PLAYERS, MatchFormat(deals=1), seed=1)
    match.deal_finished()


ENGINE = {
    # OptionsError: app/engine/options.py
    "unknown rules": lambda: make_options("poker"),
    "unknown option": lambda: make_options("standard", {"teleport": True}),
    "not a bool": lambda: make_options("standard", {"stock": "maybe"}),
    "not a whole number": lambda: make_options("standard", {"deal_size": "seven"}),
    "not text": lambda: make_options("standard", {"removed_rank": 1.5}),
    "ask_by": lambda: make_options("standard", {"ask_by": "rank"}),
    "miss_passes_to": lambda: make_options("standard", {"miss_passes_to": "right"}),
    "player limits": lambda: make_options("standard", {"min_players": 7}),
    "lay_down_complete": lambda: make_options("standard", {"lay_down_complete": False}),
    "claims need teams": lambda: make_options("standard", {"claims": True, "lay_down_complete": True}),
    "deal_size": lambda: make_options("go-fish", {"deal_size": 0}),
    "jokers": lambda: make_options("literature", {"jokers": True}),
    "double deck without claims": lambda: make_options("literature", {"double_deck": True}),
    "named asks need card asks": lambda: make_options("standard", {"named_asks": True}),
    # OptionsError: app/engine/decks.py (a game turns it into a SetupError with the same sentence)
    "regrouping needs playing cards": lambda: _game("literature", get_deck("authors-1861"), list("ABCDEF"),
                                                    {"removed_rank": "8"}),
    "removed rank": lambda: playing_card_deck("1", False, False),
    "cannot be doubled": lambda: doubled(_deck(2, 2, ids=("a", "a-2"))),
    # SetupError: app/engine/game.py
    "not in teams": lambda: _game(teams=[["Anna"], ["Boris"]]),
    "nameless": lambda: _game(players=["Anna", " ", "Vera"]),
    "named twice": lambda: _game(players=["Anna", "Anna", "Vera"]),
    "too few players": lambda: _game(players=["Anna", "Boris"]),
    "sets of one size": lambda: _game("literature", _deck(4, 4, 6), list("ABCDEF")),
    "dealing needs cards": lambda: _game("go-fish", _deck(2, 2), overrides={"deal_size": 3}),
    "fewer cards than players": lambda: _game("standard", _deck(2), overrides={"min_players": 2}),
    "dealer": lambda: _game(dealer="Zoe"),
    "odd team game": lambda: _game("literature", players=list("ABCDEFG"), overrides={"max_players": 9}),
    "two teams": lambda: _game("literature", players=list("ABCDEF"), teams=[["A", "B"], ["C", "D"], ["E", "F"]]),
    "team member": lambda: _game("literature", players=list("ABCDEF"), teams=[["A", "B", "Z"], ["C", "D", "E"]]),
    "in a team twice": lambda: _game("literature", players=list("ABCDEF"), teams=[["A", "B", "A"], ["C", "D", "E"]]),
    "in no team": lambda: _game("literature", players=list("ABCDEF"), teams=[["A", "B", "C"], ["D", "E"]]),
    "teams of one size": lambda: _game("literature", players=list("ABCDEF"), teams=[["A", "B"], ["C", "D", "E", "F"]]),
    "stock without hands": lambda: _game(stock=["2S"]),
    "hands name a stranger": lambda: _game(hands={"Zoe": ["2S"]}),
    "no stock in these rules": lambda: _game(hands={"Anna": ["2S"]}, stock=["3S"]),
    "not a card of the deck": lambda: _game(hands={"Anna": ["1S"]}),
    "not a card of the deck, in the stock": lambda: _game("go-fish", hands={"Anna": ["2S"]}, stock=["1S"]),
    "dealt twice": lambda: _game(hands={"Anna": ["2S"], "Boris": ["2S"]}),
    "missing from the deal": lambda: _game(hands={"Anna": ["2S"]}),
    # SetupError: app/engine/match.py
    "hands or target": lambda: MatchFormat(deals=2, target=10),
    "one hand at least": lambda: MatchFormat(deals=0),
    "target at least 1": lambda: MatchFormat(deals=None, target=0),
    "hand not finished": _finish_not,
}


@pytest.mark.parametrize("name", ENGINE)
def test_every_engine_refusal_is_said_in_five_languages(name):
    with pytest.raises((OptionsError, SetupError)) as refused:
        ENGINE[name]()
    assert_translatable(refused.value)


def test_a_refused_option_keeps_its_english_sentence_and_says_it_in_russian():
    with pytest.raises(OptionsError) as refused:
        make_options("standard", {"stock": "maybe"})
    error = refused.value
    assert str(error) == error.message == "option \"stock\" is true or false, not 'maybe'"
    assert error.render(catalog("ru")[1]) == "опция «stock» — true или false, а не 'maybe'"


def test_a_regrouping_refused_by_the_deck_keeps_its_template_through_the_game():
    with pytest.raises(SetupError) as refused:
        ENGINE["regrouping needs playing cards"]()
    assert refused.value.template.startswith('options "removed_rank", "jokers" and "rank_sets" regroup')
    assert "«authors-1861»" in refused.value.render(catalog("pt")[1])


def test_a_list_of_sizes_is_joined_in_the_language():
    with pytest.raises(SetupError) as refused:
        _game("literature", _deck(4, 5, 6), list("ABCDEF"))
    assert str(refused.value).endswith("has sets of 4 and 5 and 6 cards")
    assert "4 et 5 et 6 cartes" in refused.value.render(catalog("fr")[1])


# ------------------------------------------------------------------------------------------------------
# Printing
# ------------------------------------------------------------------------------------------------------
def _write_deck(tmp_path, sets_yaml: str):
    from app.decks import load_deck_file

    path = tmp_path / "test-deck.yaml"
    path.write_text(f'format: authors-deck/1\nid: test-deck\ntitle: "Test deck"\nlanguage: en\nsets:\n{sets_yaml}',
                    encoding="utf-8")
    return load_deck_file(path)


def _unreadable_image(tmp_path):
    from app.printing.sheets import PrintOptions, render_deck

    (tmp_path / "broken.png").write_bytes(b"not a png")
    deck = _write_deck(tmp_path, '  - {id: a, name: "A", image: broken.png, cards: [{title: "One"}, {title: "Two"}]}\n'
                                 '  - {id: b, name: "B", cards: [{title: "Three"}, {title: "Four"}]}\n')
    render_deck(deck, PrintOptions())


def _glyphs(tmp_path, text: str):
    from app.printing.sheets import PrintOptions, render_deck

    deck = _write_deck(tmp_path, f'  - {{id: a, name: "{text}", cards: [{{title: "One"}}, {{title: "Two"}}]}}\n'
                                 '  - {id: b, name: "B", cards: [{title: "Three"}, {title: "Four"}]}\n')
    render_deck(deck, PrintOptions())


def _no_font(tmp_path, monkeypatch):
    monkeypatch.delenv(fonts_module.ENV_REGULAR, raising=False)
    monkeypatch.delenv(fonts_module.ENV_BOLD, raising=False)
    monkeypatch.setattr(fonts_module, "CANDIDATES", ((str(tmp_path / "none.ttf"), str(tmp_path / "none-b.ttf")),))
    fonts_module.find_fonts()


def _bad_font(tmp_path, monkeypatch):
    (tmp_path / "bad.ttf").write_bytes(b"not a font")
    fonts_module.register(str(tmp_path / "bad.ttf"), str(tmp_path / "bad.ttf"))


def _sheet(**options):
    from app.printing.sheets import PrintOptions

    PrintOptions(**options)


def _scorepad(**kwargs):
    from app.printing.scorepad import render_scorepad

    render_scorepad(**kwargs)


def _too_many_deals():
    from app.printing import geometry
    from app.printing.scorepad import pad_layout

    pad_layout((geometry.PAPERS["a4"][0], 120.0), 4, 30)


def _rules(preset="standard", paper="a4", language="en"):
    from app.printing.rules_sheet import render_rules

    render_rules(preset, paper, language)


def _preview(card_id="AS", card="poker"):
    from app.printing.preview import card_pdf

    card_pdf(STANDARD, card_id, card)


def _too_long():
    from app.printing import textfit
    from app.printing.fonts import fonts

    pair = fonts()
    textfit.fit(["word " * 400], pair.regular, pair.descent, 60, 40, 12, 6)


def _cli_deck(ref):
    from app.printing.cli import _load_deck

    _load_deck(ref)


PRINTING = {
    "no deck file": lambda tmp_path, monkeypatch: _cli_deck(str(tmp_path / "nope.yaml")),
    "no such deck": lambda tmp_path, monkeypatch: _cli_deck("no-such-deck"),
    "unreadable image": lambda tmp_path, monkeypatch: _unreadable_image(tmp_path),
    "glyphs missing": lambda tmp_path, monkeypatch: _glyphs(tmp_path, "漢字"),
    "right to left": lambda tmp_path, monkeypatch: _glyphs(tmp_path, "שלום"),
    "no font": _no_font,
    "bad font": _bad_font,
    "preview card size": lambda tmp_path, monkeypatch: _preview(card="jumbo"),
    "preview card": lambda tmp_path, monkeypatch: _preview(card_id="ZZ"),
    "rules preset": lambda tmp_path, monkeypatch: _rules(preset="poker"),
    "rules language": lambda tmp_path, monkeypatch: _rules(language="nl"),
    "rules paper": lambda tmp_path, monkeypatch: _rules(paper="a5"),
    "score pad players": lambda tmp_path, monkeypatch: _scorepad(players=1),
    "score pad hands": lambda tmp_path, monkeypatch: _scorepad(deals=99),
    "score pad fit": lambda tmp_path, monkeypatch: _too_many_deals(),
    "score pad paper": lambda tmp_path, monkeypatch: _scorepad(paper="a5"),
    "sheet paper": lambda tmp_path, monkeypatch: _sheet(paper="a5"),
    "sheet card": lambda tmp_path, monkeypatch: _sheet(card="jumbo"),
    "sheet duplex": lambda tmp_path, monkeypatch: _sheet(duplex="sideways"),
    "sheet offset": lambda tmp_path, monkeypatch: _sheet(back_offset=(25.0, 0.0)),
    "too long": lambda tmp_path, monkeypatch: _too_long(),
}


@pytest.mark.parametrize("name", PRINTING)
def test_every_print_refusal_is_said_in_five_languages(name, tmp_path, monkeypatch):
    with pytest.raises(PrintError) as refused:
        PRINTING[name](tmp_path, monkeypatch)
    assert_translatable(refused.value)


def test_a_font_refusal_names_its_place_in_the_language(tmp_path):
    with pytest.raises(PrintError) as refused:
        _glyphs(tmp_path, "漢字")
    english = str(refused.value)
    assert english.startswith("the deck \"test-deck\" needs 2 characters '漢字' (U+6F22, U+5B57), the first in "
                              'set "a"')
    russian = refused.value.render(catalog("ru")[1])
    assert russian.startswith("колода «test-deck»: не хватает глифов — 2 символа '漢字' (U+6F22, U+5B57), первый "
                              "встречается: набор «a»")


MARKED = {"N_", "N_plural"}
ERRORS = {"OptionsError", "SetupError", "PrintError", "TextDoesNotFit"}


def test_no_error_sentence_is_written_without_a_marked_template():
    """A raise site passes a marked template (N_(...)) or one carried over from another error, never an
    f-string or plain text: otherwise the web app could only say it in English."""
    found = 0
    for path in sorted((ROOT / "app" / "engine").rglob("*.py")) + sorted((ROOT / "app" / "printing").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ERRORS:
                found += 1
                first = node.args[0] if node.args else None
                marked = isinstance(first, ast.Call) and isinstance(first.func, ast.Name) and first.func.id in MARKED
                carried = isinstance(first, (ast.Name, ast.Attribute))  # exc.template, or a template chosen above
                assert marked or carried, f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)[:80]}"
    assert found > 50


REFUSALS = {"ServiceError", "BadRequest", "Forbidden", "NotFound", "Conflict", "TooManyAttempts", "Refused",
            "LoginFailed", "KeyReused"}


SAID = {"_", "gettext", "ngettext", "lazy_gettext", "_l", "str", "format"}


def _is_sentence(node: ast.expr) -> bool:
    """Not a string already said (a literal, an f-string, a concatenation, gettext's answer): a marked
    template (N_, N_plural), say(...), another error's sentence, or a helper's Text."""
    if isinstance(node, ast.IfExp):
        return _is_sentence(node.body) and _is_sentence(node.orelse)
    if isinstance(node, ast.BoolOp):
        return all(_is_sentence(value) for value in node.values)
    if isinstance(node, ast.Call):
        called = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
        if called == "say":
            return bool(node.args) and _is_sentence(node.args[0])
        return called not in SAID
    return not isinstance(node, (ast.Constant, ast.JoinedStr, ast.BinOp))


def test_the_services_refuse_with_sentences_said_at_the_edge():
    """A service's refusal carries a marked template and its fields, never a string already translated:
    the services import nothing of flask_babel, and every refusal (in the web's code too) is made from
    N_(...), say(N_(...), ...) or a sentence carried over."""
    found = 0
    for path in sorted((ROOT / "app" / "services").rglob("*.py")) + sorted((ROOT / "app" / "web").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if "services" in path.parts:
            imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)} | {
                alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
            assert "flask_babel" not in imported, f"{path.relative_to(ROOT)} imports flask_babel"
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in REFUSALS \
                    and node.args:
                found += 1
                assert _is_sentence(node.args[0]), f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)[:80]}"
    assert found > 80


def test_a_refusal_around_a_refusal_says_both_in_the_readers_language():
    from app.engine.moves import IllegalMove
    from app.services.errors import Conflict, Refused
    from app.decks.errors import N_, say

    refusal = IllegalMove("not-your-turn", "it is %(whose)s's turn, not %(player)s's", whose="Anna", player="Boris")
    assert Refused(refusal, code=refusal.code).render(catalog("pt")[1]) == "é a vez de Anna, não de Boris"
    moved_on = Conflict(say(N_("The table has moved on since your screen was drawn (version %(before)d, now "
                               "%(now)d) (%(reason)s); look again and choose again."), before=3, now=5,
                            reason=refusal.text), code=refusal.code)
    assert str(moved_on) == moved_on.message == ("The table has moved on since your screen was drawn (version 3, "
                                                 "now 5) (it is Anna's turn, not Boris's); look again and choose "
                                                 "again.")
    assert "é a vez de Anna, não de Boris" in moved_on.render(catalog("pt")[1])
    assert moved_on.to_dict(catalog("pt")[1])["message"] == moved_on.render(catalog("pt")[1])


# ------------------------------------------------------------------------------------------------------
# On the web
# ------------------------------------------------------------------------------------------------------
def test_opening_a_table_with_a_bad_option_is_refused_in_the_readers_language(app):
    client = teacher_client(app)
    spec = {"rules": "standard", "options": {"stock": "maybe"}, "seats": [{}, {}, {}]}
    english = client.post("/api/tables", json=spec)
    assert english.status_code == 400
    assert english.get_json()["error"] == {"code": "bad-request",
                                           "message": "option \"stock\" is true or false, not 'maybe'"}
    russian = client.post("/api/tables", json=spec, headers={"Accept-Language": "ru"})
    assert russian.status_code == 400
    assert russian.get_json()["error"] == {"code": "bad-request",
                                           "message": "опция «stock» — true или false, а не 'maybe'"}


def test_a_table_that_cannot_be_played_says_why_in_the_readers_language(app):
    client = teacher_client(app)
    spec = {"rules": "standard", "seats": [{}, {}]}
    answer = client.post("/api/tables", json=spec, headers={"Accept-Language": "it"})
    assert answer.status_code == 400
    assert answer.get_json()["error"]["message"] == ("a questo tavolo non si può giocare: queste regole sono per 3-6 "
                                            "giocatori, non 2")
    spec = {"rules": "literature", "deck": "authors-1861", "options": {"removed_rank": "8"}, "seats": [{}] * 6}
    message = client.post("/api/tables", json=spec, headers={"Accept-Language": "fr"}).get_json()["error"]["message"]
    assert "utilisez l’un des paquets standard-52, literature-48, literature-54, et non « authors-1861 »" in message


def test_the_new_table_form_shows_a_bad_option_in_the_readers_language(app):
    client = teacher_client(app)
    form = {"rules": "standard", "seat0": "student", "seat1": "student", "seat2": "computer:random",
            "opt_deal_size": "seven"}
    page = client.post("/tables/new?lang=pt", data=form)
    assert page.status_code == 400
    text = html.unescape(page.get_data(as_text=True))
    assert "a opção «deal_size» é um número inteiro, não 'seven'" in text


def test_a_print_refused_by_the_server_is_explained_in_french(client, monkeypatch):
    from gettext import NullTranslations

    from app.printing import scorepad

    class Hebrew(NullTranslations):  # a score pad whose title the font can print but not lay out
        def gettext(self, message):
            return "שלום" if message == "Score pad" else message

    monkeypatch.setattr(scorepad, "translations", lambda language: Hebrew())
    answer = client.get("/print/scorepad.pdf?lang=fr")
    assert answer.status_code == 503
    text = html.unescape(answer.get_data(as_text=True))
    assert ("Cette page ne peut pas être imprimée sur ce serveur : la feuille de score (fr) demande du texte de "
            "droite à gauche, que l’impression ne prend pas encore en charge : 4 caractères 'שלום'") in text
    assert "premier emplacement : la feuille de score" in text


def test_a_bad_print_option_is_refused_in_french(client):
    answer = client.get("/decks/standard-52/print.pdf?back_offset_x=25&lang=fr")
    assert answer.status_code == 400
    assert "un décalage des dos doit être entre -20 et 20 mm, et non 25" in html.unescape(answer.get_data(as_text=True))


def test_the_new_table_form_labels_its_choices_in_italian(app):
    client = teacher_client(app)
    page = client.get("/tables/new?lang=it").get_data(as_text=True)
    text = html.unescape(page)
    # the computer players by their strength, the rules by their title, the choices by what they mean
    for label in ("Casuale", "Memoria", "Esperto"):
        assert f"computer: {label}:" in text
    assert re.search(r'<option value="go-fish"[^>]*>Go Fish \(Vai a pescare\)</option>', text)
    assert re.search(r'<option value="set"\s*>una serie intera</option>', text)
    assert re.search(r'<option value="asked"\s*>al giocatore interpellato</option>', text)
    assert "Dopo una richiesta a vuoto, il turno passa" in text and '<code class="id">' not in text  # no option ids
    labels = re.search(r'data-labels="([^"]*)"', page[page.index('id="opt_ask_by"') - 400:])
    assert json.loads(html.unescape(labels.group(1))) == {"set": "una serie intera", "card": "una carta precisa"}
    for raw in (">random<", ">memory<", ">expert<", ">set<", ">card<", ">left<", ">asked<", ">classic<"):
        assert raw not in page


def test_the_teachers_page_names_the_computer_players_in_italian(app):
    client = teacher_client(app)
    table = client.post("/api/tables", json={"rules": "standard", "seats": [{}, {}, {"kind": "computer",
                                                                                  "bot": "expert"}]}).get_json()
    page = client.get(f"/t/{table['code']}?lang=it").get_data(as_text=True)
    bots = json.loads(html.unescape(re.search(r'data-bots="([^"]*)"', page).group(1)))
    assert bots == [["random", "Casuale"], ["memory", "Memoria"], ["expert", "Esperto"]]


def test_the_error_classes_are_sentences():
    from app.engine.moves import IllegalMove
    from app.services.errors import ServiceError

    assert all(issubclass(cls, Sentence) for cls in (OptionsError, SetupError, PrintError, IllegalMove, ServiceError))
    assert issubclass(OptionsError, ValueError) and issubclass(SetupError, ValueError)
