"""Moves as JSON and as the engine's values. The record's shape: {"ask": "Boris", "set": "9"} ..."""
from __future__ import annotations

from typing import Any

from flask_babel import gettext as _

from ..engine.moves import Answer, Ask, Claim, Move, PassTurn
from ..engine.record import move_to_dict
from .errors import BadRequest

KINDS = ("ask", "answer", "claim", "pass_to")
ALLOWED = {"ask": {"player", "ask", "set", "card"}, "answer": {"player", "answer"},
           "claim": {"player", "claim", "holders"}, "pass_to": {"player", "pass_to"}}


def _text(value: Any, what: str, allow_none: bool = False) -> str | None:
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise BadRequest(_("%(what)s should be text", what=what))
    text = str(value)
    if len(text) > 200:
        raise BadRequest(_("%(what)s is too long", what=what))
    return text


def move_from_json(data: Any, player: str) -> Move:
    """A move sent by a screen for the seat `player`; BadRequest says what is malformed."""
    if not isinstance(data, dict):
        raise BadRequest(_('a move is an object such as {"ask": "Boris", "set": "9"}'))
    kinds = [k for k in KINDS if k in data]
    if len(kinds) != 1:
        raise BadRequest(_("a move has exactly one of %(kinds)s", kinds=", ".join(KINDS)))
    kind = kinds[0]
    extra = sorted(set(data) - ALLOWED[kind])
    if extra:
        raise BadRequest(_('unknown field "%(field)s" in a move of kind "%(kind)s"', field=extra[0], kind=kind))
    if "player" in data and data["player"] != player:
        raise BadRequest(_('this seat plays as "%(player)s"; leave "player" out or give that name', player=player))
    if kind == "ask":
        if ("set" in data) == ("card" in data):
            raise BadRequest(_('an ask names either a "set" or a "card"'))
        return Ask(player, _text(data["ask"], "ask"),
                   set=_text(data["set"], "set") if "set" in data else None,
                   card=_text(data["card"], "card") if "card" in data else None)
    if kind == "answer":
        return Answer(player, _text(data["answer"], "answer", allow_none=True))
    if kind == "pass_to":
        return PassTurn(player, _text(data["pass_to"], "pass_to"))
    holders = data.get("holders")
    if not isinstance(holders, dict) or not holders:
        raise BadRequest(_('a claim gives "holders": {"name": ["card", ...], ...}'))
    named = {}
    for name, cards in holders.items():
        if not isinstance(cards, list):
            raise BadRequest(_('the cards of "%(name)s" should be a list', name=name))
        named[_text(name, "a holder")] = [_text(card, "a card") for card in cards]
    return Claim.of(player, _text(data["claim"], "claim"), named)


def move_from_row(data: dict) -> Move:
    """A stored move (written by move_to_dict)."""
    player = data["player"]
    if "ask" in data:
        return Ask(player, data["ask"], set=data.get("set"), card=data.get("card"))
    if "answer" in data:
        return Answer(player, data["answer"])
    if "claim" in data:
        return Claim.of(player, data["claim"], data["holders"])
    return PassTurn(player, data["pass_to"])


def move_to_row(move: Move) -> dict:
    return move_to_dict(move)
