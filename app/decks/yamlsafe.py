"""Read YAML the careful way: a node tree with line numbers, scalars as written.

Anchors and aliases (the "billion laughs"), oversized files and deep nesting are refused by a
streaming scan before any tree is built, so no input can cost more than its size.

Both passes run on libyaml (PyYAML's C parser) when PyYAML has it, some 30 times faster than the pure
Python parser (a built-in deck: 2 ms instead of 65 on a slow machine), for text where the two are known
to build the same tree: the same tags, values and start marks (a plain scalar's style, '' from libyaml,
is made None as the Python parser has it). They differ on a few constructs no deck needs (`?` keys, and
a `?` in flow text, which only libyaml takes; tags; tabs; empty values in flow mappings and nodes at an
end of file with no line break, which libyaml marks elsewhere; NEL, LS, PS and lone CR line breaks; a
BOM, which libyaml leaves out of its marks' index; a comment glued to a block scalar's header), so text
with any of those, and any text either libyaml pass refuses, is read by the pure Python parser alone:
every problem keeps its words and its place. tests/test_decks_yaml.py compares the two parsers on every
deck and record and on random text.
"""
from __future__ import annotations

import re

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
    if getattr(exc, "context", None) == "expected a single document in the stream":
        mark = exc.problem_mark
        return Problem.at(source, mark.line + 1, mark.column + 1,
                          N_('a second YAML document starts here ("---"); a deck file holds one deck only'))
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    problem = getattr(exc, "problem", None) or str(exc)
    context = getattr(exc, "context", None)
    detail = f"{context}, {problem}" if context else problem  # PyYAML's own words, in English
    line, column = (mark.line + 1, mark.column + 1) if mark else (1, 1)
    return Problem.at(source, line, column, N_("this is not valid YAML (%(detail)s); check the indentation "
                                               "and quote text that contains ':' or '#'"), detail=detail)


# libyaml, when this PyYAML was built with it; tests/test_decks_yaml.py checks that it gives the same trees.
FAST_LOADER = getattr(yaml, "CSafeLoader", None)
# What libyaml reads differently from the Python parser (see above): such text takes the Python parser.
_NOT_FOR_LIBYAML = re.compile(r"[\t?\ufeff\x85\u2028\u2029]|(?:^|[\s\[{,])!|\r(?!\n)|[|>][-+0-9]*#|:\s*[,}\]]")


def libyaml_reads_it_alike(text: str) -> bool:
    """Whether libyaml builds the tree the Python parser would (when it reads the text at all)."""
    return FAST_LOADER is not None and text.endswith("\n") and _NOT_FOR_LIBYAML.search(text) is None


def compose(text: str, source: str, max_depth: int) -> yaml.Node | None:
    """The document's node tree, after a scan that refuses aliases, anchors and deep nesting."""
    if libyaml_reads_it_alike(text):
        try:
            node = _compose(text, source, max_depth, FAST_LOADER)
        except Exception:  # noqa: BLE001 - a problem, or text libyaml cannot take (a lone surrogate)
            pass  # read again below, so the problem is the pure Python parser's, word for word
        else:
            _plain_style_as_python(node)
            return node
    return _compose(text, source, max_depth, yaml.SafeLoader)


def _plain_style_as_python(root: yaml.Node | None) -> None:
    """libyaml gives a plain scalar the style '', the Python parser None (which readers test for)."""
    stack = [root] if root is not None else []
    while stack:
        node = stack.pop()
        if isinstance(node, yaml.ScalarNode):
            if node.style == "":
                node.style = None
        elif isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                stack.append(key)
                stack.append(value)
        else:
            stack.extend(node.value)


def _compose(text: str, source: str, max_depth: int, loader: type) -> yaml.Node | None:
    depth = 0
    try:
        for event in yaml.parse(text, Loader=loader):
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


def _refusal(source: str, mark: yaml.Mark, template: str, **params: str) -> DeckError:
    return DeckError([Problem.at(source, mark.line + 1, mark.column + 1, template, **params)])
