"""One web edge (issue #31): each concept of the edge has one home, and nothing else re-implements it.

- error answers: app/web/errors.py (no other module of the edge builds an error body or registers a
  handler);
- configuration defaults: app/config.py's DEFAULTS, applied once by the factory (no other module sets a
  default or reads a setting with a default of its own);
- who is asking, and the guards: app/web/asking.py (no other module asks Flask-Login or decides a table's
  owner);
- the table a request names: app/web/table_code.py (no other module reads it from the request, or
  cleans a code);
- the request's language: app/i18n.py (no other module asks Babel's locale or the browser's languages).

Each check reads the code (its syntax tree), so a copy made tomorrow fails here; each is shown to catch
the copy it is about.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from app import config
from app.services import deals
from app.web import asking, classes, reports, studio

ROOT = Path(__file__).resolve().parents[1]
APP = ROOT / "app"
WEB = sorted((APP / "web").glob("*.py"))
EDGE = WEB + sorted(APP.glob("*.py"))  # the web's modules and app's lone modules (factory, db, i18n, serving ...)


def relative(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def dotted(node: ast.AST) -> str:
    """`a.b.c` for an attribute chain or a name, "" for anything else."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = dotted(node.value)
        return f"{inner}.{node.attr}" if inner else ""
    return ""


def literal(node: ast.AST):
    return node.value if isinstance(node, ast.Constant) else None


# ----------------------------------------------------------------------------------------------------
# The checks: each takes a module's source and says what it found (file:line what)
# ----------------------------------------------------------------------------------------------------
ERROR_HANDLERS = {"errorhandler", "register_error_handler", "app_errorhandler"}


def builds_errors(source: str) -> list[str]:
    """An error body (jsonify with an "error", the error page, a 4xx/5xx status given by number or line),
    or an error handler registered."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            name = dotted(node.func).rpartition(".")[2]
            if name == "jsonify" and (any(k.arg == "error" for k in node.keywords) or any(
                    isinstance(a, ast.Dict) and "error" in map(literal, a.keys) for a in node.args)):
                found.append(f"{node.lineno}: jsonify(error=...)")
            if name == "render_template" and node.args and literal(node.args[0]) == "error.html":
                found.append(f"{node.lineno}: the error page")
            if name in ERROR_HANDLERS:
                found.append(f"{node.lineno}: {name}")
            if name == "start_response" and node.args and str(literal(node.args[0]) or "")[:1] in ("4", "5"):
                found.append(f"{node.lineno}: start_response({literal(node.args[0])!r})")
            statuses = [literal(a) for a in node.args] + [literal(k.value) for k in node.keywords if k.arg == "status"]
            if name in ("make_response", "Response") and any(isinstance(s, int) and s >= 400 for s in statuses):
                found.append(f"{node.lineno}: {name} with an error status")
    return found


def holds_config_defaults(source: str) -> list[str]:
    """A setting given a default outside app/config.py: config.setdefault(...), config.get("KEY", default),
    or the factory's loop over someone's DEFAULTS."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            name = dotted(node.func)
            if name.endswith("config.setdefault"):
                found.append(f"{node.lineno}: {name}")
            if name.endswith("config.get") and len(node.args) + len(node.keywords) > 1:
                found.append(f"{node.lineno}: {name} with a default")
        if isinstance(node, ast.ImportFrom) and any(alias.name == "DEFAULTS" for alias in node.names) \
                and node.module not in ("config", "app.config"):
            found.append(f"{node.lineno}: DEFAULTS from {node.module}")
    return found


def asks_who_by_hand(source: str) -> list[str]:
    """Who is asking worked out by hand: Flask-Login's current_user.is_authenticated, its session key,
    its unauthorized answer; a table's owner decided with the services' two-argument is_teacher or
    require_teacher; the session's seats read raw."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr == "is_authenticated":
            found.append(f"{node.lineno}: {dotted(node)}")
        if isinstance(node, ast.Constant) and node.value == "_user_id":
            found.append(f"{node.lineno}: the session's log-in key")
        if isinstance(node, ast.Call):
            name = dotted(node.func)
            if name.endswith("login_manager.unauthorized"):
                found.append(f"{node.lineno}: {name}()")
            if name.rpartition(".")[2] in ("is_teacher", "require_teacher") and len(node.args) == 2:
                found.append(f"{node.lineno}: {name} with a teacher id")
            if name.endswith(".get") and node.args and literal(node.args[0]) in ("seats", "asks"):
                found.append(f"{node.lineno}: {name}({literal(node.args[0])!r})")
    return found


def reads_table_code(source: str) -> list[str]:
    """The request's table code read or cleaned by hand: request.view_args, the join form's code field,
    normalize_code."""
    found = []
    for node in ast.walk(ast.parse(source)):
        name = dotted(node) if isinstance(node, ast.Attribute) else ""
        if name == "request.view_args":
            found.append(f"{node.lineno}: request.view_args")
        if isinstance(node, ast.Call):
            called = dotted(node.func)
            if called in ("request.form.get", "request.values.get") and node.args and literal(node.args[0]) == "code":
                found.append(f"{node.lineno}: {called}('code')")
            if called.rpartition(".")[2] in ("normalize_code", "is_valid_code"):
                found.append(f"{node.lineno}: {called}")
        if isinstance(node, (ast.ImportFrom)) and any(alias.name in ("normalize_code", "is_valid_code")
                                                       for alias in node.names):
            found.append(f"{node.lineno}: imports {', '.join(a.name for a in node.names)} from {node.module}")
    return found


def works_out_language(source: str) -> list[str]:
    """The request's language worked out by hand: Babel's get_locale, the browser's Accept-Language, the
    language cookie."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and dotted(node.func).rpartition(".")[2] == "get_locale":
            found.append(f"{node.lineno}: get_locale()")
        if isinstance(node, ast.Attribute) and node.attr == "accept_languages":
            found.append(f"{node.lineno}: {dotted(node)}")
        if isinstance(node, ast.Call) and dotted(node.func) == "request.cookies.get" and node.args \
                and literal(node.args[0]) == "lang":
            found.append(f"{node.lineno}: the language cookie")
    return found


CHECKS = {
    # concept: (the check, the modules it scans, its one home)
    "error answers": (builds_errors, WEB, {"app/web/errors.py"}),
    "configuration defaults": (holds_config_defaults, EDGE, {"app/config.py"}),
    "who is asking": (asks_who_by_hand, EDGE, {"app/web/asking.py", "app/web/seating.py"}),
    "the request's table code": (reads_table_code, EDGE, {"app/web/table_code.py"}),
    "the request's language": (works_out_language, EDGE, {"app/i18n.py"}),
}


@pytest.mark.parametrize("concept", sorted(CHECKS))
def test_nothing_else_reimplements_a_concept_of_the_web_edge(concept):
    check, paths, homes = CHECKS[concept]
    found = [f"{relative(path)}:{line}" for path in paths if relative(path) not in homes
             for line in check(path.read_text(encoding="utf-8"))]
    assert not found, f"{concept} belong in {', '.join(sorted(homes))}, not in:\n" + "\n".join(found)


@pytest.mark.parametrize("concept", sorted(CHECKS))
def test_each_concept_is_found_in_its_home(concept):
    """The checks read what they are meant to read: each finds its concept where it lives."""
    check, _paths, homes = CHECKS[concept]
    home = sorted(homes)[0]
    if concept == "configuration defaults":  # its home states them (a dict), it does not read them
        assert config.DEFAULTS
        return
    assert check((ROOT / home).read_text(encoding="utf-8")), home


@pytest.mark.parametrize("concept,copy", [
    ("error answers", 'return jsonify(error={"code": "x", "message": m}), 400'),
    ("error answers", 'return jsonify({"error": {"code": "x"}}), 400'),
    ("error answers", 'return render_template("error.html", status=404, title=t, message=m), 404'),
    ("error answers", '@bp.app_errorhandler(ServiceError)\ndef f(exc): pass'),
    ("error answers", 'start_response("400 Bad Request", [])'),
    ("error answers", 'return Response("no", status=403)'),
    ("configuration defaults", 'app.config.setdefault("POLL_MS", 1000)'),
    ("configuration defaults", 'allowed = current_app.config.get("ALLOW_SIGNUP", True)'),
    ("configuration defaults", 'from .services.deals import DEFAULTS as PLAY_DEFAULTS'),
    ("who is asking", 'if not current_user.is_authenticated:\n    return login_manager.unauthorized()'),
    ("who is asking", 'tables.is_teacher(table, current_user.id)'),
    ("who is asking", 'if data.get("_user_id"): pass'),
    ("who is asking", 'tokens = session.get("seats")'),
    ("the request's table code", 'code = (request.view_args or {}).get("code")'),
    ("the request's table code", 'code = request.form.get("code", "")'),
    ("the request's table code", 'from ..services.reading import normalize_code'),
    ("the request's language", 'locale = get_locale()'),
    ("the request's language", 'request.accept_languages.best_match(LANGUAGES)'),
    ("the request's language", 'request.cookies.get("lang")'),
])
def test_each_check_catches_a_copy(concept, copy):
    check = CHECKS[concept][0]
    assert check(copy), copy


# ----------------------------------------------------------------------------------------------------
# Configuration: one dict, applied once
# ----------------------------------------------------------------------------------------------------
def test_the_app_holds_every_default_of_config(app):
    given = {"TESTING", "SQLALCHEMY_DATABASE_URI", "SQLALCHEMY_ENGINE_OPTIONS"}  # (the test's own settings)
    assert {key: app.config[key] for key in config.DEFAULTS if key not in given} == \
        {key: value for key, value in config.DEFAULTS.items() if key not in given}
    assert app.config["SESSION_COOKIE_SAMESITE"] == "Lax"


def test_the_pace_services_fall_back_on_agrees_with_config():
    """services/deals.py keeps a constant of its own (read outside a configured app): the same values."""
    assert {key: config.DEFAULTS[key] for key in deals.DEFAULTS} == deals.DEFAULTS


def test_a_setting_given_overrides_its_default_and_samesite_is_never_unset(tmp_path, monkeypatch):
    monkeypatch.setenv("AUTHORS_INSTANCE_PATH", str(tmp_path))
    merged = config.settings(str(tmp_path), {"POLL_MS": 250, "SESSION_COOKIE_SAMESITE": None})
    assert merged["POLL_MS"] == 250 and merged["HAND_PAUSE_SECONDS"] == config.DEFAULTS["HAND_PAUSE_SECONDS"]
    assert merged["SESSION_COOKIE_SAMESITE"] == "Lax"
    merged["SQLALCHEMY_ENGINE_OPTIONS"]["pool_pre_ping"] = False  # a copy: the defaults stay as they are
    assert config.DEFAULTS["SQLALCHEMY_ENGINE_OPTIONS"] == {"pool_pre_ping": True}


# ----------------------------------------------------------------------------------------------------
# Who is asking: the teacher-only blueprints share one guard
# ----------------------------------------------------------------------------------------------------
def test_the_teacher_only_blueprints_share_the_one_guard(app):
    for blueprint in (classes.bp, reports.bp, studio.bp):
        assert app.before_request_funcs.get(blueprint.name) == [asking.refuse_strangers], blueprint.name


@pytest.mark.parametrize("path", ["/classes/", "/reports/", "/studio/"])
def test_a_stranger_is_sent_to_log_in_by_every_teacher_only_blueprint(client, path):
    answer = client.get(path)
    assert answer.status_code == 302 and "/login?next=" in answer.headers["Location"]
    answer = client.get(path, headers={"Accept": "application/json"})
    assert answer.status_code == 401 and answer.get_json()["error"]["code"] == "login-required"
