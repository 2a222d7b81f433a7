"""The Flask application factory."""
from __future__ import annotations

import os

from flask import Flask

from .config import from_environment
from . import i18n
from .db import db
from .services.hands import DEFAULTS as PLAY_DEFAULTS


def create_app(test_config: dict | None = None) -> Flask:
    instance_path = os.environ.get("AUTHORS_INSTANCE_PATH")
    app = Flask(__name__, instance_path=instance_path or None, instance_relative_config=True)
    os.makedirs(app.instance_path, exist_ok=True)
    app.config.from_mapping(from_environment(app.instance_path))
    if test_config:
        app.config.from_mapping(test_config)

    for key, value in PLAY_DEFAULTS.items():
        app.config.setdefault(key, value)
    app.config["SESSION_COOKIE_SAMESITE"] = app.config.get("SESSION_COOKIE_SAMESITE") or "Lax"

    from . import models  # noqa: F401  (the tables must be known before create_all)
    db.init_app(app)
    i18n.init_app(app)
    with app.app_context():
        db.create_all()

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
    from .web import accounts, csrf, reports, studio
    accounts.register(app)
    csrf.register(app)
    app.register_blueprint(accounts.bp)
    app.register_blueprint(studio.bp)
    app.register_blueprint(reports.bp)
    errors.register(app)
    from .web import guard
    guard.register(app)  # 503 when the database does not answer, 413, join-code guessing (issue #8)
    from .web import security

    security.register(app)
    return app
