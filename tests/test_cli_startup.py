"""The `authors` command imports only what the subcommand it runs needs (app/cli.py): nothing here is
timed (bench/cli_startup.py measures the start-up); what is checked is which modules each command
leaves imported, and that `authors --help` says what each command's own help says."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import click
import pytest

from app.cli import LAZY_COMMANDS, cli

ROOT = Path(__file__).resolve().parents[1]
RECORD = ROOT / "tests" / "records" / "literature-success-asks-again.yaml"
HEAVY = ("flask", "werkzeug", "sqlalchemy", "flask_migrate", "alembic", "jinja2", "reportlab", "babel", "PIL",
         "pypdfium2", "app.engine", "app.printing.sheets", "app.services", "app.web", "yaml")

# What each command may import of HEAVY: the rest must stay out.
ALLOWED = {
    ("--help",): (),
    ("--version",): (),
    ("print", "--help"): (),
    ("decks", "list"): ("yaml",),
    ("decks", "show", "standard-52"): ("yaml",),
    ("replay", str(RECORD)): ("yaml", "app.engine"),
    ("print", "--scorepad", "-o", "-"): ("reportlab", "babel", "app.printing.sheets", "PIL"),
    ("print", "authors-1861", "-o", "-"): ("reportlab", "babel", "yaml", "app.printing.sheets", "PIL"),
}


def imported_by(*args: str) -> set[str]:
    code = ("import sys, json\n"
            "from app.cli import main\n"
            f"sys.argv = ['authors', *{list(args)!r}]\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "sys.stdout.flush()\n"
            "sys.stderr.write('\\nMODULES ' + json.dumps(sorted(sys.modules)))\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, cwd=ROOT, timeout=60)
    marker = result.stderr.rindex(b"\nMODULES ")
    return set(json.loads(result.stderr[marker + 9:]))


@pytest.mark.parametrize("args", list(ALLOWED), ids=" ".join)
def test_each_command_imports_only_what_it_needs(args):
    modules = imported_by(*args)
    heavy = {name for name in modules for root in HEAVY if name == root or name.startswith(root + ".")}
    unexpected = {name for name in heavy
                  if not any(name == root or name.startswith(root + ".") for root in ALLOWED[args])}
    assert not unexpected, f"authors {' '.join(args)} imports {sorted(unexpected)[:12]}"


def test_the_help_lists_every_command_with_its_own_first_line():
    ctx = click.Context(cli)
    for name, (_, _, line, _) in LAZY_COMMANDS.items():
        command = cli.get_command(ctx, name)
        assert command is not None and command.name in (name, "cli"), name
        assert click.Command(name, help=line).get_short_help_str(1000) == command.get_short_help_str(1000), (
            f"LAZY_COMMANDS[{name!r}] must repeat the command's own help: {command.help!r}")
    listed = subprocess.run([str(Path(sys.executable).parent / "authors"), "--help"], capture_output=True,
                            text=True, check=True).stdout
    for name in ("db", "decks", "print", "replay", "serve", "simulate", "teacher"):
        assert f"\n  {name} " in listed, name


def test_the_version():
    result = subprocess.run([str(Path(sys.executable).parent / "authors"), "--version"], capture_output=True,
                            text=True, check=True)
    assert result.stdout.startswith("authors ") and result.stdout.split()[1][0].isdigit()


def test_the_commands_that_need_the_app_still_get_it(tmp_path):
    import os

    env = {**os.environ, "AUTHORS_INSTANCE_PATH": str(tmp_path)}
    env.pop("DATABASE_URL", None)
    authors = str(Path(sys.executable).parent / "authors")
    result = subprocess.run([authors, "db", "current"], capture_output=True, text=True, env=env, timeout=120)
    assert result.returncode == 0, result.stderr
    result = subprocess.run([authors, "teacher", "create", "Ms Hopper", "--password-stdin"], input="compiler pass\n",
                            capture_output=True, text=True, env=env, timeout=120)
    assert result.returncode == 0 and 'Teacher "Ms Hopper" can now log in.' in result.stdout, result.stderr
    assert (tmp_path / "authors.sqlite3").is_file()
