"""Turn deck YAML into a Deck, or refuse it with every problem at once.

Each problem carries file:line:col and a sentence a teacher can act on. Scalars are read exactly as
written (`title: 1984` is the text "1984"), never through YAML's type guessing.
"""
from __future__ import annotations

import difflib
import re
from pathlib import Path, PurePosixPath

import yaml

from .errors import DeckError, Problem
from .model import Card, CardSet, Deck
from .slug import DECK_ID, ITEM_ID, slugify
from .yamlsafe import compose, decode

FORMAT = "authors-deck/1"
# deck > sets > set > cards > card > aliases: six levels are all the format ever needs.
DECK_DEPTH = 6
MIN_SETS, MAX_SETS = 2, 60
MIN_CARDS, MAX_CARDS = 2, 8

DECK_KEYS = ("format", "id", "title", "language", "description", "set_label", "card_label", "sets")
SET_KEYS = ("id", "name", "note", "color", "image", "cards")
CARD_KEYS = ("title", "id", "aliases", "note", "image")

LANGUAGE_TAG = re.compile(r"[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*")
COLOR = re.compile(r"#[0-9a-fA-F]{6}")
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg")
ID_RULE = 'may use only letters a-z, digits and "-" (at most 64 characters)'


def load_deck_file(path: str | Path) -> Deck:
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise DeckError([Problem(str(path), 1, 1, f"cannot read the file ({exc.strerror})")]) from None
    return load_deck_text(data, source=str(path), base_dir=path.parent)


def load_deck_text(data: bytes | str, source: str = "<deck>", base_dir: Path | None = None) -> Deck:
    text = decode(data, source)
    node = compose(text, source, DECK_DEPTH)
    return deck_from_node(node, source, base_dir)


def deck_from_node(node: yaml.Node | None, source: str, base_dir: Path | None = None) -> Deck:
    """Validate a composed YAML node as a deck (also used for decks written inline in a record)."""
    return _DeckReader(source, base_dir).read(node)


class _DeckReader:
    def __init__(self, source: str, base_dir: Path | None):
        self.source = source
        self.base_dir = base_dir
        self.problems: list[Problem] = []

    # -- helpers ---------------------------------------------------------------------------
    def problem(self, node: yaml.Node, message: str) -> None:
        mark = node.start_mark
        self.problems.append(Problem(self.source, mark.line + 1, mark.column + 1, message))

    def fields(self, node: yaml.Node, allowed: tuple[str, ...], where: str) -> "_Fields | None":
        """The keys of a mapping node; unknown and repeated keys are problems."""
        if not isinstance(node, yaml.MappingNode):
            self.problem(node, f'{where} should be written as "key: value" lines, but it is {_shape(node)}')
            return None
        found = _Fields()
        first_line: dict[str, int] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                self.problem(key_node, f"{where}: a key must be a plain word, not {_shape(key_node)}")
                continue
            key = key_node.value
            if key in found:
                self.problem(key_node, f'{where}: key "{key}" appears twice (first at line {first_line[key]})')
                continue
            if key not in allowed:
                guess = difflib.get_close_matches(key, allowed, n=1, cutoff=0.6)
                hint = f' (did you mean "{guess[0]}"?)' if guess else f" (allowed here: {', '.join(allowed)})"
                self.problem(key_node, f'unknown key "{key}"{hint}')
                if guess:
                    found.guessed.add(guess[0])
                continue
            found[key] = value_node
            found.key_nodes[key] = key_node
            first_line[key] = key_node.start_mark.line + 1
        return found

    def text(self, fields: dict[str, yaml.Node], key: str, where: str) -> str | None:
        """A text value exactly as written; None when absent, empty or not text (reported)."""
        node = fields.get(key)
        if node is None:
            return None
        if not isinstance(node, yaml.ScalarNode):
            self.problem(node, f'{where}: "{key}" should be text, but it is {_shape(node)}')
            return None
        value = node.value.strip()
        return value or None

    @staticmethod
    def missing(fields: "_Fields", key: str) -> bool:
        """True when a required key is absent or empty, and no other problem already explains why
        (a value of the wrong shape, or a misspelt key that was taken for it)."""
        node = fields.get(key)
        if node is None:
            return key not in fields.guessed
        return isinstance(node, yaml.ScalarNode) and not node.value.strip()

    # -- the deck --------------------------------------------------------------------------
    def read(self, node: yaml.Node | None) -> Deck:
        if node is None:
            raise DeckError([Problem(self.source, 1, 1, "the file is empty; a deck starts with "
                                                        f'"format: {FORMAT}"')])
        fields = self.fields(node, DECK_KEYS, "the deck")
        if fields is None:
            raise DeckError(self.problems)

        fmt = self.text(fields, "format", "the deck")
        if "format" not in fields:
            if "format" not in fields.guessed:
                self.problem(node, f'the deck has no "format"; add the line "format: {FORMAT}"')
        elif fmt != FORMAT and isinstance(fields["format"], yaml.ScalarNode):
            self.problem(fields["format"], f'format is "{fmt or ""}"; this program reads "{FORMAT}"')

        deck_id = self.text(fields, "id", "the deck")
        if deck_id is None:
            if self.missing(fields, "id"):
                self.problem(fields.get("id", node), 'the deck has no id; add a line like "id: my-deck"')
        elif not DECK_ID.fullmatch(deck_id):
            self.problem(fields["id"], f'deck id "{deck_id}" must be 2 to 64 characters: '
                                       'lowercase letters a-z, digits and "-"')

        title = self.text(fields, "title", "the deck")
        if title is None:
            if self.missing(fields, "title"):
                self.problem(fields.get("title", node),
                             'the deck has no title; add a line like "title: My deck"')

        language = self.text(fields, "language", "the deck") or "en"
        if not LANGUAGE_TAG.fullmatch(language):
            self.problem(fields["language"], f'language "{language}" is not a language tag '
                                             'like "en", "fr" or "pt-BR"')

        description = self.text(fields, "description", "the deck")
        set_label = self.text(fields, "set_label", "the deck") or "Set"
        card_label = self.text(fields, "card_label", "the deck") or "Card"
        sets = self.read_sets(fields.get("sets"), node, "sets" in fields.guessed)

        if self.problems:
            raise DeckError(self.problems)
        return Deck(id=deck_id, title=title, sets=tuple(sets), language=language,
                    description=description, set_label=set_label, card_label=card_label,
                    source=self.source)

    def read_sets(self, node: yaml.Node | None, deck_node: yaml.Node, guessed: bool = False) -> list[CardSet]:
        if node is None:
            if not guessed:
                self.problem(deck_node, 'the deck has no "sets"; list its sets under "sets:"')
            return []
        if not isinstance(node, yaml.SequenceNode):
            self.problem(node, f'"sets" should be a list (each set starting with "- "), '
                               f"but it is {_shape(node)}")
            return []
        if not MIN_SETS <= len(node.value) <= MAX_SETS:
            self.problem(node, f"a deck needs {MIN_SETS} to {MAX_SETS} sets; this one has {len(node.value)}")
        seen = _Seen()
        sets = [self.read_set(set_node, number, seen) for number, set_node in enumerate(node.value, 1)]
        return [card_set for card_set in sets if card_set is not None]

    def read_set(self, node: yaml.Node, number: int, seen: "_Seen") -> CardSet | None:
        fields = self.fields(node, SET_KEYS, f"set {number}")
        if fields is None:
            return None
        set_id = self.text(fields, "id", f"set {number}")
        if set_id is None:
            if self.missing(fields, "id"):
                self.problem(fields.get("id", node), f"set {number} has no id")
            where = f"set {number}"
        else:
            where = f'set "{set_id}"'
            if not ITEM_ID.fullmatch(set_id):
                self.problem(fields["id"], f'set id "{set_id}" {ID_RULE}')
            elif first := seen.add("set id", set_id, fields.key_nodes["id"]):
                self.problem(fields.key_nodes["id"],
                             f'set id "{set_id}" is used twice (first at line {first})')

        name = self.text(fields, "name", where)
        if name is None:
            if self.missing(fields, "name"):
                self.problem(fields.get("name", node), f"{where} has no name")
        elif first := seen.add("set name", name, fields.key_nodes["name"]):
            self.problem(fields.key_nodes["name"], f'set name "{name}" is used twice (first at line {first})')

        note = self.text(fields, "note", where)
        color = self.text(fields, "color", where)
        if color is None and "color" in fields and self.missing(fields, "color"):
            # `color: #7a2e2e` without quotes: YAML reads everything from "#" on as a comment.
            self.problem(fields["color"], f'{where}: color is empty; write it in quotes, like '
                                          'color: "#7a2e2e" (without quotes, "#" starts a comment)')
        elif color is not None and not COLOR.fullmatch(color):
            self.problem(fields["color"], f'{where}: color "{color}" should be written "#rrggbb", '
                                          'like "#7a2e2e" (put it in quotes)')
        image = self.image(fields, where)

        cards: list[Card] = []
        cards_node = fields.get("cards")
        if cards_node is None:
            if "cards" not in fields.guessed:
                self.problem(node, f'{where} has no cards; list them under "cards:"')
        elif not isinstance(cards_node, yaml.SequenceNode):
            self.problem(cards_node, f'{where}: "cards" should be a list (each card starting with "- "), '
                                     f"but it is {_shape(cards_node)}")
        else:
            if not MIN_CARDS <= len(cards_node.value) <= MAX_CARDS:
                self.problem(cards_node, f"{where} has {len(cards_node.value)} cards; "
                                         f"a set needs {MIN_CARDS} to {MAX_CARDS}")
            for index, card_node in enumerate(cards_node.value, 1):
                card = self.read_card(card_node, index, where, set_id or "", seen)
                if card is not None:
                    cards.append(card)
        if set_id is None or name is None:
            return None
        return CardSet(id=set_id, name=name, cards=tuple(cards), note=note, color=color, image=image)

    def read_card(self, node: yaml.Node, index: int, set_where: str, set_id: str,
                  seen: "_Seen") -> Card | None:
        fields = self.fields(node, CARD_KEYS, f"{set_where}: card {index}")
        if fields is None:
            return None
        title = self.text(fields, "title", f"{set_where}: card {index}")
        title_repeated = False
        if title is None:
            if self.missing(fields, "title"):
                self.problem(fields.get("title", node), f"{set_where}: card {index} has no title")
            where = f"{set_where}: card {index}"
        else:
            where = f'{set_where}: card "{title}"'
            if first := seen.add("title", title, fields.key_nodes["title"]):
                self.problem(fields.key_nodes["title"],
                             f'card title "{title}" is used twice (first at line {first})')
                title_repeated = True

        card_id = self.text(fields, "id", where)
        if card_id is not None:
            id_node = fields.key_nodes["id"]
            if not ITEM_ID.fullmatch(card_id):
                self.problem(fields["id"], f'{where}: card id "{card_id}" {ID_RULE}')
                card_id = None
            elif first := seen.add("card id", card_id, id_node):
                self.problem(id_node, f'card id "{card_id}" is used twice (first at line {first})')
        elif title is not None:
            id_node = fields.key_nodes["title"]
            card_id = slugify(title)[:64].strip("-")
            if not card_id:
                self.problem(id_node, f'{where} needs an id: its title has no letters a-z or digits to make '
                                   'one from (add a line like "id: my-card")')
                card_id = None
            elif (first := seen.add("card id", card_id, id_node)) and not title_repeated:
                self.problem(id_node, f'card id "{card_id}" (made from the title) is used twice '
                                      f'(first at line {first}); give one of these cards its own "id"')

        aliases = self.aliases(fields.get("aliases"), where)
        note = self.text(fields, "note", where)
        image = self.image(fields, where)
        if title is None or card_id is None:
            return None
        return Card(id=card_id, title=title, set_id=set_id, index=index, aliases=aliases,
                    note=note, image=image)

    def aliases(self, node: yaml.Node | None, where: str) -> tuple[str, ...]:
        if node is None:
            return ()
        if isinstance(node, yaml.ScalarNode):  # a single alias written without brackets
            return (node.value.strip(),) if node.value.strip() else ()
        if not isinstance(node, yaml.SequenceNode):
            self.problem(node, f'{where}: "aliases" should be a list like [Oliver, "Twist"], '
                               f"but it is {_shape(node)}")
            return ()
        found = []
        for item in node.value:
            if not isinstance(item, yaml.ScalarNode) or not item.value.strip():
                self.problem(item, f"{where}: each alias should be a piece of text")
            else:
                found.append(item.value.strip())
        return tuple(found)

    def image(self, fields: dict[str, yaml.Node], where: str) -> str | None:
        image = self.text(fields, "image", where)
        if image is None:
            return None
        node = fields["image"]
        path = PurePosixPath(image.replace("\\", "/"))
        if path.is_absolute() or ".." in path.parts or re.match(r"[A-Za-z]:", image):
            self.problem(node, f'{where}: image "{image}" must be a path inside the deck\'s folder, '
                               'like "images/dickens.png"')
            return None
        if path.suffix.lower() not in IMAGE_SUFFIXES:
            self.problem(node, f'{where}: image "{image}" should be a PNG or JPEG file')
            return None
        if self.base_dir is not None and not _is_file(Path(self.base_dir) / path):
            self.problem(node, f'{where}: image "{image}" was not found next to the deck file')
            return None
        return str(path)


def _is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except (OSError, ValueError):  # e.g. a name too long for the file system
        return False


class _Fields(dict):
    """A mapping's known keys, plus the keys that a misspelt key was taken for (already reported)."""

    def __init__(self) -> None:
        super().__init__()
        self.guessed: set[str] = set()
        self.key_nodes: dict[str, yaml.Node] = {}  # where each key is written: repeats point there


class _Seen:
    """First line of each id, name and title, to report repeats."""

    def __init__(self) -> None:
        self._first: dict[tuple[str, str], int] = {}

    def add(self, kind: str, value: str, node: yaml.Node) -> int | None:
        key = (kind, value)
        if key in self._first:
            return self._first[key]
        self._first[key] = node.start_mark.line + 1
        return None


def _shape(node: yaml.Node) -> str:
    if isinstance(node, yaml.MappingNode):
        return 'a group of "key: value" lines'
    if isinstance(node, yaml.SequenceNode):
        return "a list"
    return f'the text "{node.value}"' if node.value else "empty"
