"""What the web edge reads of the table store itself, with no service's refusal around it: the store's
own functions, named here so that app/web goes through the services and never imports app.store.

- a table by its code as a snapshot, or None (`read`); whether one exists (`exists`);
- the version poll and its ETags (`version_rows`, `seen_due`, `unchanged_etag`, `etag`)
  and a seat's presence (`presence`), for the state's view; the state streams'
  watcher's query (`watch_reader`, its `Look` of a table) and each commit's table told to them (`changes`,
  other processes' too);
- join codes, seat tokens and names as the store keeps them (`normalize_code`, `is_valid_code`,
  `new_token`, `token_matches`, `name_key`);
- the database not answering (`DATABASE_ERRORS`: the web answers 503) and the end of a request's
  transaction whatever its state (`rollback`).
"""
from __future__ import annotations

from ..store import (DATABASE_ERRORS, Look, SeatSnapshot, TableSnapshot, changes, etag, exists, presence,
                     read, rollback, seen_due, unchanged_etag, version_rows, watch_reader)
from ..store.codes import is_valid_code, name_key, new_token, normalize_code, token_matches

__all__ = ["DATABASE_ERRORS", "Look", "SeatSnapshot", "TableSnapshot", "changes", "etag", "exists", "is_valid_code", "name_key",
           "new_token", "normalize_code", "presence", "read", "rollback", "seen_due",
           "token_matches", "unchanged_etag", "version_rows", "watch_reader"]
