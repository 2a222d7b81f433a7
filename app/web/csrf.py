"""CSRF protection (Flask-WTF) on every state-changing request: forms carry a hidden csrf_token field,
the pages put the token in <meta name="csrf-token"> and app/static/js/common.js sends it as the
X-CSRFToken header of every API call. A script gets one from GET /api/csrf-token (same session).
A request without a valid token is a 400 that says so (JSON under /api/), never a 500 (errors.py)."""
from __future__ import annotations

from flask import Flask, jsonify
from flask_wtf.csrf import CSRFProtect, generate_csrf

csrf = CSRFProtect()


def register(app: Flask) -> None:
    csrf.init_app(app)  # (a refusal is errors.csrf_refused's 400)

    def csrf_token_view():
        """The CSRF token of this session, for API clients (send it back as X-CSRFToken)."""
        response = jsonify(csrf_token=generate_csrf())
        response.headers["Cache-Control"] = "no-store"
        return response

    app.add_url_rule("/api/csrf-token", "csrf_token", csrf_token_view, methods=["GET"])

