"""Names a teacher can read: a player's name (typed to join, given by the teacher, pasted on a roster)
shows at least one letter or digit after NFKC, and a name that differs from one already at the table
only by case, width or look-alikes of another script (Unicode TR39's confusables) is that name, taken."""
from __future__ import annotations

import re
import unicodedata

import pytest

from app.db import db
from app.models import RosterStudent, SchoolClass
from app.store.codes import KEY_MAX, NameProblem, clean_name, name_key

from .test_classes import make_class
from .test_roster_join import open_for_class
from .web_support import get_state, open_table, seat_student, teacher_client

SHOWS_NOTHING = {
    "\u3164": "a name cannot hold characters that show nothing",             # HANGUL FILLER
    "\uffa0": "a name cannot hold characters that show nothing",             # HALFWIDTH HANGUL FILLER
    "\u115f\u1160": "a name cannot hold characters that show nothing",       # the choseong and jungseong fillers
    "Anna\u3164": "a name cannot hold characters that show nothing",         # "Anna" to the eye
    "\u2800": "a name needs at least one letter or digit that can be seen",  # BRAILLE PATTERN BLANK
    "\u2800 \u2800": "a name needs at least one letter or digit that can be seen",
    "\u0301\u0308\u0301": "a name needs at least one letter or digit that can be seen",  # combining marks only
    "\u20dd": "a name needs at least one letter or digit that can be seen",  # an enclosing circle round nothing
    "- . -": "a name needs at least one letter or digit that can be seen",
}


@pytest.mark.parametrize("typed", list(SHOWS_NOTHING))
def test_a_name_that_shows_nothing_is_no_name(typed):
    with pytest.raises(NameProblem) as refused:
        clean_name(typed)
    assert str(refused.value) == SHOWS_NOTHING[typed]


@pytest.mark.parametrize("typed, shown", [
    ("Anna", "Anna"), ("Jose\u0301", "José"), ("Анна", "Анна"), ("李雷", "李雷"), ("7", "7"), ("Zoë 2", "Zoë 2"),
    ("  Mary   Ann ", "Mary Ann"), ("ＡＮＮＡ", "ＡＮＮＡ"),  # (shown as typed: only the key folds the width)
])
def test_a_name_that_shows_is_kept_as_typed(typed, shown):
    assert clean_name(typed) == shown


@pytest.mark.parametrize("one, other", [
    ("Anna", "anna"), ("Anna", "ANNA"), ("Straße", "STRASSE"),     # case, as before
    ("Anna", "\u0410nna"), ("anna", "\u0430nn\u0430"), ("Oscar", "\u041e\u0455\u0441\u0430r"),  # Cyrillic letters
    ("Tom", "\u0422om"), ("Helen", "\u041delen"), ("Mary", "Mar\u0443"),  # a capital look-alike, a small one
    ("Nikos", "\u039dikos"), ("Olga", "0lga"), ("Ivan", "lvan"), ("Tom", "Torn"),  # Greek Ν; 0/O, I/l, m/rn
    ("Anna", "ＡＮＮＡ"), ("Anna", "𝐀𝐧𝐧𝐚"), ("Léa", "Le\u0301a"),  # width, mathematical letters, composition
])
def test_case_width_and_look_alikes_make_one_name(one, other):
    assert name_key(one) == name_key(other)


@pytest.mark.parametrize("one, other", [
    ("Anna", "Ana"), ("Léa", "Lea"), ("Анна", "Алла"), ("Nina", "Nino"), ("Dana", "Dava"), ("Vera", "Bera"),
    ("Ян", "Яна"), ("Computer 1", "Computer 2"),
])
def test_different_names_stay_different(one, other):
    assert name_key(one) != name_key(other)


def test_a_key_fits_its_column_and_keeps_names_apart():
    long_ones = ["\ufdfa" * 3, "\ufdfa" * 2 + "\ufdfb", "쯔" * 24]  # NFKC and TR39 make these long
    keys = [name_key(clean_name(name)) for name in long_ones]
    assert all(len(key) <= KEY_MAX for key in keys) and len(set(keys)) == len(keys)
    assert unicodedata.normalize("NFKC", long_ones[0]) != long_ones[0]


# ----------------------------------------------------------------------------------------------------
# Through the app: joining, the teacher's names, a class's roster
# ----------------------------------------------------------------------------------------------------
SAID = {
    "en": {"\u3164": "A name cannot hold characters that show nothing.",
           "\u2800": "A name needs at least one letter or digit that can be seen."},
    "ru": {"\u3164": "В имени не может быть символов, которых не видно.",
           "\u2800": "В имени должна быть хотя бы одна буква или цифра, которую видно."},
}


@pytest.mark.parametrize("language", list(SAID))
def test_joining_with_a_name_that_shows_nothing_is_refused_with_a_sentence(app, language):
    teacher = teacher_client(app)
    code = open_table(teacher, language=language)
    for typed, sentence in [("\uffa0", SAID[language]["\u3164"]), ("\u0301\u0301", SAID[language]["\u2800"]),
                            *SAID[language].items()]:
        response = app.test_client().post(f"/api/tables/{code}/join", json={"name": typed})
        assert response.status_code == 400, (typed, response.get_json())
        assert response.get_json()["error"]["message"] == sentence, typed
    computer = {"en": "Computer", "ru": "Компьютер"}[language]  # (named in the table's language)
    assert [seat["name"] for seat in get_state(teacher, code)["seats"]] == [None, None, f"{computer} 1", f"{computer} 2"]
    named = teacher.post("/api/tables", json={"language": language, "seats": [
        {"kind": "human", "name": "\u2800", "here": True}, {"kind": "computer"}]},
        headers={"Accept-Language": language})
    assert named.status_code == 400, named.get_json()
    assert named.get_json()["error"]["message"] == ("seat 0: " if language == "en" else "место 0: ") \
        + SAID[language]["\u2800"][0].lower() + SAID[language]["\u2800"][1:-1], named.get_json()


def test_a_look_alike_of_a_name_at_the_table_is_taken(app):
    teacher = teacher_client(app)
    code = open_table(teacher)
    seat_student(app, code, "Anna")
    seat_student(app, code, "Boris")
    for typed in ("\u0410nna", "ＡＮＮＡ", "anna", "Ａnna"):  # Anna's seat: a device asks for it (issue #33)
        response = app.test_client().post(f"/api/tables/{code}/join", json={"name": typed})
        assert response.status_code == 202, (typed, response.get_json())
        assert response.get_json()["asking"]["name"] == "Anna", typed
    renamed = teacher.patch(f"/api/tables/{code}/seats/1", json={"name": "\u0410nna"})
    assert renamed.status_code == 409 and renamed.get_json()["error"]["code"] == "name-taken"
    assert [seat["name"] for seat in get_state(teacher, code)["seats"]][:2] == ["Anna", "Boris"]
    twice = teacher.post("/api/tables", json={"seats": [{"kind": "human", "name": "Anna", "here": True},
                                                         {"kind": "human", "name": "\u0410nna", "here": True}]})
    assert twice.status_code == 400, twice.get_json()
    assert "given twice" in twice.get_json()["error"]["message"]


def test_a_roster_takes_names_by_the_same_rules(app):
    teacher = teacher_client(app)
    url = make_class(teacher, names="Anna\n\u0410nna\nＡＮＮＡ\nBoris")
    with app.app_context():
        assert [s.name for s in SchoolClass.query.one().students] == ["Anna", "Boris"]
    for pasted in ("Vera\n\u3164", "\u2800"):
        response = teacher.post("/classes/", data={"name": "7C", "names": pasted})
        assert response.status_code == 400, response.get_data(as_text=True)[:400]
    assert teacher.post(f"{url}/names", data={"names": "\u0412oris\nVera"}).status_code == 303  # Cyrillic В
    with app.app_context():
        assert sorted(s.name for s in SchoolClass.query.one().students) == ["Anna", "Boris", "Vera"]


def test_keys_stored_by_the_older_rule_still_find_their_names(app):
    """Keys stored before look-alikes counted (plain casefolds) are not rewritten: every check derives the
    key from the names, so an old roster and a new seat still meet."""
    teacher = teacher_client(app)
    make_class(teacher, names="Tom\nAnna")
    with app.app_context():
        for student in RosterStudent.query:
            student.name_key = student.name.casefold()  # as stored before
        db.session.commit()
        class_id = SchoolClass.query.one().id
        tom = RosterStudent.query.filter_by(name="Tom").one().id
    assert name_key("Tom") != "tom"  # (the rule has changed for this name)
    code = open_for_class(teacher, class_id)
    joined = app.test_client().post(f"/api/tables/{code}/join", json={"student": tom})
    assert joined.status_code == 201, joined.get_json()
    page = app.test_client().get(f"/j/{code}").get_data(as_text=True)
    assert re.search(rf'value="{tom}" class="roster-name back"', page)  # Tom is seated: offered to ask back
    url = f"/classes/{class_id}"
    assert teacher.post(f"{url}/names", data={"names": "Tom\ntom"}).status_code == 303
    with app.app_context():
        assert sorted(s.name for s in SchoolClass.query.one().students) == ["Anna", "Tom"]
