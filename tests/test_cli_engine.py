"""`authors replay` and `authors simulate` as a user runs them."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from app.cli import cli

from tests.shared_examples import shared_record

AUTHORS = str(Path(sys.executable).parent / "authors")


def run(*args):
    return CliRunner().invoke(cli, list(args))


def test_replay_tells_the_game_move_by_move():
    result = run("replay", str(shared_record("seed-nines-worked-example.yaml")))
    assert result.exit_code == 1
    assert "1. Anna asks Boris for Nines: Boris hands over 9♦." in result.output
    assert "Anna lays down Nines." in result.output
    assert "3. Anna: refused (set-not-held)" in result.output


def test_replay_of_an_unusable_record_exits_2_with_nothing_on_stdout(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("format: authors-record/1\nrules: standard\ndeck: standard-52\nplayers: [A, B, A]\n")
    result = subprocess.run([AUTHORS, "replay", str(bad), "--json"], capture_output=True, text=True)
    assert result.returncode == 2 and result.stdout == ""
    assert f"{bad}:4: player \"A\" is named twice" in result.stderr
    for text in ("not: [valid", "- just\n- a list\n", ""):
        bad.write_text(text)
        result = subprocess.run([AUTHORS, "replay", str(bad), "--json"], capture_output=True, text=True)
        assert result.returncode == 2 and result.stdout == "" and result.stderr.strip()
        assert "Traceback" not in result.stderr
    result = subprocess.run([AUTHORS, "replay", str(tmp_path / "missing.yaml")], capture_output=True, text=True)
    assert result.returncode == 2 and "Traceback" not in result.stderr


def test_simulate_prints_the_figures_as_json():
    result = run("simulate", "--rules", "standard", "--deck", "standard-52", "--players", "4", "--bots", "random",
                 "--games", "20", "--seed", "3", "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["games"] == 20 and out["moves"] > 0 and out["seconds"] > 0 and out["moves_per_second"] > 0
    assert len(out["win_share"]) == 4 and abs(sum(out["win_share"]) - 1) < 1e-3
    assert set(out["decision_ms"]) == {"p50", "p95"}


def test_simulate_is_deterministic_by_seed():
    args = ("simulate", "--rules", "classic", "--players", "3", "--games", "10", "--seed", "5", "--json")
    first, second = json.loads(run(*args).output), json.loads(run(*args).output)
    assert first["moves"] == second["moves"] and first["win_share"] == second["win_share"]


def test_simulate_team_game_shares_are_per_team():
    out = json.loads(run("simulate", "--rules", "literature", "--players", "6", "--games", "10", "--json").output)
    shares = out["win_share"]
    assert shares[0] == shares[2] == shares[4] and shares[1] == shares[3] == shares[5]
    assert abs(shares[0] + shares[1] - 1) < 1e-3


def test_simulate_table_and_refusals():
    result = run("simulate", "--rules", "go-fish", "--players", "3", "--games", "5")
    assert result.exit_code == 0 and "95% interval" in result.output
    assert run("simulate", "--bots", "genius").exit_code == 2
    assert run("simulate", "--options", "{not json").exit_code == 2
    assert run("simulate", "--options", '{"ask_with": 1}').exit_code == 2
    assert run("simulate", "--rules", "literature", "--players", "5").exit_code == 2
    assert run("simulate", "--bots", "random,random", "--players", "4").exit_code == 2


def test_replay_reads_json_records_even_with_tabs(tmp_path):
    import yaml

    record = yaml.safe_load(shared_record("seed-nines-worked-example.yaml").read_text())["record"]
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record, indent="\t"))
    result = run("replay", str(path), "--json")
    assert result.exit_code == 1 and json.loads(result.output)["applied"] == 2
    path.write_text('{"format": "authors-record/1",\n\t"rules": }')
    result = subprocess.run([AUTHORS, "replay", str(path)], capture_output=True, text=True)
    assert result.returncode == 2 and ":2: this is not valid JSON" in result.stderr


def test_replay_of_our_own_record_tells_it_and_reads_it_as_json(tmp_path):
    """The same as the two tests above on a record of ours, which a fresh clone has without shared/."""
    import yaml

    source = Path(__file__).parent / "records" / "standard-success-asks-again-and-lays-down.yaml"
    result = run("replay", str(source))
    assert result.exit_code == 0, result.output
    assert "1. Anna asks Boris for Apples: Boris hands over a2." in result.output
    assert "Anna lays down Apples." in result.output
    path = tmp_path / "record.json"
    path.write_text(json.dumps(yaml.safe_load(source.read_text())["record"], indent="\t"))
    result = run("replay", str(path), "--json")
    assert result.exit_code == 0 and json.loads(result.output)["turn"] == "Anna"


def test_simulate_names_every_preset_and_plays_the_family_games():
    from app.engine.options import PRESETS

    help_text = " ".join(run("simulate", "--help").output.split())
    assert all(name in help_text for name in PRESETS), help_text
    result = run("simulate", "--rules", "quartett", "--players", "2", "--bots", "expert,memory", "--games", "5",
                 "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["games"] == 5
