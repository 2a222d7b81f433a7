"""The deck studio through the test client: forms, uploads, the spreadsheet paste, images, previews,
printing, sharing and playing, with hostile input (script tags, oversized files, YAML bombs, files that
are not images, another teacher's private deck)."""
from __future__ import annotations

import io
import re
import struct
import zlib

import pytest
import yaml
from PIL import Image
from pypdf import PdfReader

from app.decks import DeckError, load_deck_text
from app.decks.dump import deck_to_dict
from app.models import DeckSnapshot, StudioDeck
from app.services import studio

from .web_support import for_play, get_state, seat_student, teacher_client

SCRIPT = "<script>alert(1)</script>"


def deck_form(title="Painters", sets=(("Monet", ("Water Lilies", "Impression, Sunrise")),
                                     ("Vermeer", ("Girl with a Pearl Earring", "The Milkmaid")),
                                     ("Hokusai", ("The Great Wave", "Red Fuji")))) -> dict:
    form = {"title": title, "language": "en", "set_label": "Painter", "card_label": "Painting"}
    for i, (name, cards) in enumerate(sets):
        form[f"s{i}_name"] = name
        for j, card in enumerate(cards):
            form[f"s{i}c{j}_title"] = card
    return form


def make_deck(client, **kwargs) -> str:
    response = client.post("/studio/new", data=deck_form(**kwargs))
    assert response.status_code == 303, response.get_data(as_text=True)[:500]
    return response.headers["Location"]


def png(width=40, height=60, colour="red", kind="PNG") -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), colour).save(buffer, kind)
    return buffer.getvalue()


def header_says(data: bytes, width: int, height: int) -> bytes:
    """A PNG whose header claims another size (a decompression bomb costs nothing to make)."""
    ihdr = bytearray(data[12:29])  # the chunk type and its 13 bytes
    ihdr[4:12] = struct.pack(">II", width, height)
    return data[:12] + bytes(ihdr) + struct.pack(">I", zlib.crc32(bytes(ihdr))) + data[33:]


def upload(client, url, data: bytes, name="deck.yaml", **fields):
    return client.post(url, data={**fields, "file": (io.BytesIO(data), name)}, content_type="multipart/form-data")


def problems_of(response) -> list[str]:
    html = response.get_data(as_text=True)
    return re.findall(r'<p class="problem">(.*?)</p>', html) + re.findall(r"<li>(.*?)</li>", html)


@pytest.fixture
def teacher(app):
    return teacher_client(app)


# ----------------------------------------------------------------------------------------------------
# Making and editing decks
# ----------------------------------------------------------------------------------------------------
def test_the_studio_is_for_teachers(app):
    anonymous = app.test_client()
    response = anonymous.get("/studio/")
    assert response.status_code == 302 and "/login?next=/studio/" in response.headers["Location"]
    assert anonymous.get("/studio/", headers={"Accept": "application/json"}).status_code == 401
    assert anonymous.post("/studio/new", data=deck_form()).status_code == 302


def test_a_deck_made_in_the_form_is_stored_checked_and_editable(app, teacher):
    url = make_deck(teacher)
    page = teacher.get(url).get_data(as_text=True)
    assert "Painters" in page and "Water Lilies" in page and "3 × Painter" in page
    with app.app_context():
        row = StudioDeck.query.one()
        deck = load_deck_text(row.yaml_text)  # what is stored passes the one validator
        assert [s.id for s in deck.sets] == ["monet", "vermeer", "hokusai"] and deck.card_label == "Painting"
        assert row.owner.name == "Ms Teacher" and not row.shared
    form = teacher.get(f"{url}/edit").get_data(as_text=True)
    assert 'value="Impression, Sunrise"' in form
    edited = deck_form(title="Painters, revised")
    edited.update({"s0_id": "monet", "s0c0_aliases": "Lilies; Nympheas", "s0c1_note": "1872", "s0_color": "#335577",
                   "s1c1_title": "", "s1c2_title": "The Little Street", "s1c3_title": "View of Delft", "shared": "1"})
    assert teacher.post(f"{url}/edit", data=edited).status_code == 303
    with app.app_context():
        row = StudioDeck.query.one()
        deck = load_deck_text(row.yaml_text)
        assert deck.title == "Painters, revised" and row.shared
        assert deck.card("water-lilies").aliases == ("Lilies", "Nympheas") and deck.set("monet").color == "#335577"
        assert [c.title for c in deck.set("vermeer").cards] == ["Girl with a Pearl Earring", "The Little Street",
                                                               "View of Delft"]


def test_a_deck_that_names_no_set_or_card_is_shown_with_the_readers_words(app, teacher):
    form = deck_form(title="Peintres")
    form.update(language="fr", set_label="", card_label="")
    response = teacher.post("/studio/new?lang=fr", data=form)
    assert response.status_code == 303, response.get_data(as_text=True)[:500]
    page = teacher.get(response.headers["Location"] + "?lang=fr").get_data(as_text=True)
    assert "3 × Famille" in page and "(Carte)" in page  # the format's default words, in French
    assert "× Set" not in page and "(Card)" not in page
    english = teacher.get(response.headers["Location"] + "?lang=en").get_data(as_text=True)
    assert "3 × Set" in english and "(Card)" in english


def test_the_library_lists_studio_decks_in_the_readers_language(teacher):
    make_deck(teacher)
    page = teacher.get("/?lang=fr").get_data(as_text=True)
    assert "<h2>Paquets de l'atelier</h2>" in page and "à vous, privé" in page
    assert "Decks of the studio" not in page and ">you<" not in page


def test_the_form_reports_the_validators_problems_and_saves_nothing(app, teacher):
    one_set = deck_form(sets=(("Monet", ("Water Lilies", "Impression, Sunrise")),))
    response = teacher.post("/studio/new", data=one_set)
    assert response.status_code == 400
    assert "a deck needs 2 to 60 sets; this one has 1" in response.get_data(as_text=True)
    form = deck_form()
    form["s0c2_note"] = "a note without a title"  # nothing typed is dropped silently
    form["s1_color"] = "red"
    response = teacher.post("/studio/new", data=form)
    text = response.get_data(as_text=True)
    assert response.status_code == 400 and "card 3 has no title" in text and "#rrggbb" in text
    with app.app_context():
        assert StudioDeck.query.count() == 0


def test_script_tags_in_titles_are_text_everywhere(app, teacher):
    url = make_deck(teacher, title=f"Painters {SCRIPT}",
                    sets=((f"Monet {SCRIPT}", (f"Lilies {SCRIPT}", "Sunrise")), ("Vermeer", ("Milkmaid", "Pearl"))))
    pages = [url, f"{url}/edit", f"{url}/yaml", f"{url}/images", "/studio/", "/", "/tables/new", "/reports/"]
    for page in pages:
        html = teacher.get(page).get_data(as_text=True)
        assert SCRIPT not in html, page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in teacher.get(url).get_data(as_text=True)
    response = teacher.post("/studio/paste", data={"title": "x", "rows": f"{SCRIPT},a\n{SCRIPT},b\nc,d\n",
                                                   "action": "preview"})
    assert SCRIPT not in response.get_data(as_text=True)


# ----------------------------------------------------------------------------------------------------
# YAML: upload, edit, download; one validator with the command line
# ----------------------------------------------------------------------------------------------------
GOOD = """format: authors-deck/1
id: scientists-mini
title: Scientists
sets:
  - id: curie
    name: Marie Curie
    cards:
      - title: Polonium
      - title: Radium
        aliases: [Ra]
  - id: darwin
    name: Charles Darwin
    cards:
      - title: On the Origin of Species
      - title: The Descent of Man
"""

BAD = """format: authors-deck/1
id: Bad Deck
title: Broken
sets:
  - id: curie
    name: Marie Curie
    cards:
      - titel: Polonium
      - title: Radium
  - id: curie
    name: Marie Curie
    cards:
      - title: Radium
"""


def test_an_uploaded_file_is_checked_by_the_same_validator_as_the_command_line(app, teacher):
    response = upload(teacher, "/studio/upload", BAD.encode(), "broken.yaml")
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    with pytest.raises(DeckError) as refused:
        load_deck_text(BAD, source="broken.yaml")
    for problem in refused.value.problems:  # every problem of `authors decks validate`, beside its line
        row = re.search(rf'<tr class="bad" id="line-{problem.line}">(.*?)</tr>', html, re.S)
        assert row, problem
        expected = problem.message.replace('"', "&#34;")
        assert f"Line {problem.line}, column {problem.column}: {expected}" in row.group(1), problem
    assert "broken.yaml" in html
    response = upload(teacher, "/studio/upload", GOOD.encode(), "good.yaml")
    assert response.status_code == 303
    url = response.headers["Location"]
    with app.app_context():
        assert StudioDeck.query.one().yaml_text == GOOD  # kept as written
    downloaded = teacher.get(f"{url}/deck.yaml")
    assert downloaded.status_code == 200 and "attachment" in downloaded.headers["Content-Disposition"]
    assert deck_to_dict(load_deck_text(downloaded.data)) == deck_to_dict(load_deck_text(GOOD))
    assert yaml.safe_load(downloaded.data)["sets"][0]["cards"][1]["aliases"] == ["Ra"]


def test_the_yaml_editor_saves_or_shows_problems_by_line(app, teacher):
    url = upload(teacher, "/studio/upload", GOOD.encode()).headers["Location"]
    text = GOOD.replace("title: Scientists", "title: Scientists, edited")
    assert teacher.post(f"{url}/yaml", data={"text": text}).status_code == 303
    broken = text.replace("      - title: Radium\n", "      - title: Radium\n        colour: red\n")
    response = teacher.post(f"{url}/yaml", data={"text": broken})
    assert response.status_code == 400
    assert re.search(r'id="line-10">.*unknown key &#34;colour&#34;', response.get_data(as_text=True), re.S)
    with app.app_context():
        assert "Scientists, edited" in StudioDeck.query.one().yaml_text


def test_the_validators_problems_are_shown_in_the_teachers_language(teacher):
    """The problems of `authors decks validate`, beside the same lines, said in the interface language."""
    from markupsafe import escape

    from .deck_problems import catalog

    refused = teacher.post("/studio/paste", headers={"Accept-Language": "fr"},  # the browser's language
                           data={"title": "Langue", "language": "english!", "action": "create",
                                 "rows": "A\tOliver Twist\nA\tBleak House\nB\tHamlet\nB\tMacbeth\n"})
    assert refused.status_code == 400
    assert ("la langue « english! » n’est pas une étiquette de langue comme « en », « fr » ou « pt-BR »"
            in refused.get_data(as_text=True))
    one_set = deck_form(sets=(("Monet", ("Water Lilies", "Impression, Sunrise")),))
    response = teacher.post("/studio/new?lang=it", data=one_set)  # chosen on the page (and remembered)
    assert "un mazzo deve avere da 2 a 60 serie; questo ne ha 1" in response.get_data(as_text=True)

    response = upload(teacher, "/studio/upload?lang=ru", BAD.encode(), "broken.yaml")
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    with pytest.raises(DeckError) as bad:
        load_deck_text(BAD, source="broken.yaml")
    for problem in bad.value.problems:
        russian = str(escape(problem.render(catalog("ru")[1])))
        row = re.search(rf'<tr class="bad" id="line-{problem.line}">(.*?)</tr>', html, re.S)
        assert row and re.search(rf"\b{problem.column}\b[^<]*{re.escape(russian)}", row.group(1)), problem
        assert escape(problem.message) not in html
    assert "неизвестный ключ «titel» (может быть, «title»?)" in html
    assert "id набора «curie» встречается дважды (впервые в строке 5)" in html
    assert "набор «curie»: 1 карта, а нужно от 2 до 8" in html


def test_a_repeat_in_the_form_editor_points_higher_up_in_the_form(teacher):
    twice = deck_form(sets=(("Monet", ("Water Lilies", "The Magpie")), ("Monet", ("Sunrise", "Poppies"))))
    text = teacher.post("/studio/new", data=twice).get_data(as_text=True)
    assert "set name &#34;Monet&#34; is used twice (the first one is higher up in the form)" in text
    assert "first at line" not in text  # the lines of a YAML the teacher never saw
    text = teacher.post("/studio/new?lang=pt", data=twice).get_data(as_text=True)
    assert "o nome de coleção «Monet» é usado duas vezes (a primeira vez mais acima no formulário)" in text


@pytest.mark.parametrize("text, message", [
    ("format: authors-deck/1\nid: x\ntitle: &a lol\nsets: [*a, *a]\n", "YAML anchor (&amp;a) is not allowed"),
    ("a: &a [x, x]\nb: &b [*a, *a]\nc: &c [*b, *b]\n", "YAML anchor (&amp;a) is not allowed"),
    ("sets: " + "[" * 200 + "]" * 200 + "\n", "nest deeper than the format allows"),
    ("\xff\xfe not utf-8", "not UTF-8"),
    ("", "the file is empty"),
])
def test_yaml_bombs_and_junk_are_refused_with_the_validators_message(teacher, text, message):
    response = upload(teacher, "/studio/upload", text.encode("latin-1") if "\xff" in text else text.encode())
    assert response.status_code == 400
    assert message in response.get_data(as_text=True)


def test_oversized_files_are_refused(teacher):
    big = b"# " + b"x" * (1024 * 1024 + 100)
    response = upload(teacher, "/studio/upload", big)
    assert response.status_code == 400 and "larger than 1 MiB" in response.get_data(as_text=True)
    huge = b"x" * (3 * 1024 * 1024)
    response = upload(teacher, "/studio/upload", huge)
    assert response.status_code == 413


# ----------------------------------------------------------------------------------------------------
# Pasting from a spreadsheet
# ----------------------------------------------------------------------------------------------------
SHEET = ("Author\tWork\tAliases\tNote\n"
         "Charles Dickens\tOliver Twist\tOliver, Twist\t1838\n"
         "Charles Dickens\tBleak House\t\t\n"
         "\n"
         "Edgar Allan Poe\tThe Raven\t\t1845\n"
         "Edgar Allan Poe\tThe Gold-Bug\t\t\n"
         "Лев Толстой\tВойна и мир\tВойна\t\n"
         "Лев Толстой\tАнна Каренина\t\t\n")


def test_a_pasted_spreadsheet_is_previewed_row_by_row_then_made_a_deck(app, teacher):
    form = {"title": "Writers", "set_label": "Author", "card_label": "Work", "rows": SHEET, "action": "preview"}
    preview = teacher.post("/studio/paste", data=form)
    html = preview.get_data(as_text=True)
    assert preview.status_code == 200 and 'id="sheet-ok"' in html
    assert "read as the column headings" in html and "an empty row" in html  # skipped rows are shown
    assert html.count("<td>a card</td>") == 6
    made = teacher.post("/studio/paste", data={**form, "action": "create"})
    assert made.status_code == 303
    with app.app_context():
        deck = load_deck_text(StudioDeck.query.one().yaml_text)
        assert [s.name for s in deck.sets] == ["Charles Dickens", "Edgar Allan Poe", "Лев Толстой"]
        assert deck.card("oliver-twist").aliases == ("Oliver", "Twist") and deck.card("oliver-twist").note == "1838"
        assert [c.title for c in deck.set(deck.sets[2].id).cards] == ["Война и мир", "Анна Каренина"]


def test_comma_separated_rows_with_quotes_and_semicolon_aliases(app, teacher):
    rows = 'Dickens,"Oliver Twist, or the Parish Boy\'s Progress",Oliver;Twist,1838\nDickens,Bleak House\nPoe,The Raven\nPoe,Ulalume\n'
    made = teacher.post("/studio/paste", data={"title": "CSV", "rows": rows, "action": "create"})
    assert made.status_code == 303
    with app.app_context():
        deck = load_deck_text(StudioDeck.query.one().yaml_text)
        card = deck.sets[0].cards[0]
        assert card.title == "Oliver Twist, or the Parish Boy's Progress" and card.aliases == ("Oliver", "Twist")


def test_every_bad_row_is_named_and_nothing_is_made(app, teacher):
    rows = ("Dickens\tOliver Twist\n"
            "Dickens\tBleak House\ta\tb\textra column\n"
            "\tNo set\n"
            "Poe\t\n"
            "Poe\tOliver Twist\n"
            "Poe\tThe Raven\n"
            "Loner\tOnly card\n")
    response = teacher.post("/studio/paste", data={"title": "Bad", "rows": rows, "action": "create"})
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    for number, message in [(2, "this row has 5 columns"), (3, "the first column (the set) is empty"),
                            (4, "the second column (the card&#39;s title) is empty"),
                            (5, "the card title &#34;Oliver Twist&#34; is already in row 1"),
                            (7, "has only 1 card")]:
        row = re.search(rf'data-row="{number}">(.*?)</tr>', html, re.S)
        assert row and message in row.group(1), (number, message)
    with app.app_context():
        assert StudioDeck.query.count() == 0
    nine = "".join(f"Big\tCard {n}\n" for n in range(9)) + "Small\tA\nSmall\tB\n"
    response = teacher.post("/studio/paste", data={"title": "Nine", "rows": nine, "action": "preview"})
    assert re.search(r'data-row="9">.*already has 8 cards', response.get_data(as_text=True), re.S)


def test_the_validators_problems_of_a_sheet_land_on_its_rows(teacher):
    rows = "A\tOliver Twist\nA\tOliver-Twist\nB\tВойна и мир\nB\tАнна Каренина\n"
    sheet = studio.read_sheet(rows)
    text, origin = studio.sheet_yaml(sheet, {"id": "x1", "title": "Ids"})
    lines = text.splitlines()
    for row in sheet.cards:  # each card is one line of the YAML, and that line knows its row
        [line] = [n for n, numbers in origin.items() if numbers == [row.number] and row.title in lines[n - 1]]
        assert lines[line - 1].lstrip().startswith("- {title:")
    deck = load_deck_text(text)  # two titles with one slug, titles without Latin letters: ids are given
    assert len({c.id for c in deck.cards}) == 4
    refused = teacher.post("/studio/paste", data={"title": "Bad language", "language": "english!", "rows": rows,
                                                  "action": "create"})
    assert refused.status_code == 400 and "is not a language tag" in refused.get_data(as_text=True)
    assert "a deck needs 2 to 60 sets" in str(studio.read_sheet("A\tx\nA\ty\n").problems[0])


# ----------------------------------------------------------------------------------------------------
# Images
# ----------------------------------------------------------------------------------------------------
def test_images_are_checked_reencoded_and_printed(app, teacher):
    url = make_deck(teacher)
    original = png(80, 120)
    exif_jpeg = io.BytesIO()
    Image.new("RGB", (30, 30), "blue").save(exif_jpeg, "JPEG", exif=b"Exif\x00\x00secret-camera-data")
    assert upload(teacher, f"{url}/images", original, "m.png", target="set:monet").status_code == 303
    assert upload(teacher, f"{url}/images", exif_jpeg.getvalue(), "w.jpg", target="card:water-lilies").status_code == 303
    with app.app_context():
        row = StudioDeck.query.one()
        deck = load_deck_text(row.yaml_text)
        folder = studio.deck_dir(row.id) / "images"
    assert deck.set("monet").image.startswith("images/set-monet-") and deck.card("water-lilies").image.endswith(".jpg")
    stored = sorted(folder.iterdir())
    assert len(stored) == 2 and str(folder).startswith(app.instance_path)
    jpeg = next(p for p in stored if p.suffix == ".jpg").read_bytes()
    assert b"secret-camera-data" not in jpeg  # re-encoded: metadata gone
    page = teacher.get(f"{url}/images").get_data(as_text=True)
    served = teacher.get(re.search(r'src="(/studio/decks/\d+/images/set-monet-[^"]+)"', page).group(1))
    assert served.status_code == 200 and served.mimetype == "image/png"
    assert teacher.get(f"{url}/print.pdf").status_code == 200
    # replacing an image removes the old file; removing it takes it out of the deck
    assert upload(teacher, f"{url}/images", png(10, 10, "green"), "n.png", target="set:monet").status_code == 303
    assert len(list(folder.iterdir())) == 2
    assert teacher.post(f"{url}/images/remove", data={"target": "set:monet"}).status_code == 303
    with app.app_context():
        assert load_deck_text(StudioDeck.query.one().yaml_text).set("monet").image is None
    assert len(list(folder.iterdir())) == 1


@pytest.mark.parametrize("data, name, status, message", [
    (b"GIF89a" + b"\x00" * 100, "x.png", 400, "not a PNG or JPEG"),
    (b"<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>", "x.svg", 400, "not a PNG or JPEG"),
    (b"\x89PNG\r\n\x1a\n" + b"\x00" * 50, "broken.png", 400, "PNG or JPEG"),
    (b"", "empty.png", 400, "Choose an image file"),
    (b"\x00" * (1024 * 1024 + 10), "big.png", 400, "at most 1024 KiB"),
    (b"\x00" * (3 * 1024 * 1024), "huge.png", 413, ""),
])
def test_files_that_are_not_good_images_are_refused(app, teacher, data, name, status, message):
    url = make_deck(teacher)
    response = upload(teacher, f"{url}/images", data, name, target="set:monet")
    assert response.status_code == status
    assert message in response.get_data(as_text=True)


def test_a_decompression_bomb_and_a_gif_are_refused_before_decoding(teacher):
    url = make_deck(teacher)
    for width, height in ((20000, 20000), (6000, 6000)):  # Pillow's own limit, and ours (30 million pixels)
        bomb = header_says(png(1, 1), width, height)
        response = upload(teacher, f"{url}/images", bomb, "bomb.png", target="set:monet")
        assert response.status_code == 400 and "too many" in response.get_data(as_text=True)
    gif = io.BytesIO()
    Image.new("RGB", (5, 5)).save(gif, "GIF")
    response = upload(teacher, f"{url}/images", gif.getvalue(), "a.gif", target="set:monet")
    assert response.status_code == 400 and "a GIF image, not a PNG or JPEG" in response.get_data(as_text=True)
    response = upload(teacher, f"{url}/images", png(), "a.png", target="set:nobody")
    assert response.status_code == 400
    assert teacher.get(f"{url}/images/..%2F..%2Fsecret_key").status_code == 404


# ----------------------------------------------------------------------------------------------------
# Previews, printing
# ----------------------------------------------------------------------------------------------------
def test_each_card_is_previewed_as_it_prints_and_the_deck_prints_as_a_pdf(teacher):
    url = make_deck(teacher)
    page = teacher.get(url).get_data(as_text=True)
    previews = re.findall(r'<img src="(/studio/decks/\d+/cards/[^"]+\.png)"', page)
    assert len(previews) == 6
    first = teacher.get(previews[0])
    assert first.status_code == 200 and first.mimetype == "image/png"
    with Image.open(io.BytesIO(first.data)) as image:  # a poker card, 63.5 x 88.9 mm at 120 dpi
        assert image.size == (300, 420) and image.getpixel((150, 10)) != (255, 255, 255)
    assert teacher.get(previews[0], headers={"If-None-Match": first.headers["ETag"]}).status_code == 304
    assert teacher.get(f"{url}/cards/no-such-card.png").status_code == 404
    pdf = teacher.get(f"{url}/print.pdf?paper=a4&backs=1")
    assert pdf.status_code == 200 and pdf.mimetype == "application/pdf"
    reader = PdfReader(io.BytesIO(pdf.data))
    assert len(reader.pages) == 2 and "Water Lilies" in reader.pages[0].extract_text()
    assert teacher.get(f"{url}/print.pdf?paper=a0").status_code == 400


# ----------------------------------------------------------------------------------------------------
# Owners, sharing, copies
# ----------------------------------------------------------------------------------------------------
def test_another_teachers_private_deck_is_not_found_and_a_shared_one_is_read_only(app, teacher):
    url = make_deck(teacher, title="Impressionists")
    number = url.rsplit("/", 1)[1]
    other = teacher_client(app, "Mr Other")
    hidden = [url, f"{url}/edit", f"{url}/yaml", f"{url}/deck.yaml", f"{url}/print.pdf", f"{url}/images",
              f"{url}/cards/water-lilies.png"]
    for page in hidden:
        assert other.get(page).status_code == 404, page
    assert other.post(f"{url}/edit", data=deck_form(title="Stolen")).status_code == 404
    assert other.post(f"{url}/delete").status_code == 404
    assert other.post("/studio/duplicate", data={"source": f"studio:{number}"}).status_code == 404
    refused = other.post("/api/tables", json={"deck": f"studio:{number}", "seats": [{"kind": "computer"}] * 3})
    assert refused.status_code == 400 and "unknown deck" in refused.get_json()["error"]["message"]
    assert "Impressionists" not in other.get("/").get_data(as_text=True)
    assert "Impressionists" not in other.get("/tables/new").get_data(as_text=True)

    assert teacher.post(f"{url}/share", data={"shared": "1"}).status_code == 303
    assert other.get(url).status_code == 200 and other.get(f"{url}/deck.yaml").status_code == 200
    assert "Impressionists" in other.get("/").get_data(as_text=True)
    assert "shared by Ms Teacher" in other.get("/tables/new").get_data(as_text=True)
    for page in (f"{url}/edit", f"{url}/yaml", f"{url}/images"):
        response = other.get(page)
        assert response.status_code == 403 and "duplicate it" in response.get_data(as_text=True), page
    assert other.post(f"{url}/delete").status_code == 403
    copy = other.post("/studio/duplicate", data={"source": f"studio:{number}"})
    assert copy.status_code == 303 and other.get(f"{copy.headers['Location']}/edit").status_code == 200
    with app.app_context():
        titles = sorted((row.title, row.owner.name, row.shared) for row in StudioDeck.query.all())
    assert titles == [("Impressionists", "Ms Teacher", True), ("Impressionists (copy)", "Mr Other", False)]


def test_a_built_in_deck_is_duplicated_as_a_starting_point(app, teacher):
    response = teacher.post("/studio/duplicate", data={"source": "authors-1861"})
    assert response.status_code == 303
    with app.app_context():
        row = StudioDeck.query.one()
        assert row.title == "Authors (1861) (copy)" and row.card_count == 44
    assert teacher.post("/studio/duplicate", data={"source": "nope"}).status_code == 404
    assert teacher.get("/studio/decks/999").status_code == 404
    assert teacher.get("/studio/decks/0").status_code == 404


def test_delete_and_a_missing_csrf_token(app, teacher):
    url = make_deck(teacher)
    bare = app.test_client(csrf=False)
    with teacher.session_transaction() as session:
        cookie_session = dict(session)
    with bare.session_transaction() as session:
        session.update(cookie_session)
    response = bare.post(f"{url}/delete")
    assert response.status_code == 400 and "CSRF token is missing" in response.get_data(as_text=True)
    assert teacher.post(f"{url}/delete").status_code == 303
    assert teacher.get(url).status_code == 404


# ----------------------------------------------------------------------------------------------------
# Playing a studio deck
# ----------------------------------------------------------------------------------------------------
def test_a_table_plays_a_snapshot_of_a_studio_deck(app, teacher):
    for_play(app)
    url = make_deck(teacher)
    number = url.rsplit("/", 1)[1]
    page = teacher.get(f"/tables/new?deck=studio:{number}").get_data(as_text=True)
    assert f'value="studio:{number}" selected' in page
    response = teacher.post("/api/tables", json={"deck": f"studio:{number}", "rules": "classic",
                                                 "options": {"name_the_work": True},
                                                 "seats": [{"kind": "human"}, {"kind": "computer"}, {"kind": "computer"}]})
    assert response.status_code == 201, response.get_json()
    code = response.get_json()["code"]
    anna = seat_student(app, code, "Anna")
    assert teacher.post(f"/api/tables/{code}/start").status_code == 200
    # The teacher edits the deck, then deletes it: the table plays on with the deck as it was.
    teacher.post(f"{url}/edit", data=deck_form(title="Changed", sets=(("A", ("a", "b")), ("B", ("c", "d")))))
    teacher.post(f"{url}/delete")
    state = get_state(anna, code)
    assert state["deck"]["title"] == "Painters" and state["game"]["hand"]
    deck = anna.get(f"/api/tables/{code}/deck").get_json()
    assert {s["name"] for s in deck["sets"]} == {"Monet", "Vermeer", "Hokusai"}
    with app.app_context():
        assert DeckSnapshot.query.count() == 1 and StudioDeck.query.count() == 0


WEIRD = ["", "\x00", "x" * 3000, "<script>alert(1)</script>", "studio:99999999999999999999", "../../secret_key",
         "é\u2028\ufeff"]


def test_no_hostile_input_is_a_500(app, teacher):
    from urllib.parse import quote

    url = make_deck(teacher)
    anonymous = app.test_client()
    for value in WEIRD:
        q = quote(value)
        hashing = [(anonymous, "/login", {"name": value, "password": value, "next": value}),
                   (teacher, "/account/password", {"current": value, "new": value, "repeat": value})]
        posts = (hashing if value in WEIRD[:2] else []) + [
                 (app.test_client(), "/signup", {"name": value, "password": value, "repeat": value, "invite": value}),
                 (teacher, "/studio/new", {"title": value, "s0_name": value, "s0c0_title": value, "language": value}),
                 (teacher, "/studio/paste", {"title": value, "rows": value, "action": "create"}),
                 (teacher, "/studio/upload", {"text": value}),
                 (teacher, f"{url}/yaml", {"text": value}),
                 (teacher, "/studio/duplicate", {"source": value}),
                 (teacher, f"{url}/images/remove", {"target": value}),
                 (teacher, f"{url}/share", {"shared": value})]
        for client, path, data in posts:
            response = client.post(path, data=data)
            assert response.status_code < 500, (path, value, response.status_code)
        for path in (f"/reports/?from={q}&to={q}&student={q}", f"/reports/tables/{q}", f"/reports/answers.csv?table={q}",
                     f"/tables/new?deck={q}", f"/signup?invite={q}", f"/login?next={q}", f"{url}/cards/{q}.png",
                     f"{url}/images/{q}", f"/studio/decks/{q}"):
            response = teacher.get(path)
            assert response.status_code < 500, (path, value, response.status_code)


# ----------------------------------------------------------------------------------------------------
# Several hosts: images live in the database, each host keeps a copy on its own disk
# ----------------------------------------------------------------------------------------------------
def _images_on_page(client, url) -> list[str]:
    return re.findall(r'src="(/studio/decks/\d+/images/[^"]+)"', client.get(f"{url}/images").get_data(as_text=True))


def test_images_uploaded_on_one_host_are_served_and_printed_by_another(app, teacher, tmp_path):
    from app import create_app
    from app.db import db
    from app.models import StudioImage

    from .web_support import CSRFClient, log_in

    other_host = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"],
                             "SECRET_KEY": app.config["SECRET_KEY"], "UPLOAD_FOLDER": str(tmp_path / "host-b")})
    other_host.test_client_class = CSRFClient
    try:
        there = log_in(other_host.test_client(), other_host)
        url = make_deck(teacher)
        first = png(80, 120, "red")
        assert upload(teacher, f"{url}/images", first, "m.png", target="set:monet").status_code == 303
        [image_url] = _images_on_page(there, url)
        served = there.get(image_url)
        assert served.status_code == 200 and served.data == teacher.get(image_url).data
        pdf = there.get(f"{url}/print.pdf")
        assert pdf.status_code == 200
        assert "/XObject" in PdfReader(io.BytesIO(pdf.data)).pages[0]["/Resources"]  # the image is printed
        assert list((tmp_path / "host-b").rglob("set-monet-*.png"))  # host B's own copy

        # replaced on host A: host B serves the new one and forgets the old
        assert upload(teacher, f"{url}/images", png(10, 10, "green"), "n.png", target="set:monet").status_code == 303
        [new_url] = _images_on_page(there, url)
        assert new_url != image_url and there.get(new_url).status_code == 200
        assert there.get(image_url).status_code == 404
        assert [p.name for p in (tmp_path / "host-b").rglob("set-monet-*.png")] == [new_url.rsplit("/", 1)[1]]
        # edited on host B (the deck saved there), and printed on host A
        assert there.post(f"{url}/images/remove", data={"target": "set:monet"}).status_code == 303
        assert _images_on_page(teacher, url) == [] and teacher.get(new_url).status_code == 404

        # an image uploaded before images moved into the database is taken in by the host that has it
        assert upload(teacher, f"{url}/images", png(20, 20, "blue"), "o.png", target="set:monet").status_code == 303
        [old_url] = _images_on_page(teacher, url)
        with app.app_context():
            StudioImage.query.delete()
            db.session.commit()
        assert there.get(old_url).status_code == 404  # host B never had it
        assert teacher.get(f"{url}/print.pdf").status_code == 200  # host A uses the deck: takes its file in
        assert there.get(old_url).status_code == 200
        # deleting the deck removes its images everywhere
        with app.app_context():
            assert StudioImage.query.count() == 1
        assert teacher.post(f"{url}/delete").status_code == 303
        with app.app_context():
            assert StudioImage.query.count() == 0
    finally:
        with other_host.app_context():
            db.session.remove()
            db.engine.dispose()
