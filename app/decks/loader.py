"""Turn deck YAML into a Deck, or refuse it with every problem at once.

Each problem carries file:line:col and a sentence a teacher can act on. Scalars are read exactly as
written (`title: 1984` is the text "1984"), never through YAML's type guessing.
"""
from __future__ import annotations

import difflib
import re
from pathlib import Path, PurePosixPath

import yaml

from .errors import N_, DeckError, N_plural, Problem, Template, Text
from .model import Card, CardSet, Deck
from .slug import DECK_ID, ITEM_ID, slugify
from .yamlsafe import compose, decode

FORMAT = "authors-deck/1"
# deck > sets > set > cards > card > aliases: six levels are all the format ever needs.
DECK_DEPTH = 6
# The most YAML nodes a deck file may hold: a deck of 60 sets of 8 cards with every field and two dozen
# aliases a card has about 19,000. A file of 3,000 tiny sets (40,000 nodes) is refused at the first node
# too many instead of being read whole first (issue #15: no request costs a second of the server's CPU).
DECK_MAX_NODES = 20_000
MIN_SETS, MAX_SETS = 2, 60
MIN_CARDS, MAX_CARDS = 2, 8

DECK_KEYS = ("format", "id", "title", "language", "description", "set_label", "card_label", "sets")
SET_KEYS = ("id", "name", "note", "color", "image", "cards")
CARD_KEYS = ("title", "id", "aliases", "note", "image")

LANGUAGE_TAG = re.compile(r"[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*")
COLOR = re.compile(r"#[0-9a-fA-F]{6}")
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg")

# The place a sentence about the deck's own keys starts with ('the deck: key "title" appears twice');
# sets and cards are named the same way in read_set and read_card.
THE_DECK = Text.of(N_("the deck"))


def load_deck_file(path: str | Path) -> Deck:
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise DeckError([Problem.at(str(path), 1, 1, N_("cannot read the file (%(reason)s)"),
                                    reason=exc.strerror)]) from None
    return load_deck_text(data, source=str(path), base_dir=path.parent)


def load_deck_text(data: bytes | str, source: str = "<deck>", base_dir: Path | None = None) -> Deck:
    text = decode(data, source)
    node = compose(text, source, DECK_DEPTH, DECK_MAX_NODES)
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
    def problem(self, node: yaml.Node, template: Template, **params: object) -> None:
        mark = node.start_mark
        self.problems.append(Problem.at(self.source, mark.line + 1, mark.column + 1, template, **params))

    def fields(self, node: yaml.MappingNode, allowed: tuple[str, ...], where: Text) -> "_Fields":
        """The keys of a mapping node; unknown and repeated keys are problems."""
        found = _Fields()
        first_line: dict[str, int] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                self.problem(key_node, N_("%(where)s: a key must be a plain word, not %(shape)s"),
                             where=where, shape=_shape(key_node))
                continue
            key = key_node.value
            if key in found:
                self.problem(key_node, N_('%(where)s: key "%(key)s" appears twice (%(first)s)'),
                             where=where, key=key, first=first_at_line(first_line[key]))
                continue
            if key not in allowed:
                guess = difflib.get_close_matches(key, allowed, n=1, cutoff=0.6)
                if guess:
                    self.problem(key_node, N_('unknown key "%(key)s" (did you mean "%(guess)s"?)'),
                                 key=key, guess=guess[0])
                else:
                    self.problem(key_node, N_('unknown key "%(key)s" (allowed here: %(allowed)s)'),
                                 key=key, allowed=", ".join(allowed))
                if guess:
                    found.guessed.add(guess[0])
                continue
            found[key] = value_node
            found.key_nodes[key] = key_node
            first_line[key] = key_node.start_mark.line + 1
        return found

    def text(self, fields: dict[str, yaml.Node], key: str, where: Text) -> str | None:
        """A text value exactly as written; None when absent, empty or not text (reported)."""
        node = fields.get(key)
        if node is None:
            return None
        if not isinstance(node, yaml.ScalarNode):
            self.problem(node, N_('%(where)s: "%(key)s" should be text, but it is %(shape)s'),
                         where=where, key=key, shape=_shape(node))
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
            raise DeckError([Problem.at(self.source, 1, 1, N_('the file is empty; a deck starts with '
                                                              '"format: %(format)s"'), format=FORMAT)])
        if not isinstance(node, yaml.MappingNode):
            self.problem(node, N_('the deck should be written as "key: value" lines, but it is %(shape)s'),
                         shape=_shape(node))
            raise DeckError(self.problems)
        fields = self.fields(node, DECK_KEYS, THE_DECK)

        fmt = self.text(fields, "format", THE_DECK)
        if "format" not in fields:
            if "format" not in fields.guessed:
                self.problem(node, N_('the deck has no "format"; add the line "format: %(format)s"'),
                             format=FORMAT)
        elif fmt != FORMAT and isinstance(fields["format"], yaml.ScalarNode):
            self.problem(fields["format"], N_('format is "%(value)s"; this program reads "%(format)s"'),
                         value=fmt or "", format=FORMAT)

        deck_id = self.text(fields, "id", THE_DECK)
        if deck_id is None:
            if self.missing(fields, "id"):
                self.problem(fields.get("id", node), N_('the deck has no id; add a line like "id: my-deck"'))
        elif not DECK_ID.fullmatch(deck_id):
            self.problem(fields["id"], N_('deck id "%(id)s" must be 2 to 64 characters: '
                                          'lowercase letters a-z, digits and "-"'), id=deck_id)

        title = self.text(fields, "title", THE_DECK)
        if title is None:
            if self.missing(fields, "title"):
                self.problem(fields.get("title", node),
                             N_('the deck has no title; add a line like "title: My deck"'))

        language = self.text(fields, "language", THE_DECK) or "en"
        if not LANGUAGE_TAG.fullmatch(language):
            self.problem(fields["language"], N_('language "%(language)s" is not a language tag '
                                                'like "en", "fr" or "pt-BR"'), language=language)

        description = self.text(fields, "description", THE_DECK)
        set_label = self.text(fields, "set_label", THE_DECK) or Deck.set_label
        card_label = self.text(fields, "card_label", THE_DECK) or Deck.card_label
        sets = self.read_sets(fields.get("sets"), node, "sets" in fields.guessed)

        if self.problems:
            raise DeckError(self.problems)
        assert deck_id is not None and title is not None  # either missing is a problem, reported above
        return Deck(id=deck_id, title=title, sets=tuple(sets), language=language,
                    description=description, set_label=set_label, card_label=card_label,
                    source=self.source)

    def read_sets(self, node: yaml.Node | None, deck_node: yaml.Node, guessed: bool = False) -> list[CardSet]:
        if node is None:
            if not guessed:
                self.problem(deck_node, N_('the deck has no "sets"; list its sets under "sets:"'))
            return []
        if not isinstance(node, yaml.SequenceNode):
            self.problem(node, N_('"sets" should be a list (each set starting with "- "), but it is %(shape)s'),
                         shape=_shape(node))
            return []
        if not MIN_SETS <= len(node.value) <= MAX_SETS:
            self.problem(node, N_("a deck needs %(min)s to %(max)s sets; this one has %(count)s"),
                         min=MIN_SETS, max=MAX_SETS, count=len(node.value))
        seen = _Seen()
        # Past the most a deck may have, sets are not read: the count is the problem to mend first, and a
        # file of thousands of tiny sets costs no more than a legal one.
        sets = [self.read_set(set_node, number, seen) for number, set_node in enumerate(node.value[:MAX_SETS], 1)]
        return [card_set for card_set in sets if card_set is not None]

    def read_set(self, node: yaml.Node, number: int, seen: "_Seen") -> CardSet | None:
        if not isinstance(node, yaml.MappingNode):
            self.problem(node, N_('set %(number)s should be written as "key: value" lines, but it is %(shape)s'),
                         number=number, shape=_shape(node))
            return None
        numbered = Text.of(N_("set %(number)s"), number=number)
        fields = self.fields(node, SET_KEYS, numbered)
        set_id = self.text(fields, "id", numbered)
        if set_id is None:
            if self.missing(fields, "id"):
                self.problem(fields.get("id", node), N_("set %(number)s has no id"), number=number)
            where = numbered
        else:
            where = Text.of(N_('set "%(set)s"'), set=set_id)
            if not ITEM_ID.fullmatch(set_id):
                self.problem(fields["id"], N_('set id "%(id)s" may use only letters a-z, digits and "-" '
                                              '(at most 64 characters)'), id=set_id)
            elif first := seen.add("set id", set_id, fields.key_nodes["id"]):
                self.problem(fields.key_nodes["id"], N_('set id "%(id)s" is used twice (%(first)s)'),
                             id=set_id, first=first_at_line(first))

        # A sentence about the set names it by its id, or by its number when it has none.
        def about_set(at: yaml.Node, by_number: Template, by_id: Template, **params: object) -> None:
            if set_id is None:
                self.problem(at, by_number, number=number, **params)
            else:
                self.problem(at, by_id, set=set_id, **params)

        name = self.text(fields, "name", where)
        if name is None:
            if self.missing(fields, "name"):
                about_set(fields.get("name", node), N_("set %(number)s has no name"), N_('set "%(set)s" has no name'))
        elif first := seen.add("set name", name, fields.key_nodes["name"]):
            self.problem(fields.key_nodes["name"], N_('set name "%(name)s" is used twice (%(first)s)'),
                         name=name, first=first_at_line(first))

        note = self.text(fields, "note", where)
        color = self.text(fields, "color", where)
        if color is None and "color" in fields and self.missing(fields, "color"):
            # `color: #7a2e2e` without quotes: YAML reads everything from "#" on as a comment.
            self.problem(fields["color"], N_('%(where)s: color is empty; write it in quotes, like '
                                             'color: "#7a2e2e" (without quotes, "#" starts a comment)'), where=where)
        elif color is not None and not COLOR.fullmatch(color):
            # "In quotes" only where it is not: a quoted value is told the form alone.
            quoted = getattr(fields["color"], "style", None) in ('"', "'")
            self.problem(fields["color"], N_('%(where)s: color "%(color)s" should be written "#rrggbb", '
                                             'like "#7a2e2e"') if quoted else
                         N_('%(where)s: color "%(color)s" should be written "#rrggbb", '
                            'like "#7a2e2e" (put it in quotes)'), where=where, color=color)
        image = self.image(fields, where)

        cards: list[Card] = []
        cards_node = fields.get("cards")
        if cards_node is None:
            if "cards" not in fields.guessed:
                about_set(node, N_('set %(number)s has no cards; list them under "cards:"'),
                          N_('set "%(set)s" has no cards; list them under "cards:"'))
        elif not isinstance(cards_node, yaml.SequenceNode):
            self.problem(cards_node, N_('%(where)s: "cards" should be a list (each card starting with "- "), '
                                        'but it is %(shape)s'), where=where, shape=_shape(cards_node))
        else:
            if not MIN_CARDS <= len(cards_node.value) <= MAX_CARDS:
                about_set(cards_node,
                          N_plural("set %(number)s has %(count)s card; a set needs %(min)s to %(max)s",
                                   "set %(number)s has %(count)s cards; a set needs %(min)s to %(max)s"),
                          N_plural('set "%(set)s" has %(count)s card; a set needs %(min)s to %(max)s',
                                   'set "%(set)s" has %(count)s cards; a set needs %(min)s to %(max)s'),
                          count=len(cards_node.value), min=MIN_CARDS, max=MAX_CARDS)
            for index, card_node in enumerate(cards_node.value[:MAX_CARDS], 1):  # (as the sets above)
                card = self.read_card(card_node, index, where, set_id or "", seen)
                if card is not None:
                    cards.append(card)
        if set_id is None or name is None:
            return None
        return CardSet(id=set_id, name=name, cards=tuple(cards), note=note, color=color, image=image)

    def read_card(self, node: yaml.Node, index: int, set_where: Text, set_id: str,
                  seen: "_Seen") -> Card | None:
        if not isinstance(node, yaml.MappingNode):
            self.problem(node, N_('%(where)s: card %(index)s should be written as "key: value" lines, '
                                  'but it is %(shape)s'), where=set_where, index=index, shape=_shape(node))
            return None
        numbered = Text.of(N_("%(where)s: card %(index)s"), where=set_where, index=index)
        fields = self.fields(node, CARD_KEYS, numbered)
        title = self.text(fields, "title", numbered)
        title_repeated = False
        if title is None:
            if self.missing(fields, "title"):
                self.problem(fields.get("title", node), N_("%(where)s: card %(index)s has no title"),
                             where=set_where, index=index)
            where = numbered
        else:
            where = Text.of(N_('%(where)s: card "%(title)s"'), where=set_where, title=title)
            if first := seen.add("title", title, fields.key_nodes["title"]):
                self.problem(fields.key_nodes["title"], N_('card title "%(title)s" is used twice (%(first)s)'),
                             title=title, first=first_at_line(first))
                title_repeated = True

        card_id = self.text(fields, "id", where)
        if card_id is not None:
            id_node = fields.key_nodes["id"]
            if not ITEM_ID.fullmatch(card_id):
                self.problem(fields["id"], N_('%(where)s: card id "%(id)s" may use only letters a-z, digits '
                                              'and "-" (at most 64 characters)'), where=where, id=card_id)
                card_id = None
            elif first := seen.add("card id", card_id, id_node):
                self.problem(id_node, N_('card id "%(id)s" is used twice (%(first)s)'),
                             id=card_id, first=first_at_line(first))
        elif title is not None:
            id_node = fields.key_nodes["title"]
            card_id = slugify(title)[:64].strip("-")
            if not card_id:
                self.problem(id_node, N_('%(where)s: card "%(title)s" needs an id: its title has no letters '
                                         'a-z or digits to make one from (add a line like "id: my-card")'),
                             where=set_where, title=title)
                card_id = None
            elif (first := seen.add("card id", card_id, id_node)) and not title_repeated:
                self.problem(id_node, N_('card id "%(id)s" (made from the title) is used twice (%(first)s); '
                                         'give one of these cards its own "id"'),
                             id=card_id, first=first_at_line(first))

        aliases = self.aliases(fields.get("aliases"), where)
        note = self.text(fields, "note", where)
        image = self.image(fields, where)
        if title is None or card_id is None:
            return None
        return Card(id=card_id, title=title, set_id=set_id, index=index, aliases=aliases,
                    note=note, image=image)

    def aliases(self, node: yaml.Node | None, where: Text) -> tuple[str, ...]:
        if node is None:
            return ()
        if isinstance(node, yaml.ScalarNode):  # a single alias written without brackets
            return (node.value.strip(),) if node.value.strip() else ()
        if not isinstance(node, yaml.SequenceNode):
            self.problem(node, N_('%(where)s: "aliases" should be a list like [Oliver, "Twist"], '
                                  'but it is %(shape)s'), where=where, shape=_shape(node))
            return ()
        found = []
        for item in node.value:
            if not isinstance(item, yaml.ScalarNode) or not item.value.strip():
                self.problem(item, N_("%(where)s: each alias should be a piece of text"), where=where)
            else:
                found.append(item.value.strip())
        return tuple(found)

    def image(self, fields: dict[str, yaml.Node], where: Text) -> str | None:
        image = self.text(fields, "image", where)
        if image is None:
            return None
        node = fields["image"]
        path = PurePosixPath(image.replace("\\", "/"))
        if path.is_absolute() or ".." in path.parts or re.match(r"[A-Za-z]:", image):
            self.problem(node, N_('%(where)s: image "%(image)s" must be a path inside the deck\'s folder, '
                                  'like "images/dickens.png"'), where=where, image=image)
            return None
        if path.suffix.lower() not in IMAGE_SUFFIXES:
            self.problem(node, N_('%(where)s: image "%(image)s" should be a PNG or JPEG file'),
                         where=where, image=image)
            return None
        if self.base_dir is not None and not _is_file(Path(self.base_dir) / path):
            self.problem(node, N_('%(where)s: image "%(image)s" was not found next to the deck file'),
                         where=where, image=image)
            return None
        return str(path)


def _is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except (OSError, ValueError):  # e.g. a name too long for the file system
        return False


class _Fields(dict[str, yaml.Node]):
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


def first_at_line(line: int) -> Text:
    """Where a repeated id, name, title or key was first written (the studio says it in its own terms)."""
    return Text.of(N_("first at line %(line)s"), line=line)


def _shape(node: yaml.Node) -> Text:
    """What was written instead, as in 'but it is a list'."""
    if isinstance(node, yaml.MappingNode):
        return Text.of(N_('a group of "key: value" lines'))
    if isinstance(node, yaml.SequenceNode):
        return Text.of(N_("a list"))
    return Text.of(N_('the text "%(text)s"'), text=node.value) if node.value else Text.of(N_("empty"))
