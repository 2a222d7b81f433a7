"""A move sent by a screen, as the engine's value (the move types are their own codec: app/engine/moves.py)."""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping, Sequence

from ..decks.errors import N_, say
from ..engine.moves import Answer, Ask, Challenge, Claim, Defend, Move, PassTurn
from ..store import SeatLike, TableSnapshot
from . import deals, idempotency, recall, schemas, state
from .errors import BadRequest, Conflict


def play(table: TableSnapshot, seat: SeatLike, sent: schemas.MoveRequest, body: dict[str, Any],
         key_header: str | None) -> tuple[Sequence[Mapping[str, Any]], bool, TableSnapshot, SeatLike]:
    """A screen's move for `seat` (its request `body`, parsed as `sent`; its Idempotency-Key header),
    played: the hint the server gave counted, a typed ask found in the deck, then `deals.play`. Returns
    the move's events as the mover may read them, whether they are the stored answer of an earlier try,
    and the table and seat as the move left them. The move's view calls this."""
    name = seat.name
    if name is None:  # (a seat held by a token has its player's name: it was freed at the same moment)
        raise Conflict(N_("Your seat changed at the same moment (the teacher moved or renamed someone); "
                          "look again."), code="stale-version")
    options = table.options
    if options.hints and hasattr(sent.move, "hint"):
        given = recall.hint_taken(table, name)  # a hint the server gave counts, said or not
        if given > (sent.move.hint or 0):
            sent = sent.model_copy(update={"move": sent.move.model_copy(update={"hint": given})})
    played = recall.typed_ask(move_from_request(sent.move, name), state.played_deck(table), options)
    extra = recall.hinted(sent.move, options)
    if extra:  # a hinted naming scores no bonus: played as a pass (an ask without its name), the row keeps it
        if isinstance(played, Answer):
            played = Answer(played.player, None)
        elif isinstance(played, Ask):  # (a hint is taken for an answer or a named ask only)
            played = replace(played, named=None)
    before = table
    key = idempotency.check_key(key_header)
    digest = idempotency.fingerprint(seat.position, seat.token_hash, body.get("version"), body["move"])
    result: Sequence[Mapping[str, Any]]
    result, replayed, table = deals.play(table, seat, played, sent.version, key=key, fingerprint=digest, extra=extra)
    seat = next((s for s in table.seats if s.id == seat.id), seat)  # (as the move found it, if changed since)
    if extra and before.current_deal is not None:
        result = recall.with_hint(result, extra, state.played_deck(before), options)
    if recall.active(options) and before.current_deal is not None:
        # the deal the move was played in, as the move left it (it may have ended since)
        played_in = next((h for h in table.deals if h.id == before.current_deal.id), before.current_deal)
        result = recall.masked_result(table, played_in, result, seat.name)
    return result, replayed, table, seat

def move_from_request(move: schemas.AskMove | schemas.AnswerMove | schemas.ClaimMove | schemas.PassMove
                      | schemas.ChallengeMove | schemas.DefendMove, player: str) -> Move:
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
    if isinstance(move, schemas.ChallengeMove):
        return Challenge(player, move.challenge)
    if isinstance(move, schemas.DefendMove):
        return Defend(player, move.defend, tuple(move.names))
    holders: dict[str, list[str] | tuple[str, ...]] = dict(move.holders)
    return Claim.of(player, move.claim, holders)
