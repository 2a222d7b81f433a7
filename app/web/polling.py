"""The version poll, fast: a screen that already shows the table's current version gets its 304 from
one small query (the table's version and the seats' token hashes), without loading the table, its
hands or its game. Anything else (a change, a computer player due, a stale token, a wrong seat) falls
through to the full answer of api.table_state, which builds the same ETag."""
from __future__ import annotations

import time

from flask import request, session
from flask_login import current_user
from sqlalchemy import bindparam, select

from ..db import db
from ..models import Seat, Table
from ..services.codes import is_valid_code, normalize_code, token_matches


VERSION_AND_SEATS = (select(Table.id, Table.version, Table.status, Table.next_bot_at, Table.teacher_id,
                            Seat.position, Seat.token_hash)
                     .join(Seat, Seat.table_id == Table.id).where(Table.code == bindparam("code")))


def etag(table_id: int, version: int, seat: int | None, teacher: bool, held) -> str:
    return f"t{table_id}-v{version}-s{'p' if seat is None else seat}-{int(teacher)}-{'.'.join(map(str, held))}"


def not_modified_etag(code: str) -> str | None:
    """The ETag the full answer would carry, when the request's If-None-Match already names it."""
    if not request.if_none_match:
        return None
    clean = normalize_code(code)
    if not is_valid_code(clean):
        return None
    rows = db.session.connection().execute(VERSION_AND_SEATS, {"code": clean}).all()
    if not rows:
        return None
    table_id, version, status, next_bot_at, owner = rows[0][:5]
    if status == "playing" and time.time() >= next_bot_at:
        return None  # a computer player may be due: the full answer lets it move
    seats = session.get("seats")
    tokens = seats.get(clean) if isinstance(seats, dict) else None
    tokens = tokens if isinstance(tokens, dict) else {}
    held = sorted(row.position for row in rows if token_matches(tokens.get(str(row.position)), row.token_hash))
    if len(held) != len(tokens):
        return None  # a stale token: the full answer forgets it
    asked = request.args.get("seat")
    if asked not in (None, ""):
        try:
            seat = int(asked)
        except ValueError:
            return None
        if seat not in held:
            return None
    else:
        seat = held[0] if len(held) == 1 else None
    teacher = owner is not None and current_user.is_authenticated and current_user.id == owner
    tag = etag(table_id, version, seat, teacher, held)
    return tag if request.if_none_match.contains(tag) else None
