"""Every error answers with its status and a plain message: JSON for the API, a page for people."""
from __future__ import annotations

from flask import Flask, jsonify, render_template, request
from werkzeug.exceptions import HTTPException


def register(app: Flask) -> None:
    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException):
        message = exc.description or exc.name
        if request.path.startswith("/api/") or request.accept_mimetypes.best == "application/json":
            return jsonify(error={"code": exc.name.lower().replace(" ", "-"), "message": message}), exc.code
        return render_template("error.html", status=exc.code, title=exc.name, message=message), exc.code
