"""One table model on the play path: a table's options are parsed from (rules, options_json) once per
process, in one place (app/models.py, TableMixin.options), and everything else a table's options decide
(the options as a dict, the turn limit, the stand-in delay, the deck as played) is read from there, for
the ORM row and the frozen snapshot alike."""
from __future__ import annotations

import json
import random
import sys
from collections import Counter

import pytest

import app.models as models
from app.engine import options as engine_options
from app.models import Table
from app.services import deals, state, tables

from .web_support import choose_move, deck_of, for_play, get_state, open_table, seat_student, teacher_client

pytestmark = pytest.mark.database

OPTIONS = {"turn_seconds": 60, "stand_in_after": 2, "hide_scores": True}


def opened(app, **options):
    """A table of Anna, Boris and two computer players, not started yet: its code, the teacher, the students."""
    app = for_play(app)
    teacher = teacher_client(app)
    code = open_table(teacher, options=options)
    students = {name: seat_student(app, code, name) for name in ("Anna", "Boris")}
    return code, teacher, students


def test_a_snapshot_and_the_row_give_equal_options(app):
    code, teacher, _students = opened(app, **OPTIONS)
    assert teacher.post(f"/api/tables/{code}/start").status_code == 200
    with app.app_context():
        row = Table.query.filter_by(code=code).one()
        snap = tables.read(code)
        assert (snap.rules, snap.options_json) == (row.rules, row.options_json)
        assert snap.options == row.options and snap.options is row.options  # one parse, shared
        assert snap.options.turn_seconds == 60 and snap.options.hide_scores is True
        assert snap.options_dict == row.options_dict == row.options.to_dict()
        assert state.table_options(snap) is state.table_options(row) is snap.options
        assert deals.turn_limit(snap) == deals.turn_limit(row) == 60.0
        assert deals.stand_in_after(snap) == deals.stand_in_after(row) == 120.0
        assert state.played_deck(snap) is state.played_deck(row)
        assert state.summary(snap)["options"] == state.summary(row)["options"] == snap.options_dict


def _count_make_options(monkeypatch) -> list[tuple[str, tuple[str, str]]]:
    """Every call of make_options from now on, as (the module that called it, (rules, its overrides as
    JSON)): each module's own binding of the name is wrapped."""
    original = engine_options.make_options
    calls: list[tuple[str, tuple[str, str]]] = []

    def counting(module_name):
        def make_options(preset, overrides=None):
            calls.append((module_name, (preset, json.dumps(overrides or {}, sort_keys=True))))
            return original(preset, overrides)
        return make_options

    for name, module in list(sys.modules.items()):
        if (name == "app" or name.startswith("app.")) and getattr(module, "make_options", None) is original:
            monkeypatch.setattr(module, "make_options", counting(name))
    return calls


def test_make_options_runs_at_most_once_per_table_options_across_a_poll_and_a_move(app, monkeypatch):
    code, teacher, students = opened(app, **OPTIONS)
    models._table_options.cache_clear()  # as a process that has just started
    state._deck_played.cache_clear()
    calls = _count_make_options(monkeypatch)

    assert teacher.post(f"/api/tables/{code}/start").status_code == 200  # the first deal is dealt
    public = get_state(teacher, code)  # the computers move until a student's turn
    player = students[public["game"]["turn"]]
    seen = get_state(player, code)
    response = player.post(f"/api/tables/{code}/moves",
                           json={"version": seen["version"],
                                 "move": choose_move(seen, deck_of(player, code), random.Random(1))})
    assert response.status_code == 200, response.get_json()
    get_state(teacher, code)
    for client in students.values():
        get_state(client, code)

    with app.app_context():
        row = Table.query.filter_by(code=code).one()
        table_key = (row.rules, json.dumps(json.loads(row.options_json), sort_keys=True))
    # A deal's game is made from its record header, with the record's own options (the rules', no
    # classroom option: app/store/games.py); everything else reads the table's options from the model.
    of_the_table = [(module, key) for module, key in calls if module != "app.store.games"]
    assert of_the_table == [("app.models", table_key)], calls
    assert max(Counter(key for _module, key in calls).values()) <= 1
