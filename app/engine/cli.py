"""`authors replay` and `authors simulate`."""
from __future__ import annotations

import json
import sys

import click

from .record import RecordError, load_record_file
from .replay import replay


@click.command("replay")
@click.argument("record", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print the state after the last applied move as JSON.")
def replay_command(record: str, as_json: bool) -> None:
    """Replay a game record: exit 0 when every move applies, 1 at a refused move, 2 for an unusable record."""
    try:
        loaded = load_record_file(record)
        result = replay(loaded)
    except RecordError as exc:
        click.echo(str(exc), err=True)
        sys.exit(2)
    if as_json:
        click.echo(json.dumps(result.to_json(), ensure_ascii=False, indent=2))
    else:
        for line in result.story:
            click.echo(line)
        state = result.game.replay_state()
        if state["finished"]:
            click.echo(f"The hand is over. Scores: {_scores(state)}. Winners: {', '.join(state['winners'])}.")
        else:
            click.echo(f"After {result.applied} moves: {_scores(state)}; next: {state['turn']}.")
    sys.exit(result.exit_status)


def _scores(state: dict) -> str:
    return ", ".join(f"{name} {score}" for name, score in state["scores"].items())
