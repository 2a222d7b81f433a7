"""Game records (the format in shared/spec/game-record.md): read, write, and turn into a Game.

A record is to this project what PGN is to chess: the table, the deck, the rules, the deal and every
move. Reading is as careful as for decks: scalars as written, no aliases, bounded size and depth.
"""
from __future__ import annotations

import difflib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, overload

import yaml

from ..decks.dump import deck_to_dict
from ..decks.errors import DeckError
from ..decks.library import builtin_decks
from ..decks.loader import deck_from_node
from ..decks.model import Deck
from ..decks.yamlsafe import compose, decode
from .game import Game, SetupError
from .moves import MOVE_FIELDS, Move, move_from_dict
from .options import CLASSROOM_OPTIONS, PRESETS, OptionsError, make_options

FORMAT = "authors-record/1"
# record > deck > sets > set > cards > card > aliases, plus one level for a test case's "record:" wrapper.
RECORD_DEPTH = 8
RECORD_KEYS = ("format", "rules", "options", "deck", "players", "dealer", "teams", "hands", "stock", "seed",
               "moves")
MOVE_KINDS = tuple(MOVE_FIELDS)  # ask, answer, claim, pass_to, challenge, defend
NULL_TAG = "tag:yaml.org,2002:null"


class RecordError(ValueError):
    """An unusable record (exit status 2 of `authors replay`): the reason, and the line where known."""

    def __init__(self, message: str, line: int | None = None, source: str = "<record>"):
        self.message, self.line, self.source = message, line, source
        where = f"{source}:{line}: " if line else f"{source}: "
        super().__init__(where + message)


@dataclass
class Record:
    rules: str
    deck: Deck
    players: list[str]
    options: dict[str, Any] = field(default_factory=dict)
    dealer: str | None = None
    teams: list[list[str]] | None = None
    hands: dict[str, list[str]] | None = None
    stock: list[str] | None = None
    seed: int | None = None
    moves: list[Move] = field(default_factory=list)
    deck_inline: bool = False
    move_lines: list[int] = field(default_factory=list)

    def new_game(self) -> Game:
        """The game as dealt, before any move. Raises RecordError when the table cannot be played."""
        try:
            options = make_options(self.rules, self.options)
            return Game(self.deck, options, self.players, dealer=self.dealer, teams=self.teams,
                        hands=self.hands, stock=self.stock, seed=self.seed, rules=self.rules)
        except (OptionsError, SetupError) as exc:
            raise RecordError(str(exc)) from None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"format": FORMAT, "rules": self.rules}
        if self.options:
            out["options"] = dict(self.options)
        out["deck"] = deck_to_dict(self.deck) if self.deck_inline else self.deck.id
        out["players"] = list(self.players)
        if self.dealer is not None:
            out["dealer"] = self.dealer
        if self.teams is not None:
            out["teams"] = [list(t) for t in self.teams]
        if self.hands is not None:
            out["hands"] = {name: list(cards) for name, cards in self.hands.items()}
        if self.stock:
            out["stock"] = list(self.stock)
        if self.seed is not None and self.hands is None:
            out["seed"] = self.seed
        out["moves"] = [m.to_dict() for m in self.moves]
        return out

    def to_yaml(self) -> str:
        return yaml.safe_dump(self.to_dict(), allow_unicode=True, sort_keys=False, width=100)


def record_of(game: Game) -> Record:
    """Everything needed to play the game again: its table, its deal as it fell, and its moves."""
    builtin = builtin_decks().get(game.source_deck.id)
    return Record(
        rules=game.rules, deck=game.source_deck, players=list(game.players),
        options=game.chosen_options.rule_overrides(PRESETS[game.rules]) if game.rules in PRESETS else {
            k: v for k, v in game.chosen_options.to_dict().items() if k not in CLASSROOM_OPTIONS},
        dealer=game.players[game.dealer],
        teams=[list(t) for t in game.teams] if game.teams and game.teams != _alternate(game.players) else None,
        hands={name: list(cards) for name, cards in game.initial_hands.items()},
        stock=list(game.initial_stock) or None,
        moves=list(game.moves), deck_inline=builtin is None or builtin != game.source_deck)


def renamed_header(header: dict[str, Any], old: str, new: str) -> dict[str, Any]:
    """A record (or a record's header: the deal without its moves) with the player `old` called `new`."""
    def swap(name: str) -> str:
        return new if name == old else name

    header = dict(header)
    header["players"] = [swap(p) for p in header["players"]]
    if header.get("dealer") is not None:
        header["dealer"] = swap(header["dealer"])
    if header.get("teams"):
        header["teams"] = [[swap(p) for p in team] for team in header["teams"]]
    if header.get("hands"):
        header["hands"] = {swap(k): v for k, v in header["hands"].items()}
    if header.get("moves"):
        header["moves"] = [move_from_dict(m).renamed(old, new).to_dict() for m in header["moves"]]
    return header


def _alternate(players: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    return (tuple(players[0::2]), tuple(players[1::2]))


# ----------------------------------------------------------------------------------------------------
# Reading
# ----------------------------------------------------------------------------------------------------
def load_record_text(data: bytes | str, source: str = "<record>") -> Record:
    try:
        text = decode(data, source)
        node = compose(text, source, RECORD_DEPTH)
    except DeckError as exc:
        first = exc.problems[0]
        node = _json_as_yaml(text, source) if text.lstrip().startswith("{") else None
        if node is None:
            raise RecordError(first.message, first.line, source) from None
    return _RecordReader(source).read(node)


def _json_as_yaml(text: str, source: str) -> yaml.Node | None:
    """JSON is YAML, except where YAML forbids what JSON allows (tabs for indentation): read it as JSON."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"this is not valid JSON ({exc.msg})", exc.lineno, source) from None
    try:
        return compose(yaml.safe_dump(value, allow_unicode=True), source, RECORD_DEPTH)
    except DeckError as exc:
        raise RecordError(exc.problems[0].message, None, source) from None


def load_record_file(path: str) -> Record:
    try:
        with open(path, "rb") as handle:
            data = handle.read(2 * 1024 * 1024)
    except OSError as exc:
        raise RecordError(f"cannot read the file ({exc.strerror})", source=path) from None
    return load_record_text(data, source=path)


class _RecordReader:
    def __init__(self, source: str):
        self.source = source

    def fail(self, node: yaml.Node | None, message: str) -> RecordError:
        line = node.start_mark.line + 1 if node is not None else None
        return RecordError(message, line, self.source)

    def mapping(self, node: yaml.Node, what: str) -> dict[str, tuple[yaml.Node, yaml.Node]]:
        if not isinstance(node, yaml.MappingNode):
            raise self.fail(node, f"{what} should be a mapping of \"key: value\" lines")
        out: dict[str, tuple[yaml.Node, yaml.Node]] = {}
        for key, value in node.value:
            if not isinstance(key, yaml.ScalarNode):
                raise self.fail(key, f"{what}: a key must be a plain word")
            if key.value in out:
                raise self.fail(key, f'{what}: key "{key.value}" appears twice')
            out[key.value] = (key, value)
        return out

    @overload
    def text(self, node: yaml.Node, what: str, allow_null: Literal[False] = False) -> str: ...

    @overload
    def text(self, node: yaml.Node, what: str, allow_null: bool) -> str | None: ...

    def text(self, node: yaml.Node, what: str, allow_null: bool = False) -> str | None:
        if not isinstance(node, yaml.ScalarNode):
            raise self.fail(node, f"{what} should be text")
        if node.tag == NULL_TAG and node.style is None:
            if allow_null:
                return None
            raise self.fail(node, f"{what} is empty")
        value: str = node.value  # a scalar's value is its text
        return value

    def text_list(self, node: yaml.Node, what: str) -> list[str]:
        if isinstance(node, yaml.ScalarNode):  # a single card written without brackets
            return [self.text(node, what)]
        if not isinstance(node, yaml.SequenceNode):
            raise self.fail(node, f"{what} should be a list")
        return [self.text(item, what) for item in node.value]

    def read(self, node: yaml.Node | None) -> Record:
        if node is None:
            raise RecordError("the record is empty", None, self.source)
        top = self.mapping(node, "the record")
        if "record" in top and "format" not in top:  # a test case: {record: ..., expect: ...}
            node = top["record"][1]
            top = self.mapping(node, "the record")
        for key, (key_node, _) in top.items():
            if key not in RECORD_KEYS:
                guess = difflib.get_close_matches(key, RECORD_KEYS, n=1)
                hint = f' (did you mean "{guess[0]}"?)' if guess else ""
                raise self.fail(key_node, f'unknown key "{key}"{hint}')
        if "format" not in top:
            raise self.fail(node, f'the record has no "format"; it starts with "format: {FORMAT}"')
        fmt = self.text(top["format"][1], "format")
        if fmt != FORMAT:
            raise self.fail(top["format"][1], f'format is "{fmt}"; this program reads "{FORMAT}"')
        for required in ("rules", "deck", "players"):
            if required not in top:
                raise self.fail(node, f'the record has no "{required}"')

        rules_node = top["rules"][1]
        rules = self.text(rules_node, "rules")
        if rules not in PRESETS:
            raise self.fail(rules_node, f'unknown rules "{rules}"; choose one of {", ".join(PRESETS)}')

        options: dict[str, Any] = {}
        if "options" in top and not _is_null(top["options"][1]):
            for key, (_key_node, value_node) in self.mapping(top["options"][1], "options").items():
                options[key] = self.text(value_node, f'option "{key}"', allow_null=True)
        try:
            make_options(rules, options)
        except OptionsError as exc:
            raise self.fail(top["options"][1] if "options" in top else rules_node, str(exc)) from None

        deck_node = top["deck"][1]
        deck_inline = isinstance(deck_node, yaml.MappingNode)
        if deck_inline:
            try:
                deck = deck_from_node(deck_node, self.source)
            except DeckError as exc:
                first = exc.problems[0]
                raise RecordError(f"the inline deck: {first.message}", first.line, self.source) from None
        else:
            deck_id = self.text(deck_node, "deck")
            library = builtin_decks()
            if deck_id not in library:  # (the library reads a deck's file when it is first asked for)
                left_out = [problem for problem in library.problems if Path(problem.source).stem == deck_id]
                if left_out:
                    raise self.fail(deck_node, f"the deck library cannot be read: {left_out[0]}")
                raise self.fail(deck_node, f'unknown deck "{deck_id}"; known decks: {", ".join(sorted(library))}')
            deck = library[deck_id]

        players_node = top["players"][1]
        players = self.text_list(players_node, "players")
        if not players:
            raise self.fail(players_node, "the record names no players")
        repeated = sorted({p for p in players if players.count(p) > 1})
        if repeated:
            raise self.fail(players_node, f'player "{repeated[0]}" is named twice')

        record = Record(rules=rules, deck=deck, players=players, options=options, deck_inline=deck_inline)
        if "dealer" in top:
            record.dealer = self.text(top["dealer"][1], "dealer")
            if record.dealer not in players:
                raise self.fail(top["dealer"][1], f'the dealer "{record.dealer}" is not one of the players')
        if "teams" in top and not _is_null(top["teams"][1]):
            teams_node = top["teams"][1]
            if not isinstance(teams_node, yaml.SequenceNode):
                raise self.fail(teams_node, "teams should be a list of two lists of players")
            record.teams = [self.text_list(team, "a team") for team in teams_node.value]
        if "hands" in top:
            record.hands = {}
            for name, (key_node, cards_node) in self.mapping(top["hands"][1], "hands").items():
                if name not in players:
                    raise self.fail(key_node, f'the hands name "{name}", who is not at the table')
                record.hands[name] = self.text_list(cards_node, f"the hand of {name}")
        if "stock" in top and not _is_null(top["stock"][1]):
            if record.hands is None:
                raise self.fail(top["stock"][1], '"stock" goes with "hands": give the whole deal, or neither')
            record.stock = self.text_list(top["stock"][1], "the stock")
        if "seed" in top:
            seed_text = self.text(top["seed"][1], "seed")
            if not (seed_text.isascii() and seed_text.lstrip("-").isdigit()):  # "²".isdigit() is true
                raise self.fail(top["seed"][1], f'the seed is a whole number, not "{seed_text}"')
            record.seed = int(seed_text)
        if "moves" in top and not _is_null(top["moves"][1]):
            moves_node = top["moves"][1]
            if not isinstance(moves_node, yaml.SequenceNode):
                raise self.fail(moves_node, "moves should be a list, one move per line starting with \"- \"")
            for number, move_node in enumerate(moves_node.value, 1):
                record.moves.append(self.move(move_node, number))
                record.move_lines.append(move_node.start_mark.line + 1)
        try:
            record.new_game()
        except RecordError as exc:
            raise RecordError(exc.message, None, self.source) from None
        return record

    def move(self, node: yaml.Node, number: int) -> Move:
        what = f"move {number}"
        fields = self.mapping(node, what)
        kinds = [k for k in MOVE_KINDS if k in fields]
        if "player" not in fields:
            raise self.fail(node, f'{what} has no "player"')
        if len(kinds) != 1:
            raise self.fail(node, f"{what} needs exactly one of {', '.join(MOVE_KINDS)}")
        allowed = MOVE_FIELDS[kinds[0]]
        for key, (key_node, _) in fields.items():
            if key not in allowed:
                raise self.fail(key_node, f'{what}: unknown key "{key}" for this kind of move')
        data: dict[str, Any] = {"player": self.text(fields["player"][1], f"{what}: player")}
        kind = kinds[0]
        for key in allowed[1:]:
            if key == "holders":
                continue
            if key == "names" and key in fields:  # a defence: the works named, one text each
                names = fields[key][1]
                data[key] = [] if _is_null(names) else self.text_list(names, f"{what}: names")
                continue
            if key in fields:
                data[key] = self.text(fields[key][1], f"{what}: {key}",
                                      allow_null=key in ("named", "answer", "challenge"))
        if kind == "claim":
            if "holders" not in fields:
                raise self.fail(node, f'{what}: a claim names the "holders" of the set\'s cards')
            data["holders"] = {name: self.text_list(cards, f"{what}: holders of {name}")
                               for name, (_, cards) in self.mapping(fields["holders"][1], f"{what}: holders").items()}
        return move_from_dict(data)


def _is_null(node: yaml.Node) -> bool:
    return isinstance(node, yaml.ScalarNode) and node.tag == NULL_TAG and node.style is None
