"""`authors replay` and `authors simulate`."""
from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, NoReturn

import click

if TYPE_CHECKING:
    from .game import ReplayState


# What a command needs is imported when it runs: `authors` imports this module for either command.
@click.command("replay")
@click.argument("record", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print the state after the last applied move as JSON.")
def replay_command(record: str, as_json: bool) -> None:
    """Replay a game record: exit 0 when every move applies, 1 at a refused move, 2 for an unusable record."""
    from .record import RecordError, load_record_file
    from .replay import replay

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


def _scores(state: ReplayState) -> str:
    return ", ".join(f"{name} {score}" for name, score in state["scores"].items())


@click.command("simulate")
@click.option("--rules", "rules", default="standard", show_default=True, help="A preset: standard, classic, go-fish, literature, quartett, familles, familias.")
@click.option("--deck", "deck_ref", default=None, help="A deck id or deck file (default: the preset's usual deck).")
@click.option("--players", type=int, default=4, show_default=True)
@click.option("--bots", default="random", show_default=True, help="One computer player for all seats, or one per seat: random,random,...")
@click.option("--games", type=int, default=100, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--options", "options_json", default=None, help='Option overrides as JSON, e.g. \'{"ask_by": "set"}\'.')
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def simulate_command(rules: str, deck_ref: str | None, players: int, bots: str, games: int, seed: int,
                     options_json: str | None, as_json: bool) -> None:
    """Play games between computer players and report speed and each seat's share of the wins."""
    from ..decks import DeckError, builtin_decks, load_deck_file
    from .bots import BOTS
    from .game import SetupError
    from .options import DEFAULT_DECKS, OptionsError
    from .simulate import play_games

    def fail(message: str) -> NoReturn:
        click.echo(f"authors simulate: {message}", err=True)
        sys.exit(2)

    try:
        overrides = json.loads(options_json) if options_json else {}
    except json.JSONDecodeError as exc:
        fail(f"--options is not valid JSON ({exc.msg})")
    if not isinstance(overrides, dict):
        fail('--options is a JSON object, like {"ask_by": "set"}')
    if games < 1:
        fail("--games must be at least 1")
    names = [b.strip() for b in bots.split(",")]
    unknown = [b for b in names if b not in BOTS]
    if unknown:
        fail(f'unknown computer player "{unknown[0]}"; choose from {", ".join(BOTS)}')
    deck_ref = deck_ref or DEFAULT_DECKS.get(rules, "standard-52")
    try:
        deck = load_deck_file(deck_ref) if deck_ref.endswith((".yaml", ".yml")) else builtin_decks().get(deck_ref)
    except DeckError as exc:
        fail(str(exc))
    if deck is None:
        fail(f'unknown deck "{deck_ref}"')
    timings: list[float] = []
    try:
        result = play_games(rules, deck, players, names, games, seed, overrides, timings=timings)
    except (OptionsError, SetupError, ValueError) as exc:
        fail(str(exc))
    ordered = sorted(timings)
    result["decision_ms"] = {"p50": round(_quantile(ordered, 0.5) * 1000, 4),
                             "p95": round(_quantile(ordered, 0.95) * 1000, 4)}
    result.update(rules=rules, deck=deck.id, players=players, bots=names if len(names) > 1 else names * players,
                  seed=seed)
    if as_json:
        click.echo(json.dumps(result))
        return
    click.echo(f"{games} games of {rules} with {deck.id}, {players} players: {result['moves']} moves in "
               f"{result['seconds']} s ({result['moves_per_second']:,} moves/s); decisions p50 "
               f"{result['decision_ms']['p50']} ms, p95 {result['decision_ms']['p95']} ms")
    click.echo(f"{'seat':>4}  {'player':10} {'win share':>9}  95% interval")
    for seat, (bot, share) in enumerate(zip(result["bots"], result["win_share"]), 1):
        margin = 1.96 * (share * (1 - share) / games) ** 0.5
        click.echo(f"{seat:>4}  {bot:10} {share:9.1%}  {max(0, share - margin):.1%} - {min(1, share + margin):.1%}")


def _quantile(ordered: list[float], q: float) -> float:
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]
