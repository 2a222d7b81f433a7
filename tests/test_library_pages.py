"""A library deck's page offers a teacher Play and Duplicate, as a studio deck's does; every page names
the site's icon."""
from __future__ import annotations

from .web_support import teacher_client


def test_a_teacher_can_play_or_duplicate_a_library_deck_from_its_page(app):
    teacher = teacher_client(app)
    html = teacher.get("/decks/authors-1861").get_data(as_text=True)
    assert 'id="play-deck" href="/tables/new?deck=authors-1861"' in html
    assert 'name="source" value="authors-1861"' in html and 'id="duplicate-deck"' in html
    assert teacher.get("/tables/new?deck=authors-1861").status_code == 200
    copied = teacher.post("/studio/duplicate", data={"source": "authors-1861"})
    assert copied.status_code == 303 and "/studio/decks/" in copied.headers["Location"]


def test_a_visitor_sees_the_deck_without_the_teachers_buttons(client):
    html = client.get("/decks/authors-1861").get_data(as_text=True)
    assert 'id="play-deck"' not in html and 'id="duplicate-deck"' not in html
    assert "Print (PDF)" in html


def test_every_page_names_the_icon_and_the_icon_is_served(client):
    html = client.get("/").get_data(as_text=True)
    assert '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">' in html
    icon = client.get("/static/favicon.svg")
    assert icon.status_code == 200 and icon.mimetype == "image/svg+xml" and b"<svg" in icon.data
