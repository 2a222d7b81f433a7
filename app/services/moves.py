"""Moves as JSON and as the engine's values. The record's shape: {"ask": "Boris", "set": "9"} ..."""
from __future__ import annotations

from flask_babel import gettext as _

from ..engine.moves import Answer, Ask, Claim, Move, PassTurn
from ..engine.record import move_to_dict
from . import schemas
from .errors import BadRequest

def move_from_request(move: schemas.AskMove | schemas.AnswerMove | schemas.ClaimMove | schemas.PassMove,
                      player: str) -> Move:
    """A move sent by a screen for the seat `player` (its shape checked by schemas.MoveRequest)."""
    if move.player is not None and move.player != player:
        raise BadRequest(_('this seat plays as "%(player)s"; leave "player" out or give that name', player=player))
    if isinstance(move, schemas.AskMove):
        return Ask(player, move.ask, set=move.set, card=move.card, named=move.named)
    if isinstance(move, schemas.AnswerMove):
        return Answer(player, move.answer)
    if isinstance(move, schemas.PassMove):
        return PassTurn(player, move.pass_to)
    return Claim.of(player, move.claim, move.holders)


def move_from_row(data: dict) -> Move:
    """A stored move (written by move_to_dict)."""
    player = data["player"]
    if "ask" in data:
        return Ask(player, data["ask"], set=data.get("set"), card=data.get("card"), named=data.get("named"))
    if "answer" in data:
        return Answer(player, data["answer"])
    if "claim" in data:
        return Claim.of(player, data["claim"], data["holders"])
    return PassTurn(player, data["pass_to"])


def move_to_row(move: Move) -> dict:
    return move_to_dict(move)
