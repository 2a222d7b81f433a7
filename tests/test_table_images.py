"""A studio deck's pictures reach the cards on screen: the table's deck names them and serves them to its
players, and only the ones it may show (a card's picture can give its work away: none at a table where
works are named from memory); an image the deck does not use is a 404."""
from __future__ import annotations

import pytest

from .test_studio import make_deck, png, upload
from .web_support import open_table, seat_student, teacher_client

pytestmark = pytest.mark.database


def studio_deck_with_pictures(teacher) -> str:
    url = make_deck(teacher)
    assert upload(teacher, f"{url}/images", png(40, 40, "blue"), "m.png", target="set:monet").status_code == 303
    assert upload(teacher, f"{url}/images", png(40, 60, "green"), "w.png", target="card:water-lilies").status_code == 303
    return "studio:" + url.rstrip("/").rsplit("/", 1)[1]


def test_a_tables_deck_names_its_pictures_and_serves_them_to_a_student(app):
    teacher = teacher_client(app)
    code = open_table(teacher, deck=studio_deck_with_pictures(teacher),
                      seats=[{"kind": "human"}, {"kind": "computer"}, {"kind": "computer"}])
    student = seat_student(app, code, "Anna")
    deck = student.get(f"/api/tables/{code}/deck").get_json()
    monet = next(s for s in deck["sets"] if s["id"] == "monet")
    lilies = next(c for c in monet["cards"] if c["id"] == "water-lilies")
    assert monet["image"].startswith("set-monet-") and lilies["image"].endswith(".png")
    assert all(c["image"] is None for s in deck["sets"] for c in s["cards"] if c["id"] != "water-lilies")
    for name in (monet["image"], lilies["image"]):
        served = app.test_client().get(deck["images_url"] + name)  # a card on a projector: no seat needed
        assert served.status_code == 200 and served.mimetype == "image/png" and served.data[:4] == b"\x89PNG"
    assert student.get(deck["images_url"] + "not-used.png").status_code == 404
    assert student.get(deck["images_url"] + "..%2F..%2Fsecret_key").status_code == 404


def test_a_table_that_names_works_from_memory_sends_no_card_picture(app):
    teacher = teacher_client(app)
    code = open_table(teacher, deck=studio_deck_with_pictures(teacher), options={"name_the_work": True},
                      seats=[{"kind": "human"}, {"kind": "computer"}, {"kind": "computer"}])
    deck = seat_student(app, code, "Anna").get(f"/api/tables/{code}/deck").get_json()
    assert deck["recall"] and next(s for s in deck["sets"] if s["id"] == "monet")["image"].startswith("set-monet-")
    text = str(deck)
    assert "water" not in text.lower()
    client = app.test_client()
    with app.app_context():
        from app.models import StudioImage
        card_image = next(i.path for i in StudioImage.query.all() if "card" in i.path).removeprefix("images/")
    assert client.get(deck["images_url"] + card_image).status_code == 404


def test_a_built_in_deck_has_no_pictures(app):
    teacher = teacher_client(app)
    code = open_table(teacher, deck="authors-1861", seats=[{"kind": "computer"}] * 3)
    deck = teacher.get(f"/api/tables/{code}/deck").get_json()
    assert all(s["image"] is None for s in deck["sets"])
    assert teacher.get(deck["images_url"] + "dickens.png").status_code == 404
