"""JSON answers by orjson (app/web/json_provider.py) mean what Flask's own encoder's meant."""
from __future__ import annotations

import dataclasses
import datetime
import json
import uuid

from flask import jsonify
from flask.json.provider import DefaultJSONProvider
from markupsafe import Markup

from app.web.json_provider import OrjsonProvider


@dataclasses.dataclass
class Point:
    x: int
    y: tuple


VALUES = {"b": (1, 2, ("x", None)), "a": {"ü": "Чехов", "n": 2.5, "t": True}, "when": datetime.date(2026, 11, 30),
          "id": uuid.UUID(int=5), "point": Point(1, (2, 3)), "html": Markup("<b>x</b>")}


def test_the_same_json_as_flasks_own_encoder(app):
    assert isinstance(app.json, OrjsonProvider)
    with app.test_request_context():
        ours = jsonify(VALUES)
        flasks = DefaultJSONProvider(app).response(VALUES)
        assert json.loads(ours.get_data()) == json.loads(flasks.get_data())
        assert ours.mimetype == "application/json" and ours.get_data().endswith(b"\n")
        text = ours.get_data(as_text=True)
        assert "Чехов" in text and text.index('"a"') < text.index('"b"')  # UTF-8 as it is, keys sorted


def test_what_orjson_refuses_falls_back_to_flasks_encoder(app):
    huge = {"n": 10 ** 30, "s": "x"}
    with app.test_request_context():
        assert json.loads(jsonify(huge).get_data()) == huge
        assert json.loads(app.json.dumps(huge)) == huge
        assert app.json.dumps({"a": 1}, indent=2) == DefaultJSONProvider(app).dumps({"a": 1}, indent=2)


def test_pretty_in_debug_mode_as_flask_is(app):
    app.debug = True
    with app.test_request_context():
        assert jsonify({"a": [1]}).get_data() == DefaultJSONProvider(app).response({"a": [1]}).get_data()


def test_a_sentence_is_said_in_the_readers_language(app):
    from app.decks.errors import N_, say

    sentence = say(N_("This table has no hand %(number)d."), number=4)
    with app.test_request_context("/?lang=en"):
        assert json.loads(jsonify({"m": sentence}).get_data()) == {"m": "This table has no hand 4."}
    with app.test_request_context("/?lang=pt"):
        assert json.loads(jsonify({"m": [sentence]}).get_data())["m"][0] != "This table has no hand 4."
