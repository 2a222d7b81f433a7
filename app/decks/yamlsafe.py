"""Read YAML the careful way: a node tree with line numbers, scalars as written.

Anchors and aliases (the "billion laughs"), oversized files and deep nesting are refused by a
streaming scan before any tree is built, so no input can cost more than its size.

With libyaml (PyYAML's C parser, when PyYAML has it) one parse does both: the scan's checks are made
on its events while the tree is built from them, some 30 times faster than the two passes of the pure
Python parser (a built-in deck: 2 ms instead of 65 on a slow machine). It is used for text where the
two are known to build the same tree: the same tags, values and start marks (a plain scalar's style,
'' from libyaml, is made None as the Python parser has it). They differ on a few constructs no deck
needs (`?` keys, and a `?` in flow text, which only libyaml takes; tags; tabs; empty values in flow
mappings and nodes at an end of file with no line break, which libyaml marks elsewhere; NEL, LS, PS
and lone CR line breaks; a BOM, which libyaml leaves out of its marks' index; a comment glued to a
block scalar's header), so text with any of those, and any text the libyaml reading refuses, is read
by the pure Python parser alone: every problem keeps its words and its place. tests/test_decks_yaml.py
compares the two parsers on every deck and record and on random text.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from typing import Protocol, cast

import yaml

from .errors import N_, DeckError, Problem

MAX_BYTES = 1024 * 1024
TOO_LARGE = N_("the file is larger than 1 MiB; no deck needs that much")


def decode(data: bytes | str, source: str) -> str:
    if isinstance(data, str):
        if len(data.encode("utf-8", "surrogatepass")) > MAX_BYTES:
            raise DeckError([Problem.at(source, 1, 1, TOO_LARGE)])
        return data
    if len(data) > MAX_BYTES:
        raise DeckError([Problem.at(source, 1, 1, TOO_LARGE)])
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        line_start = data.rfind(b"\n", 0, exc.start) + 1
        if line == 1 and data.startswith(b"\xef\xbb\xbf"):
            line_start = 3
        # The column counts characters, as every other problem's column does, not bytes.
        column = len(data[line_start: exc.start].decode("utf-8", "replace")) + 1
        raise DeckError([Problem.at(source, line, column,
                                    N_("the file is not UTF-8 text; save it again as UTF-8"))]) from None


_LINE_BREAK = re.compile("\r\n|[\n\r\x85\u2028\u2029]")


def _position(text: str, index: int) -> tuple[int, int]:
    """1-based line and column of a character index, counted the way YAML's marks count them."""
    before = text[:index]
    breaks = list(_LINE_BREAK.finditer(before))
    line_start = breaks[-1].end() if breaks else 0
    column = index - line_start
    if not breaks and before.startswith("\ufeff"):
        column -= 1
    return len(breaks) + 1, column + 1


def _syntax_problem(exc: yaml.YAMLError, source: str, text: str) -> Problem:
    if isinstance(exc, yaml.reader.ReaderError):
        line, column = _position(text, exc.position)
        code = exc.character if isinstance(exc.character, int) else ord(exc.character)
        return Problem.at(source, line, column,
                          N_("the file contains a character that YAML does not allow (#x%(code)s); delete it"),
                          code=f"{code:04x}")
    if isinstance(exc, yaml.MarkedYAMLError) and exc.context == "expected a single document in the stream" \
            and exc.problem_mark is not None:
        start = exc.problem_mark
        return Problem.at(source, start.line + 1, start.column + 1,
                          N_('a second YAML document starts here ("---"); a deck file holds one deck only'))
    mark: _Mark | None = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    problem = getattr(exc, "problem", None) or str(exc)
    context = getattr(exc, "context", None)
    detail = f"{context}, {problem}" if context else problem  # PyYAML's own words, in English
    line, column = (mark.line + 1, mark.column + 1) if mark else (1, 1)
    return Problem.at(source, line, column, N_("this is not valid YAML (%(detail)s); check the indentation "
                                               "and quote text that contains ':' or '#'"), detail=detail)


# libyaml, when this PyYAML was built with it; tests/test_decks_yaml.py checks that it gives the same trees.
FAST_LOADER: type[yaml.CSafeLoader] | None = getattr(yaml, "CSafeLoader", None)
# What libyaml reads differently from the Python parser (see above): such text takes the Python parser.
_NOT_FOR_LIBYAML = re.compile(r"[\t?\ufeff\x85\u2028\u2029]|(?:^|[\s\[{,])!|\r(?!\n)|[|>][-+0-9]*#|:\s*[,}\]]")


def libyaml_reads_it_alike(text: str) -> bool:
    """Whether libyaml builds the tree the Python parser would (when it reads the text at all)."""
    return FAST_LOADER is not None and text.endswith("\n") and _NOT_FOR_LIBYAML.search(text) is None


TOO_MANY_NODES = N_("the file holds more than %(most)s values (texts, lists and mappings); no deck needs "
                    "that many")


def compose(text: str, source: str, max_depth: int, max_nodes: int | None = None) -> yaml.Node | None:
    """The document's node tree, after a scan that refuses aliases, anchors, deep nesting and, with
    `max_nodes`, more nodes than that (refused at the first one too many, before the work they cost)."""
    if libyaml_reads_it_alike(text):
        try:
            return _compose_with_libyaml(text, max_depth, max_nodes)
        except _TooMany as exc:
            raise _refusal(source, exc.mark, TOO_MANY_NODES, most=f"{max_nodes:,}") from None
        except Exception:  # noqa: BLE001 - a problem, or text libyaml cannot take (a lone surrogate)
            pass  # read again below, so the problem is the pure Python parser's, word for word
    elif max_nodes is not None and FAST_LOADER is not None:
        _count_with_libyaml(text, source, max_nodes)  # the Python parser is ~30 times slower: count first
    return _compose(text, source, max_depth, yaml.SafeLoader, max_nodes)


def _count_with_libyaml(text: str, source: str, max_nodes: int) -> None:
    """Refuse text of more than `max_nodes` nodes before the Python parser reads it, at the first node too
    many (a node inside the text is marked alike by both parsers); text libyaml cannot read is left to
    the Python parser, which words the problem."""
    if FAST_LOADER is None:
        return
    left, too_many = max_nodes, None
    try:
        for event in yaml.parse(text, Loader=FAST_LOADER):
            if isinstance(event, (yaml.ScalarEvent, yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                if left == 0:
                    too_many = event.start_mark
                    break
                left -= 1
    except Exception:  # noqa: BLE001 - whatever libyaml cannot read, the Python parser words
        return
    if too_many is not None:
        raise _refusal(source, too_many, TOO_MANY_NODES, most=f"{max_nodes:,}")


class _Mark(Protocol):
    """Where an event or node starts: PyYAML's Mark, or libyaml's (its own class, with the same fields)."""

    @property
    def line(self) -> int: ...

    @property
    def column(self) -> int: ...


# A loader's resolve(kind, value, implicit): the tag of a node (untyped in PyYAML's stubs).
_Resolve = Callable[[type[yaml.Node], str | None, bool | tuple[bool, bool]], str]


def _py_mark(mark: _Mark | None) -> yaml.Mark | None:
    """A libyaml event's mark as a node's (the stubs type a node's marks as PyYAML's Mark; libyaml's has
    the same fields, and the Python parser's nodes are read the same way)."""
    return cast("yaml.Mark | None", mark)


class _Refused(Exception):
    """The libyaml reading met what the Python reading words as a problem (an alias, an anchor, depth)."""


class _TooMany(Exception):
    """More nodes than allowed, from the node at `mark` on (both parsers mark it alike)."""

    def __init__(self, mark: _Mark | None):
        super().__init__()
        self.mark = mark


def _compose_with_libyaml(text: str, max_depth: int, max_nodes: int | None = None) -> yaml.Node | None:
    """The tree PyYAML's composer builds, built here from libyaml's events in one pass, the scan's
    checks made on the way (libyaml's own composer would need a second parse). Anything that is not
    one plain document of scalars, sequences and mappings raises, for the Python reading to word it."""
    if FAST_LOADER is None:
        raise _Refused
    loader = FAST_LOADER(text)
    try:
        resolve: _Resolve = loader.resolve
        events = iter(loader.get_event, None)
        if not isinstance(next(events), yaml.StreamStartEvent):
            raise _Refused
        event = next(events)
        if isinstance(event, yaml.StreamEndEvent):
            return None
        if not isinstance(event, yaml.DocumentStartEvent):
            raise _Refused
        root: yaml.Node | None = None
        stack: list[yaml.CollectionNode] = []  # the open collections, innermost last
        keys: list[yaml.Node | None] = []       # for each open mapping, its key waiting for a value
        left = max_nodes if max_nodes is not None else -1
        node: yaml.Node
        for event in events:
            kind = type(event)
            if kind is not yaml.SequenceEndEvent and kind is not yaml.MappingEndEvent:
                if left == 0:
                    raise _TooMany(event.start_mark)
                left -= 1
            if isinstance(event, yaml.ScalarEvent):
                if event.anchor is not None or event.tag is not None:
                    raise _Refused
                node = yaml.ScalarNode(resolve(yaml.ScalarNode, event.value, event.implicit), event.value,
                                       _py_mark(event.start_mark), _py_mark(event.end_mark), style=event.style or None)
            elif isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
                if event.anchor is not None or event.tag is not None or len(stack) >= max_depth:
                    raise _Refused
                node_class = yaml.SequenceNode if kind is yaml.SequenceStartEvent else yaml.MappingNode
                node = node_class(resolve(node_class, None, event.implicit), [], _py_mark(event.start_mark), None,
                                  flow_style=event.flow_style)
            elif kind is yaml.SequenceEndEvent or kind is yaml.MappingEndEvent:
                node = stack.pop()
                node.end_mark = event.end_mark
                if isinstance(node, yaml.MappingNode):
                    keys.pop()
                if not stack:
                    root = node
                    break
                _add(stack[-1], node, keys)
                continue
            else:  # an alias, or a document that ends where a node was expected
                raise _Refused
            if isinstance(node, yaml.CollectionNode):
                stack.append(node)
                if isinstance(node, yaml.MappingNode):
                    keys.append(None)
            elif stack:
                _add(stack[-1], node, keys)
            else:
                root = node
                break
        if not isinstance(next(events), yaml.DocumentEndEvent) or not isinstance(next(events), yaml.StreamEndEvent):
            raise _Refused  # a second document: the Python reading says where it starts
        return root
    finally:
        loader.dispose()


def _add(parent: yaml.CollectionNode, node: yaml.Node, keys: list[yaml.Node | None]) -> None:
    if isinstance(parent, yaml.SequenceNode):
        parent.value.append(node)
    elif keys[-1] is None:
        keys[-1] = node
    else:
        parent.value.append((keys[-1], node))
        keys[-1] = None


def _compose(text: str, source: str, max_depth: int, loader: type, max_nodes: int | None = None) -> yaml.Node | None:
    depth = 0
    nodes = 0
    try:
        for event in yaml.parse(text, Loader=loader):
            if isinstance(event, (yaml.ScalarEvent, yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                nodes += 1
                if max_nodes is not None and nodes > max_nodes:
                    raise _refusal(source, event.start_mark, TOO_MANY_NODES, most=f"{max_nodes:,}")
            if isinstance(event, yaml.AliasEvent):
                raise _refusal(source, event.start_mark,
                               N_("a YAML alias (*%(name)s) is not allowed in a deck; "
                                  "write the text out in full instead"), name=event.anchor)
            anchor = getattr(event, "anchor", None)
            if anchor is not None:
                raise _refusal(source, event.start_mark,
                               N_("a YAML anchor (&%(name)s) is not allowed in a deck; "
                                  "write the text out in full instead"), name=anchor)
            if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                depth += 1
                if depth > max_depth:
                    raise _refusal(source, event.start_mark,
                                   N_("the lists and mappings nest deeper than the format allows; "
                                      "check the indentation"))
            elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                depth -= 1
        return yaml.compose(text, Loader=loader)
    except yaml.YAMLError as exc:
        raise DeckError([_syntax_problem(exc, source, text)]) from None
    except RecursionError:  # belt and braces: the depth scan should make this unreachable
        raise DeckError([Problem.at(source, 1, 1, N_("the file nests too deeply to read"))]) from None


def _refusal(source: str, mark: _Mark | None, template: str, **params: object) -> DeckError:
    line, column = (mark.line + 1, mark.column + 1) if mark else (1, 1)
    return DeckError([Problem.at(source, line, column, template, **params)])
