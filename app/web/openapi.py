"""The OpenAPI 3 description of the JSON API, kept in step with the routes by tests/test_web_api.py."""
from __future__ import annotations

from typing import Any

from pydantic.json_schema import models_json_schema

from ..engine.options import OPTION_NAMES
from ..languages import LANGUAGES
from ..services import schemas
from ..services.catalog import option_words

ERROR = {"$ref": "#/components/schemas/Error"}
STATE = {"$ref": "#/components/schemas/TableState"}
ASKING = {"type": "object", "properties": {"asking": {"type": "object", "properties": {
    "status": {"type": "string", "enum": ["waiting", "let-in", "refused", "expired"]},
    "message": {"type": "string"}, "name": {"type": ["string", "null"]}, "play": {"type": ["string", "null"]},
    # while it waits: since when, on the server's clock, in seconds and in a sentence ("You have waited 3 minutes.")
    "waited_seconds": {"type": ["integer", "null"], "minimum": 0}, "waited": {"type": ["string", "null"]}}}}}


def _error(description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": ERROR}}}


def _json(schema: dict[str, Any], description: str = "OK") -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


CODE = {"name": "code", "in": "path", "required": True, "description": "The table's join code (6 characters).",
        "schema": {"type": "string", "example": "ACE479"}}
POSITION = {"name": "position", "in": "path", "required": True, "description": "The seat, from 0 clockwise.",
            "schema": {"type": "integer", "minimum": 0}}
NUMBER = {"name": "number", "in": "path", "required": True, "description": "The hand of the match, from 1.",
          "schema": {"type": "integer", "minimum": 1}}
UNKNOWN = _error("There is no table with this code (`unknown-code`).")
NOT_TEACHER = _error("Only the teacher who opened the table may do this (`not-teacher`).")
LOGIN = _error("Log in as a teacher first (`login-required`).")
CSRF = _error("The CSRF token is missing or wrong (`csrf-token`): send X-CSRFToken (GET /api/csrf-token).")
BAD = _error("Malformed JSON or a field with a wrong value.")


def _body(schema: dict[str, Any], example: Any = None) -> dict[str, Any]:
    content: dict[str, Any] = {"schema": schema}
    if example is not None:
        content["example"] = example
    return {"required": True, "content": {"application/json": content}}


def request_schemas() -> dict[str, Any]:
    """The request bodies' schemas, generated from the models that check them (app/services/schemas.py)."""
    models = (schemas.NewTable, schemas.JoinRequest, schemas.SeatChange, schemas.MoveRequest, schemas.HintRequest,
              schemas.PauseRequest, schemas.LockRequest, schemas.AskAnswer, schemas.TimerRequest,
              schemas.NewAssignment, schemas.HomeworkStart)
    _, top = models_json_schema([(model, "validation") for model in models],
                                ref_template="#/components/schemas/{model}")
    found: dict[str, Any] = top["$defs"]
    options = found["NewTable"]["properties"]["options"]
    options["properties"] = {name: {"description": option_words(name).help} for name in OPTION_NAMES}
    return found


CLASS = {"name": "number", "in": "path", "required": True, "description": "One of the teacher's classes (/classes).",
         "schema": {"type": "integer", "minimum": 1}}
ASSIGNMENT = {"name": "number", "in": "path", "required": True, "description": "One of the teacher's homework "
              "assignments.", "schema": {"type": "integer", "minimum": 1}}
LINK = {"name": "code", "in": "path", "required": True, "description": "The homework link's code (/h/<code>).",
        "schema": {"type": "string", "example": "KM3PXT"}}
ASSIGNED = {"type": "object", "properties": {
    "id": {"type": "integer"}, "code": {"type": "string"}, "name": {"type": "string"}, "rules": {"type": "string"},
    "deck": {"type": "string"}, "computers": {"type": "integer"}, "bot": {"type": "string"},
    "games": {"type": "integer", "description": "Finished games that count as done."},
    "language": {"type": "string"}, "time_zone": {"type": "string", "description": "The teacher's, when assigned."},
    "opens_on": {"type": "string", "format": "date"}, "due_on": {"type": "string", "format": "date"},
    "opens_at": {"type": "string", "format": "date-time"},
    "due_at": {"type": "string", "format": "date-time", "description": "The midnight that ends the due date."},
    "status": {"type": "string", "enum": ["upcoming", "open", "closed"]},
    "link": {"type": "string", "description": "The link the students open."}}}
NO_CLASS = _error("No such class of this teacher's (`unknown-class`).")
NO_HOMEWORK = _error("No homework with this link (`unknown-homework`).")


def homework_paths() -> dict[str, Any]:
    """Homework (issue #34): the teacher's assignments, and a student's link."""
    progress = {"type": "array", "items": {"type": "object", "properties": {
        "student": {"type": "integer"}, "name": {"type": "string"}, "done": {"type": "integer"},
        "wanted": {"type": "integer"}, "playing": {"type": "boolean"},
        "last_played": {"type": ["string", "null"], "format": "date-time"}}}}
    named = {"type": "array", "items": {"type": "object", "properties": {
        "card": {"type": "string"}, "title": {"type": "string"},
        "verdict": {"type": "string", "enum": ["right", "almost", "hinted", "wrong", "passed"]},
        "due": {"type": ["string", "null"], "format": "date-time"},
        "again": {"type": "string", "description": 'When it comes back, in words ("again in 3 days").'}}}}
    me = {"type": ["object", "null"], "description": "The student this browser tapped, with her games and schedule.",
          "properties": {"id": {"type": "integer"}, "name": {"type": "string"}, "games_done": {"type": "integer"},
                         "games_wanted": {"type": "integer"}, "playing": {"type": "boolean"},
                         "named": named, "due_now": {"type": "integer"},
                         "next_due": {"type": ["string", "null"], "format": "date-time"},
                         "due_next_day": {"type": "integer"},
                         "nudge": {"type": "string", "description": "When her next review is worth doing."}}}
    return {
        "/api/classes/{number}/assignments": {
            "get": {"summary": "The class's homework assignments, the latest due first.", "parameters": [CLASS],
                    "responses": {"200": _json({"type": "object", "properties": {
                        "assignments": {"type": "array", "items": ASSIGNED}}}), "401": LOGIN, "404": NO_CLASS}},
            "post": {"summary": "Assign homework to the class: its students play these rules against computer "
                               "players from the opening day to the end of the due date (the teacher's time zone).",
                     "description": "For a deck of works, the works are named from memory and a student's missed "
                                    "works are dealt back to the computers (`review_deals`) unless `options` say "
                                    "otherwise.",
                     "parameters": [CLASS],
                     "requestBody": _body({"$ref": "#/components/schemas/NewAssignment"}, {
                         "name": "Week 3", "rules": "standard", "deck": "authors-1861", "computers": 2,
                         "bot": "memory", "games": 3, "due": "2026-12-18"}),
                     "responses": {"201": _json(ASSIGNED, "The assignment."), "400": BAD, "401": LOGIN,
                                   "404": NO_CLASS}}},
        "/api/assignments/{number}": {"get": {
            "summary": "An assignment and who has done how much: each roster student's finished games (those "
                       "ended before the link closed), a game under way, when last played.",
            "parameters": [ASSIGNMENT],
            "responses": {"200": _json({"type": "object", "properties": {"assignment": ASSIGNED,
                                                                          "progress": progress}}),
                          "401": LOGIN, "404": _error("No such homework of this teacher's (`unknown-homework`).")}}},
        "/api/homework/{code}": {
            "get": {"summary": "A homework link as its students see it: its days, whether it is open, the roster "
                               "to tap, and the student this browser tapped (what she named last, when each work "
                               "comes back).",
                    "parameters": [LINK],
                    "responses": {"200": _json({"type": "object", "properties": {
                        "name": {"type": "string"}, "rules": {"type": "string"},
                        "status": {"type": "string", "enum": ["upcoming", "open", "closed"]},
                        "opens_on": {"type": "string", "format": "date"}, "due_on": {"type": "string", "format": "date"},
                        "word": {"type": "boolean", "description": "The class word is asked."},
                        "message": {"type": ["string", "null"], "description": "Why no game starts now."},
                        "roster": {"type": "array", "items": {"type": "object", "properties": {
                            "id": {"type": "integer"}, "name": {"type": "string"}}}},
                        "me": me}}), "404": NO_HOMEWORK}},
            "post": {"summary": "A roster student starts her homework game, or goes on with the one under way; this "
                               "browser holds her seat (play it with /api/tables/{table}).",
                     "parameters": [LINK],
                     "requestBody": _body({"$ref": "#/components/schemas/HomeworkStart"}, {"student": 12}),
                     "responses": {
                         "200": _json({"type": "object", "properties": {
                             "table": {"type": "string"}, "seat": {"type": "integer"},
                             "resumed": {"type": "boolean", "description": "Her game under way (false: a new deal)."},
                             "play": {"type": "string"}}}),
                         "400": _error("A name not on the class's roster (`unknown-student`), the class word "
                                       "missing or wrong (`class-word-missing`, `wrong-class-word`)."),
                         "404": NO_HOMEWORK,
                         "409": _error("The link is not open yet (`homework-not-open`) or closed (`homework-closed`); "
                                       "her game is open on another device right now (`open-elsewhere`)."),
                         "429": _error("Too many wrong class words (`too-many-attempts`, Retry-After).")}}},
    }


def learning_paths() -> dict[str, Any]:
    """What the class remembers (issue #34): the grid of a class's students and a deck's works."""
    choice = {"type": "object", "properties": {"key": {"type": "string"}, "title": {"type": "string"},
                                               "reviews": {"type": "integer"}}}
    cell = {"type": "object", "properties": {
        "card": {"type": "string"},
        "state": {"type": "string", "enum": ["recalled", "due", "missed", "never"],
                  "description": "never: not named yet; missed: wrong or passed the last time; due: right (or "
                                 "almost, or with a hint) the last time and due again now; recalled: the same, "
                                 "not due yet."},
        "due": {"type": ["string", "null"], "format": "date-time", "description": "When it is due again."},
        "due_day": {"type": ["string", "null"], "format": "date", "description": "That day, in `time_zone`."},
        "reviews": {"type": "integer", "description": "How many times she named it."}}}
    student = {"type": "object", "properties": {
        "id": {"type": "integer"}, "name": {"type": "string"},
        "removed": {"type": "boolean", "description": "Taken off the roster (listed while she has reviews in the deck)."},
        "days_practised": {"type": "integer", "description": "Days (in `time_zone`) she named a work of any deck."},
        "counts": {"type": "object", "additionalProperties": {"type": "integer"}},
        "due_now": {"type": "array", "items": {"type": "string"}, "description": "The works due now (missed "
                                                                                   "ones too), as cards."},
        "cells": {"type": "array", "items": cell, "description": "In the order of `works`."}}}
    grid = {"type": "object", "properties": {
        "class": {"type": "object", "properties": {"id": {"type": "integer"}, "name": {"type": "string"}}},
        "deck": {"type": "object", "properties": {"key": {"type": "string"}, "title": {"type": "string"}}},
        "decks": {"type": "array", "items": choice, "description": "The decks the class has reviews in, the most "
                                                                    "reviewed first."},
        "now": {"type": "string", "format": "date-time"},
        "time_zone": {"type": "string", "description": "The teacher's (UTC until her browser told it)."},
        "works": {"type": "array", "items": {"type": "object", "properties": {
            "card": {"type": "string"}, "title": {"type": "string"}, "set": {"type": "string"},
            "set_name": {"type": "string"}}}, "description": "Every work of the deck, set by set, in its order."},
        "students": {"type": "array", "items": student}}}
    deck = {"name": "deck", "in": "query", "required": False, "schema": {"type": "string", "example": "authors-1861"},
            "description": "A deck key: a built-in deck's id or studio:<number>; by default the deck the class "
                           "has most reviews in."}
    return {"/api/classes/{number}/learning": {"get": {
        "summary": "What the class remembers: each roster student's state of each work of a deck (recalled, "
                   "due, missed, never seen), when it is due again, the days she practised, her works due now.",
        "parameters": [CLASS, deck],
        "responses": {"200": _json(grid), "401": LOGIN,
                      "404": _error("No such class of this teacher's (`unknown-class`), or no such deck "
                                    "(`unknown-deck`).")}}}}


def openapi_document() -> dict[str, Any]:
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Authors Classroom API",
            "version": "1",
            "description": (
                "Tables of Authors, Go Fish and Literature. A browser's seats are secret tokens in its "
                "session cookie (only their hashes are stored); a teacher logs in (/login) to open tables, "
                "and manages the tables they opened. Every POST, PATCH and DELETE carries the session's "
                "CSRF token in an X-CSRFToken header (GET /api/csrf-token); without it the answer is 400 "
                "`csrf-token`. Every answer about a table is built from the engine's view for the "
                'requester. Errors answer {"error": {"code", "message"}} with a 4xx status; 429 '
                "`too-many-attempts` (with Retry-After) after too many join codes that do not exist from one "
                "address; 413 `too-large` for a body over the limit; 503 `database-unavailable` (with "
                "Retry-After) while the database does not answer: nothing was changed, try again. "
                "Languages: every table plays in the language its teacher chose when opening it "
                f"(`language`: {', '.join(LANGUAGES)}; default the teacher's own). The messages of the answers "
                "about a table (errors included; the codes never change) are in the requester's explicit "
                "choice (`?lang=` or the `lang` cookie it sets), else in the table's language, else in the "
                "best match of Accept-Language; the table state says the table's language."),
        },
        "paths": {
            "/api/openapi.json": {"get": {"summary": "This document.", "responses": {"200": _json({"type": "object"})}}},
            "/api/csrf-token": {"get": {
                "summary": "This session's CSRF token: send it as the X-CSRFToken header of every POST, PATCH "
                           "and DELETE.",
                "responses": {"200": _json({"type": "object", "properties": {"csrf_token": {"type": "string"}}})}}},
            "/api/catalog": {"get": {
                "summary": "Decks, rules presets, options (one line each), computer players and match formats.",
                "responses": {"200": _json({"type": "object"})}}},
            "/api/tables": {
                "get": {"summary": "The teacher's overview: each of their open tables, its players, turn and scores.",
                        "description": "Polled with If-None-Match; 304 when nothing changed.",
                        "responses": {"200": _json({"type": "object", "properties": {
                            "tables": {"type": "array", "items": {"type": "object"}}}}),
                            "304": {"description": "Not modified."}, "401": LOGIN}},
                "post": {"summary": "Open a table (a teacher logged in); the teacher owns it.",
                         "requestBody": _body({"$ref": "#/components/schemas/NewTable"}, {
                             "rules": "standard", "deck": "standard-52", "options": {"name_the_work": True},
                             "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "computer", "bot": "random"},
                                       {"kind": "human", "name": "Vera", "here": True}],
                             "match": {"format": "hands", "value": 3}}),
                         "responses": {"201": _json(STATE, "The new table."), "400": BAD, "401": LOGIN}},
            },
            "/api/tables/{code}": {"get": {
                "summary": "The table as this browser may see it (one of its seats, or the public view).",
                "description": "Each poll may let one computer player move once the pace has passed. "
                               "ETag is the table's version: send If-None-Match to get 304 when nothing changed.",
                "parameters": [CODE, {"name": "seat", "in": "query", "required": False,
                                      "description": "Which of this browser's seats (pass-and-play).",
                                      "schema": {"type": "integer"}}],
                "responses": {"200": _json(STATE), "304": {"description": "Not modified."},
                              "403": _error("The seat is not this browser's (`not-your-seat`)."), "404": UNKNOWN}}},
            "/api/tables/{code}/events": {"get": {
                "summary": "The same state as GET /api/tables/{code}, pushed: a text/event-stream of `state` events.",
                "description": "Asked and refused exactly as GET /api/tables/{code} (the same seat, the same "
                               "errors). Each event is `event: state`, `id:` the table's version, `data:` the "
                               "state's JSON with `server_time` (the server's clock, epoch seconds) added; the "
                               "first at once, then one whenever what this browser is shown changes (the latest "
                               "only, never a backlog); `: ping` comments keep it open. Last-Event-ID equal to "
                               "the current version skips the first. Only `authors serve` streams: a plain WSGI "
                               "server answers 406 `streams-unavailable`; a browser with too many streams open "
                               "gets 429 `too-many-streams`. Either way, poll GET /api/tables/{code}.",
                "parameters": [CODE, {"name": "seat", "in": "query", "required": False,
                                      "description": "Which of this browser's seats (pass-and-play).",
                                      "schema": {"type": "integer"}}],
                "responses": {"200": {"description": "The stream.", "content": {"text/event-stream": {}}},
                              "403": _error("The seat is not this browser's (`not-your-seat`)."), "404": UNKNOWN,
                              "406": _error("This server does not stream (`streams-unavailable`)."),
                              "429": _error("Too many streams open in this browser (`too-many-streams`).")}}},
            "/api/tables/{code}/deck": {"get": {
                "summary": "The deck as played (regrouped or doubled as the options say); public.",
                "parameters": [CODE], "responses": {"200": _json({"$ref": "#/components/schemas/Deck"}),
                                                     "404": UNKNOWN}}},
            "/api/tables/{code}/images/{name}": {"get": {
                "summary": "A picture of the table's deck (a studio deck's set or card image), as the deck names it.",
                "description": "Only pictures its readers may see: none of the cards where works are named from "
                               "memory. A built-in deck has none.",
                "parameters": [CODE, {"name": "name", "in": "path", "required": True, "schema": {"type": "string"},
                                      "description": "A set's or card's `image` in the deck."}],
                "responses": {"200": {"description": "The image (PNG or JPEG).",
                                      "content": {"image/png": {}, "image/jpeg": {}}},
                              "404": _error("No such table (`unknown-code`), or no such picture (`unknown-image`).")}}},
            "/api/tables/{code}/join": {"post": {
                "summary": "Take a seat with a display name (a free seat, or before play a computer's).",
                "description": "A browser that already has a seat here gets it back (`rejoined`). The name of "
                               "a student's seat is no refusal, her screen away or not: this browser asks for the seat back (202, `asking`) and waits for the teacher (GET "
                               "/api/tables/{code}/ask); a request lasts 10 minutes. Every device that asks is "
                               "kept, none replaces another: the teacher's state lists them (`asks`). A browser "
                               "whose student the teacher took off for the match is refused under any name "
                               "(`taken-off`). Too many wrong codes or class words: 429 with Retry-After.",
                "parameters": [CODE],
                "requestBody": _body({"$ref": "#/components/schemas/JoinRequest"}, {"name": "Anna"}),
                "responses": {"201": _json(STATE, "Seated."), "200": _json(STATE, "Already seated here."),
                              "202": _json(ASKING, "Asked for an away student's seat back: wait for the teacher."),
                              "400": BAD, "404": UNKNOWN,
                              "409": _error("The name is taken (`name-taken`) or off the table (`name-removed`), "
                                            "this browser's student is off the table (`taken-off`), the table is "
                                            "full (`table-full`) or over (`table-closed`), or five devices ask for "
                                            "the seat already (`too-many-requests`)."),
                              "429": _error("Too many wrong join codes or class words from this browser or "
                                            "network (`too-many-attempts`): wait for Retry-After seconds.")}}},
            "/api/tables/{code}/ask": {"get": {
                "summary": "How this browser's request to have its seat back stands: `waiting`, `let-in` (the "
                           "seat is now this browser's: open `play`), `refused` or `expired`; while it waits, for "
                           "how long on the server's clock (`waited_seconds`, and `waited` in a sentence).",
                "parameters": [CODE],
                "responses": {"200": _json(ASKING), "404": _error("No such table (`unknown-code`), or this browser "
                                                                 "asked for no seat here (`no-request`).")}}},
            "/api/tables/{code}/start": {"post": {
                "summary": "Deal the first hand (teacher).", "parameters": [CODE],
                "responses": {"200": _json(STATE), "403": NOT_TEACHER, "404": UNKNOWN,
                              "409": _error("Already started, or a seat is still empty.")}}},
            "/api/tables/pause": {"post": {
                "summary": "Pause (or resume) every open table of the teacher logged in.",
                "requestBody": _body({"$ref": "#/components/schemas/PauseRequest"}, {"paused": True}),
                "responses": {"200": _json({"type": "object", "properties": {
                    "paused": {"type": "boolean"}, "changed": {"type": "integer"}}}), "400": BAD, "401": LOGIN}}},
            "/api/tables/{code}/pause": {"post": {
                "summary": "Pause the table (no move by anyone, computer players included) or let play go on "
                           "(teacher); every screen's state says `paused`.",
                "parameters": [CODE],
                "requestBody": _body({"$ref": "#/components/schemas/PauseRequest"}, {"paused": True}),
                "responses": {"200": _json(STATE), "400": BAD, "403": NOT_TEACHER, "404": UNKNOWN}}},
            "/api/tables/{code}/timer": {"post": {
                "summary": "Set, change or switch off the seconds a student has to make a move (teacher); "
                           "whoever is to move gets the new time in full, from now.",
                "parameters": [CODE],
                "requestBody": _body({"$ref": "#/components/schemas/TimerRequest"}, {"seconds": 60}),
                "responses": {"200": _json(STATE), "400": BAD, "403": NOT_TEACHER, "404": UNKNOWN,
                              "409": _error("The table's match is over.")}}},
            "/api/tables/{code}/lock": {"post": {
                "summary": "Lock the table against new joins (seated students keep their seats), or open it "
                           "again (teacher); a join is then a 409 `table-locked`.",
                "parameters": [CODE],
                "requestBody": _body({"$ref": "#/components/schemas/LockRequest"}, {"locked": True}),
                "responses": {"200": _json(STATE), "400": BAD, "403": NOT_TEACHER, "404": UNKNOWN}}},
            "/api/tables/{code}/close": {"post": {
                "summary": "Close the table (teacher); it leaves the overview.", "parameters": [CODE],
                "responses": {"200": _json(STATE), "403": NOT_TEACHER, "404": UNKNOWN}}},
            "/api/tables/{code}/seats/{position}": {
                "patch": {"summary": "Rename the seat's player, or put a computer player in it (teacher).",
                          "parameters": [CODE, POSITION],
                          "requestBody": _body({"$ref": "#/components/schemas/SeatChange"},
                                               {"kind": "computer", "bot": "random"}),
                          "responses": {"200": _json(STATE), "400": BAD, "403": NOT_TEACHER, "404": UNKNOWN,
                                        "409": _error("The name is taken, or the change is not possible now.")}},
                "delete": {"summary": "Remove the seat's player (teacher); the seat waits for someone else.",
                           "description": "With `for_good=1` during play, the student is taken off the table for "
                                          "the rest of the match: a computer plays the seat under her name, nobody "
                                          "may take it or ask for it back, and her browser cannot join again under "
                                          "any name, until the teacher lets her back (let-back).",
                           "parameters": [CODE, POSITION, {"name": "for_good", "in": "query", "required": False,
                                                           "schema": {"type": "string", "enum": ["1", "0"]}}],
                           "responses": {"200": _json(STATE), "403": NOT_TEACHER, "404": UNKNOWN,
                                         "409": _error("Nobody to remove, already off, or (`for_good`) the match "
                                                       "not being played.")}},
            },
            "/api/tables/{code}/seats/{position}/let-in": {"post": {
                "summary": "Let a browser waiting for this seat in (teacher): it gets a new seat token, the old "
                           "device loses the seat, a computer standing in stops; same hand, same cards. The other "
                           "devices asking for the seat are told no.",
                "description": "Optional body {\"ask\": id}: which request (the state's `asks`); without it, "
                               "the only one waiting.",
                "parameters": [CODE, POSITION],
                "requestBody": {**_body({"$ref": "#/components/schemas/AskAnswer"}, {"ask": 3}), "required": False},
                "responses": {"200": _json(STATE), "400": BAD, "403": NOT_TEACHER, "404": UNKNOWN,
                              "409": _error("Nobody waits for this seat, or not that device (`no-request`); "
                                            "several wait and none is named (`choose-request`).")}}},
            "/api/tables/{code}/seats/{position}/refuse": {"post": {
                "summary": "Refuse a browser waiting for this seat (teacher); its page says so.",
                "description": "Optional body {\"ask\": id}, as for let-in.",
                "parameters": [CODE, POSITION],
                "requestBody": {**_body({"$ref": "#/components/schemas/AskAnswer"}, {"ask": 3}), "required": False},
                "responses": {"200": _json(STATE), "400": BAD, "403": NOT_TEACHER, "404": UNKNOWN,
                              "409": _error("Nobody waits for this seat, or not that device (`no-request`); "
                                            "several wait and none is named (`choose-request`).")}}},
            "/api/tables/{code}/seats/{position}/let-back": {"post": {
                "summary": "Let a student taken off for the match back (teacher): her browser may join again, and "
                           "her seat (a computer plays it meanwhile) may be asked back like an away student's.",
                "parameters": [CODE, POSITION],
                "responses": {"200": _json(STATE), "403": NOT_TEACHER, "404": UNKNOWN,
                              "409": _error("Nobody is taken off at this seat (`not-taken-off`).")}}},
            "/api/network": {"get": {
                "summary": "Whether new joins from this browser's network are refused just now (many wrong join "
                           "codes or class words from it), for the teacher's page.",
                "responses": {"200": _json({"type": "object", "properties": {
                    "limited": {"type": "boolean"}, "retry_after": {"type": "integer"},
                    "message": {"type": ["string", "null"]}}}), "401": LOGIN}}},
            "/api/tables/{code}/seats/{position}/stand-in": {"post": {
                "summary": "A computer plays this away student's seat under her name until her screen polls "
                           "again or she is let in from another device (teacher). Optional body: {\"bot\": ...}.",
                "parameters": [CODE, POSITION],
                "responses": {"200": _json(STATE), "400": BAD, "403": NOT_TEACHER, "404": UNKNOWN,
                              "409": _error("The student is here (`student-here`), the seat has no student "
                                            "(`seat-empty`), a computer already stands in, or no hand is played.")}}},
            "/api/tables/{code}/moves": {"post": {
                "summary": "Play a move from one of this browser's seats.",
                "description": "The move is written as in a game record, without the player: the seat plays. "
                               "With `version`, a move from a screen drawn before the last change is refused "
                               "(409 `stale-version`, or the rule's code when the move is no longer legal). "
                               "With an Idempotency-Key header, a retry of the same request is applied once: it "
                               "gets the first answer again (header `Idempotent-Replayed: true`).",
                "parameters": [CODE, {"name": "Idempotency-Key", "in": "header", "required": False,
                                      "description": "A new random key (a UUID) per move; send the same key "
                                                     "when retrying it.",
                                      "schema": {"type": "string", "minLength": 1, "maxLength": 200}}],
                "requestBody": _body({"$ref": "#/components/schemas/MoveRequest"},
                                     {"seat": 0, "version": 12, "move": {"ask": "Boris", "set": "9"}}),
                "responses": {
                    "200": _json({"type": "object", "properties": {
                        "result": {"type": "array", "items": {"type": "object"},
                                   "description": "The events of the move as this seat saw them."},
                        "state": STATE,
                        "state_etag": {"type": "string",
                                       "description": "The ETag of `state` as GET /api/tables/{code}?seat=<this "
                                                      "seat> answers it: send it as If-None-Match on the next "
                                                      "poll, which is a 304 while nothing changes."}}}),
                    "400": BAD, "403": _error("Not this browser's seat (`not-your-seat`)."), "404": UNKNOWN,
                    "409": _error("Refused by the rules (the engine's code: `not-your-turn`, `set-not-held` "
                                  "...), a stale version, or the game not started/over."),
                    "422": _error("The Idempotency-Key was used for another request "
                                  "(`idempotency-key-reused`), or a typed ask ({\"ask\", \"set\", \"named\"}) "
                                  "names no work of that set in this deck (`not-a-work`): no move is played.")}}},
            "/api/tables/{code}/hint": {"post": {
                "summary": "A hint for this seat's naming, only when asked for (option hints).",
                "description": "The oldest work waiting to be named, or with `set` (typing a named ask) each work of "
                               "that set the seat lacks, with the first `level` letters of each word shown and a _ "
                               "for every other letter. A naming sent with `hint` scores no bonus.",
                "parameters": [CODE],
                "requestBody": _body({"$ref": "#/components/schemas/HintRequest"}, {"seat": 0, "level": 1}),
                "responses": {"200": _json({"type": "object", "properties": {
                    "level": {"type": "integer"}, "hint": {"type": "string"}}}),
                    "400": BAD, "403": _error("Not this browser's seat (`not-your-seat`)."), "404": UNKNOWN,
                    "409": _error("No hints at this table (`no-hints`), or nothing to name now "
                                  "(`nothing-to-hint`).")}}},
            "/api/tables/{code}/hands": {"get": {
                "summary": "The hands of the match with their results; a finished hand's record link only for "
                           "those who may read it (the table's teacher; a seat's browser, for the hands it played).",
                "parameters": [CODE], "responses": {"200": _json({"type": "object"}), "404": UNKNOWN}}},
            "/api/tables/{code}/hands/{number}/record": {"get": {
                "summary": "A finished hand as a game record (YAML; JSON with ?format=json): for the table's "
                           "teacher, and for a browser holding a seat, the hands its student played.",
                "parameters": [CODE, NUMBER, {"name": "format", "in": "query", "required": False,
                                              "schema": {"type": "string", "enum": ["yaml", "json"]}}],
                "responses": {"200": {"description": "The record.", "content": {
                    "application/yaml": {"schema": {"type": "string"}},
                    "application/json": {"schema": {"type": "object"}}}},
                    "404": _error("No such table or hand, or a record this browser may not read "
                                  "(`not-your-record`)."),
                    "409": _error("The hand is still being played (`hand-in-play`).")}}},
            **homework_paths(),
            **learning_paths(),
        },
        "components": {"schemas": request_schemas() | {
            "Error": {"type": "object", "properties": {"error": {"type": "object", "properties": {
                "code": {"type": "string"}, "message": {"type": "string"}}}}},
            "Deck": {"type": "object", "properties": {
                "id": {"type": "string"}, "title": {"type": "string"},
                "playing_cards": {"type": "boolean", "description": "Ordinary playing cards (rank and suit)."},
                "images_url": {"type": "string", "description": "Where a set's or card's `image` is: this + the name."},
                "sets": {"type": "array", "items": {"type": "object"}, "description":
                         "Each with its colour (#rrggbb: its own, else the printed cards' palette) and `image`."}}},
            "TableState": {"type": "object", "properties": {
                "code": {"type": "string"}, "status": {"type": "string",
                                                       "enum": ["lobby", "playing", "finished", "closed"]},
                "language": {"type": "string", "enum": list(LANGUAGES),
                             "description": "The table's language, chosen by its teacher."},
                "version": {"type": "integer"}, "rules": {"type": "string"}, "options": {"type": "object"},
                "paused": {"type": "boolean", "description": "The teacher paused play: no move is taken."},
                "locked": {"type": "boolean", "description": "The teacher locked the table: no one new joins."},
                "deck": {"type": "object"}, "match": {"type": "object"},
                "seats": {"type": "array", "items": {"type": "object"}, "description":
                          "Each seat: position, name, kind, bot, vacant, here (this browser's), stand_in (a computer "
                          "plays for its away student), barred (taken off for the match). For the teacher alone "
                          "also presence (\"here\", \"away\" or null), away_seconds, asks_back (a device "
                          "waits to be let in), device (a device holds the seat) and passed_around (played on one "
                          "device passed around: POST /t/<code>/take-here moves such seats to the teacher's browser)."},
                "asks": {"type": ["array", "null"], "items": {"type": "object"}, "description":
                         "For the teacher alone: every device waiting to be let into a seat, the oldest first: id "
                         "(for let-in and refuse), position, name, device (\"iPhone · Safari\", \"\" when unknown), "
                         "asked_at (epoch seconds), screen (the seat's own screen: \"here\", \"away\" or null "
                         "for none) and screen_away_seconds."},
                "away_turn": {"type": ["object", "null"], "description":
                              "For the teacher alone: the student's seat whose turn the table waits on, its screen "
                              "away or no device holding it (position, name, away_seconds, empty), or null."},
                "seat_lost": {"type": ["string", "null"], "description":
                              "GET only, to a browser whose seat token no longer opens its seat because the "
                              "teacher gave it to a computer player, took its student off, or moved its "
                              "pass-and-play seats to another device: why, in a sentence; else null."},
                "you": {"type": ["object", "null"], "description": "The seat this state is for."},
                "teacher": {"type": "boolean"},
                "game": {"type": ["object", "null"],
                         "description": "The engine's view for this seat (hand, prompts, asks as sets and "
                                        "targets, claimable, pass_targets), or its public view."},
                "recent": {"type": ["array", "null"], "items": {"type": "object"},
                           "description": "The events of the last move as this seat saw them."},
                "last_answer": {"type": ["object", "null"]},
                "hands": {"type": "array", "items": {"type": "object"},
                          "description": "The finished hands: scores, bonus, winners."},
                "standings": {"type": "array", "items": {"type": "object"}},
                "join_url": {"type": "string"}, "poll_ms": {"type": "integer"}}},
        }},
    }
