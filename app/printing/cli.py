"""`authors print`: placeholder until the printing module lands (issue #5)."""
import sys

import click


@click.command("print")
def print_command() -> None:
    """Print a deck as PDF card sheets (not built yet: issue #5)."""
    click.echo("authors print is not built yet (issue #5)", err=True)
    sys.exit(1)
