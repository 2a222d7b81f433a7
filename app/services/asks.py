"""How long a device's request to have its seat back has waited (issue #33: the waiting page says it),
on the server's clock, never the phone's. The requests themselves are app/services/tables.py's."""
from __future__ import annotations

import time

from ..models import SeatClaim
from ..store import TableLike
from ..store.codes import token_hash


def waited_seconds(table: TableLike, token: str | None, now: float | None = None) -> int | None:
    """The whole seconds since this device (the request's secret `token`) asked for a seat at the table,
    None when it asked for none there. Asking again keeps the first request, so its time too."""
    if not isinstance(token, str) or not token:
        return None
    asked_at = (SeatClaim.query.with_entities(SeatClaim.asked_at)
                .filter_by(table_id=table.id, token_hash=token_hash(token)).scalar())
    if asked_at is None:
        return None
    return max(0, int((time.time() if now is None else now) - asked_at))
