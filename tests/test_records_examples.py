"""Every example record in shared/ and every record of our own in tests/records/ replays as expected."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from app.engine.record import load_record_text
from app.engine.replay import replay

ROOT = Path(__file__).resolve().parents[1]
# shared/ sits beside the project (in CI too); AUTHORS_SHARED points elsewhere when it does not.
SHARED = Path(os.environ.get("AUTHORS_SHARED", ROOT.parent / "shared")) / "examples" / "records"
OURS = Path(__file__).parent / "records"
CASES = sorted(SHARED.glob("*.yaml")) + sorted(OURS.glob("*.yaml"))
AUTHORS = str(Path(sys.executable).parent / "authors")


def check_expectations(expect: dict, out: dict, exit_status: int) -> None:
    assert exit_status == expect["exit"], out
    for key, value in (expect.get("json") or {}).items():
        if key in ("winners", "cancelled"):
            assert sorted(out[key]) == sorted(value), key
        else:
            assert out[key] == value, key
    for player, cards in (expect.get("hands") or {}).items():
        assert sorted(out["hands"][player]) == sorted(cards), player
    if "error" in expect:
        for key, value in expect["error"].items():
            assert out["error"][key] == value, key
        assert out["error"]["message"]
    for index, sets in (expect.get("teams") or {}).items():
        assert sorted(out["teams"][int(index)]["books"]) == sorted(sets)
    for player, count in (expect.get("dealt") or {}).items():
        held = len(out["hands"][player]) + sum(1 for _ in out["books"][player]) * 4
        assert held == count, player


def test_the_shared_example_records_are_found():
    assert len(list(SHARED.glob("*.yaml"))) >= 7, f"no example records in {SHARED}: is shared/ beside the project?"


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.name)
def test_record_replays_as_expected(path: Path):
    case = yaml.safe_load(path.read_text(encoding="utf-8"))
    expect = case["expect"]
    if expect["exit"] == 2:
        result = subprocess.run([AUTHORS, "replay", str(path), "--json"], capture_output=True, text=True)
        assert result.returncode == 2 and result.stdout == "" and result.stderr.strip()
        return
    result = replay(load_record_text(path.read_bytes(), str(path)))
    check_expectations(expect, result.to_json(), result.exit_status)


def test_the_command_prints_the_same_json_and_exit_status():
    path = SHARED / "seed-nines-worked-example.yaml"
    result = subprocess.run([AUTHORS, "replay", str(path), "--json"], capture_output=True, text=True)
    assert result.returncode == 1
    out = json.loads(result.stdout)
    assert out["applied"] == 2 and out["error"]["code"] == "set-not-held" and out["turn"] == "Anna"
