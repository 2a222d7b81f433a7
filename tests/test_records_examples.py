"""Every example record in shared/ (when it is beside the project) and every record of our own in
tests/records/ replays as expected."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from app.engine.record import load_record_text
from app.engine.replay import replay

from tests.shared_examples import MISSING, SHARED_RECORDS, shared_record, shared_records

OURS = Path(__file__).parent / "records"
# Without shared/ (a user's clone) its examples are one skipped case that says why.
SHARED_CASES = shared_records() or [pytest.param(None, id="shared-examples", marks=pytest.mark.skip(reason=MISSING))]
CASES = SHARED_CASES + sorted(OURS.glob("*.yaml"))
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


def check_answers(expect: dict, events: list[dict]) -> None:
    """`answers`: the answers in order, each as the card its prompt resolved to and its verdict (what the
    JSON state cannot say: `answer_names: set` may resolve a prompt to another card than the oldest)."""
    if "answers" not in expect:
        return
    answered = [{"card": e["card"], "verdict": e["verdict"]} for e in events if e["type"] == "answer"]
    assert answered == [{"card": str(a["card"]), "verdict": a["verdict"]} for a in expect["answers"]]


def check_defences(expect: dict, events: list[dict]) -> None:
    """`defences` (challenge_sets): each defence of a challenged set as the table saw it, in order."""
    if "defences" not in expect:
        return
    keys = ("player", "held", "count", "size")
    assert [{k: e[k] for k in keys} for e in events if e["type"] == "defence"] == expect["defences"]


def test_the_shared_example_records_are_found():
    if not SHARED_RECORDS.is_dir():
        pytest.skip(MISSING)
    assert len(shared_records()) >= 7, f"fewer example records than expected in {SHARED_RECORDS}"


def test_our_records_are_found():
    assert len(list(OURS.glob("*.yaml"))) >= 60, f"our own records are missing from {OURS}"


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
    check_answers(expect, result.game.events_seen_by(None))
    check_defences(expect, result.game.events_seen_by(None))


def test_the_command_prints_the_same_json_and_exit_status():
    path = shared_record("seed-nines-worked-example.yaml")
    result = subprocess.run([AUTHORS, "replay", str(path), "--json"], capture_output=True, text=True)
    assert result.returncode == 1
    out = json.loads(result.stdout)
    assert out["applied"] == 2 and out["error"]["code"] == "set-not-held" and out["turn"] == "Anna"
