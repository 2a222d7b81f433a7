"""The Flask application factory."""
from __future__ import annotations

import gc
import os
from pathlib import Path

import flask_migrate
from flask import Flask
from flask_migrate import Migrate
from sqlalchemy import inspect
from werkzeug.middleware.proxy_fix import ProxyFix

from .config import settings
from . import i18n
from .db import db, patiently, schema_lock


MIGRATIONS = Path(__file__).resolve().parent / "migrations"
migrate = Migrate()


def prepare_schema(app: Flask) -> None:
    """Tests build the schema straight from the models; every other start applies the migrations
    (Alembic, the same for SQLite and PostgreSQL), so a laptop's database and a district's stay alike.
    `authors db upgrade` does the same by hand; `authors serve` runs it once, before its workers start."""
    if app.testing and not app.config.get("USE_MIGRATIONS"):
        db.create_all()
        return
    with patiently(), schema_lock(db.engine):  # servers started together: one migrates, the others wait
        tables = set(inspect(db.engine).get_table_names())
        if tables and "alembic_version" not in tables:
            # Made by create_all (a test, or a build from before migrations): it is the baseline schema.
            flask_migrate.stamp(directory=str(MIGRATIONS), revision="0001")
        flask_migrate.upgrade(directory=str(MIGRATIONS))


def create_app(test_config: dict | None = None) -> Flask:
    instance_path = os.environ.get("AUTHORS_INSTANCE_PATH")
    app = Flask(__name__, instance_path=instance_path or None, instance_relative_config=True)
    from .web.json_provider import OrjsonProvider
    app.json = OrjsonProvider(app)
    from .web.sessions import CookieSessions
    app.session_interface = CookieSessions()
    os.makedirs(app.instance_path, exist_ok=True)
    app.config.from_mapping(settings(app.instance_path, test_config))  # every default: app/config.py

    from . import models  # noqa: F401  (the tables must be known before the schema is prepared)
    db.init_app(app)
    migrate.init_app(app, db, directory=str(MIGRATIONS), render_as_batch=True)
    i18n.init_app(app)
    with app.app_context():
        prepare_schema(app)
        if not app.testing and hasattr(os, "register_at_fork"):
            # a server that forks its workers after this (gunicorn --preload, say): a child must not reuse
            # the parent's connections.
            engines = list(db.engines.values())
            os.register_at_fork(after_in_child=lambda: [engine.dispose(close=False) for engine in engines])

    from .web import errors, library

    app.register_blueprint(library.bp)
    from .web import printing
    app.register_blueprint(printing.bp)
    from .web import rules
    app.register_blueprint(rules.bp)
    from .web import api, play, tables
    app.register_blueprint(tables.bp)
    app.register_blueprint(play.bp)
    app.register_blueprint(api.bp)
    from .web import events
    app.register_blueprint(events.bp)  # a table's state stream, held open by app/streaming.py (issue #32)
    from .web import accounts, csrf, reports, studio
    accounts.register(app)
    csrf.register(app)
    app.register_blueprint(accounts.bp)
    app.register_blueprint(studio.bp)
    app.register_blueprint(reports.bp)
    from .web import classes, learning
    app.register_blueprint(classes.bp)
    app.register_blueprint(learning.bp)  # what the class remembers: its grid of works (issue #34)
    from .web import network
    app.register_blueprint(network.bp)  # the teacher's network check (issue #31)
    from .web import homework
    app.register_blueprint(homework.bp)  # homework against the computer (issue #34)
    errors.register(app)
    from .web import guard
    guard.register(app)  # 503 when the database does not answer, 413, join-code guessing (issue #8)
    from .web import security

    if app.config.get("ALLOWED_HOSTS"):
        app.wsgi_app = security.AllowedHosts(app.wsgi_app, app.config["ALLOWED_HOSTS"])
    proxies = int(app.config.get("TRUSTED_PROXIES") or 0)
    if proxies:
        # The client's address and scheme from the proxies' X-Forwarded-* headers: the rate limits count
        # each student's address, not the proxy's, and links and secure cookies see https.
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies)
    security.register(app)  # every response carries the security headers
    return app


def create_served_app(config: dict | None = None) -> Flask:
    """The app as each worker of `authors serve` runs it: built, then every object it holds set aside from
    the garbage collector (gc.freeze). They live as long as the worker, and each full collection would
    walk them all again (bench/move_instructions.py, which builds its app here too). Not in create_app: a
    process that builds many apps (the tests) must have the old ones collected. Each worker also runs the
    game's clock (app/services/clock.py): computer players move, turn times run out and the pause between
    hands ends with no screen asking. Not in create_app either: tests build many apps. And on PostgreSQL
    each worker tells the others of its commits (NOTIFY: app/store/changes.py), for their state streams."""
    app = create_app(config)
    gc.freeze()
    from .services.clock import Clock
    from .store import changes
    Clock().start(app)
    changes.tell_others(app)
    return app
