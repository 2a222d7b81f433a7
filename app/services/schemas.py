"""The request bodies the services accept, declared once (pydantic): `parse` checks a body against its
model and the OpenAPI document (app/web/openapi.py) is generated from the same models, so the checks
and the documentation cannot drift.

What a field is called in a refusal (`What`) and the sentence for a value it cannot take (`wrong`)
sit beside the field; `parse` turns pydantic's errors into one such sentence (a Text, said in the
reader's language where the web answers).
Whether a value makes sense for the game (a deck the teacher may use, options that fit the rules, a
name nobody else has) is the services' business, not the shape's.
"""
from __future__ import annotations

import math
import unicodedata
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, Literal, Mapping, Union, get_args, get_origin

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Discriminator, Field, Tag, \
    ValidationError, WithJsonSchema, model_validator
from pydantic_core import PydanticCustomError

from ..decks.errors import N_, say
from ..decks.errors import Text as Phrase  # (Text below is a field type)
from ..engine.bots import BOTS
from ..engine.options import PRESETS
from ..languages import LANGUAGES
from .errors import BadRequest

MAX_SEATS = 22
MAX_MATCH_DEALS = 20
MAX_TARGET = 500
MAX_TEXT = 200  # any id, name or typed answer in a move
MAX_HINT = 20   # hints for one naming


@dataclass(frozen=True)
class What:
    """How a refusal names the field (a marked noun phrase, or the JSON key in quotes, the same in every
    language), and optionally its own sentence for a value it cannot take (fields: value, choices)."""
    name: str
    wrong: str | None = None
    code: str | None = None  # the error code of a wrong value, where the API has a special one


def _whole(value: Any) -> Any:
    """Whole numbers as JSON numbers or as the digits a form sends; never true/false, never 3.5."""
    if isinstance(value, bool):
        raise PydanticCustomError("whole_number", "a whole number")
    if isinstance(value, str) and not (value.strip().isascii() and value.strip().isdigit()):
        raise PydanticCustomError("whole_number", "a whole number")  # "²".isdigit() is true
    if isinstance(value, float) and (not math.isfinite(value) or not value.is_integer()):
        raise PydanticCustomError("whole_number", "a whole number")
    return value


def _not_bool(value: Any) -> Any:
    if isinstance(value, bool):  # (pydantic would read true as 1)
        raise PydanticCustomError("float_type", "a number")
    return value


def _text(value: Any) -> Any:
    """Ids and names are text as written: `set: 9` and `set: "9"` are the same set (game-record.md)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return value


def _typed(value: Any) -> Any:
    """What a student typed, as it is kept (the move log, reports, CSV): no control or invisible format
    characters (NUL, CR, LF, zero-width), white space made single spaces."""
    if not isinstance(value, str):
        return value
    kept = "".join(" " if unicodedata.category(ch) in ("Cc", "Zl", "Zp") else ch for ch in value
                   if unicodedata.category(ch) != "Cf")
    return " ".join(kept.split())


def _printable(value: str) -> str:
    """No control characters in a name or an id (PostgreSQL refuses a NUL in any text)."""
    if any(unicodedata.category(ch) == "Cc" for ch in value):
        raise PydanticCustomError("control_character", "a control character")
    return value


# Text of at most so many characters with no control character in it.
Plain20 = Annotated[str, Field(max_length=20), AfterValidator(_printable)]
Plain40 = Annotated[str, Field(max_length=40), AfterValidator(_printable)]
Plain80 = Annotated[str, Field(max_length=80), AfterValidator(_printable)]
Plain120 = Annotated[str, Field(max_length=120), AfterValidator(_printable)]
# Whole numbers within bounds (the bounds first, so the JSON schema shows them).
Whole = Annotated[int, Field(ge=0), BeforeValidator(_whole)]
Hands = Annotated[int, Field(ge=1, le=MAX_MATCH_DEALS), BeforeValidator(_whole)]
TargetScore = Annotated[int, Field(ge=1, le=MAX_TARGET), BeforeValidator(_whole)]
Hints = Annotated[int, Field(ge=0, le=MAX_HINT), BeforeValidator(_whole)]
HintLevel = Annotated[int, Field(ge=1, le=MAX_HINT), BeforeValidator(_whole)]

Text = Annotated[str, BeforeValidator(_text), Field(max_length=MAX_TEXT), AfterValidator(_printable)]
Typed = Annotated[str, BeforeValidator(_typed), Field(max_length=MAX_TEXT)]


class Body(BaseModel):
    """A JSON object with exactly the fields declared: an unknown field is a mistake worth naming."""
    model_config = ConfigDict(extra="forbid", strict=False, hide_input_in_errors=False)


# ----------------------------------------------------------------------------------------------------
# Opening a table
# ----------------------------------------------------------------------------------------------------
if TYPE_CHECKING:  # (one of values known at run time: to mypy, the text they are)
    Preset = str
    Bot = str
    Language = str
else:
    Preset = Literal[tuple(PRESETS)]
    Bot = Literal[tuple(BOTS)]
    Language = Literal[tuple(LANGUAGES)]
OptionValue = Union[Annotated[bool, Field(strict=True)], Annotated[int, Field(strict=True)], Plain80, None]


class SeatSpec(Body):
    kind: Annotated[Literal["human", "computer"],
                    What('"kind"', N_('kind is "human" or "computer", not "%(value)s"'))] = "human"
    bot: Annotated[Bot | None, What(N_("the computer player"), N_(
        'unknown computer player "%(value)s"; choose one of %(choices)s'))] = Field(
        None, description="The computer player's strength (computer seats).")
    name: Annotated[Plain80 | None, What(N_("the name"))] = None
    here: Annotated[bool, Field(strict=True), What('"here"')] = Field(
        False, description="Played on this device (pass-and-play).")


TIE_BREAK_HELP = "A match that ends tied is settled by one more hand among everyone; its scores only break the tie."


class DealsMatch(Body):
    format: Literal["hands"] = "hands"
    value: Annotated[Hands, What(N_("the number of hands"))] = 1
    tie_break: Annotated[bool, Field(strict=True), What('"tie_break"')] = Field(default=False, description=TIE_BREAK_HELP)


class TargetMatch(Body):
    format: Literal["target"]
    value: Annotated[TargetScore, What(N_("the target score"))]
    tie_break: Annotated[bool, Field(strict=True), What('"tie_break"')] = Field(default=False, description=TIE_BREAK_HELP)


def _match_format(value: Any) -> str | None:
    if isinstance(value, dict):
        return value.get("format", "hands") if isinstance(value.get("format", "hands"), str) else None
    return getattr(value, "format", None)


Match = Annotated[Union[Annotated[DealsMatch, Tag("hands")], Annotated[TargetMatch, Tag("target")]],
                  Discriminator(_match_format, custom_error_type="match_format",
                                custom_error_message="the match format is hands or target"),
                  What('"match"')]


class NewTable(Body):
    """A table to open: POST /api/tables, and the new-table form."""
    name: Annotated[Plain80, What(N_("a table's name"))] = ""
    rules: Annotated[Preset, What(N_("the rules"), N_('unknown rules "%(value)s"; choose one of %(choices)s'))] \
        = "standard"
    language: Annotated[Language | None, What('"language"', N_(
        '"language" is one of %(choices)s, not "%(value)s"'), code="unknown-language"),
        WithJsonSchema({"type": "string", "enum": list(LANGUAGES)})] = Field(
        None, description="The language the table plays in (its pages and messages), whatever the deck's; "
                          "absent or null: the teacher's interface language.")
    deck: Annotated[Plain120 | None, What('"deck"')] = Field(
        None, description="A deck id of the library, or studio:<number> for a studio deck the teacher sees "
                          "(see /api/catalog); default: the rules' deck.")
    options: Annotated[dict[Plain40, OptionValue], What('"options"')] = Field(
        default_factory=dict, description="Overrides of the preset's options (see /api/catalog).")
    seats: Annotated[list[SeatSpec], Field(min_length=1, max_length=MAX_SEATS), What('"seats"')]
    match: Match = Field(default_factory=DealsMatch)
    pace: Annotated[float | None, Field(ge=1, le=5, allow_inf_nan=False), BeforeValidator(_not_bool),
                    What(N_("the pace of the computer players"))] = Field(
        None, description="Seconds between the computer players' moves, 1 to 5; default: the server's (2.5).")
    class_id: Annotated[int | None, Field(ge=1), BeforeValidator(_not_bool), What(N_("the class"))] = Field(
        None, description="One of the teacher's classes (/classes): its students join by picking their name "
                          "from the roster, and their results join up across tables.")


# ----------------------------------------------------------------------------------------------------
# Homework
# ----------------------------------------------------------------------------------------------------
MAX_HOMEWORK_GAMES = 20
Day = Annotated[str, Field(pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")]


class NewAssignment(Body):
    """Homework for one of the teacher's classes: POST /api/classes/<number>/assignments, and its form."""
    name: Annotated[Plain80, What(N_("the homework's name"))] = ""
    rules: Annotated[Preset, What(N_("the rules"), N_('unknown rules "%(value)s"; choose one of %(choices)s'))] \
        = "standard"
    deck: Annotated[Plain120 | None, What('"deck"')] = Field(
        None, description="A deck id of the library, or studio:<number> (see /api/catalog); default: the rules' deck.")
    options: Annotated[dict[Plain40, OptionValue], What('"options"')] = Field(
        default_factory=dict, description="Overrides of the preset's options (see /api/catalog); naming from "
                                          "memory is on by default for a deck of works.")
    computers: Annotated[int, Field(ge=1, le=5), BeforeValidator(_whole), What(N_("the number of computer players"))] \
        = Field(2, description="Computer players beside the student, 1 to 5.")
    bot: Annotated[Bot, What(N_("the computer player"), N_(
        'unknown computer player "%(value)s"; choose one of %(choices)s'))] = Field(
        "memory", description="The computer players' strength.")
    games: Annotated[int, Field(ge=1, le=MAX_HOMEWORK_GAMES), BeforeValidator(_whole),
                     What(N_("the number of games"))] = Field(1, description="Finished games that count as done.")
    opens: Annotated[Day | None, What(N_("the opening day"), N_('the opening day is a date as 2026-12-31, not '
                                                               '"%(value)s"'))] = Field(
        None, description="The first day (YYYY-MM-DD, in the teacher's time zone); default: today.")
    due: Annotated[Day, What(N_("the due date"), N_('the due date is a date as 2026-12-31, not "%(value)s"'))] = Field(
        description="The last day (YYYY-MM-DD, in the teacher's time zone): the link closes at its end.")
    language: Annotated[Language | None, What('"language"', N_(
        '"language" is one of %(choices)s, not "%(value)s"'), code="unknown-language"),
        WithJsonSchema({"type": "string", "enum": list(LANGUAGES)})] = Field(
        None, description="The language its games play in; default: the teacher's interface language.")


class HomeworkStart(Body):
    """POST /api/homework/<code>: a roster student starts (or goes on with) her homework game."""
    student: Annotated[int, Field(ge=1), BeforeValidator(_not_bool), What(N_("the student"))] = Field(
        description="The id of the roster student picked (see GET /api/homework/<code>).")
    word: Annotated[Plain20 | None, What(N_("the class word"))] = Field(
        None, description="The class word, when the class has one.")


# ----------------------------------------------------------------------------------------------------
# Seats and moves
# ----------------------------------------------------------------------------------------------------
class JoinRequest(Body):
    """A display name; at a table opened for a class, the roster student picked (and the class word)."""
    name: Annotated[Plain80 | None, What(N_("the name"))] = None
    student: Annotated[int | None, Field(ge=1), BeforeValidator(_not_bool), What(N_("the student"))] = Field(
        None, description="At a table opened for a class: the id of the roster student picked (see `roster`).")
    word: Annotated[Plain20 | None, What(N_("the class word"))] = Field(
        None, description="The class word shown on the projector, when the class has one.")


class SeatChange(Body):
    """PATCH a seat: rename its player, or put a computer player in it (or free a computer's seat)."""
    name: Annotated[Plain80 | None, What(N_("the name"))] = None
    kind: Annotated[Literal["human", "computer"] | None,
                    What('"kind"', N_('a seat\'s kind is "human" or "computer", not "%(value)s"'))] = None
    bot: Annotated[Bot | None, What(N_("the computer player"), N_(
        'unknown computer player "%(value)s"; choose one of %(choices)s'))] = None

    @model_validator(mode="after")
    def _says_something(self) -> "SeatChange":
        if self.name is None and self.kind is None:
            raise PydanticCustomError("seat_change", "name or kind")
        return self


class PauseRequest(Body):
    """POST /api/tables/<code>/pause, and /api/tables/pause for every open table of the teacher."""
    paused: Annotated[bool, Field(strict=True), What('"paused"')]


class LockRequest(Body):
    """POST /api/tables/<code>/lock."""
    locked: Annotated[bool, Field(strict=True), What('"locked"')]


class TimerRequest(Body):
    """POST /api/tables/<code>/timer: the seconds a student has to make a move, or null for no limit."""
    seconds: Annotated[int | None, Field(ge=10, le=600), BeforeValidator(_whole), What(N_("the time for a move"))] = Field(
        description="Seconds from 10 to 600 (then a computer makes the move), or null: no time limit.")


class RoundTrip(Body):
    """POST /classroom/reach: a student's page says it reached the server, and how long its requests took."""
    round_trip_ms: Annotated[float | None, Field(ge=0, le=60_000, allow_inf_nan=False), What('"round_trip_ms"')] = Field(
        None, description="The median time of the page's own requests to /healthz, in milliseconds.")


class AskAnswer(Body):
    """POST /api/tables/<code>/seats/<position>/let-in (or /refuse): which device's request is answered."""
    ask: Annotated[int | None, Field(ge=1), BeforeValidator(_not_bool), What('"ask"')] = Field(
        None, description="The id of the request (the teacher's state lists them: `asks`); none when only one waits.")


class AskMove(Body):
    player: Text | None = None
    ask: Annotated[Text, What('"ask"')]
    set: Annotated[Text | None, What('"set"')] = None
    card: Annotated[Text | None, What('"card"')] = None
    named: Annotated[Typed | None, What('"named"')] = Field(
        None, description="With the option named_asks: the work as the asker typed it from memory.")
    hint: Annotated[Hints | None, What('"hint"')] = Field(
        None, description="With the option hints: how many hints the asker took (a hinted naming scores no bonus).")

    @model_validator(mode="after")
    def _set_or_card(self) -> "AskMove":
        if (self.set is None) == (self.card is None):
            raise PydanticCustomError("set_or_card", "set or card")
        return self


class AnswerMove(Body):
    player: Text | None = None
    answer: Annotated[Typed | None, What('"answer"')]
    hint: Annotated[Hints | None, What('"hint"')] = Field(
        None, description="With the option hints: how many hints the student took (a hinted answer scores no bonus).")


class HintRequest(Body):
    """POST /api/tables/<code>/hint: a cue for the oldest work this seat is to name, or (named asks, with
    `set`) for the works of that author the asker lacks."""
    seat: Annotated[Whole | None, What('"seat"')] = None
    level: Annotated[HintLevel, What('"level"')] = 1
    set: Annotated[Text | None, What('"set"')] = None


class ClaimMove(Body):
    player: Text | None = None
    claim: Annotated[Text, What('"claim"')]
    holders: Annotated[dict[Text, list[Text]], Field(min_length=1), What('"holders"')]


class PassMove(Body):
    player: Text | None = None
    pass_to: Annotated[Text, What('"pass_to"')]


class ChallengeMove(Body):
    player: Text | None = None
    challenge: Annotated[Text | None, What('"challenge"')] = Field(
        description="With the option challenge_sets: the set just laid down to challenge, or null to let it stand.")


class DefendMove(Body):
    player: Text | None = None
    defend: Annotated[Text, What('"defend"')] = Field(description="The challenged set.")
    names: Annotated[list[Typed], Field(max_length=12), What('"names"')] = Field(
        default_factory=list, description="The set's works as the student names them from memory, one text each.")


MOVE_KINDS = ("ask", "answer", "claim", "pass_to", "challenge", "defend")


def _move_kind(value: Any) -> str | None:
    if not isinstance(value, dict):
        return None
    kinds = [kind for kind in MOVE_KINDS if kind in value]
    return kinds[0] if len(kinds) == 1 else None


Move = Annotated[Union[Annotated[AskMove, Tag("ask")], Annotated[AnswerMove, Tag("answer")],
                       Annotated[ClaimMove, Tag("claim")], Annotated[PassMove, Tag("pass_to")],
                       Annotated[ChallengeMove, Tag("challenge")], Annotated[DefendMove, Tag("defend")]],
                 Discriminator(_move_kind, custom_error_type="move_kind",
                               custom_error_message="one of ask, answer, claim, pass_to, challenge, defend"),
                 What('"move"')]


class MoveRequest(Body):
    """POST /api/tables/<code>/moves."""
    seat: Annotated[Whole | None, What('"seat"')] = Field(
        None, description="Needed when this browser holds several seats.")
    version: Annotated[int | None, Field(strict=True), What('"version"')] = Field(
        None, description="The version the screen was drawn from.")
    move: Move


# ----------------------------------------------------------------------------------------------------
# Checking a body, and saying what is wrong with it
# ----------------------------------------------------------------------------------------------------
EXAMPLES = {
    "match": '{"format": "hands", "value": 3}',
    "move": '{"ask": "Boris", "set": "9"}',
    "seats": '[{"kind": "human"}, {"kind": "computer", "bot": "random"}]',
}


def parse(model: type[Body], data: Any) -> Any:
    """`data` as an instance of `model`, or a BadRequest with one sentence about its first problem."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        error = exc.errors(include_url=False)[0]
        _field, what, _info = _field_at(model, tuple(error.get("loc", ())))
        code = what.code if what and what.code and error["type"] in ("literal_error", "enum") else None
        raise BadRequest(explain(model, error), code=code) from None


def _called(what: What) -> Phrase | str:
    """What a refusal calls the field: a marked noun phrase, or a JSON key in quotes (said as it is)."""
    return what.name if what.name.startswith('"') else say(what.name)


def explain(model: type[Body], error: Mapping[str, Any]) -> Phrase:
    """One pydantic error as a sentence (said in the reader's language at the web's edge): the field by
    its name, the value."""
    loc = tuple(error.get("loc", ()))
    kind = error["type"]
    field, what, annotation = _field_at(model, loc)
    seat = next((loc[i + 1] for i in range(len(loc) - 1) if loc[i] == "seats" and isinstance(loc[i + 1], int)),
                None)
    name = _called(what) if what else (f'"{field}"' if field else say(N_("the body")))
    value = _shown(error.get("input"))
    choices = ", ".join(_choices(annotation))
    bounds = _bounds(annotation)
    if kind == "missing":
        sentence = say(N_("%(what)s is missing"), what=name)
    elif kind == "extra_forbidden":
        where = loc[-2] if len(loc) > 1 and isinstance(loc[-2], str) and loc[-2] not in MOVE_KINDS else None
        sentence = (say(N_('unknown field "%(field)s" in %(where)s'), field=loc[-1], where=f'"{where}"') if where
                    else say(N_('unknown field "%(field)s"'), field=loc[-1]))
    elif kind == "string_pattern_mismatch" and what and what.wrong:
        sentence = say(what.wrong, value=value)  # (a date as YYYY-MM-DD)
    elif kind in ("literal_error", "enum"):
        wrong = what.wrong if what and what.wrong else N_('%(what)s is one of %(choices)s, not "%(value)s"')
        fields = {"what": name, "choices": choices, "value": value}  # those the sentence names
        sentence = say(wrong, **{key: given for key, given in fields.items() if f"%({key})" in wrong})
    elif kind in ("match_format", "move_kind") and not isinstance(error.get("input"), dict):
        sentence = say(N_("%(what)s is an object such as %(example)s"), what=name, example=EXAMPLES[str(field)])
    elif kind == "match_format":
        sentence = say(N_('the match format is "hands" or "target", not "%(format)s"'),
                       format=_shown(error["input"].get("format")))
    elif kind == "move_kind":
        sentence = say(N_("a move has exactly one of %(kinds)s, such as %(example)s"), kinds=", ".join(MOVE_KINDS),
                       example=EXAMPLES["move"])
    elif kind == "set_or_card":
        sentence = say(N_('an ask names either a "set" or a "card"'))
    elif kind == "seat_change":
        sentence = say(N_('give a new "name", or a "kind" ("computer" with a "bot", or "human")'))
    elif kind in ("float_type", "float_parsing"):
        sentence = say(N_('%(what)s is a number, not "%(value)s"'), what=name, value=value)
    elif kind in ("whole_number", "int_type", "int_parsing", "int_from_float", "finite_number"):
        sentence = say(N_('%(what)s is a whole number, not "%(value)s"'), what=name, value=value)
    elif kind in ("greater_than_equal", "less_than_equal", "greater_than", "less_than") and bounds[1] is not None:
        sentence = say(N_("%(what)s is between %(low)d and %(high)d"), what=name, low=bounds[0], high=bounds[1])
    elif kind in ("greater_than_equal", "greater_than"):
        sentence = say(N_("%(what)s is at least %(low)s"), what=name, low=error.get("ctx", {}).get("ge", 0))
    elif kind in ("string_type", "string_sub_type"):
        sentence = say(N_("%(what)s should be text"), what=name)
    elif kind == "string_too_long":
        sentence = say(N_("%(what)s is text of at most %(max)d characters"), what=name,
                       max=error.get("ctx", {}).get("max_length", MAX_TEXT))
    elif kind == "control_character":
        sentence = say(N_("%(what)s contains a control character; type it again"), what=name)
    elif kind in ("bool_type", "bool_parsing"):
        sentence = say(N_("%(what)s is true or false"), what=name)
    elif kind in ("dict_type", "model_type", "model_attributes_type"):
        example = EXAMPLES.get(str(loc[-1]) if loc else "", "{...}")
        sentence = say(N_("%(what)s is an object such as %(example)s"), what=name, example=example)
    elif kind in ("list_type", "too_short", "too_long") and field == "seats":
        sentence = (say(N_("a table has at most %(max)d seats"), max=MAX_SEATS) if kind == "too_long"
                    else say(N_("%(what)s is a list such as %(example)s"), what=name, example=EXAMPLES["seats"]))
    elif kind == "list_type":
        sentence = say(N_("%(what)s is a list"), what=name)
    elif kind == "too_short":
        sentence = say(N_("%(what)s is empty"), what=name)
    else:
        sentence = say(N_("%(what)s is not right: %(detail)s"), what=name, detail=error.get("msg", kind))
    if seat is not None and len(loc) > 2:
        return say(N_("seat %(position)d: %(reason)s"), position=seat, reason=sentence)
    return sentence


# The models behind a discriminated union, by tag: an error's path names the tag ("move", "ask", "set").
UNIONS: dict[str, dict[str, type[Body]]] = {
    "match": {"hands": DealsMatch, "target": TargetMatch},
    "move": {"ask": AskMove, "answer": AnswerMove, "claim": ClaimMove, "pass_to": PassMove,
             "challenge": ChallengeMove, "defend": DefendMove}}


def _field_at(model: type[Body], loc: tuple[int | str, ...]) -> tuple[str | None, What | None, Any]:
    """The last named field on the error's path, its What, and its FieldInfo (for choices and bounds)."""
    field: str | None = None
    what: What | None = None
    info: Any = None
    current: Any = model
    for step in loc:
        if field is not None and field in UNIONS and step in UNIONS[field] and current is None:
            current = UNIONS[field][step]
        elif isinstance(step, str) and current is not None and step in current.model_fields:
            info = current.model_fields[step]
            field = step
            what = next((m for m in info.metadata if isinstance(m, What)), None)
            current = _model_in(info.annotation)
    return field, what, info


def _model_in(annotation: Any) -> Any:
    """The one model inside list[X], X | None, Annotated[X, ...]; None for a union of several."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    found = {m for m in map(_model_in, get_args(annotation)) if m is not None}
    return found.pop() if len(found) == 1 else None


def _choices(info: Any) -> list[str]:
    annotation = getattr(info, "annotation", None)
    found: list[str] = []

    def walk(node: Any) -> None:
        if get_origin(node) is Literal:
            found.extend(str(arg) for arg in get_args(node))
        else:
            for arg in get_args(node):
                walk(arg)
    walk(annotation)
    return found


def _bounds(info: Any) -> tuple[int | None, int | None]:
    low = high = None
    for item in getattr(info, "metadata", ()):
        low = getattr(item, "ge", low)
        high = getattr(item, "le", high)
    return low, high


def _shown(value: Any) -> str:
    """A refused value as a refusal quotes it: short, on one line."""
    text = value if isinstance(value, str) else repr(value)
    return text.replace("\n", " ")[:40]
