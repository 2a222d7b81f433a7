"""`authors print`: card sheets of a deck, the duplex alignment page, a rules sheet, a score pad.

Every error is one line on stderr and exit status 1, usage mistakes included. What a mode needs
(reportlab, YAML and the deck loader, the rules pages) is imported when it runs, not with the command:
`authors print --help`, or a mistake in the options, costs no more than reading the options.
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..decks.errors import DeckError
from ..decks.slug import DECK_ID
from . import geometry
from .errors import N_, PrintError
from ..rules import LANGUAGES, PRESETS

if TYPE_CHECKING:
    from ..decks.model import Deck


class _OneLineErrors(click.Command):
    """Usage mistakes (a bad --paper, a missing value) exit 1 with one line, like every other error."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except click.UsageError as exc:
            _fail(exc.format_message())


def _fail(message: str) -> None:
    click.echo(f"authors print: {message}", err=True)
    sys.exit(1)


@click.command("print", cls=_OneLineErrors)
@click.argument("deck", required=False)
@click.option("-o", "--output", metavar="FILE", help="Where to write the PDF ('-' for standard output).")
@click.option("--paper", type=click.Choice(list(geometry.PAPERS)),
              help="Paper; the default follows the deck's language (or --lang): US Letter for en, en-US, en-CA, es-MX "
                   "and the other Letter regions, A4 for every other language.")
@click.option("--card", type=click.Choice(list(geometry.CARDS)), help="Card size (default poker).")
@click.option("--bleed", is_flag=True, help="3 mm of background past each cut line.")
@click.option("--index", "card_index", is_flag=True,
              help="Print each card's quartet index (A1, B2 ...: its set's letter and its place) instead of 2/4.")
@click.option("--backs", is_flag=True, help="A sheet of backs after each sheet of fronts.")
@click.option("--duplex", type=click.Choice(geometry.DUPLEX),
              help="Which edge the printer turns the sheet over (default long); implies --backs.")
@click.option("--back-offset-x", type=float, metavar="MM",
              help="Move the backs right (mm, as seen on the back; see --alignment); implies --backs.")
@click.option("--back-offset-y", type=float, metavar="MM", help="Move the backs up (mm, as seen on the back).")
@click.option("--alignment", is_flag=True, help="Print the duplex alignment test page instead of a deck.")
@click.option("--rules", type=click.Choice(PRESETS), metavar="PRESET",
              help=f"Print the rules sheet of a preset ({', '.join(PRESETS)}).")
@click.option("--lang", type=click.Choice(list(LANGUAGES)),
              help=f"The language of a rules sheet, a score pad or the alignment page ({', '.join(LANGUAGES)}; "
                   "default en). A deck's cards print in the deck's own language.")
@click.option("--scorepad", is_flag=True, help="Print a score pad.")
@click.option("--players", type=int, help="Score pad: number of players (default 4).")
@click.option("--hands", type=int, help="Score pad: number of hands (default 5).")
def print_command(deck: str | None, output: str | None, paper: str | None, card: str | None, bleed: bool,
                  card_index: bool, backs: bool, duplex: str | None, back_offset_x: float | None,
                  back_offset_y: float | None, alignment: bool, rules: str | None, lang: str | None,
                  scorepad: bool, players: int | None, hands: int | None) -> None:
    """Make a PDF ready to print: the cards of DECK (a deck id or a deck file), or the duplex
    alignment page, a rules sheet or a score pad."""
    modes = [name for name, on in (("DECK", deck), ("--alignment", alignment), ("--rules", rules),
                                   ("--scorepad", scorepad)) if on]
    if len(modes) != 1:
        _fail("give a deck id or deck file, or one of --alignment, --rules PRESET, --scorepad"
              if not modes else f"{' and '.join(modes)} cannot be printed together; choose one")
    mode = modes[0]
    offset_given = back_offset_x is not None or back_offset_y is not None
    allowed = {
        "DECK": {"card", "bleed", "index", "backs", "duplex", "offset"},
        "--alignment": {"duplex", "offset", "lang"},
        "--rules": {"lang"},
        "--scorepad": {"players", "hands", "lang"},
    }[mode]
    given = {"card": card is not None, "bleed": bleed, "index": card_index, "backs": backs,
             "duplex": duplex is not None, "offset": offset_given, "players": players is not None,
             "hands": hands is not None, "lang": lang is not None}
    stray = [name for name, on in given.items() if on and name not in allowed]
    if stray:
        shown = ["--back-offset-x/-y" if name == "offset" else f"--{name}" for name in stray]
        _fail(f"{', '.join(shown)} cannot be used with {mode}")

    in_language = "" if lang in (None, "en") else f"-{lang}"  # the English files keep their names
    lang = lang or "en"
    try:
        from .sheets import PrintOptions

        if mode == "DECK":
            found = _load_deck(deck)
            paper = paper or geometry.default_paper(found.language)
            options = PrintOptions(paper=paper, card=card or "poker", bleed=bleed, index=card_index,
                                   backs=backs or duplex is not None or offset_given,
                                   duplex=duplex or "long", back_offset=(back_offset_x or 0.0, back_offset_y or 0.0))
            data, what, default_name = _deck_pdf(found, options), f"{found.card_count} cards", f"{found.id}-{paper}.pdf"
        elif mode == "--alignment":
            from .alignment import render_alignment

            paper = paper or geometry.default_paper(lang)
            options = PrintOptions(paper=paper, duplex=duplex or "long",
                                   back_offset=(back_offset_x or 0.0, back_offset_y or 0.0))
            data, what = render_alignment(options, lang), "alignment test"
            default_name = f"alignment{in_language}-{paper}.pdf"
        elif mode == "--rules":
            from .rules_sheet import render_rules

            paper = paper or geometry.default_paper(lang)
            data = render_rules(rules, paper, lang)
            what, default_name = f"{rules} rules ({LANGUAGES[lang]})", f"rules-{rules}-{lang}-{paper}.pdf"
        else:
            from .scorepad import render_scorepad

            paper = paper or geometry.default_paper(lang)
            players, hands = 4 if players is None else players, 5 if hands is None else hands
            data = render_scorepad(players, hands, paper, lang)
            what, default_name = f"score pad, {players} players x {hands} hands", f"scorepad{in_language}-{paper}.pdf"
    except (PrintError, geometry.LayoutError) as exc:
        _fail(str(exc))
    except DeckError as exc:
        for problem in exc.problems:
            click.echo(str(problem), err=True)
        sys.exit(1)

    target = output or default_name
    if target == "-":
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return
    try:
        Path(target).write_bytes(data)
    except OSError as exc:
        _fail(f"cannot write {target}: {exc.strerror or exc}")
    click.echo(f"{target}: {what}, {paper}, {len(data) // 1024 + 1} KB")


def _load_deck(ref: str) -> Deck:
    """A deck file by path, or a built-in deck by id (reading only its own file: quick)."""
    from ..decks.library import decks_dir
    from ..decks.loader import load_deck_file

    path = Path(ref)
    if ref.endswith((".yaml", ".yml")) or path.is_file():
        if not path.is_file():
            raise PrintError(N_("there is no deck file %(path)s"), path=ref)
        return load_deck_file(path)
    directory = decks_dir()
    builtin = directory / f"{ref}.yaml"
    if DECK_ID.fullmatch(ref) and builtin.is_file():
        found = load_deck_file(builtin)
        if found.id == ref:
            return found
    known = sorted(p.stem for p in directory.glob("*.yaml"))
    raise PrintError(N_('there is no deck "%(ref)s"; built-in decks: %(decks)s'), ref=ref,
                     decks=", ".join(known) or "none")


def _deck_pdf(deck: Deck, options) -> bytes:
    from .sheets import render_deck

    layout = options.layout()
    if options.bleed:
        plain = geometry.grid_layout(layout.paper, layout.card)
        if layout.per_sheet < plain.per_sheet:
            click.echo(f"note: with --bleed, {layout.per_sheet} {options.card} cards fit on a sheet of "
                       f"{options.paper} ({plain.per_sheet} without)", err=True)
    return render_deck(deck, options)
