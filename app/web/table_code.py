"""The table a request names: the join code in its URL (/t/<code>, /j/<code>, /api/tables/<code>/...) or,
for the join form, in its `code` field; in the stored form (any case, spaces and dashes taken off).

The guessing limits (guard.py), the table's language (app/i18n.py) and the state's quick 304 (api.py) ask
here, and nowhere else is the request read for it.
"""
from __future__ import annotations

from typing import Any

from flask import request
from werkzeug.exceptions import HTTPException

from ..services.reading import is_valid_code, normalize_code

JOIN_FORM = "tables.join"  # the one page whose form names a table: POST /join


def clean(code: Any) -> str:
    """A code as a student types it, in the stored form (which may not be a valid code)."""
    return normalize_code(code)


def valid(code: str) -> bool:
    """Whether a clean code could be a table's (the right length and letters)."""
    return is_valid_code(code)


def typed_table_code() -> str | None:
    """The code as the request gives it (what a student typed, to be shown back), None when the request
    names no table."""
    code = (request.view_args or {}).get("code")
    if code is None and request.endpoint == JOIN_FORM and request.method == "POST":
        try:
            code = request.form.get("code", "")
        except HTTPException:  # a body over the limit (the 413 is being made)
            code = None
    return None if code is None else str(code)


def request_table_code() -> str | None:
    """The join code of the table this request is about, clean; None when it is about none."""
    typed = typed_table_code()
    return None if typed is None else clean(typed)
