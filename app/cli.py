"""The `authors` command: every command-line task of the project lives here as a subcommand."""
from __future__ import annotations

import os
import shutil
import sys

import click
from flask.cli import FlaskGroup

from . import create_app
from .decks import DeckError, builtin_decks, load_deck_file


@click.group(cls=FlaskGroup, create_app=create_app, add_default_commands=False,
             help="Authors Classroom: decks, rules, play, printing.")
def cli() -> None:
    pass


# Commands that do not read the database say with_appcontext=False: FlaskGroup would otherwise build the
# app (and make the instance folder, its database and secret key) before running them.
@cli.command("serve", with_appcontext=False)
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=5000, show_default=True, type=int)
@click.option("--prod", is_flag=True, help="Serve with gunicorn for a school or district (needs SECRET_KEY).")
@click.option("--workers", type=int, default=None, help="gunicorn worker processes (default: 2 per CPU core).")
# 2 threads: on 2 cores, 4 workers x 2 threads served the most moves of 4x1 ... 8x2 (bench/load.py, README)
@click.option("--threads", type=int, default=2, show_default=True, help="Threads per gunicorn worker.")
def serve(host: str, port: int, prod: bool, workers: int | None, threads: int) -> None:
    """Serve the app: the development server (one classroom), or gunicorn with --prod."""
    if prod:
        _serve_production(host, port, workers or 2 * (os.cpu_count() or 1), threads)
        return
    from werkzeug.serving import run_simple

    app = create_app()
    click.echo(f"Authors Classroom on http://{host}:{port}/")
    # run_simple, not app.run: Flask ignores app.run() inside its own CLI group.
    run_simple(host, port, app, threaded=True, use_reloader=False)


def _serve_production(host: str, port: int, workers: int, threads: int) -> None:
    """gunicorn with threaded workers: table state lives in the database, so any worker serves any table."""
    from .config import ConfigError, check_secret_key

    try:
        check_secret_key(os.environ.get("SECRET_KEY"))
    except ConfigError as exc:
        click.echo(f"authors serve --prod: {exc}", err=True)
        sys.exit(1)
    gunicorn = shutil.which("gunicorn", path=os.path.dirname(sys.executable)) or shutil.which("gunicorn")
    if gunicorn is None:
        click.echo("authors serve --prod: gunicorn is not installed (pip install gunicorn)", err=True)
        sys.exit(1)
    os.environ["AUTHORS_ENV"] = "production"
    args = [gunicorn, "--bind", f"{host}:{port}", "--workers", str(workers), "--threads", str(threads),
            "--worker-class", "gthread", "--preload", "--timeout", "30", "--graceful-timeout", "10",
            "--access-logfile", "-", "app:create_app()"]
    click.echo(f"Authors Classroom (production) on http://{host}:{port}/ with {workers} workers x {threads} threads")
    os.execv(gunicorn, args)


@cli.group("decks")
def decks_group() -> None:
    """List, show and check decks."""


@decks_group.command("list", with_appcontext=False)
def decks_list() -> None:
    """The built-in deck library."""
    decks = _library_or_exit()
    for deck in sorted(decks.values(), key=lambda d: d.id):
        click.echo(f"{deck.id:24} {deck.language:5} {len(deck.sets):3} sets {deck.card_count:4} cards  {deck.title}")


@decks_group.command("show", with_appcontext=False)
@click.argument("deck_id")
def decks_show(deck_id: str) -> None:
    """Every set and card of one deck (an id from the library, or a deck file)."""
    deck = _deck_or_exit(deck_id)
    click.echo(f"{deck.title} [{deck.id}] ({deck.language}) - {len(deck.sets)} sets, {deck.card_count} cards")
    if deck.description:
        click.echo(deck.description)
    for card_set in deck.sets:
        note = f" ({card_set.note})" if card_set.note else ""
        click.echo(f"\n{deck.set_label} {card_set.id}: {card_set.name}{note}")
        for card in card_set.cards:
            extra = f"  [also: {', '.join(card.aliases)}]" if card.aliases else ""
            card_note = f" ({card.note})" if card.note else ""
            click.echo(f"  {card.index}. {card.title}{card_note}  <{card.id}>{extra}")


@decks_group.command("validate", with_appcontext=False)
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
def decks_validate(files: tuple[str, ...]) -> None:
    """Check deck files: exit 0 when every one is valid, 1 with every problem otherwise."""
    failed = False
    for path in files:
        try:
            deck = load_deck_file(path)
        except DeckError as exc:
            failed = True
            for problem in exc.problems:
                click.echo(str(problem), err=True)
        else:
            click.echo(f"{path}: ok ({deck.id}: {len(deck.sets)} sets, {deck.card_count} cards)")
    sys.exit(1 if failed else 0)


def _library_or_exit() -> dict:
    try:
        return builtin_decks()
    except DeckError as exc:
        click.echo(str(exc), err=True)
        sys.exit(1)


def _deck_or_exit(ref: str):
    if ref.endswith((".yaml", ".yml")):
        try:
            return load_deck_file(ref)
        except DeckError as exc:
            click.echo(str(exc), err=True)
            sys.exit(1)
    decks = _library_or_exit()
    if ref not in decks:
        click.echo(f'There is no deck "{ref}". Known decks: {", ".join(sorted(decks))}', err=True)
        sys.exit(1)
    return decks[ref]


def _register_subcommands() -> None:
    # Each area keeps its own commands beside its code; they are gathered here.
    from .engine.cli import replay_command, simulate_command
    from .printing.cli import print_command
    from .teacher_cli import teacher_group

    cli.add_command(print_command)
    cli.add_command(teacher_group)
    cli.add_command(replay_command)
    cli.add_command(simulate_command)


_register_subcommands()


def main() -> None:
    cli(prog_name="authors")
