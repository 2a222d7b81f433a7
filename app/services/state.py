"""What a screen is sent about a table: always built from the engine's view for the requester.

A seat gets `game.view(its name)`; the projector, the teacher and anyone without a seat get
`game.public_view()`. Asks go out as the sets and targets of the engine's legal asks: the cards one may
ask for are the deck's cards of those sets that the deal lacks, which the screen works out from the
(public) deck, so no list of another seat's cards is ever sent.
"""
from __future__ import annotations

import threading
import time
from functools import lru_cache
from pathlib import Path
from typing import Any, Sequence

from ..decks import Deck
from ..decks.look import card_marks, is_playing_deck, set_colors
from ..engine.decks import deck_for
from ..engine.options import Options
from ..engine.views import PlayerView, PublicView
from .. import store
from ..store import SeatLike, TableLike, deck_by_ref
from . import deals, recall, studio, tables
from ..decks.errors import N_
from .errors import NotFound


@lru_cache(maxsize=64)
def _deck_played(deck_id: str, options: Options) -> Deck:
    return deck_for(deck_by_ref(deck_id), options)


def played_deck(table: TableLike) -> Deck:
    """The deck as the table plays it (regrouped or doubled as its options say), built once per process."""
    return _deck_played(table.deck_id, table.options)


def table_options(table: TableLike) -> Options:
    """The table's options (worked out once per process: app/models.py, TableMixin.options)."""
    return table.options


def deck_dict(table: TableLike) -> dict[str, Any]:
    """The deck as played (regrouped or doubled as the options say): public, the same for everyone. A
    recall table (app/services/recall.py) sends its sets only: no card ids, no titles. The images its
    readers may see are named (`image`: GET the table's images/<name>)."""
    deck = played_deck(table)
    shown = deck_images(table)

    def image(name: str | None) -> str | None:
        short = (name or "").removeprefix("images/")
        return short if short in shown else None

    if recall.active(table.options):
        out = recall.deck_dict(deck)
        for set_dict, card_set in zip(out["sets"], deck.sets):
            set_dict["image"] = image(card_set.image)
        return out
    colors = set_colors(deck)
    # The quartet index, where the teacher asks for it (never under recall, above: it would name the work)
    marks = card_marks(deck) if table.options.card_index else {}
    return {"id": deck.id, "title": deck.title, "language": deck.language, "set_label": deck.set_label,
            "card_label": deck.card_label, "playing_cards": is_playing_deck(deck),
            "sets": [{"id": s.id, "name": s.name, "note": s.note, "color": colors[s.id], "image": image(s.image),
                      "cards": [{"id": c.id, "title": c.title, "note": c.note, "image": image(c.image),
                                 **({"mark": marks[c.id]} if marks else {})}
                                for c in s.cards]}
                     for s in deck.sets]}


def deck_images(table: TableLike) -> set[str]:
    """The images of a table's deck its readers may see (images/<name>, by name): a studio deck's, the
    sets' always, the cards' only where no work is to be named from memory (an image may show it)."""
    if not str(table.deck_id).startswith(store.SNAPSHOT_PREFIX):
        return set()  # the built-in decks have no images
    deck = played_deck(table)
    names = {s.image for s in deck.sets if s.image}
    if not recall.active(table.options):
        names |= {c.image for c in deck.cards if c.image}
    return {name.removeprefix("images/") for name in names}


def deck_image(table: TableLike, name: str) -> Path:
    """The file of one image of the table's deck that its readers may see; NotFound for any other."""
    if name not in deck_images(table):
        raise NotFound(N_("There is no such image."), code="unknown-image")
    return studio.table_image(table.deck_id, name)


def seat_dict(seat: SeatLike, held: set[int] | None = None) -> dict[str, Any]:
    return {"position": seat.position, "name": seat.name, "kind": seat.kind, "bot": seat.bot,
            "vacant": seat.vacant, "here": seat.position in (held or ()),
            "stand_in": bool(getattr(seat, "stand_in", False)),
            "barred": bool(getattr(seat, "barred", False))}  # a computer plays for its away student


_public_parts: dict[tuple[int, float, int, float], tuple[dict[str, Any], list[dict[str, Any]]]] = {}
_public_lock = threading.Lock()


def _public_part(table: TableLike) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The summary and the finished deals of a table at one version: the same for every seat, so built
    once per version by this process (for snapshots: they never change) and shared (never changed)."""
    if not isinstance(table, store.TableSnapshot):
        return summary(table), finished_deals(table)
    key = (table.id, table.created_at, table.version, deals.pace(table))
    part = _public_parts.get(key)
    if part is None:
        part = (summary(table), finished_deals(table))
        with _public_lock:
            _public_parts[key] = part
            while len(_public_parts) > 1024:
                _public_parts.pop(next(iter(_public_parts)))
    return part


def summary(table: TableLike) -> dict[str, Any]:
    """The table without any game state: for lists, lobbies and every state."""
    deck = played_deck(table)
    current = table.current_deal
    return {
        "code": table.code, "name": table.name, "status": table.status, "version": table.version,
        "paused": bool(table.paused), "locked": bool(table.locked), "pace": deals.pace(table),
        "turn_deadline": deals.turn_deadline(table),  # (epoch seconds) a person's time for the move runs out
        "language": table.language, "rules": table.rules, "options": table.options_dict, "overrides": table.overrides,
        "deck": {"id": table.deck_id, "title": deck.title, "set_label": deck.set_label,
                 "card_label": deck.card_label, "language": deck.language},
        "match": {"format": table.match_format, "value": table.match_value,
                  "hand": current.number if current else 0,
                  "hands_played": sum(1 for h in table.deals if h.result_json),
                  "finished": table.status == "finished", "winners": deals.match_winners(table),
                  "tie_break": bool(getattr(table, "match_tie_break", False)),
                  "tie_break_hand": deals.in_tie_break(table)},
        "seats": [seat_dict(seat) for seat in table.seats],
        "standings": deals.standings(table),
    }


def _asks(view: PlayerView) -> dict[str, Any] | None:
    asks = view.asks
    if not asks:
        return None
    if asks.ask_by == "set":
        sets = list(asks.items)
    else:
        sets = []
        for card_id in asks.items:
            set_id = view.deck.card(card_id).set_id
            if set_id not in sets:
                sets.append(set_id)
    return {"by": asks.ask_by, "sets": sets, "targets": list(asks.targets), "bluff": view.options.bluff_asks}


def game_dict(view: PublicView) -> dict[str, Any]:
    """The view for the JSON answer (encoded at once: the engine's values are not copied)."""
    out = view.to_dict(plain=False)
    if isinstance(view, PlayerView):
        out["asks"] = _asks(view)
    return out


# The deal's figures a table with `hide_scores` keeps back while the deal is played (the one place that
# strips them: every state, the teacher's overview and the move answer's state are built here).
HIDDEN_FIGURES = ("scores", "bonus", "team_scores")


def scores_hidden(table: TableLike, finished: bool) -> bool:
    """Whether this table's current deal's scores are kept back: `hide_scores` and the deal not over."""
    return bool(table.options.hide_scores) and not finished


def without_figures(game: dict[str, Any]) -> dict[str, Any]:
    """A game dict without the deal's scores and bonus points (a copy: the engine's values are shared)."""
    return {key: value for key, value in game.items() if key not in HIDDEN_FIGURES}


def finished_deals(table: TableLike) -> list[dict[str, Any]]:
    return [{"number": deal.number, **(deal.result or {})} for deal in table.deals if deal.result_json]


def table_state(table: TableLike, seat: SeatLike | None = None, held: set[int] | None = None,
                teacher: bool = False) -> dict[str, Any]:
    """What a screen is sent: the reader's view of the current deal, taken from the store, made into
    the state by `state_of`; the teacher's also lists the devices that ask for a seat back (`asks`)."""
    deal = table.current_deal
    view = mask = None
    if deal is not None:
        with store.playing(deal) as game:
            name = seat.name if seat is not None and seat.name in game.players else None
            view = game.view(name) if name else game.public_view()
            deck = game.deck
        if recall.active(table.options):
            mask = recall.Mask(table, deal, view, deck)
    out = state_of(table, view, seat=seat, held=held, teacher=teacher, poll_ms=int(deals.setting("POLL_MS")),
                   mask=mask)
    if teacher:
        out["asks"] = tables.requests_waiting(table)
    return out


def state_of(table: TableLike, view: PublicView | None, *, seat: SeatLike | None = None, held: set[int] | None = None,
             teacher: bool = False,
             poll_ms: int = 1000, mask: "recall.Mask | None" = None) -> dict[str, Any]:
    """The state a screen is sent, from the table as read and the reader's view alone (no game, no
    database): a seat's view, or the public one; `mask` hides what a recall table's reader is to name."""
    public, finished = _public_part(table)
    out = dict(public)
    out["seats"] = [seat_dict(s, held) for s in table.seats]
    if teacher:  # each seat's presence, for the teacher alone (issue #19)
        now = time.time()
        for shown, s in zip(out["seats"], table.seats):
            shown.update(deals.presence_of(s, now))
            shown["device"] = s.token_hash is not None  # a device holds the seat (else nobody, or a computer)
            shown["passed_around"] = tables.passed_around(s)  # played on one device passed around
    out["you"] = None if seat is None else {"position": seat.position, "name": seat.name}
    out["teacher"] = teacher
    out["hands"] = finished
    out["game"] = out["recent"] = out["last_answer"] = out["cards"] = None
    out["scores_hidden"] = False
    poll = poll_ms
    if view is not None:
        out["game"] = game_dict(view)
        if scores_hidden(table, view.finished):
            out["game"] = without_figures(out["game"])
            out["scores_hidden"] = True
        out["recent"] = list(view.recent)
        out["last_answer"] = view.last_answer
        if mask is not None:
            out["game"] = mask.game_dict(out["game"])
            out["recent"] = mask.events(out["recent"])
            out["last_answer"] = mask.event(out["last_answer"])
            out["cards"] = mask.cards()
        actor = view.turn
        if table.status == "playing" and any(s.kind == "computer" and s.name == actor for s in table.seats):
            pace = out["pace"]
            poll = max(100, min(poll, int(pace * 1000) or 100))
    out["poll_ms"] = poll
    if teacher:
        out["away_turn"] = away_turn(table, view.turn if view is not None else None, time.time())
    return out


def away_turn(table: TableLike, turn: str | None, now: float) -> dict[str, Any] | None:
    """For the teacher (her table's page and the overview flag it, with the one button that lets a computer
    stand in): the student's seat whose turn the table waits on, {position, name, away_seconds, empty},
    when its screen is away, or when no device holds it at all (`empty`: its device was disconnected, and
    no device has been let into it since; a computer can play it until one is); None when play goes on
    (paused, a computer's turn, a student who is here)."""
    if table.status != "playing" or table.paused or not turn:
        return None
    seat = next((s for s in table.seats if s.name == turn), None)
    if seat is None or seat.kind != "human" or getattr(seat, "barred", False):
        return None
    if not seat.token_hash:
        return {"position": seat.position, "name": seat.name, "away_seconds": None, "empty": True}
    shown = deals.presence_of(seat, now)
    if shown["presence"] != "away":
        return None
    return {"position": seat.position, "name": seat.name, "away_seconds": shown["away_seconds"], "empty": False}


def overview(tables: Sequence[TableLike]) -> list[dict[str, Any]]:
    """The teacher's list of open tables: who plays, whose turn (`away_turn`: an away student's, which the
    table waits on), this hand's scores and the standings (`hide_scores`: no scores while the deal is
    played, `scores_hidden` says so)."""
    rows = []
    now = time.time()
    for table in tables:
        row = summary(table)
        row["turn"] = row["scores"] = row["away_turn"] = None
        row["scores_hidden"] = False
        deal = table.current_deal
        if deal is not None and table.status == "playing":
            with store.playing(deal) as game:
                row["turn"], row["scores"] = game.turn, dict(game.outcome().scores)
                row["away_turn"] = away_turn(table, game.turn, now)
                if scores_hidden(table, game.finished):
                    del row["scores"]
                    row["scores_hidden"] = True
        rows.append(row)
    return rows
