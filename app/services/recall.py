"""Recall, not reading: while the name-the-work bonus is on, what a student is to name is nowhere their
browser can read before they answer (docs/rules.md, "Recall, not reading"; design.md, "Learning").

With the bonus on (`name_the_work` or `named_asks`) and the works not listed (`works_listed: false`, the
default), every state, event and move answer a screen is sent goes through a `Mask` for its reader:

- Every card id becomes an opaque token of this deal: "w" and 16 hex digits of an HMAC-SHA256, keyed by
  the app's SECRET_KEY, of the table's id, the deal's id and deal time, and the card id. A card id is its
  slugified title (`david-copperfield`); a token says nothing without the server's key, and a new deal
  gives every card new tokens, so what a student learnt of a token in one deal is worth nothing in the
  next. Lists of tokens (a hand, the cards given in one ask) go out sorted by token, never in the deck's
  order, which would tell the cards apart.
- A state carries `cards`: for every token it names, the card's set, and its title and note only where
  the reader may know them: the cards in their own hand that are not waiting for them to name them, the
  sets they laid down themselves, and the card of their own answer or successful named ask (the title
  and note come back with the verdict). Everything else is "a card of Dickens": the cards of other
  hands, and of other players' sets laid down, are no title this reader has held.
- What someone typed (an answer, a named ask) is shown to the typist only: a right answer is the title.
- The deck a table sends (GET /api/tables/<code>/deck) lists the sets and how many cards each has, no
  card ids and no titles.

`works_listed: true` (the teacher's "recognition" choice for young classes) sends everything as before.
"""
from __future__ import annotations

import hashlib
import hmac
from typing import Any, Iterable, Mapping, overload

from flask import current_app
from sqlalchemy.exc import IntegrityError

from ..decks import Deck
from ..decks.errors import N_, say
from ..decks.look import is_playing_deck, set_colors
from .. import store
from ..engine.answers import Verdict, grade
from ..engine.moves import Ask, Move
from ..engine.options import Options
from ..engine.views import PlayerView, PublicView
from ..store import DealLike, TableLike
from .errors import Refused
from .schemas import AnswerMove, AskMove, ChallengeMove, ClaimMove, DefendMove, PassMove

CARD_KEYS = ("card",)
CARD_LIST_KEYS = ("given", "cards")


def active(options: Options) -> bool:
    """Do this table's screens hide what is to be named?"""
    # A claim names who holds each card of a set, so Literature's claims need the works listed.
    # A set may be challenged (challenge_sets): its works are then named from memory too.
    return (options.name_the_work or options.named_asks or options.challenge_sets) and not options.works_listed \
        and not options.claims


def _key(table: TableLike, deal: DealLike) -> bytes:
    secret = current_app.secret_key or current_app.config.get("SECRET_KEY") or ""
    if isinstance(secret, str):
        secret = secret.encode()
    return hmac.new(secret, f"recall:{table.id}:{deal.id}:{deal.started_at!r}".encode(), hashlib.sha256).digest()


class Mask:
    """The game as one reader (a seat's name, or None for the public, projector and teacher) may read it."""

    def __init__(self, table: TableLike, deal: DealLike, view: PublicView, deck: Deck) -> None:
        """`view`: the reader's view (a seat's, or the public one); `deck`: the deck as played."""
        self.viewer = view.seat if isinstance(view, PlayerView) else None
        self.deck = deck
        self.key = _key(table, deal)
        self._tokens: dict[str, str] = {}
        self.named: dict[str, str] = {}        # token -> card id, every token this reader was sent
        self.revealed: set[str] = set()          # cards revealed to this reader by a verdict of theirs
        prompts = set(view.prompts) if isinstance(view, PlayerView) else set()
        down = set(view.cancelled) | {s for books in view.books.values() for s in books}
        self.down_cards = [c for s in self.deck.sets if s.id in down for c in s.card_ids]
        known: set[str] = set()
        if isinstance(view, PlayerView):  # their hand, and the sets they laid down themselves
            known |= set(view.hand)
            own = set(view.books.get(view.seat, ()))
            known |= {c for s in self.deck.sets if s.id in own for c in s.card_ids}
        # A set challenged, or that may be, is named from memory by its layer: no screen is sent its titles.
        contested = view.challenge["set"] if view.challenge else None
        self.contested = set(self.deck.set(contested).card_ids) if contested else set()
        self.known = known - prompts - self.contested
        self.prompts = prompts

    # -- tokens -----------------------------------------------------------------------------------
    def token(self, card_id: str) -> str:
        token = self._tokens.get(card_id)
        if token is None:
            token = "w" + hmac.new(self.key, card_id.encode(), hashlib.sha256).hexdigest()[:16]
            self._tokens[card_id] = token
            self.named[token] = card_id
        return token

    def tokens(self, card_ids: Iterable[str]) -> list[str]:
        return sorted(self.token(c) for c in card_ids)

    def may_know(self, card_id: str | None) -> bool:
        return card_id is not None and card_id not in self.contested and (
            card_id in self.known or card_id in self.revealed)

    # -- events -----------------------------------------------------------------------------------
    @overload
    def event(self, event: None) -> None: ...
    @overload
    def event(self, event: Mapping[str, Any]) -> dict[str, Any]: ...

    def event(self, event: Mapping[str, Any] | None) -> dict[str, Any] | None:
        if event is None:
            return None
        out = dict(event)
        card = event.get("card")
        own = self.viewer is not None and event.get("player") == self.viewer
        kind = event.get("type")
        if kind == "answer" and own and card is not None and card not in self.prompts:
            self.revealed.add(card)  # the title comes back to its receiver with the verdict
        if kind == "ask" and own and "named" in event and event.get("given") and card is not None \
                and card not in self.prompts:
            self.revealed.add(card)
        for key in CARD_KEYS:
            if out.get(key) is not None:
                out[key] = self.token(out[key])
        for key in CARD_LIST_KEYS:
            if isinstance(out.get(key), list):
                out[key] = self.tokens(out[key])
        for key in ("holders", "actual"):
            if isinstance(out.get(key), dict):
                out[key] = {name: self.tokens(cards) for name, cards in out[key].items()}
        if "title" in out and not self.may_know(card):
            out["title"] = None
        # What was typed goes back to its typist only, and only when it named the card they now know:
        # a wrong name, or the name of a card that did not come, may be the title of another card.
        typed_key = "text" if kind == "answer" else "named" if kind == "ask" and "named" in out else None
        for typed in (typed_key, "hinted"):
            if typed and out.get(typed) is not None and not (
                    own and self.may_know(card) and out.get("verdict") != "wrong"):
                out[typed] = ""
        if out.get("title") is not None and card is not None:
            out["note"] = self.deck.card(card).note
        return out

    @overload
    def events(self, events: None) -> None: ...
    @overload
    def events(self, events: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]: ...

    def events(self, events: Iterable[Mapping[str, Any]] | None) -> list[dict[str, Any]] | None:
        return None if events is None else [self.event(e) for e in events]

    # -- a state --------------------------------------------------------------------------------------
    def game_dict(self, out: dict[str, Any]) -> dict[str, Any]:
        """A game dict of state.game_dict, masked (a copy: the engine's values are shared)."""
        out = dict(out)
        # the reader's own events first: they say which titles their verdicts revealed
        out["log"] = self.events(out.get("log"))
        out["last_ask"] = self.event(out.get("last_ask"))
        if "hand" in out:
            out["hand"] = self.tokens(out["hand"])
            out["prompts"] = [self.token(c) for c in out["prompts"]]
        for card in self.down_cards:
            self.token(card)
        return out

    def cards(self) -> dict[str, dict[str, Any]]:
        """What the reader may know of every token they were sent."""
        out: dict[str, dict[str, Any]] = {}
        for token, card_id in sorted(self.named.items()):
            card = self.deck.card(card_id)
            known = self.may_know(card_id)
            out[token] = {"set": card.set_id, "title": card.title if known else None,
                          "note": card.note if known else None}
        return out


def deck_dict(deck: Deck) -> dict[str, Any]:
    """The deck as a recall table sends it: its sets and their sizes, no cards."""
    colors = set_colors(deck)
    return {"id": deck.id, "title": deck.title, "language": deck.language, "set_label": deck.set_label,
            "card_label": deck.card_label, "recall": True, "playing_cards": is_playing_deck(deck),
            "sets": [{"id": s.id, "name": s.name, "note": s.note, "color": colors[s.id], "size": len(s.cards),
                      "cards": []} for s in deck.sets]}


# ------------------------------------------------------------------------------------------------------
# A named ask typed from memory: {"ask": "Boris", "set": "dickens", "named": "tale of two cites"}
# ------------------------------------------------------------------------------------------------------
def resolve(deck: Deck, options: Options, set_id: str, named: str) -> str | None:
    """The card of set `set_id` that `named` names (right before almost), under the table's `answers`;
    None when it names none of them."""
    try:
        card_set = deck.set(set_id)
    except (KeyError, LookupError):
        return None
    cards = card_set.cards
    verdicts = [(grade(named, card, cards, options.answers), card) for card in cards]
    for wanted in (Verdict.RIGHT, Verdict.ALMOST):
        for verdict, card in verdicts:
            if verdict is wanted:
                return card.id
    return None


def typed_ask(move: Move, deck: Deck, options: Options) -> Move:
    """A card ask that names an author and types the work: the card found from the text, or a refusal
    that plays no move ("not-a-work")."""
    if not isinstance(move, Ask) or options.ask_by != "card" or move.card is not None or move.set is None or move.named is None:
        return move
    try:
        card_set = deck.set(move.set)
    except (KeyError, LookupError):
        return move  # the engine says there is no such set
    card = resolve(deck, options, move.set, move.named)
    if card is None:
        raise Refused(say(N_("“%(named)s”: that is not one of %(set)s's works in this deck. Try again."),
                          named=move.named, set=card_set.name), code="not-a-work", status=422)
    named = move.named if options.named_asks else None
    return Ask(move.player, move.target, card=card, named=named)


def masked_result(table: TableLike, deal: DealLike, result: Iterable[Mapping[str, Any]],
                  viewer: str | None) -> list[dict[str, Any]]:
    """A move's events as its player saw them, masked for them (`deal`: the deal the move was played in)."""
    with store.playing(deal) as game:
        view = game.view(viewer) if viewer in game.players else game.public_view()
        deck = game.deck
    return Mask(table, deal, view, deck).events(result)


# ------------------------------------------------------------------------------------------------------
# Hints (the option `hints`): only when asked for, each a little more of the work
# ------------------------------------------------------------------------------------------------------
def cue(title: str, level: int) -> str:
    """The title with the first `level` letters of each word shown and every other letter a "_" (one per
    letter, so each word's length shows); a word never shows its last letter."""
    out: list[str] = []
    word: list[str] = []

    def flush() -> None:
        keep = max(1, min(level, len(word) - 1)) if len(word) > 1 else 1
        out.append("".join(word[:keep]) + "_" * (len(word) - keep))
        word.clear()

    for ch in title:
        if ch.isalnum():
            word.append(ch)
            continue
        if word:
            flush()
        out.append(ch)
    if word:
        flush()
    return "".join(out)


def hint_for(table: TableLike, seat_name: str, level: int, set_id: str | None) -> dict[str, Any]:
    """A cue for the oldest card the seat is to name; or, typing a named ask for `set_id`, one for each
    work of that author the seat lacks."""
    from .errors import Conflict

    deal = table.current_deal
    if deal is None or table.status != "playing":
        raise Conflict(N_("There is nothing to name now."), code="nothing-to-hint")
    with store.playing(deal) as game:
        view = game.view(seat_name) if seat_name in game.players else None
    if view is None:
        raise Conflict(N_("There is nothing to name now."), code="nothing-to-hint")
    deck = view.deck
    if view.prompts:
        _remember_hint(table, seat_name, level)
        return {"level": level, "hint": cue(deck.card(view.prompts[0]).title, level)}
    if set_id is None or view.asks is None or view.asks.ask_by != "card" or not deck.has_set(set_id):
        raise Conflict(N_("There is nothing to name now."), code="nothing-to-hint")
    held = set(view.hand)
    lacking = sorted(c.title for c in deck.set(set_id).cards if c.id not in held)
    _remember_hint(table, seat_name, level)
    return {"level": level, "hint": " · ".join(cue(title, level) for title in lacking)}


def _remember_hint(table: TableLike, seat_name: str, level: int) -> None:
    """Keep the hint given (the most asked for at this version), so that it counts for the seat's next
    naming even from a browser that leaves `hint` out of its move."""
    from ..db import begin_write, db
    from ..models import HintGiven

    begin_write()  # (SQLite: a read turned into a write fails at once when another wrote in between)
    HintGiven.query.filter(HintGiven.table_id == table.id, HintGiven.version < table.version).delete()  # spent
    row = db.session.get(HintGiven, (table.id, table.version, seat_name))
    if row is None:
        db.session.add(HintGiven(table_id=table.id, version=table.version, seat=seat_name, level=level))
    else:
        row.level = max(row.level, level)
    try:
        db.session.commit()
    except IntegrityError:  # the same hint asked twice at once: one row is enough
        db.session.rollback()


def hint_taken(table: TableLike, seat_name: str) -> int:
    """The most hints given to this seat at the table's version: the level its naming now counts."""
    from ..db import db
    from ..models import HintGiven

    row = db.session.get(HintGiven, (table.id, table.version, seat_name))
    level: int = row.level if row is not None else 0
    return level


def hinted(move: AskMove | AnswerMove | ClaimMove | PassMove | ChallengeMove | DefendMove,
           options: Options) -> dict[str, Any] | None:
    """A move that took a hint scores no bonus and must still replay from the record: an answer becomes
    a pass (`answer: null`) and a named ask an ask without `named`; the row keeps what was typed and how
    many hints (`hinted`, `hint`) for the verdict and the reports. Returns the row's extra keys, or None
    when no hint was taken."""
    level = getattr(move, "hint", None)
    if not level or not options.hints:
        return None
    if isinstance(move, AnswerMove):
        return {"hint": level, "hinted": move.answer}
    if isinstance(move, AskMove) and move.named is not None and options.named_asks:
        return {"hint": level, "hinted": move.named}
    return None


def with_hint(result: Iterable[Mapping[str, Any]], extra: dict[str, Any], deck: Deck,
              options: Options) -> list[Mapping[str, Any]]:
    """The move's events as the hinted student sees them: what they typed, and its verdict (`deck`: the
    deck as played)."""
    out: list[Mapping[str, Any]] = []
    for event in result:
        if event.get("type") in ("answer", "ask") and event.get("card") is not None and (
                event["type"] == "answer" or "named" in event):
            card = deck.card(event["card"])
            verdict = grade(extra["hinted"], card, deck.set(card.set_id).cards, options.answers)
            event = dict(event, hinted=extra["hinted"], verdict=verdict.value)
        out.append(event)
    return out
