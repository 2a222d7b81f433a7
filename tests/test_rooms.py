"""The README's "What is where" table is the contract of the code's rooms: for every folder (and lone
module) whose "may import" cell names modules in backticks, the code there imports only the rooms named
before "never", and none of those named after it. Read from the README itself, so the table and the code
cannot drift apart."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ROW = re.compile(r"^\| `(app/[^`]*)`[^|]*\|[^|]*\| (.*) \|$")


def contract() -> dict[str, tuple[set[str], set[str]]]:
    """README rows: folder -> (the app rooms it may import, the modules it must never import)."""
    rules = {}
    for line in (ROOT / "README.md").read_text(encoding="utf-8").splitlines():
        match = ROW.match(line)
        if not match or "`" not in match.group(2):
            continue
        allowed, _, never = match.group(2).partition("never")
        rules[match.group(1)] = (set(re.findall(r"`([\w.]+)`", allowed)), set(re.findall(r"`([\w.]+)`", never)))
    return rules


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(source: str, name: str, is_package: bool = False) -> set[str]:
    """Every module the source of module `name` imports (relative imports resolved; `from x import y`
    also as x.y)."""
    package = name if is_package else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parent + ([node.module] if node.module else []))
            found.add(base)
            found |= {f"{base}.{alias.name}" for alias in node.names}
    return found


def room_of(module: str) -> str:
    parts = module.split(".")
    return ".".join(parts[:2]) if parts[0] == "app" else parts[0]


def files_of(folder: str) -> list[Path]:
    target = ROOT / folder
    return sorted(target.rglob("*.py")) if target.is_dir() else [target]


RULES = contract()


def test_the_readme_states_a_rule_for_every_room_of_the_play_path():
    for folder in ("app/decks/", "app/engine/", "app/printing/", "app/rules/", "app/store/", "app/services/",
                   "app/web/", "app/models.py", "app/languages.py"):
        assert folder in RULES, f'README "What is where" has no "may import" rule for {folder}'


def within(module: str, name: str) -> bool:
    """Whether `module` is `name` or inside it (`from x import y` is read as x.y too)."""
    return module == name or module.startswith(name + ".")


def problems_of(folder: str, name: str, source: str, is_package: bool = False) -> list[str]:
    allowed, never = RULES[folder]
    own = room_of(name)
    problems = []
    for module in sorted(imports_of(source, name, is_package)):
        room = room_of(module)
        if room.startswith("app.") and not any(within(module, ok) for ok in allowed | {own}):
            problems.append(f"{name} imports {module} ({room} is not in its row)")
        for banned in never:
            # a module named on its own before "never" is the one exception to a room named after it
            excepted = any(within(module, ok) and within(ok, banned) and ok != banned for ok in allowed)
            if within(module, banned) and not excepted:
                problems.append(f"{name} imports {module} (never: {banned})")
    return problems


@pytest.mark.parametrize("folder", sorted(RULES))
def test_each_room_imports_only_what_the_readme_allows(folder):
    problems = [problem for path in files_of(folder)
                for problem in problems_of(folder, module_name(path), path.read_text(encoding="utf-8"),
                                           path.name == "__init__.py")]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("folder,name,source,caught", [
    ("app/web/", "app.web.probe", "from ..models import Table", "app.models"),
    ("app/web/", "app.web.probe", "import sqlalchemy", "sqlalchemy"),
    ("app/services/", "app.services.probe", "from flask import request", "flask.request"),
    ("app/engine/", "app.engine.probe", "from app.store import read", "app.store"),
    ("app/store/", "app.store.probe", "from ..services import tables", "app.services"),
    ("app/web/", "app.web.probe", "from ..store.codes import normalize_code", "app.store"),
    ("app/web/", "app.web.probe", "from .. import store", "app.store"),
    ("app/i18n.py", "app.i18n", "from .web.errors import wants_json", "app.web"),
])
def test_the_guard_catches_a_forbidden_import(folder, name, source, caught):
    assert any(caught in problem for problem in problems_of(folder, name, source))
