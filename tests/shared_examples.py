"""The example records of shared/, the specification folder that sits beside the project on developer
machines and in CI (or wherever AUTHORS_SHARED points), never on a user's machine.

Tests that read them skip, saying why, when the folder is not there: a fresh clone passes `make test`
with nothing beside it. Our own records in tests/records/ cover the same rules (and more) either way.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("AUTHORS_SHARED", ROOT.parent / "shared"))
SHARED_RECORDS = SHARED / "examples" / "records"
MISSING = (f"no shared example records at {SHARED_RECORDS}: shared/ sits beside the project on developer "
           "machines and in CI only (set AUTHORS_SHARED to read them from elsewhere); tests/records/ still runs")


def shared_records() -> list[Path]:
    """Every shared example record, or [] when shared/ is not here."""
    return sorted(SHARED_RECORDS.glob("*.yaml")) if SHARED_RECORDS.is_dir() else []


def shared_record(name: str) -> Path:
    """One shared example record; the calling test is skipped (with the reason) when it is not here."""
    path = SHARED_RECORDS / name
    if not path.is_file():
        pytest.skip(MISSING if not SHARED_RECORDS.is_dir() else f"{path} is missing from shared/")
    return path
