"""A move sent by a screen, as the engine's value (the move types are their own codec: app/engine/moves.py)."""
from __future__ import annotations

from ..decks.errors import N_, say
from ..engine.moves import Answer, Ask, Claim, Move, PassTurn
from . import schemas
from .errors import BadRequest

def move_from_request(move: schemas.AskMove | schemas.AnswerMove | schemas.ClaimMove | schemas.PassMove,
                      player: str) -> Move:
    """A move sent by a screen for the seat `player` (its shape checked by schemas.MoveRequest)."""
    if move.player is not None and move.player != player:
        raise BadRequest(say(N_('this seat plays as "%(player)s"; leave "player" out or give that name'),
                             player=player))
    if isinstance(move, schemas.AskMove):
        return Ask(player, move.ask, set=move.set, card=move.card, named=move.named)
    if isinstance(move, schemas.AnswerMove):
        return Answer(player, move.answer)
    if isinstance(move, schemas.PassMove):
        return PassTurn(player, move.pass_to)
    return Claim.of(player, move.claim, move.holders)
