"""Classes and rosters: a teacher pastes first names (each once, a name that cannot be one refused with a
sentence), adds and removes names (a removed name is kept for the reports, not offered), turns a class word
on; another teacher cannot see the class; every bad request a 4xx with a sentence."""
from __future__ import annotations

import pytest

from app.models import RosterStudent, SchoolClass
from app.store.codes import NAME_MAX

from .web_support import teacher_client

pytestmark = pytest.mark.database


def make_class(client, name="7B", names="Anna\nBoris, Vera; anna\n\n  Gleb  ", word=False):
    form = {"name": name, "names": names} | ({"word": "1"} if word else {})
    response = client.post("/classes/", data=form)
    assert response.status_code == 303, response.get_data(as_text=True)[:400]
    return response.headers["Location"]


def test_a_pasted_list_makes_a_roster_each_name_once(app):
    teacher = teacher_client(app)
    url = make_class(teacher)
    page = teacher.get(url).get_data(as_text=True)
    with app.app_context():
        school_class = SchoolClass.query.one()
        assert [s.name for s in school_class.students] == ["Anna", "Boris", "Gleb", "Vera"]
        assert school_class.word is None
    assert "The roster (4 students)" in page and "Open a table for this class" in page
    assert "7B" in teacher.get("/classes/").get_data(as_text=True)


def test_names_are_added_removed_and_kept_for_the_reports(app):
    teacher = teacher_client(app)
    url = make_class(teacher)
    assert teacher.post(f"{url}/names", data={"names": "Dan\nVera"}).status_code == 303
    with app.app_context():
        boris = RosterStudent.query.filter_by(name="Boris").one()
    assert teacher.post(f"{url}/students/{boris.id}/remove").status_code == 303
    page = teacher.get(url).get_data(as_text=True)
    assert "The roster (4 students)" in page and "Dan" in page and "Boris" not in page
    with app.app_context():
        assert RosterStudent.query.filter_by(name="Boris").one().removed  # kept: his hands stay in the reports
    assert teacher.post(f"{url}/names", data={"names": "boris"}).status_code == 303
    assert "Boris" in teacher.get(url).get_data(as_text=True)  # back on the roster, as he was spelled


@pytest.mark.parametrize("form, words", [
    ({"name": "", "names": "Anna"}, "a class needs a name"),
    ({"name": "7B", "names": " \n , "}, "paste the students' first names"),
    ({"name": "7B", "names": "A" * (NAME_MAX + 1)}, f"a name has at most {NAME_MAX} characters"),
    ({"name": "7B", "names": "\n".join(f"Child {i}" for i in range(61))}, "at most 60 students"),
    ({"name": "x" * 81, "names": "Anna"}, "at most 80 characters"),
])
def test_a_bad_class_is_refused_with_a_sentence_and_the_form_kept(app, form, words):
    teacher = teacher_client(app)
    response = teacher.post("/classes/", data=form)
    page = response.get_data(as_text=True)
    assert response.status_code == 400 and words in page.replace("&#39;", "'"), page[:2000]
    with app.app_context():
        assert SchoolClass.query.count() == 0


def test_the_class_word_and_another_teachers_class(app):
    teacher = teacher_client(app)
    url = make_class(teacher, word=True)
    with app.app_context():
        word = SchoolClass.query.one().word
    assert len(word) == 4 and word.isupper() and not set(word) & set("IOQ")
    assert word in teacher.get(url).get_data(as_text=True)
    assert teacher.post(f"{url}/word", data={"on": "0"}).status_code == 303
    with app.app_context():
        assert SchoolClass.query.one().word is None
    other = teacher_client(app, "Mr Other")
    assert other.get(url).status_code == 404
    assert other.post(f"{url}/names", data={"names": "Eve"}).status_code == 404
    assert other.post(f"{url}/delete").status_code == 404
    assert app.test_client().get(url).status_code in (302, 401)  # no teacher: the log-in
    assert teacher.post(f"{url}/students/999999/remove").status_code == 404
    assert teacher.post(f"{url}/delete").status_code == 303
    with app.app_context():
        assert SchoolClass.query.count() == 0 and RosterStudent.query.count() == 0
