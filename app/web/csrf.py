"""CSRF protection (Flask-WTF) on every state-changing request: forms carry a hidden csrf_token field,
the pages put the token in <meta name="csrf-token"> and app/static/js/common.js sends it as the
X-CSRFToken header of every API call. A script gets one from GET /api/csrf-token (same session).
A request without a valid token is a 400 that says so (JSON under /api/), never a 500 (errors.py)."""
from __future__ import annotations

import hmac

from flask import Flask, jsonify
from flask_wtf.csrf import CSRFProtect, generate_csrf, same_origin
from itsdangerous import BadData, URLSafeTimedSerializer
from werkzeug.wsgi import get_host

from .sessions import Verified

csrf = CSRFProtect()
# The play door's check: one serializer per key, and a browser's token (sent with each of its moves)
# verified once, then only its age checked.
_door_signers: dict[str, URLSafeTimedSerializer] = {}
_door_tokens = Verified()


def register(app: Flask) -> None:
    csrf.init_app(app)  # (a refusal is errors.csrf_refused's 400)

    def csrf_token_view():
        """The CSRF token of this session, for API clients (send it back as X-CSRFToken)."""
        response = jsonify(csrf_token=generate_csrf())
        response.headers["Cache-Control"] = "no-store"
        return response

    app.add_url_rule("/api/csrf-token", "csrf_token", csrf_token_view, methods=["GET"])


def door_check(app: Flask, session_data: dict, environ: dict) -> bool:
    """Whether a request the play door answers (app/web/play_door.py), with no request context, passes
    Flask-WTF's own check (CSRFProtect.protect with validate_csrf): one of WTF_CSRF_HEADERS holds a token
    signed for this session (the same serializer and salt), within WTF_CSRF_TIME_LIMIT; over HTTPS with
    WTF_CSRF_SSL_STRICT, a Referer of this host. False sends the request on to Flask, whose check then
    refuses it with its own sentence (tests/test_play_door.py holds the two checks to the same verdicts)."""
    config = app.config
    if not config["WTF_CSRF_ENABLED"] or not config["WTF_CSRF_CHECK_DEFAULT"]:
        return True
    sent = next((environ.get("HTTP_" + name.upper().replace("-", "_")) for name in config["WTF_CSRF_HEADERS"]
                 if environ.get("HTTP_" + name.upper().replace("-", "_"))), None)
    field = config["WTF_CSRF_FIELD_NAME"]
    if not sent or field not in session_data:
        return False
    key = config.get("WTF_CSRF_SECRET_KEY") or app.secret_key
    signer = _door_signers.get(key)
    if signer is None:
        signer = _door_signers[key] = URLSafeTimedSerializer(key, salt="wtf-csrf-token")
    limit = config["WTF_CSRF_TIME_LIMIT"]
    try:
        token = _door_tokens.loads(signer, sent, limit)
    except BadData:
        return False
    if not isinstance(token, str) or not hmac.compare_digest(session_data[field], token):
        return False
    if environ.get("wsgi.url_scheme") == "https" and config["WTF_CSRF_SSL_STRICT"]:
        referrer = environ.get("HTTP_REFERER")
        return bool(referrer) and same_origin(referrer, f"https://{get_host(environ)}/")
    return True
