"""A school's deployment (Dockerfile, compose.yaml, deploy/authors.service), tested as far as a machine
without a container registry allows: the files parse, the commands they run exist with the options they
pass, the README documents the image's own entry command, and the secret key a container keeps in its
volume is made once, on first start, readable by the server alone. (Building and running the image needs
Docker Hub's python and postgres images, which this machine cannot fetch.)"""
from __future__ import annotations

import json
import re
import shlex
import stat
import subprocess
from pathlib import Path

import pytest
import yaml

from app.cli import cli

ROOT = Path(__file__).resolve().parents[1]
ENTRY = ["authors", "serve", "--prod", "--host", "0.0.0.0", "--port", "8000"]


def instruction(dockerfile: str, name: str) -> str:
    """The (last) Dockerfile instruction of this name, its continuation lines joined."""
    joined = re.sub(r"\\\n\s*", " ", dockerfile)
    found = [line[len(name):].strip() for line in joined.splitlines() if line.startswith(name + " ")]
    assert found, f"the Dockerfile has no {name}"
    return found[-1]


def assert_a_command_of_ours(argv: list[str]) -> None:
    """`authors SUBCOMMAND --option value ...`, every option one the command takes."""
    assert Path(argv[0]).name == "authors", argv
    command = cli.get_command(None, argv[1])  # type: ignore[arg-type]
    assert command is not None, argv
    known = {opt for param in command.params for opt in getattr(param, "opts", [])}
    for word in argv[2:]:
        if word.startswith("--"):
            assert word in known, f"{word} is not an option of authors {argv[1]} ({sorted(known)})"
    context = command.make_context("authors " + argv[1], argv[2:])  # parses: values of the right types
    assert context.params["prod"] is True


def test_the_images_entry_command_is_the_documented_one():
    dockerfile = (ROOT / "Dockerfile").read_text()
    entry = json.loads(instruction(dockerfile, "ENTRYPOINT"))
    assert entry == ENTRY
    assert_a_command_of_ours(entry)
    assert "`" + " ".join(ENTRY) + "`" in (ROOT / "docs" / "operations.md").read_text()
    assert "/healthz" in instruction(dockerfile, "HEALTHCHECK")
    assert "SECRET_KEY_FILE=/var/lib/authors/secret_key" in dockerfile and "VOLUME /var/lib/authors" in dockerfile
    for copied in re.findall(r"^COPY (\S+)", dockerfile, re.M):
        assert (ROOT / copied).exists(), copied


def test_compose_runs_the_app_beside_postgres_with_a_kept_secret():
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    app, database = compose["services"]["app"], compose["services"]["database"]
    assert app["build"] == "." and app["depends_on"]["database"]["condition"] == "service_healthy"
    assert "pg_isready" in database["healthcheck"]["test"]
    assert app["environment"]["DATABASE_URL"].startswith("postgresql+psycopg://authors:")
    assert app["environment"]["DATABASE_URL"].endswith("@database:5432/authors")
    assert app["environment"]["SECRET_KEY_FILE"] == "/var/lib/authors/secret_key"
    assert "instance:/var/lib/authors" in app["volumes"] and set(compose["volumes"]) == {"database", "instance"}
    config = (ROOT / "app" / "config.py").read_text()
    for name in app["environment"]:  # every setting it passes is one the app reads
        assert f'"{name}"' in config, name


def test_the_systemd_unit_starts_the_documented_command():
    unit = (ROOT / "deploy" / "authors.service").read_text()
    sections = dict(re.findall(r"^(\w+)=(.*)$", unit, re.M))
    argv = shlex.split(sections["ExecStart"])
    assert argv[0] == "/opt/authors/bin/authors" and argv[1:] == ENTRY[1:]
    assert_a_command_of_ours(argv)
    assert sections["User"] == "authors" and "Restart" in sections
    assert "Environment=SECRET_KEY_FILE=/var/lib/authors/secret_key" in unit


def test_systemd_accepts_the_unit(tmp_path):
    try:
        done = subprocess.run(["systemd-analyze", "verify", "--man=no", str(ROOT / "deploy" / "authors.service")],
                              capture_output=True, text=True, timeout=60)
    except FileNotFoundError:
        pytest.skip("systemd-analyze is not installed: the unit's syntax was not checked by systemd")
    # (on a machine without the unit's user or the installed command, systemd says so: only syntax counts)
    problems = [line for line in done.stderr.splitlines()
                if "authors.service" in line and ("Unknown" in line or "Invalid" in line or "Missing" in line)]
    assert not problems, done.stderr


def test_a_secret_key_file_is_made_on_first_start_and_kept(tmp_path, monkeypatch):
    from app.config import from_environment

    key_file = tmp_path / "volume" / "secret_key"
    monkeypatch.setenv("AUTHORS_ENV", "production")
    monkeypatch.delenv("SECRET_KEY", raising=False)
    monkeypatch.setenv("SECRET_KEY_FILE", str(key_file))
    first = from_environment(str(tmp_path / "instance"))["SECRET_KEY"]
    assert re.fullmatch(r"[0-9a-f]{64}", first)
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert from_environment(str(tmp_path / "instance"))["SECRET_KEY"] == first == key_file.read_text()
    monkeypatch.setenv("SECRET_KEY", "an-explicit-key-that-is-long-enough-to-pass")
    assert from_environment(str(tmp_path / "instance"))["SECRET_KEY"] == "an-explicit-key-that-is-long-enough-to-pass"
