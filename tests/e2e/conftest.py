"""End-to-end fixtures: the app served by a real server thread on a random port with a temporary
database, and Debian's Chromium driven by Playwright. Skipped, with the reason, where no Chromium exists."""
from __future__ import annotations

import logging
import os
import threading

import pytest

from ..web_support import TEACHER_PASSWORD, make_teacher
from .a11y_support import axe_source, log_in, new_context, watch

CHROMIUM = os.environ.get("AUTHORS_CHROMIUM", "/usr/bin/chromium")


@pytest.fixture(scope="module")
def live_app(tmp_path_factory):
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"no Chromium at {CHROMIUM}: install the Debian package `chromium` to run the browser tests")
    from werkzeug.serving import make_server

    from app import create_app
    from app.db import db

    folder = tmp_path_factory.mktemp("e2e")
    old = os.environ.get("AUTHORS_INSTANCE_PATH")
    os.environ["AUTHORS_INSTANCE_PATH"] = str(folder / "instance")
    try:
        app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'e2e.sqlite3'}",
                          "BOT_PACE_SECONDS": 0, "HAND_PAUSE_SECONDS": 0, "POLL_MS": 250, "DEAL_SEED": 11})
    finally:
        if old is None:
            os.environ.pop("AUTHORS_INSTANCE_PATH", None)
        else:
            os.environ["AUTHORS_INSTANCE_PATH"] = old
    assert "script-src 'self'" in app.test_client().get("/").headers["Content-Security-Policy"]
    make_teacher(app)  # "Ms Teacher", who logs in with TEACHER_PASSWORD (the teacher_page fixture)
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    from app.services.clock import Clock

    clock = Clock().start(app)  # the game's time, as each worker of `authors serve` keeps it
    app.base_url = f"http://127.0.0.1:{server.server_port}"
    yield app
    clock.stop()
    server.shutdown()
    thread.join(5)
    with app.app_context():
        db.engine.dispose()


@pytest.fixture(scope="module")
def browser(live_app):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def axe():
    """axe-core's source (skipped, with the reason, where npm has not installed it)."""
    return axe_source()


@pytest.fixture(scope="module")
def teacher(live_app, browser):
    """One page of the teacher's, logged in, for the whole module."""
    context = new_context(browser)
    page = context.new_page()
    errors = watch(page)
    log_in(page, live_app.base_url)
    yield page
    assert not errors, errors
    context.close()


@pytest.fixture
def new_page(browser):
    """A fresh browser context per call (a student's phone, the projector), of the size asked for:
    new_page(viewport={...}, reduced_motion="reduce")."""
    contexts = []

    def make(**options):
        context = new_context(browser, **options)
        contexts.append(context)
        page = context.new_page()
        watch(page)  # a script error or a refusal of the strict Content-Security-Policy fails the test
        return page

    yield make
    for context in contexts:
        for page in context.pages:
            assert not getattr(page, "js_errors", []), page.js_errors
        context.close()


@pytest.fixture
def teacher_page(live_app, new_page):
    """Make a page logged in as the teacher, through the log-in form: opening tables needs a teacher."""

    def make(name: str = "Ms Teacher"):
        page = new_page()
        page.goto(f"{live_app.base_url}/login")
        page.fill("#name", name)
        page.fill("#password", TEACHER_PASSWORD)
        page.click("form.account-form button[type=submit]")
        page.wait_for_url("**/teacher")
        return page

    return make


@pytest.fixture(scope="module")
def served_app(tmp_path_factory):
    """The app as `authors serve` serves it (granian, the state streams in front of Flask: app/streaming.py)
    in a process of its own on a temporary SQLite database, where `live_app` is a werkzeug thread (which
    cannot stream). Its `base_url`, its `server` (tests/server_support.py), and an app on the same database
    for what a test reads or writes itself (the teacher "Ms Teacher" is made in it)."""
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"no Chromium at {CHROMIUM}: install the Debian package `chromium` to run the browser tests")
    from app import create_app
    from app.db import db

    from ..server_support import Server

    folder = tmp_path_factory.mktemp("e2e-served")
    url = f"sqlite:///{folder / 'served.sqlite3'}"
    server = Server(url, folder / "instance", workers=1, threads=2,
                    env={"AUTHORS_BOT_PACE_SECONDS": "0.5", "AUTHORS_HAND_PAUSE_SECONDS": "0"}).start()
    old = os.environ.get("AUTHORS_INSTANCE_PATH")
    os.environ["AUTHORS_INSTANCE_PATH"] = str(folder / "test-instance")
    try:
        app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": url})
    finally:
        if old is None:
            os.environ.pop("AUTHORS_INSTANCE_PATH", None)
        else:
            os.environ["AUTHORS_INSTANCE_PATH"] = old
    make_teacher(app)
    app.base_url = f"http://127.0.0.1:{server.port}"
    app.server = server
    yield app
    server.stop()
    with app.app_context():
        db.engine.dispose()
