"""Tables, seats, hands and moves as stored. A hand is its record header plus its move log.

The log is the truth: a hand's moves are rows (hand, seq) with seq unique, so two writers can never
both append move N, and replaying the header and the rows gives the game back after a restart.
Every change to a table bumps its version (SQLAlchemy's version counter: the UPDATE names the version
it read, so a concurrent change is refused instead of lost); screens poll that version.
"""
from __future__ import annotations

import json
import time
from typing import Any

from sqlalchemy import UniqueConstraint

from .db import db


def _now() -> float:
    return time.time()


class Table(db.Model):
    __tablename__ = "play_tables"

    id = db.Column(db.Integer, primary_key=True)
    code = db.Column(db.String(6), nullable=False, unique=True, index=True)
    name = db.Column(db.String(80), nullable=False, default="")
    deck_id = db.Column(db.String(80), nullable=False)
    rules = db.Column(db.String(40), nullable=False)
    options_json = db.Column(db.Text, nullable=False, default="{}")   # overrides of the preset
    match_format = db.Column(db.String(10), nullable=False, default="hands")  # "hands" or "target"
    match_value = db.Column(db.Integer, nullable=False, default=1)
    status = db.Column(db.String(10), nullable=False, default="lobby")  # lobby, playing, finished, closed
    teacher_hash = db.Column(db.String(64), nullable=False)
    created_at = db.Column(db.Float, nullable=False, default=_now)
    changed_at = db.Column(db.Float, nullable=False, default=_now)
    next_bot_at = db.Column(db.Float, nullable=False, default=0.0)     # a computer player may move from then
    version = db.Column(db.Integer, nullable=False, default=0)

    seats = db.relationship("Seat", order_by="Seat.position", back_populates="table", lazy="selectin",
                            cascade="all, delete-orphan")
    hands = db.relationship("Hand", order_by="Hand.number", back_populates="table", lazy="selectin",
                            cascade="all, delete-orphan")

    __mapper_args__ = {"version_id_col": version}

    @property
    def overrides(self) -> dict[str, Any]:
        return json.loads(self.options_json or "{}")

    @property
    def current_hand(self) -> "Hand | None":
        return self.hands[-1] if self.hands else None

    def touch(self) -> None:
        """Mark the table changed: the flush bumps its version (and refuses a concurrent change)."""
        self.changed_at = _now()


class Seat(db.Model):
    __tablename__ = "play_seats"
    __table_args__ = (UniqueConstraint("table_id", "position"), UniqueConstraint("table_id", "name_key"))

    id = db.Column(db.Integer, primary_key=True)
    table_id = db.Column(db.Integer, db.ForeignKey("play_tables.id"), nullable=False, index=True)
    position = db.Column(db.Integer, nullable=False)                  # clockwise from 0
    kind = db.Column(db.String(10), nullable=False, default="human")  # human or computer
    bot = db.Column(db.String(40), nullable=True)                     # the computer player's strength
    name = db.Column(db.String(40), nullable=True)                    # None: a human seat nobody has taken
    name_key = db.Column(db.String(40), nullable=True)                # casefolded name: unique at a table
    token_hash = db.Column(db.String(64), nullable=True)              # sha256 of the seat's secret token

    table = db.relationship("Table", back_populates="seats")

    @property
    def vacant(self) -> bool:
        return self.kind == "human" and self.token_hash is None


class Hand(db.Model):
    """One hand (one game) of a table's match: the record header and, once over, its result."""
    __tablename__ = "play_hands"
    __table_args__ = (UniqueConstraint("table_id", "number"),)

    id = db.Column(db.Integer, primary_key=True)
    table_id = db.Column(db.Integer, db.ForeignKey("play_tables.id"), nullable=False, index=True)
    number = db.Column(db.Integer, nullable=False)         # 1, 2, ... within the match
    header_json = db.Column(db.Text, nullable=False)       # the game record without its moves
    revision = db.Column(db.Integer, nullable=False, default=0)  # bumped when a rename rewrites the log
    result_json = db.Column(db.Text, nullable=True)        # the final public scores, once finished
    started_at = db.Column(db.Float, nullable=False, default=_now)

    table = db.relationship("Table", back_populates="hands")
    moves = db.relationship("MoveRow", order_by="MoveRow.seq", back_populates="hand", lazy="select",
                            cascade="all, delete-orphan")

    @property
    def header(self) -> dict[str, Any]:
        return json.loads(self.header_json)

    @property
    def result(self) -> dict[str, Any] | None:
        return json.loads(self.result_json) if self.result_json else None


class MoveRow(db.Model):
    __tablename__ = "play_moves"
    __table_args__ = (UniqueConstraint("hand_id", "seq"),)

    id = db.Column(db.Integer, primary_key=True)
    hand_id = db.Column(db.Integer, db.ForeignKey("play_hands.id"), nullable=False, index=True)
    seq = db.Column(db.Integer, nullable=False)            # 0, 1, 2 ... in the order played
    data_json = db.Column(db.Text, nullable=False)         # the move as a record writes it
    played_at = db.Column(db.Float, nullable=False, default=_now)

    hand = db.relationship("Hand", back_populates="moves")

    @property
    def data(self) -> dict[str, Any]:
        return json.loads(self.data_json)
