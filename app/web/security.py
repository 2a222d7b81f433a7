"""Security headers on every response: a strict Content-Security-Policy (no inline script) and friends."""
from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from flask import Flask
from werkzeug.exceptions import SecurityError
from werkzeug.wsgi import get_host

from .errors import wrong_host

if TYPE_CHECKING:
    from _typeshed import OptExcInfo
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])

HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=()",
    "Cross-Origin-Opener-Policy": "same-origin",
}


class SecurityHeaders:
    """WSGI middleware: the security headers added to every response's header list, unless the response
    set one itself. (At the WSGI level it is a list append; Werkzeug's Headers.setdefault, once per header,
    profiled among the largest costs of a bare request.)"""

    def __init__(self, app: Flask, wsgi_app: WSGIApplication) -> None:
        self.wsgi_app = wsgi_app
        self.headers = list(HEADERS.items())
        if app.config.get("SESSION_COOKIE_SECURE"):
            self.headers.append(("Strict-Transport-Security", "max-age=31536000"))

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        def with_headers(status: str, headers: list[tuple[str, str]],
                         exc_info: OptExcInfo | None = None) -> Callable[[bytes], object]:
            present = {name.lower() for name, _ in headers}
            headers.extend(item for item in self.headers if item[0].lower() not in present)
            return start_response(status, headers, exc_info)

        return self.wsgi_app(environ, with_headers)


class AllowedHosts:
    """WSGI middleware: a request whose Host (after ProxyFix) is not one of ALLOWED_HOSTS is a 400 with a
    sentence (errors.wrong_host). (Flask's own TRUSTED_HOSTS refuses inside the request context, where the error page cannot
    build its links, and answers 500.)"""

    def __init__(self, wsgi_app: WSGIApplication, hosts: list[str]) -> None:
        self.wsgi_app, self.hosts = wsgi_app, hosts

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        try:
            get_host(environ, self.hosts)
        except SecurityError:
            status, headers, body = wrong_host(self.hosts)
            start_response(status, headers)
            return [body]
        return self.wsgi_app(environ, start_response)


def register(app: Flask) -> None:
    app.wsgi_app = SecurityHeaders(app, app.wsgi_app)  # type: ignore[method-assign]  # Flask's way to wrap it
