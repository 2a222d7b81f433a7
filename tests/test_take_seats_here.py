"""Pass-and-play seats taken to the teacher's other browser from the table's page (issue #33): the teacher,
logged in on a second browser (the classroom tablet), sees that the seats are played on another device and
presses "Play these seats on this device" (POST /t/<code>/take-here, a form with its CSRF token): the seats
move by the same path as the take-seats link (tables.move_seats), her first browser no longer holds them and
its play screen says why, and the tablet's play link opens them. Nobody but the table's teacher can."""
from __future__ import annotations

import pytest

from app.services import tables as table_service

from .web_support import get_state, open_table, seat_student, teacher_client

pytestmark = pytest.mark.database
SEATS = [{"kind": "human", "here": True, "name": "Anna"}, {"kind": "human", "here": True, "name": "Boris"},
         {"kind": "human"}, {"kind": "computer"}]


def held(client, code) -> list[str]:
    return sorted(seat["name"] for seat in get_state(client, code)["seats"] if seat["here"])


def passed_around(client, code) -> list[str]:
    return sorted(seat["name"] for seat in get_state(client, code)["seats"] if seat.get("passed_around"))


def form_post(client, code):
    """The table page's form, as the browser sends it: the CSRF token in its hidden field."""
    return client.post(f"/t/{code}/take-here", data={"csrf_token": client.csrf_token()},
                       headers={"X-CSRFToken": ""})


def table_with_a_tablet(app):
    laptop = teacher_client(app)
    code = open_table(laptop, seats=SEATS)
    cara = seat_student(app, code, "Cara")
    tablet = teacher_client(app)  # the same teacher, logged in on another browser
    return laptop, tablet, cara, code


def test_the_teachers_other_browser_takes_the_pass_and_play_seats(app):
    laptop, tablet, cara, code = table_with_a_tablet(app)
    assert held(laptop, code) == ["Anna", "Boris"] and held(tablet, code) == []
    assert passed_around(tablet, code) == ["Anna", "Boris"]  # Cara joined from her own phone: not one
    page = tablet.get(f"/t/{code}").get_data(as_text=True)
    assert 'id="take-here-form"' in page and f'action="/t/{code}/take-here"' in page
    assert 'name="csrf_token"' in page and "Play these seats on this device" in page
    taken = form_post(tablet, code)
    assert taken.status_code == 303 and taken.headers["Location"].endswith(f"/t/{code}/play")
    assert held(tablet, code) == ["Anna", "Boris"]
    # the first browser plays them no more, and its play screen says why (once: its cookie forgets them)
    lost = get_state(laptop, code)
    assert lost["you"] is None and not any(seat["here"] for seat in lost["seats"])
    assert lost["seat_lost"] == ("The seats played on this device have moved to another device: "
                                 "play goes on there.")
    assert held(laptop, code) == []
    assert get_state(tablet, code, seat=0)["you"] == {"position": 0, "name": "Anna"}
    assert get_state(cara, code)["you"]["name"] == "Cara" and get_state(cara, code)["seat_lost"] is None
    # the tablet's play page opens them (the "Play on this device" link of its table's page)
    assert tablet.get(f"/t/{code}/play").status_code == 200
    # nothing is left to take: a second press is a 409 with a sentence, and the seats stay
    again = form_post(tablet, code)
    assert again.status_code == 409 and "nothing to move here" in again.get_data(as_text=True)
    assert held(tablet, code) == ["Anna", "Boris"]
    # and the laptop may take them back the same way
    assert form_post(laptop, code).status_code == 303
    assert held(laptop, code) == ["Anna", "Boris"] and held(tablet, code) == []


def test_the_seats_move_mid_game_and_the_laptop_is_told_in_the_tables_language(app):
    laptop = teacher_client(app)
    code = open_table(laptop, seats=SEATS, language="fr")
    seat_student(app, code, "Cara")
    assert laptop.post(f"/api/tables/{code}/start").status_code == 200
    tablet = teacher_client(app)
    assert form_post(tablet, code).status_code == 303
    assert get_state(laptop, code)["seat_lost"] == ("Les places jouées sur cet appareil sont passées sur un autre "
                                                    "appareil : la partie continue là-bas.")
    assert held(tablet, code) == ["Anna", "Boris"]


@pytest.mark.parametrize("who", ["student", "seated student", "other teacher", "stranger"])
def test_nobody_but_the_tables_teacher_takes_the_seats(app, who):
    laptop, _tablet, cara, code = table_with_a_tablet(app)
    client = {"student": app.test_client(), "seated student": cara, "other teacher": teacher_client(app, "Mr Other"),
              "stranger": app.test_client()}[who]
    if who == "stranger":  # (a browser that never opened a page of the app: no session at all)
        answer = client.post(f"/t/{code}/take-here", data={"csrf_token": client.csrf_token()})
    else:
        answer = form_post(client, code)
    assert answer.status_code == 403, answer.status_code
    assert "Only the teacher who opened this table can do that." in answer.get_data(as_text=True)
    assert held(laptop, code) == ["Anna", "Boris"]
    if who != "other teacher":  # the table's page is not theirs: it sends them to join, never the form
        assert "take-here" not in client.get(f"/t/{code}", follow_redirects=True).get_data(as_text=True)


def test_without_its_csrf_token_the_form_is_refused(app):
    laptop, tablet, _cara, code = table_with_a_tablet(app)
    tablet.csrf = False
    answer = tablet.post(f"/t/{code}/take-here")
    assert answer.status_code == 400 and "CSRF" in answer.get_data(as_text=True)
    assert held(laptop, code) == ["Anna", "Boris"]


def test_a_table_without_pass_and_play_seats_has_nothing_to_take(app):
    teacher = teacher_client(app)
    code = open_table(teacher, seats=[{"kind": "human"}, {"kind": "computer"}, {"kind": "computer"}])
    seat_student(app, code, "Cara")
    assert passed_around(teacher, code) == []
    answer = form_post(teacher_client(app), code)
    assert answer.status_code == 409 and "nothing to move here" in answer.get_data(as_text=True)
    assert form_post(teacher_client(app), "NOCODE").status_code == 404


def test_the_link_and_the_page_move_seats_by_one_path(app, monkeypatch):
    """The table page's button moves the seats through tables.move_seats, as the take-seats link does."""
    laptop, tablet, _cara, code = table_with_a_tablet(app)
    calls = []
    real = table_service.move_seats

    def spy(table, hashes):
        calls.append(sorted(hashes))
        return real(table, hashes)

    monkeypatch.setattr(table_service, "move_seats", spy)
    assert form_post(tablet, code).status_code == 303
    assert calls == [["0", "1"]]
