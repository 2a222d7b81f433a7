"""Deck and record YAML is read by libyaml where it builds the same tree as PyYAML's Python parser
(app/decks/yamlsafe.py): the same tags, values, styles and start marks, on every deck and record we
have and on random text; what the two read differently goes to the Python parser alone."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.decks import DeckError
from app.decks.yamlsafe import FAST_LOADER, _compose, _compose_with_libyaml, compose, libyaml_reads_it_alike

from tests.shared_examples import shared_records

ROOT = Path(__file__).resolve().parents[1]
FILES = sorted((ROOT / "decks").glob("*.yaml")) + sorted((ROOT / "tests" / "records").glob("*.yaml"))

pytestmark = pytest.mark.skipif(FAST_LOADER is None, reason="this PyYAML has no libyaml: the Python parser reads all")


def shape(node):
    """What a reader of the tree may look at: kinds, tags, values, styles and start marks. (Collections'
    end marks and flow_style, which nothing reads, differ at times: libyaml ends a collection at the next
    token, and marks an indentless block sequence flow_style False where Python leaves None.)"""
    if node is None:
        return None
    mark = (node.start_mark.line, node.start_mark.column, node.start_mark.index)
    if isinstance(node, yaml.ScalarNode):
        return ("scalar", node.tag, node.value, node.style, mark, (node.end_mark.line, node.end_mark.column))
    if isinstance(node, yaml.MappingNode):
        return ("map", node.tag, mark, [(shape(key), shape(value)) for key, value in node.value])
    return ("seq", node.tag, mark, [shape(item) for item in node.value])


def python_tree(text: str):
    return _compose(text, "<t>", 50, yaml.SafeLoader)


def outcome(text: str, reader):
    try:
        return "tree", shape(reader(text))
    except DeckError as exc:
        return "refused", [str(problem) for problem in exc.problems]


@pytest.mark.parametrize("path", FILES + shared_records(), ids=lambda p: p.name)
def test_every_deck_and_record_reads_the_same_with_libyaml(path):
    text = path.read_text(encoding="utf-8")
    assert outcome(text, lambda t: compose(t, "<t>", 50)) == outcome(text, python_tree)


def test_the_built_in_decks_take_the_fast_path():
    decks = sorted((ROOT / "decks").glob("*.yaml"))
    assert decks and all(libyaml_reads_it_alike(path.read_text(encoding="utf-8")) for path in decks)


@pytest.mark.parametrize("text", [
    "x: {a: , b: 1}\n", "x: {a:\n  , b: 1}\n", "x: [a: , b]\n",   # empty flow values: libyaml marks them later
    "sets: [{title: Who?}]\n", "? a\n: b\n",                          # '?' in flow text, '?' keys
    "a: ! b\n", "\ufeff!\n", "a: !!str 1\n",                           # tags
    "a:\tb\n", "a: b\rc: d\n", "a: b\x85", "a: b\u2028c\n",            # tabs, other line breaks
    "a: \ufeffb\n", "a: |#x\n  b\n", "a: >-#\n  b\n",                   # a BOM inside, a glued comment
    "a: [b, c]", "a:",                                                  # no line break at the end
])
def test_what_libyaml_reads_differently_takes_the_python_parser(text):
    assert not libyaml_reads_it_alike(text)
    assert outcome(text, lambda t: compose(t, "<t>", 50)) == outcome(text, python_tree)


def test_plain_scalars_keep_pythons_style_none_so_null_is_told_from_quoted_null():
    node = compose("a: null\nb: 'null'\nc: ~\n", "<t>", 5)
    styles = {key.value: value.style for key, value in node.value}
    assert styles == {"a": None, "b": "'", "c": None}


def test_a_problem_libyaml_meets_is_the_python_parsers_problem():
    text = 'format: authors-deck/1\ntitle: "Painters\nsets: []\n'
    assert libyaml_reads_it_alike(text)
    with pytest.raises(DeckError) as fast:
        compose(text, "d.yaml", 6)
    with pytest.raises(DeckError) as slow:
        _compose(text, "d.yaml", 6, yaml.SafeLoader)
    assert [str(p) for p in fast.value.problems] == [str(p) for p in slow.value.problems]
    for refused in ("a: &x 1\nb: *x\n", "a: " + "[" * 10 + "]" * 10 + "\n", "a: \ud800\n"):
        assert outcome(refused, lambda t: compose(t, "<t>", 6)) == outcome(refused, lambda t: _compose(
            t, "<t>", 6, yaml.SafeLoader))


ALPHABET = list(" -:#'\"[]{},\n\n\n  |>&*%@`~abc01é.!\\\t?\r\ufeff\x85")


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(alphabet=st.sampled_from(ALPHABET), max_size=60), st.booleans())
def test_random_text_reads_the_same_wherever_libyaml_is_used(body, nested):
    text = (f"a: {body}\nb:\n  - {body}\n" if nested else body) + "\n"
    slow = outcome(text, python_tree)
    if libyaml_reads_it_alike(text):
        try:
            fast = shape(_compose_with_libyaml(text, 50))
        except Exception:  # noqa: BLE001 - then compose() reads it with the Python parser
            pass
        else:
            assert slow == ("tree", fast), (text, "libyaml's tree is not the Python parser's")
    assert outcome(text, lambda t: compose(t, "<t>", 50)) == slow
