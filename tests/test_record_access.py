"""A finished hand's record (every card of the deal, the children's names, their typed answers, a
teacher's own deck) is the table's teacher's, and a seat's for the hands its student played: anyone else
with the code, another teacher, a student who took a seat later are told there is none for them (404).
The public list of hands keeps the results the projector shows, and names a record only to its readers."""
from __future__ import annotations

import random

import pytest
import yaml

from .test_web_play import play_out
from .web_support import deck_of, for_play, get_state, open_table, seat_student, strings, teacher_client

pytestmark = pytest.mark.database

RECORD_FORMATS = ("", "?format=json")


def record_of(client, code, number, fmt=""):
    return client.get(f"/api/tables/{code}/hands/{number}/record{fmt}")


def assert_not_theirs(response, who):
    assert response.status_code == 404, (who, response.status_code, response.data[:300])
    error = response.get_json()["error"]
    assert error["code"] == "not-your-record", (who, error)
    assert error["message"] == ("A hand's record is for the table's teacher and for the students who played "
                                "that hand."), (who, error)


def assert_record(response, who, players):
    assert response.status_code == 200, (who, response.status_code, response.data[:300])
    record = response.get_json() if response.is_json else yaml.safe_load(response.data)
    assert record["players"] == players and record["hands"], who
    return record


@pytest.fixture
def match(app):
    """A match of two hands: Anna and Boris play the first; the teacher removes Boris while the second is
    dealt and Carl takes his seat; the match is played out. Returns the clients and the table's code."""
    for_play(app)
    teacher = teacher_client(app)
    code = open_table(teacher, rules="standard", match={"format": "hands", "value": 2},
                      seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "computer"}])
    anna, boris = seat_student(app, code, "Anna"), seat_student(app, code, "Boris")
    assert teacher.post(f"/api/tables/{code}/start").status_code == 200
    deck, rng = deck_of(teacher, code), random.Random(3)
    play_out(code, {"Anna": anna, "Boris": boris}, deck, rng, stop=lambda public: len(public["hands"]) >= 1)
    clients = {"teacher": teacher, "Anna": anna, "Boris": boris, "stranger": app.test_client(),
               "another teacher": teacher_client(app, "Mr Other")}
    return app, code, clients, deck, rng


def test_a_running_match_shows_a_finished_hand_to_its_teacher_and_players_only(match):
    app, code, clients, _deck, _rng = match
    teacher = clients["teacher"]
    players = assert_record(record_of(teacher, code, 1), "teacher", ["Anna", "Boris", "Computer 1"])["players"]
    dealt = {card for cards in record_of(teacher, code, 1, "?format=json").get_json()["hands"].values()
             for card in cards}
    for who in ("Anna", "Boris", "teacher"):
        for fmt in RECORD_FORMATS:
            assert_record(record_of(clients[who], code, 1, fmt), who, players)
        assert record_of(clients[who], code, 2).status_code == 409  # the hand being played: no record yet
    for who in ("stranger", "another teacher"):
        for number in (1, 2, 3, "x"):  # a finished hand, the running one, none, no number: none is theirs
            for fmt in RECORD_FORMATS:
                assert_not_theirs(record_of(clients[who], code, number, fmt), who)

        listing = clients[who].get(f"/api/tables/{code}/hands")
        assert listing.status_code == 200
        hands = listing.get_json()["hands"]
        assert [(hand["number"], hand["finished"], hand["record"]) for hand in hands] == [(1, True, None),
                                                                                          (2, False, None)]
        assert {"number": 1, **hands[0]["result"]} == get_state(clients[who], code)["hands"][0]  # the projector's
        assert not dealt & set(strings(listing.get_json())), f"the list of hands shows {who} a dealt card"
    teacher_list = teacher.get(f"/api/tables/{code}/hands").get_json()["hands"]
    assert teacher_list[0]["record"] == f"/api/tables/{code}/hands/1/record" and teacher_list[1]["record"] is None
    for fmt in RECORD_FORMATS:  # one reader's: no shared cache keeps it
        assert record_of(clients["Anna"], code, 1, fmt).headers.get("Cache-Control") == "private, no-store"


def test_a_student_who_took_a_seat_later_reads_only_the_hands_she_played(match):
    app, code, clients, deck, rng = match
    teacher = clients["teacher"]
    assert teacher.delete(f"/api/tables/{code}/seats/1").status_code == 200  # Boris leaves during hand 2
    carl = seat_student(app, code, "Carl")  # and Carl takes his seat
    play_out(code, {"Anna": clients["Anna"], "Carl": carl}, deck, rng)
    assert get_state(teacher, code)["status"] == "finished"

    first, second = ["Anna", "Boris", "Computer 1"], ["Anna", "Carl", "Computer 1"]
    for fmt in RECORD_FORMATS:
        assert_record(record_of(teacher, code, 1, fmt), "teacher", first)
        assert_record(record_of(teacher, code, 2, fmt), "teacher", second)
        assert_record(record_of(clients["Anna"], code, 1, fmt), "Anna", first)
        assert_record(record_of(clients["Anna"], code, 2, fmt), "Anna", second)
        assert_not_theirs(record_of(carl, code, 1, fmt), "Carl")  # Boris's hand
        assert_record(record_of(carl, code, 2, fmt), "Carl", second)
        for who in ("Boris", "stranger", "another teacher"):  # Boris's browser holds no seat any more
            for number in (1, 2):
                assert_not_theirs(record_of(clients[who], code, number, fmt), who)

    def links(client):
        return [hand["record"] for hand in client.get(f"/api/tables/{code}/hands").get_json()["hands"]]

    both = [f"/api/tables/{code}/hands/1/record", f"/api/tables/{code}/hands/2/record"]
    assert links(teacher) == both and links(clients["Anna"]) == both
    assert links(carl) == [None, both[1]]
    assert links(clients["stranger"]) == [None, None]
