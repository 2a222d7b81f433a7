"""Read YAML the careful way: a node tree with line numbers, scalars as written.

Anchors and aliases (the "billion laughs"), oversized files and deep nesting are refused by a
streaming scan before any tree is built, so no input can cost more than its size.
"""
from __future__ import annotations

import yaml

from .errors import DeckError, Problem

MAX_BYTES = 1024 * 1024


def decode(data: bytes | str, source: str) -> str:
    if isinstance(data, str):
        if len(data.encode("utf-8", "surrogatepass")) > MAX_BYTES:
            raise DeckError([Problem(source, 1, 1, "the file is larger than 1 MiB; no deck needs that much")])
        return data
    if len(data) > MAX_BYTES:
        raise DeckError([Problem(source, 1, 1, "the file is larger than 1 MiB; no deck needs that much")])
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise DeckError([Problem(source, line, column,
                                 "the file is not UTF-8 text; save it again as UTF-8")]) from None


def _syntax_problem(exc: yaml.YAMLError, source: str) -> Problem:
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    problem = getattr(exc, "problem", None) or str(exc)
    context = getattr(exc, "context", None)
    detail = f"{context}, {problem}" if context else problem
    line, column = (mark.line + 1, mark.column + 1) if mark else (1, 1)
    return Problem(source, line, column, f"this is not valid YAML ({detail}); check the indentation "
                                         "and quote text that contains ':' or '#'")


def compose(text: str, source: str, max_depth: int) -> yaml.Node | None:
    """The document's node tree, after a scan that refuses aliases, anchors and deep nesting."""
    depth = 0
    try:
        for event in yaml.parse(text, Loader=yaml.SafeLoader):
            if isinstance(event, yaml.AliasEvent):
                raise _refusal(source, event.start_mark,
                               f"uses a YAML alias (*{event.anchor}); write the text out in full instead")
            anchor = getattr(event, "anchor", None)
            if anchor is not None:
                raise _refusal(source, event.start_mark,
                               f"uses a YAML anchor (&{anchor}); write the text out in full instead")
            if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                depth += 1
                if depth > max_depth:
                    raise _refusal(source, event.start_mark,
                                   "the lists and mappings nest deeper than the format allows; "
                                   "check the indentation")
            elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                depth -= 1
        return yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as exc:
        raise DeckError([_syntax_problem(exc, source)]) from None
    except RecursionError:  # belt and braces: the depth scan should make this unreachable
        raise DeckError([Problem(source, 1, 1, "the file nests too deeply to read")]) from None


def _refusal(source: str, mark: yaml.Mark, message: str) -> DeckError:
    return DeckError([Problem(source, mark.line + 1, mark.column + 1, message)])
