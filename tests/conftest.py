"""Fixtures: a fresh app and database per test.

The suite runs on SQLite by default. With AUTHORS_TEST_DATABASE_URL set (for example
postgresql+psycopg://postgres@127.0.0.1:5432/test, as `make test-postgres` does) the tests that use a
database run against that server instead, each on empty tables, and the others are left out.
"""
import os

import pytest

from app import create_app
from app.db import db

from .error_sentences import every_error_sentence_is_translatable  # noqa: F401 (autouse: every error in five languages)
from .web_support import CSRFClient, for_play

SERVER_DATABASE = os.environ.get("AUTHORS_TEST_DATABASE_URL")
DATABASE_FIXTURES = {"app", "client"}
# A test's app has a pool of one connection: a request that asked for a second one while it holds one
# would wait for itself and fail (a full pool of a busy server would wait the same way: tests/
# test_pool_waits.py). The tests of many threads at once ask for the pool as served (app_config).
ONE_CONNECTION = {"SQLALCHEMY_ENGINE_OPTIONS": {"pool_size": 1, "max_overflow": 0, "pool_timeout": 5}}


def database_url(tmp_path) -> str:
    return SERVER_DATABASE or f"sqlite:///{tmp_path / 'test.sqlite3'}"


# The slow tier (`make test` runs it; `make test-fast` leaves it out): a browser, a real server in a
# process of its own, a wheel built and installed, or the benchmark scripts run.
SLOW_MODULES = {"test_bench_scripts", "test_deck_folder", "test_faults", "test_http_server", "test_packaging",
                "test_serve_class", "test_streams", "test_two_servers"}


def pytest_collection_modifyitems(config, items):
    for item in items:
        module = item.module.__name__ if item.module else ""
        if module.rpartition(".")[2] in SLOW_MODULES or "e2e" in module.split("."):
            item.add_marker(pytest.mark.slow)
    if not SERVER_DATABASE:
        return
    keep = [item for item in items if DATABASE_FIXTURES & set(getattr(item, "fixturenames", ()))
            or item.get_closest_marker("database")]
    config.hook.pytest_deselected(items=[item for item in items if item not in keep])
    items[:] = keep


def pytest_configure(config):
    config.addinivalue_line("markers", "database: the test uses a database (it runs on PostgreSQL too)")
    config.addinivalue_line("markers", "slow: a browser, a real server, a wheel or a benchmark script (make test-fast "
                                       "leaves these out)")
    config.addinivalue_line("markers", "app_config(**settings): settings of the test's own for its `app`")


@pytest.fixture
def app(request, tmp_path, monkeypatch):
    monkeypatch.setenv("AUTHORS_INSTANCE_PATH", str(tmp_path / "instance"))
    marker = request.node.get_closest_marker("app_config")
    settings = {**ONE_CONNECTION, **(marker.kwargs if marker else {})}
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": database_url(tmp_path), **settings})
    app.test_client_class = CSRFClient  # sends the CSRF token as the pages do
    yield app
    with app.app_context():
        if SERVER_DATABASE:
            db.session.remove()
            db.drop_all()
        db.engine.dispose()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def play_app(app):
    """The test app with computer players moving at once and a fixed deal seed."""
    return for_play(app)
