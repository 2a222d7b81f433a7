"""The `authors` command: every command-line task of the project lives here as a subcommand.

A subcommand's module is imported only when that subcommand runs (and `authors --help` imports none):
`authors print`, `authors decks` and `authors replay` never import Flask, the database or the engine
they do not use, so they start in a fraction of the time (bench/cli_startup.py measures it). The
commands that need the app (`db`, `teacher`) get it from Flask's ScriptInfo, as under `flask`.
"""
from __future__ import annotations

import os
import sys

import click

from . import create_app

# name: (module, attribute, the one line `authors --help` shows; tests/test_cli_startup.py checks that
# it is the command's own), whether the command works inside the app (Flask's with_appcontext)
LAZY_COMMANDS: dict[str, tuple[str, str, str, bool]] = {
    "db": ("flask_migrate.cli", "db", "Perform database migrations.", True),
    "print": ("app.printing.cli", "print_command",
              "Make a PDF ready to print: the cards of DECK (a deck id or a deck file), or the duplex alignment "
              "page, a rules sheet or a score pad.", False),
    "replay": ("app.engine.cli", "replay_command",
               "Replay a game record: exit 0 when every move applies, 1 at a refused move, 2 for an unusable "
               "record.", False),
    "simulate": ("app.engine.cli", "simulate_command",
                 "Play games between computer players and report speed and each seat's share of the wins.", False),
    "teacher": ("app.teacher_cli", "teacher_group", "Teacher accounts: students never need one.", True),
}


class LazyGroup(click.Group):
    """A group whose subcommands in LAZY_COMMANDS are imported when they are run, not before."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *LAZY_COMMANDS})

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in LAZY_COMMANDS:
            return super().get_command(ctx, name)
        module, attribute, _, needs_app = LAZY_COMMANDS[name]
        if needs_app:
            from flask.cli import ScriptInfo

            root = ctx.find_root()
            if not isinstance(root.obj, ScriptInfo):
                root.obj = ScriptInfo(create_app=create_app)
            if ctx.obj is None:
                ctx.obj = root.obj
        from importlib import import_module

        return getattr(import_module(module), attribute)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The list of `authors --help`, from LAZY_COMMANDS' lines: nothing is imported to show it."""
        names = self.list_commands(ctx)
        limit = formatter.width - 6 - max(len(name) for name in names)
        rows = []
        for name in names:
            if name in LAZY_COMMANDS:
                help_text = click.Command(name, help=LAZY_COMMANDS[name][2]).get_short_help_str(limit)
            else:
                help_text = self.commands[name].get_short_help_str(limit)
            rows.append((name, help_text))
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=LazyGroup, help="Authors Classroom: decks, rules, play, printing.")
@click.version_option(package_name="authors-classroom", prog_name="authors", message="%(prog)s %(version)s")
def cli() -> None:
    pass


# The commands below build no app (no instance folder, database or secret key) unless they say so.
@cli.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=5000, show_default=True, type=int)
@click.option("--prod", is_flag=True, help="Serve with granian for a school or district (needs SECRET_KEY).")
@click.option("--workers", type=int, default=None, help="Worker processes (default: 1 per CPU core).")
# On 2 cores, 2 workers x 2 threads cost 0.85-0.99x the CPU a move of 4x2 and served more moves at the
# machine's limit: a worker kept busier keeps its caches warm (bench/compare.py --layouts, README)
@click.option("--threads", type=int, default=2, show_default=True, help="Threads per worker that run the app.")
@click.option("--class", "classroom", is_flag=True,
              help="Serve the class from this computer (make run): granian on every network interface, the "
                   "address phones open printed with its QR code, laptop defaults.")
def serve(host: str, port: int, prod: bool, workers: int | None, threads: int, classroom: bool) -> None:
    """Serve the app: the class from a laptop (--class), granian for a school (--prod), or the
    development server."""
    report_left_out_decks()
    if classroom:
        _serve_classroom(host if host != "127.0.0.1" else "0.0.0.0", port, workers or 2, threads)
        return
    if prod:
        _serve_production(host, port, workers or (os.cpu_count() or 1), threads)
        return
    from werkzeug.serving import run_simple

    from . import create_served_app

    app = create_served_app()  # (with the game's clock, as a worker of granian runs it)
    click.echo(f"Authors Classroom on http://{host}:{port}/")
    # run_simple: the development server, threaded, without Flask's reloader
    run_simple(host, port, app, threaded=True, use_reloader=False)


def _serve_production(host: str, port: int, workers: int, threads: int) -> None:
    """granian with threaded workers: table state lives in the database, so any worker serves any table."""
    from .config import ConfigError, check_secret_key, configured_secret

    try:
        check_secret_key(configured_secret())  # (made now, once, when SECRET_KEY_FILE names a new file)
    except ConfigError as exc:
        click.echo(f"authors serve --prod: {exc}", err=True)
        sys.exit(1)
    os.environ["AUTHORS_ENV"] = "production"
    create_app()  # the schema migrated once, here, before the workers start (each builds its own app)
    click.echo(f"Authors Classroom (production) on http://{host}:{port}/ with {workers} workers x {threads} threads")
    _exec_server(host, port, workers, threads, access_log=True)


def _serve_classroom(host: str, port: int, workers: int, threads: int) -> None:
    """The class from a teacher's laptop: granian on the network, with the laptop's defaults (a secret key
    made once in instance/, cookies over plain HTTP, sign-up only for the first teacher), and the address
    phones open, with its QR code, where the teacher can read it."""
    from .config import public_url
    from .lan import lan_addresses

    os.environ.setdefault("ALLOW_SIGNUP", "first")
    configured = public_url(os.environ.get("PUBLIC_URL"), os.environ.get("SERVER_NAME"))
    addresses = lan_addresses() if host in ("0.0.0.0", "::") else [host]
    address = configured or (f"http://{addresses[0]}:{port}" if addresses else f"http://127.0.0.1:{port}")
    os.environ["PUBLIC_URL"] = address
    create_app()  # the instance folder, the database and the secret key, made once before the workers start
    click.echo(class_banner(address, bool(configured or addresses)))
    _exec_server(host, port, workers, threads, access_log=False)


def class_banner(address: str, reachable: bool) -> str:
    """What `make run` prints: the address to open on the phones, with a QR code of it."""
    from .services.qr import qr_terminal

    if not reachable:
        return (f"Authors Classroom on {address}\n"
                "No network found: only this computer can open that address. Connect to the school's network\n"
                "(Wi-Fi) and run `make run` again, so that phones can join.")
    return (f"Authors Classroom: students open {address} on their phones (or scan the code),\n"
            f"the teacher opens {address}/login on this computer.\n{qr_terminal(address)}"
            "Stop with Ctrl+C.")


# The access log line: the client, the time, the request, its status and how long it took (granian's atoms).
ACCESS_LOG_FORMAT = '%(addr)s - - [%(time)s] "%(method)s %(path)s %(protocol)s" %(status)d %(dt_ms).1fms'


def _exec_server(host: str, port: int, workers: int, threads: int, access_log: bool) -> None:
    """granian, an HTTP server written in Rust: connections are read and written outside Python (a slow
    phone holds no app thread), and each worker's threads run only the app (bench/load.py, README)."""
    import shutil
    import socket

    from .serving import THREADS

    granian = shutil.which("granian", path=os.path.dirname(sys.executable)) or shutil.which("granian")
    if granian is None:
        click.echo("authors serve: granian is not installed (pip install granian)", err=True)
        sys.exit(1)
    try:  # a sentence, not the server's own panic, when another program (or a second make run) has the port
        with socket.create_server((host, port)):
            pass
    except OSError as exc:
        click.echo(f"authors serve: cannot listen on {host}:{port} ({exc.strerror}): is the class already being "
                   "served? Stop the other server, or choose another port with --port.", err=True)
        sys.exit(1)
    # ASGI, so that a request's body is read whole on the worker's event loop before an app thread takes it
    # (app/serving.py); the app's threads are a2wsgi's, `threads` of them.
    args = [granian, "--interface", "asgi", "--host", host, "--port", str(port), "--workers", str(workers),
            "--http", "1", "--no-ws", "--factory", "--loop", _event_loop(),
            # a worker that dies is started again; on SIGTERM a busy one gets 10 s to finish
            "--respawn-failed-workers", "--workers-kill-timeout", "10",
            *(["--access-log", "--access-log-fmt", ACCESS_LOG_FORMAT] if access_log else []),
            "app.serving:create_served_asgi"]
    os.execve(granian, args, {**server_environment(os.environ), THREADS: str(threads)})


def _event_loop() -> str:
    """uvloop where it is installed (not on Windows): each worker's event loop sends the streams' events
    and hands requests to the app's threads, and uvloop does that for less CPU (bench/README.md)."""
    import importlib.util

    return "uvloop" if importlib.util.find_spec("uvloop") is not None else "asyncio"


def server_environment(environment) -> dict[str, str]:
    """The server's environment: granian starts every request's WSGI environ from it, so a variable named
    like a request header (HTTP_PROXY, HTTP_X_FORWARDED_FOR ...) would read as one sent by every browser.
    The app reads none of them."""
    return {name: value for name, value in environment.items() if not name.startswith("HTTP_")}


@cli.group("decks")
def decks_group() -> None:
    """List, show and check decks."""


@decks_group.command("list")
def decks_list() -> None:
    """The built-in deck library (exit status 1 when a file of its folder is left out: said on stderr)."""
    from .decks import builtin_decks

    left_out = report_left_out_decks()
    for deck in sorted(builtin_decks().values(), key=lambda d: d.id):
        click.echo(f"{deck.id:24} {deck.language:5} {len(deck.sets):3} sets {deck.card_count:4} cards  {deck.title}")
    sys.exit(1 if left_out else 0)


@decks_group.command("show")
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


@decks_group.command("validate")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
def decks_validate(files: tuple[str, ...]) -> None:
    """Check deck files: exit 0 when every one is valid, 1 with every problem otherwise."""
    from .decks import DeckError, load_deck_file

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


def report_left_out_decks() -> bool:
    """Say (on stderr) which files of the deck folder are left out of the library, and why: once, as the
    server starts (a teacher's broken deck never stops it). True when there were any."""
    from .decks import builtin_decks

    library = builtin_decks()
    problems = library.problems
    if problems:
        click.echo(f"Left out of the deck library until mended (in {library.directory}):", err=True)
        for problem in problems:
            click.echo(f"  {problem}", err=True)
    return bool(problems)


def _deck_or_exit(ref: str):
    """A deck file, or a built-in deck by id (reading its own file only)."""
    from .decks import DeckError, builtin_decks, load_deck_file

    try:
        if ref.endswith((".yaml", ".yml")):
            return load_deck_file(ref)
        found = builtin_decks().get(ref)
        if found is None:
            click.echo(f'There is no deck "{ref}". Known decks: {", ".join(sorted(builtin_decks()))}', err=True)
            sys.exit(1)
        return found
    except DeckError as exc:
        click.echo(str(exc), err=True)
        sys.exit(1)


def main() -> None:
    cli(prog_name="authors")
