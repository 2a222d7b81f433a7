"""Who may take or keep a seat: a student taken off for the match is off under any name until the teacher
lets her back, and every device that asks for an away seat is kept and shown to the teacher (what it says
of itself, when it asked); the teacher lets in one and the others are told no."""
from __future__ import annotations

import pytest

from app.db import db
from app.models import Seat, SeatClaim, Table
from app.services import tables
from app.services.errors import Conflict
from app.store import presence
from app.web.seating import device_description

from .test_presence import poll, seen_back
from .web_support import for_play, open_table, seat_student, teacher_client

pytestmark = pytest.mark.database

SEATS = [{"kind": "human"}, {"kind": "human"}, {"kind": "computer"}]
IPHONE = {"User-Agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 "
                        "(KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1"}
ANDROID = {"User-Agent": "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
                         "Chrome/124.0.0.0 Mobile Safari/537.36"}


def started(app):
    app = for_play(app)
    teacher = teacher_client(app)
    code = open_table(teacher, seats=SEATS)
    cara = seat_student(app, code, "Cara")
    dan = seat_student(app, code, "Dan")
    assert teacher.post(f"/api/tables/{code}/start").status_code == 200
    return app, teacher, code, cara, dan


def seat_named(client, code, name) -> dict:
    return next(s for s in poll(client, code).get_json()["seats"] if s["name"] == name)


def device(app, headers):
    """A new browser whose requests carry these headers (its User-Agent)."""
    browser = app.test_client()
    browser.environ_base.update({f"HTTP_{k.upper().replace('-', '_')}": v for k, v in headers.items()})
    return browser


# ----------------------------------------------------------------------------------------------------
# Off for the match means off
# ----------------------------------------------------------------------------------------------------
def test_a_taken_off_seat_is_no_free_seat_for_a_joiner(app):
    """The service: a seat whose student was taken off keeps her name and cards and is never given to
    someone joining under another name (it was `vacant`, so the next joiner took it, hand and all)."""
    app, teacher, code, cara, dan = started(app)
    assert teacher.delete(f"/api/tables/{code}/seats/0?for_good=1").status_code == 200
    with app.app_context():
        with pytest.raises(Conflict) as full:
            tables.join(tables.read(code), "Zoe")
        assert full.value.code == "table-full"
        seat = Table.query.filter_by(code=code).one().seats[0]
        assert (seat.name, seat.barred, seat.token_hash) == ("Cara", True, None)
        assert seat.kind == "computer" and seat.stand_in  # a computer plays it, under her name


def test_taken_off_means_off_under_any_name_until_the_teacher_lets_her_back(app):
    app, teacher, code, cara, dan = started(app)
    removed = teacher.delete(f"/api/tables/{code}/seats/0?for_good=1")
    assert removed.status_code == 200
    shown = removed.get_json()["seats"][0]
    assert shown["barred"] and shown["stand_in"] and shown["name"] == "Cara"
    # Her browser cannot come back under another name, nor ask for her seat; a new browser with her name
    # neither. (A new browser with a new name is a new student: here the table is full.)
    for name in ("Zoe", "Cara"):
        again = cara.post(f"/api/tables/{code}/join", json={"name": name})
        assert again.status_code == 409 and again.get_json()["error"]["code"] == "taken-off", again.get_json()
        assert "under any name" in again.get_json()["error"]["message"]
    form = cara.post("/join", data={"code": code, "name": "Zoe"})
    assert form.status_code == 409 and "under any name" in form.get_data(as_text=True)
    assert app.test_client().post(f"/api/tables/{code}/join", json={"name": "cara"}).get_json()["error"]["code"] \
        == "name-removed"
    stranger = app.test_client().post(f"/api/tables/{code}/join", json={"name": "Zoe"})
    assert stranger.status_code == 409 and stranger.get_json()["error"]["code"] == "table-full"
    assert poll(cara, code).get_json()["you"] is None
    # Taking her off twice, or before play, is a 409 with a sentence.
    twice = teacher.delete(f"/api/tables/{code}/seats/0?for_good=1")
    assert twice.status_code == 409 and twice.get_json()["error"]["message"]
    lobby = open_table(teacher, seats=SEATS)
    seat_student(app, lobby, "Eve")
    early = teacher.delete(f"/api/tables/{lobby}/seats/0?for_good=1")
    assert early.status_code == 409 and early.get_json()["error"]["code"] == "not-playing"
    # The teacher's page says so in her seat's row, with "Let back in" there (manage.js seatActions: no list
    # apart); letting her back lets her browser ask for the seat.
    page = teacher.get(f"/t/{code}").get_data(as_text=True)
    assert 'id="barred-box"' not in page and "Taken off for the match" not in page
    assert seat_named(teacher, code, "Cara")["barred"]
    not_off = teacher.post(f"/api/tables/{code}/seats/1/let-back")
    assert not_off.status_code == 409 and not_off.get_json()["error"]["code"] == "not-taken-off"
    assert dan.post(f"/api/tables/{code}/seats/0/let-back").status_code == 403
    back = teacher.post(f"/api/tables/{code}/seats/0/let-back")
    assert back.status_code == 200 and not back.get_json()["seats"][0]["barred"]
    asked = cara.post(f"/api/tables/{code}/join", json={"name": "Cara"})
    assert asked.status_code == 202, asked.get_json()
    assert teacher.post(f"/api/tables/{code}/seats/0/let-in").status_code == 200
    assert cara.get(f"/api/tables/{code}/ask").get_json()["asking"]["status"] == "let-in"
    assert poll(cara, code).get_json()["you"] == {"position": 0, "name": "Cara"}
    assert seat_named(teacher, code, "Cara")["kind"] == "human"  # the computer stopped


def test_a_roster_student_taken_off_cannot_be_picked_again(app):
    from .test_classes import make_class
    from .test_roster_join import class_ids, open_for_class

    app = for_play(app)
    teacher = teacher_client(app)
    make_class(teacher)
    class_id, students = class_ids(app)
    code = open_for_class(teacher, class_id)
    anna = app.test_client()
    assert anna.post(f"/api/tables/{code}/join", json={"student": students["Anna"]}).status_code == 201
    assert app.test_client().post(f"/api/tables/{code}/join", json={"student": students["Boris"]}).status_code == 201
    assert teacher.post(f"/api/tables/{code}/start").status_code == 200
    assert teacher.patch(f"/api/tables/{code}/seats/0", json={"name": "Anya"}).status_code == 200  # renamed
    assert teacher.delete(f"/api/tables/{code}/seats/0?for_good=1").status_code == 200
    again = app.test_client().post(f"/api/tables/{code}/join", json={"student": students["Anna"]})
    assert again.status_code == 409 and again.get_json()["error"]["code"] == "taken-off"
    page = app.test_client().get(f"/j/{code}").get_data(as_text=True)
    assert f'value="{students["Anna"]}" class="roster-name" disabled>Anna <span class="hint">(taken off for this match)' \
        in page
    other = anna.post(f"/api/tables/{code}/join", json={"student": students["Gleb"]})
    assert other.status_code == 409 and other.get_json()["error"]["code"] == "taken-off"


# ----------------------------------------------------------------------------------------------------
# Competing requests to have a seat back
# ----------------------------------------------------------------------------------------------------
def test_every_device_asking_for_a_seat_is_kept_listed_and_one_is_let_in(app):
    app, teacher, code, cara, dan = started(app)
    seen_back(app, code, "Cara", presence.AWAY_AFTER + 5)
    iphone, android = device(app, IPHONE), device(app, ANDROID)
    assert iphone.post(f"/api/tables/{code}/join", json={"name": "Cara"}).status_code == 202
    assert android.post(f"/api/tables/{code}/join", json={"name": "cara"}).status_code == 202
    # The second request did not replace the first: both wait, and the teacher sees both.
    for phone in (iphone, android):
        assert phone.get(f"/api/tables/{code}/ask").get_json()["asking"]["status"] == "waiting"
    asks = poll(teacher, code).get_json()["asks"]
    assert [(a["position"], a["name"], a["device"]) for a in asks] == [(0, "Cara", "iPhone · Safari"),
                                                                       (0, "Cara", "Android · Chrome")]
    assert asks[0]["asked_at"] <= asks[1]["asked_at"]
    assert poll(app.test_client(), code).get_json().get("asks") is None  # the teacher's alone
    # The same device asking again is the same request, not a third line.
    assert iphone.post(f"/api/tables/{code}/join", json={"name": "Cara"}).status_code == 202
    assert len(poll(teacher, code).get_json()["asks"]) == 2
    # Two wait: the teacher says which (no body is a 409 with a sentence, so is a request that is not one).
    unnamed = teacher.post(f"/api/tables/{code}/seats/0/let-in")
    assert unnamed.status_code == 409 and unnamed.get_json()["error"]["code"] == "choose-request"
    for bad, status in (({"ask": "x"}, 400), ({"ask": True}, 400), ({"ask": 0}, 400), ({"nope": 1}, 400),
                        ({"ask": 999999}, 409)):
        answer = teacher.post(f"/api/tables/{code}/seats/0/let-in", json=bad)
        assert answer.status_code == status and answer.get_json()["error"]["message"], bad
    assert teacher.post(f"/api/tables/{code}/seats/1/let-in", json={"ask": asks[1]["id"]}).status_code == 409
    let_in = teacher.post(f"/api/tables/{code}/seats/0/let-in", json={"ask": asks[1]["id"]})
    assert let_in.status_code == 200 and let_in.get_json()["asks"] == []
    assert android.get(f"/api/tables/{code}/ask").get_json()["asking"]["status"] == "let-in"
    told = iphone.get(f"/api/tables/{code}/ask").get_json()["asking"]
    assert told["status"] == "refused" and "another device" in told["message"]
    assert poll(android, code).get_json()["you"] == {"position": 0, "name": "Cara"}
    assert poll(iphone, code).get_json()["you"] is None
    assert teacher.post(f"/api/tables/{code}/seats/0/let-in", json={"ask": asks[0]["id"]}).status_code == 409


def test_the_teacher_refuses_one_device_and_the_other_still_waits(app):
    app, teacher, code, cara, dan = started(app)
    seen_back(app, code, "Cara", presence.AWAY_AFTER + 5)
    first, second = device(app, IPHONE), app.test_client()  # the second says nothing we know of itself
    assert first.post(f"/api/tables/{code}/join", json={"name": "Cara"}).status_code == 202
    assert second.post(f"/api/tables/{code}/join", json={"name": "Cara"}).status_code == 202
    asks = poll(teacher, code).get_json()["asks"]
    assert asks[1]["device"] == ""
    assert teacher.post(f"/api/tables/{code}/seats/0/refuse", json={"ask": asks[0]["id"]}).status_code == 200
    told = first.get(f"/api/tables/{code}/ask").get_json()["asking"]
    assert told["status"] == "refused" and "did not let you back in" in told["message"]
    assert second.get(f"/api/tables/{code}/ask").get_json()["asking"]["status"] == "waiting"
    assert poll(teacher, code).get_json()["seats"][0]["asks_back"] is True
    assert teacher.post(f"/api/tables/{code}/seats/0/let-in").status_code == 200  # the only one left
    assert second.get(f"/api/tables/{code}/ask").get_json()["asking"]["status"] == "let-in"
    assert poll(second, code).get_json()["you"]["name"] == "Cara"


def test_a_device_asking_for_another_seat_gives_up_its_first_request(app):
    app, teacher, code, cara, dan = started(app)
    seen_back(app, code, "Cara", presence.AWAY_AFTER + 5)
    seen_back(app, code, "Dan", presence.AWAY_AFTER + 5)
    phone = app.test_client()
    assert phone.post(f"/api/tables/{code}/join", json={"name": "Cara"}).status_code == 202
    dan_asked = phone.post(f"/api/tables/{code}/join", json={"name": "Dan"})
    assert dan_asked.status_code == 202, dan_asked.get_json()
    asks = poll(teacher, code).get_json()["asks"]
    assert [a["name"] for a in asks] == ["Dan"]
    with app.app_context():  # nothing is lost: the first request is kept, ended
        assert sorted(c.status for c in SeatClaim.query.all()) == ["waiting", "withdrawn"]


def test_a_seat_takes_at_most_a_few_waiting_devices(app):
    app, teacher, code, cara, dan = started(app)
    seen_back(app, code, "Cara", presence.AWAY_AFTER + 5)
    for _ in range(tables.MAX_WAITING):
        assert app.test_client().post(f"/api/tables/{code}/join", json={"name": "Cara"}).status_code == 202
    crowded = app.test_client().post(f"/api/tables/{code}/join", json={"name": "Cara"})
    assert crowded.status_code == 409 and crowded.get_json()["error"]["code"] == "too-many-requests"
    assert len(poll(teacher, code).get_json()["asks"]) == tables.MAX_WAITING


def test_a_request_that_waited_before_the_upgrade_is_still_answered(app):
    """The seat's own columns keep pointing at the newest request waiting (the teacher's poll reads them)."""
    app, teacher, code, cara, dan = started(app)
    seen_back(app, code, "Cara", presence.AWAY_AFTER + 5)
    phone = app.test_client()
    assert phone.post(f"/api/tables/{code}/join", json={"name": "Cara"}).status_code == 202
    with app.app_context():
        seat = Seat.query.filter_by(name="Cara").one()
        claim = SeatClaim.query.one()
        assert (seat.claim_hash, seat.claim_at) == (claim.token_hash, claim.asked_at)
    assert teacher.post(f"/api/tables/{code}/seats/0/refuse").status_code == 200
    with app.app_context():
        assert db.session.get(Seat, seat.id).claim_hash is None


@pytest.mark.parametrize("agent, said", [
    (IPHONE["User-Agent"], "iPhone · Safari"),
    (ANDROID["User-Agent"], "Android · Chrome"),
    ("Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/120.0 "
     "Mobile/15E148 Safari/604.1", "iPad · Chrome"),
    ("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36 "
     "Edg/124.0", "Windows · Edge"),
    ("Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36",
     "Chromebook · Chrome"),
    ("Mozilla/5.0 (Macintosh; Intel Mac OS X 14.4; rv:125.0) Gecko/20100101 Firefox/125.0", "Mac · Firefox"),
    ("curl/8.5", ""), ("", ""), (None, ""), ("<script>alert(1)</script>", ""),
])
def test_a_device_is_described_by_known_names_only(agent, said):
    assert device_description(agent) == said


def test_the_migration_keeps_each_seats_waiting_request(tmp_path, monkeypatch):
    """0014: the request a seat held in its own columns (waiting, or refused so its page says so) becomes
    that seat's first request row; the downgrade drops the rows and the seats keep their own columns."""
    import flask_migrate
    from sqlalchemy import inspect, text

    from app.factory import MIGRATIONS

    from .test_migrations import migrated_app

    with migrated_app(tmp_path, monkeypatch):
        flask_migrate.downgrade(directory=str(MIGRATIONS), revision="0013")
        assert "seat_claims" not in inspect(db.engine).get_table_names()
        with db.engine.begin() as connection:
            connection.execute(text(
                "INSERT INTO teachers (id, name, name_key, password_hash, created_at) "
                "VALUES (1, 'Ms Teacher', 'ms teacher', 'x', 0)"))
            connection.execute(text(
                "INSERT INTO play_tables (id, code, name, deck_id, rules, options_json, match_format, match_value, "
                "status, teacher_id, created_at, changed_at, next_bot_at, version) "
                "VALUES (1, 'ACEFHK', '', 'standard-52', 'standard', '{}', 'hands', 1, 'playing', 1, 0, 0, 0, 1)"))
            for position, claim, refused in ((0, "a" * 64, False), (1, "b" * 64, True), (2, None, False)):
                connection.execute(text(
                    "INSERT INTO play_seats (table_id, position, kind, name, name_key, claim_hash, claim_at, "
                    "claim_refused) VALUES (1, :position, 'human', :name, :name, :claim, :at, :refused)"),
                    {"position": position, "name": f"s{position}", "claim": claim, "at": 100.0 if claim else None,
                     "refused": refused})
        flask_migrate.upgrade(directory=str(MIGRATIONS))
        rows = db.session.execute(text(
            "SELECT s.position, c.token_hash, c.asked_at, c.status, c.device FROM seat_claims c "
            "JOIN play_seats s ON s.id = c.seat_id ORDER BY s.position")).all()
        assert [tuple(r) for r in rows] == [(0, "a" * 64, 100.0, "waiting", ""), (1, "b" * 64, 100.0, "refused", "")]
        assert "browser_hash" in {c["name"] for c in inspect(db.engine).get_columns("play_seats")}
        db.session.remove()
        flask_migrate.downgrade(directory=str(MIGRATIONS), revision="0013")
        assert "seat_claims" not in inspect(db.engine).get_table_names()
        with db.engine.connect() as connection:
            assert connection.execute(text("SELECT claim_hash FROM play_seats WHERE position = 0")).scalar() == "a" * 64
        flask_migrate.upgrade(directory=str(MIGRATIONS))
