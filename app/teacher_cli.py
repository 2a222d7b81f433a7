"""`authors teacher ...`: teacher accounts from the command line (the first account of a server)."""
from __future__ import annotations

import sys

import click
from flask.cli import with_appcontext


@click.group("teacher")
def teacher_group() -> None:
    """Teacher accounts: students never need one."""


@teacher_group.command("create")
@click.argument("name")
@click.option("--password-stdin", is_flag=True, help="Read the password from the first line of standard input.")
@with_appcontext
def teacher_create(name: str, password_stdin: bool) -> None:
    """Make a teacher's account NAME (asks for the password twice, or reads it with --password-stdin)."""
    from .services import accounts
    from .services.errors import ServiceError

    if password_stdin:
        password = sys.stdin.readline().rstrip("\r\n")
    else:
        password = click.prompt("Password", hide_input=True, confirmation_prompt=True)
    try:
        teacher = accounts.create_teacher(name, password)
    except ServiceError as exc:
        click.echo(f"authors teacher create: {exc.message}", err=True)
        sys.exit(1)
    click.echo(f'Teacher "{teacher.name}" can now log in.')
