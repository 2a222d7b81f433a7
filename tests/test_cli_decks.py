"""`authors decks list|show|validate`, run as a teacher runs them: the installed console script."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

AUTHORS = Path(sys.executable).parent / "authors"

GOOD = textwrap.dedent("""\
    format: authors-deck/1
    id: {id}
    title: Painters
    sets:
      - id: monet
        name: Claude Monet
        note: 1840-1926
        cards:
          - title: Water Lilies
            aliases: [Lilies]
          - title: The Magpie
      - id: vermeer
        name: Johannes Vermeer
        cards:
          - title: The Milkmaid
          - title: View of Delft
    """)


@pytest.fixture
def run(tmp_path):
    if not AUTHORS.exists():
        pytest.fail(f"the console script {AUTHORS} is missing: install the project (make test does)")
    env = dict(os.environ)
    env.pop("AUTHORS_DECKS_DIR", None)
    env["AUTHORS_INSTANCE_PATH"] = str(tmp_path / "instance")  # never the project's own instance/

    def run(*args: str, decks_dir: Path | None = None) -> subprocess.CompletedProcess:
        if decks_dir is not None:
            env["AUTHORS_DECKS_DIR"] = str(decks_dir)
        return subprocess.run([str(AUTHORS), "decks", *args], capture_output=True, text=True, env=env,
                              cwd=tmp_path, timeout=60)

    return run


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_validate_a_good_file(run, tmp_path):
    good = write(tmp_path / "painters.yaml", GOOD.format(id="painters"))
    result = run("validate", str(good))
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"{good}: ok (painters: 2 sets, 4 cards)\n"
    assert result.stderr == ""


def test_the_deck_commands_make_no_database(run, tmp_path):
    good = write(tmp_path / "painters.yaml", GOOD.format(id="painters"))
    for args in (("validate", str(good)), ("list",), ("show", "standard-52")):
        assert run(*args).returncode == 0
    assert not (tmp_path / "instance").exists()  # no database, no secret key: only the decks were read


def test_validate_a_bad_file(run, tmp_path):
    bad = write(tmp_path / "bad.yaml", GOOD.format(id="bad").replace("id: vermeer", "id: monet")
                .replace("- title: The Magpie", "- titel: The Magpie"))
    result = run("validate", str(bad))
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        f'{bad}:11:9: unknown key "titel" (did you mean "title"?)',
        f'{bad}:12:5: set id "monet" is used twice (first at line 5)',
    ]


def test_validate_a_relative_path_names_it_as_given(run, tmp_path):
    write(tmp_path / "bad.yaml", GOOD.format(id="Bad Deck"))
    result = run("validate", "bad.yaml")
    assert result.returncode == 1
    assert result.stderr == ('bad.yaml:2:5: deck id "Bad Deck" must be 2 to 64 characters: '
                             'lowercase letters a-z, digits and "-"\n')


def test_validate_mixed_files(run, tmp_path):
    good = write(tmp_path / "good.yaml", GOOD.format(id="good"))
    bad = write(tmp_path / "bad.yaml", "format: authors-deck/2\n")
    missing = tmp_path / "missing.yaml"
    result = run("validate", str(good), str(bad), str(missing))
    assert result.returncode == 1
    assert result.stdout == f"{good}: ok (good: 2 sets, 4 cards)\n"
    assert result.stderr.splitlines() == [
        f'{bad}:1:9: format is "authors-deck/2"; this program reads "authors-deck/1"',
        f"{bad}:1:1: the deck has no id; add a line like \"id: my-deck\"",
        f'{bad}:1:1: the deck has no title; add a line like "title: My deck"',
        f'{bad}:1:1: the deck has no "sets"; list its sets under "sets:"',
        f"{missing}:1:1: cannot read the file (No such file or directory)",
    ]


def test_validate_needs_a_file(run):
    result = run("validate")
    assert result.returncode == 2
    assert "Missing argument" in result.stderr


def test_list_the_builtin_library(run):
    result = run("list")
    assert result.returncode == 0, result.stderr
    ids = [line.split()[0] for line in result.stdout.splitlines()]
    assert ids == sorted(ids)
    for deck_id in ("authors-1861", "literature-48", "literature-54", "standard-52"):
        assert deck_id in ids
    standard = next(line for line in result.stdout.splitlines() if line.startswith("standard-52 "))
    assert "13 sets" in standard and "52 cards" in standard


def test_list_a_library_with_a_broken_deck_lists_the_others_and_fails_with_its_problems(run, tmp_path):
    decks = tmp_path / "decks"
    decks.mkdir()
    write(decks / "painters.yaml", GOOD.format(id="painters"))
    write(decks / "other.yaml", GOOD.format(id="painters"))
    result = run("list", decks_dir=decks)
    assert result.returncode == 1
    assert result.stdout.startswith("painters ")
    assert result.stderr == (f"Left out of the deck library until mended (in {decks}):\n"
                             f'  {decks / "other.yaml"}:1:1: the deck id "painters" must match the file name '
                             '("other.yaml")\n')


def test_show_standard_52(run):
    result = run("show", "standard-52")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].endswith("[standard-52] (en) - 13 sets, 52 cards")
    assert any(line.endswith(". A♠  <AS>") for line in lines)
    assert any(line.endswith(". 10♥  <10H>") for line in lines)


def test_show_a_deck_of_another_folder(run, tmp_path):
    decks = tmp_path / "decks"
    decks.mkdir()
    write(decks / "painters.yaml", GOOD.format(id="painters"))
    result = run("show", "painters", decks_dir=decks)
    assert result.returncode == 0, result.stderr
    assert result.stdout == textwrap.dedent("""\
        Painters [painters] (en) - 2 sets, 4 cards

        Set monet: Claude Monet (1840-1926)
          1. Water Lilies  <water-lilies>  [also: Lilies]
          2. The Magpie  <the-magpie>

        Set vermeer: Johannes Vermeer
          1. The Milkmaid  <the-milkmaid>
          2. View of Delft  <view-of-delft>
        """)


def test_show_a_deck_file(run, tmp_path):
    path = write(tmp_path / "painters.yaml", GOOD.format(id="painters"))
    result = run("show", str(path))
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Painters [painters] (en) - 2 sets, 4 cards\n")


def test_show_an_unknown_deck(run):
    result = run("show", "nope")
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr.startswith('There is no deck "nope". Known decks: ')
    assert "standard-52" in result.stderr


def test_validate_speaks_english_whatever_the_locale(tmp_path):
    """The command line's problems are the validator's English sentences, in any locale."""
    bad = write(tmp_path / "bad.yaml", GOOD.format(id="bad").replace("id: vermeer", "id: monet"))
    env = {**os.environ, "LANG": "ru_RU.UTF-8", "LANGUAGE": "ru", "AUTHORS_INSTANCE_PATH": str(tmp_path / "i")}
    result = subprocess.run([str(AUTHORS), "decks", "validate", str(bad)], capture_output=True, text=True,
                            env=env, cwd=tmp_path, timeout=60)
    assert result.returncode == 1
    assert result.stderr == f'{bad}:12:5: set id "monet" is used twice (first at line 5)\n'
