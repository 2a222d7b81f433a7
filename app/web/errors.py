"""Every error answers with its status and a plain message: JSON for the API, a page for people, in the
reader's language. The JSON's code stays the English name of the status (a stable code for programs)."""
from __future__ import annotations

from flask import Flask, jsonify, render_template, request
from flask_babel import gettext as _
from werkzeug.exceptions import HTTPException, RequestTimeout

from ..decks.errors import N_

TITLES = {
    400: N_("Bad request"), 401: N_("Log in first"), 403: N_("Forbidden"), 404: N_("Not found"),
    405: N_("Method not allowed"), 408: N_("Too slow"), 409: N_("Conflict"), 413: N_("Too large"), 415: N_("Unsupported file type"),
    422: N_("Cannot be processed"), 429: N_("Too many requests"), 500: N_("Server error"),
    503: N_("Service unavailable"),
}
# Werkzeug's own sentences, used when a route gave none, replaced by plain ones a reader can act on.
PLAIN = {
    400: N_("The server could not understand this request."),
    404: N_("There is nothing at this address; check it, or start again from the deck library."),
    405: N_("This address does not answer this kind of request."),
    408: N_("What was sent did not arrive in time (the network may be slow): nothing was changed. Try again."),
    413: N_("What was sent is too large."),
    429: N_("Too many requests in a short time: wait a little and try again."),
    500: N_("Something went wrong on the server. Try again; if it happens again, tell whoever runs this server."),
    503: N_("The server cannot answer just now: try again in a moment."),
}


# The server's mark, in the environ, of a request whose body did not arrive in time (app/serving.py): it
# reaches the app with no body, to be refused before anything reads one.
BODY_TIMED_OUT = "authors.body_timed_out"


def refuse_bodies_that_did_not_arrive() -> None:
    if request.environ.get(BODY_TIMED_OUT):
        raise RequestTimeout()


def register(app: Flask) -> None:
    app.before_request_funcs.setdefault(None, []).insert(0, refuse_bodies_that_did_not_arrive)

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException):
        message = exc.description or exc.name
        if message == type(exc).description and exc.code in PLAIN:
            message = _(PLAIN[exc.code])
        if request.path.startswith("/api/") or request.accept_mimetypes.best == "application/json":
            return jsonify(error={"code": exc.name.lower().replace(" ", "-"), "message": message}), exc.code
        title = _(TITLES[exc.code]) if exc.code in TITLES else exc.name
        return render_template("error.html", status=exc.code, title=title, message=message), exc.code
