"""Spaced review: each class's roster student has a schedule per work, fed by every graded naming of
hers (docs/learning.md).

A naming (app/services/namings.py) is a review, rated as FSRS rates one: right → Good; almost, or right
with a hint → Hard; wrong or passed → Again. The scheduler is py-fsrs (FSRS-6) at its default parameters,
without its fuzz: the schedule is then a function of the reviews alone, and `replayed` works it out again
from the log. Each review is stored with its time (models.Review) in the move's own transaction, and the
work's card (models.ReviewCard) is updated beside it, so the deal reads when each work is due from one
index (`due_works`).

Only a roster student has a schedule: she is the same child at every table of her class and at home.
A computer's move for her (standing in, or her time run out) names nothing of hers.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timezone
from functools import lru_cache
from typing import Any, Iterable, Mapping, Sequence

from fsrs import Card, Rating, Scheduler

from ..db import db
from ..engine.game import Game
from ..models import DeckSnapshot, Review, ReviewCard
from ..store import SNAPSHOT_PREFIX, SeatLike, TableLike
from .namings import Naming, naming_of, studio_deck_of

RATINGS = {"right": Rating.Good, "almost": Rating.Hard, "hinted": Rating.Hard,
           "wrong": Rating.Again, "passed": Rating.Again}
SCHEDULER = Scheduler(enable_fuzzing=False)  # FSRS-6's default parameters; no fuzz: the log decides alone


def _when(timestamp: float) -> datetime:
    return datetime.fromtimestamp(timestamp, timezone.utc)


@lru_cache(maxsize=1024)
def deck_key(deck_id: str) -> str:
    """The key a table's deck is scheduled under: a studio deck's every version is one deck ("studio:7"),
    any other deck is its id. (A snapshot never changes the deck it is of: cached.)"""
    if deck_id.startswith(SNAPSHOT_PREFIX):
        studio = studio_deck_of(deck_id, db.session.get(DeckSnapshot, deck_id))
        if studio is not None:
            return f"studio:{studio}"
    return deck_id


def rating_of(verdict: str) -> Rating:
    return RATINGS[verdict]


def note_move(table: TableLike, deal_id: int, seq: int, game: Game, row: Mapping[str, Any], at: float) -> int:
    """Inside a move's transaction, after the move was applied to `game`: every naming of the move by a
    roster student becomes a review of hers, and her card of that work is scheduled again. `row`: the
    move as stored. Returns how many reviews were noted."""
    namings = [n for n in (naming_of(game, event, row) for event in game.recent(None)) if n is not None]
    if not namings:
        return 0
    students = {seat.name: seat.student_id for seat in table.seats if _roster_seat(seat)}
    noted = 0
    for naming in namings:
        student_id = students.get(naming.player)
        if student_id is None:
            continue
        _review(student_id, deck_key(table.deck_id), naming, deal_id, seq, at)
        noted += 1
    return noted


def _roster_seat(seat: SeatLike) -> bool:
    return seat.student_id is not None and seat.kind == "human" and not getattr(seat, "barred", False)


def _review(student_id: int, key: str, naming: Naming, deal_id: int, seq: int, at: float) -> None:
    duplicate = Review.query.filter_by(student_id=student_id, deal_id=deal_id, seq=seq, card_id=naming.card).first()
    if duplicate is not None:
        return  # (the same move twice: one review)
    rating = rating_of(naming.verdict)
    db.session.add(Review(student_id=student_id, deck_key=key, card_id=naming.card, rating=int(rating),
                          verdict=naming.verdict, reviewed_at=at, deal_id=deal_id, seq=seq))
    stored = db.session.get(ReviewCard, (student_id, key, naming.card))
    card = Card.from_dict(json.loads(stored.state_json)) if stored is not None else _new_card(at)
    card, _log = SCHEDULER.review_card(card, rating, _when(at))
    if stored is None:
        stored = ReviewCard(student_id=student_id, deck_key=key, card_id=naming.card, reviews=0, lapses=0)
        db.session.add(stored)
    stored.reviews += 1
    stored.lapses += rating == Rating.Again
    stored.last_review = at
    stored.due = card.due.timestamp()
    stored.state_json = json.dumps(card.to_dict())


def _new_card(at: float) -> Card:
    return Card(card_id=0, due=_when(at))  # (fsrs's own card id is unused: the row's key says which work)


def replayed(reviews: Iterable[tuple[float, int]]) -> Card:
    """A work's card worked out again from its reviews, (time, rating) in the order they were made."""
    card: Card | None = None
    for at, rating in reviews:
        card, _log = SCHEDULER.review_card(card or _new_card(at), Rating(rating), _when(at))
    if card is None:
        raise ValueError("no reviews")
    return card


@dataclass(frozen=True)
class DueWork:
    student_id: int
    card_id: str
    due: float


def due_works(student_ids: Sequence[int], key: str, now: float, limit: int = 200) -> list[DueWork]:
    """The works due by `now` for these students in this deck, most overdue first (one query on the
    index of (student, deck, due))."""
    if not student_ids:
        return []
    rows = (ReviewCard.query.filter(ReviewCard.student_id.in_(list(student_ids)), ReviewCard.deck_key == key,
                                    ReviewCard.due <= now)
            .order_by(ReviewCard.due, ReviewCard.student_id, ReviewCard.card_id).limit(limit).all())
    return [DueWork(row.student_id, row.card_id, row.due) for row in rows]
