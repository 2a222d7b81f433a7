"""A readable pace: computer players wait 2.5 s between moves by default, and a table's own pace (1-5 s,
the teacher's choice on the form or in the API) when it has one."""
from __future__ import annotations

import pytest

from app.models import MoveRow, Table

from .web_support import open_table, seat_student, teacher_client

SEATS = [{"kind": "human"}, {"kind": "computer"}, {"kind": "computer"}]


def waits_after_a_move(app, code) -> float:
    """Seconds from the last move to the moment a computer player may move next."""
    with app.app_context():
        table = Table.query.filter_by(code=code).one()
        last = max(MoveRow.query.filter_by(deal_id=table.current_deal.id).all(), key=lambda row: row.seq)
        return table.next_bot_at - last.played_at


@pytest.mark.parametrize("pace, expected", [(None, 2.5), (4, 4.0), (1, 1.0)])
def test_computer_players_wait_the_tables_pace(app, pace, expected):
    app.config.pop("BOT_PACE_SECONDS", None)  # the app's own default
    app.config["DEAL_SEED"] = 7
    teacher = teacher_client(app)
    spec = {"seats": SEATS} | ({"pace": pace} if pace else {})
    code = open_table(teacher, **spec)
    anna = seat_student(app, code, "Anna")
    teacher.post(f"/api/tables/{code}/start")
    state = anna.get(f"/api/tables/{code}").get_json()
    assert state["pace"] == expected
    for _ in range(60):  # ask until a miss hands the turn to a computer player
        asks = state["game"]["asks"]
        response = anna.post(f"/api/tables/{code}/moves", json={"move": {"ask": asks["targets"][0],
                                                                          "set": asks["sets"][0]}})
        state = response.get_json()["state"]
        if state["game"]["turn"] != "Anna":
            break
    assert waits_after_a_move(app, code) == pytest.approx(expected, abs=0.05)


@pytest.mark.parametrize("pace", [0.5, 6, "fast", True])
def test_a_pace_out_of_range_is_a_400(app, pace):
    response = teacher_client(app).post("/api/tables", json={"seats": SEATS, "pace": pace})
    assert response.status_code == 400 and "pace" in response.get_json()["error"]["message"]


def test_the_form_offers_the_pace(app):
    teacher = teacher_client(app)
    html = teacher.get("/tables/new").get_data(as_text=True)
    assert 'name="pace"' in html and "2.5 seconds between moves" in html
    form = {"rules": "standard", "seat0": "student", "seat1": "computer:random", "seat2": "computer:random",
            "match_format": "hands", "match_value": "1", "pace": "3"}
    made = teacher.post("/tables/new", data=form)
    code = made.headers["Location"].rsplit("/", 1)[1]
    assert teacher.get(f"/api/tables/{code}").get_json()["pace"] == 3.0
