"""Absolute links (a table's join link and QR code, an invitation): built on the configured public
address, never on the request's Host header, which whoever sends the request chooses."""
from __future__ import annotations

import hashlib
from functools import lru_cache
from typing import Any
from urllib.parse import urlsplit

from flask import Flask, Response, current_app, request, url_for

from ..services.qr import qr_svg

# Where `authors serve` listens by default; a server started otherwise names its address (PUBLIC_URL).
FALLBACK = "http://127.0.0.1:5000"


def public_base() -> str:
    return current_app.config.get("PUBLIC_URL") or FALLBACK


def public_url(endpoint: str, **values: Any) -> str:
    """url_for's path on the public address. A path in PUBLIC_URL (the app behind a proxy's prefix) is
    not doubled when the request already carries it as its script root."""
    return _on_base(public_base(), url_for(endpoint, _external=False, **values))


def qr_of_link(link: str) -> Response:
    """A link's QR code (SVG). The link comes from the configuration, the same for every request: an
    address that changes (a laptop on another network) is seen within the hour, revalidated by its ETag."""
    response = Response(qr_svg(link), mimetype="image/svg+xml")
    response.set_etag(hashlib.sha256(link.encode()).hexdigest()[:32])
    response.headers["Cache-Control"] = "private, max-age=3600"
    response.make_conditional(request)  # (304 when the ETag matches: the same response, changed in place)
    return response


def _on_base(base: str, path: str) -> str:
    """`path` on the public address `base`; a path in it (the app behind a proxy's prefix) is not doubled."""
    prefix = urlsplit(base).path
    if prefix and (path == prefix or path.startswith(prefix + "/")):
        path = path[len(prefix):]
    return base + path


@lru_cache(maxsize=2048)
def _table_links(app: Flask, code: str, base: str, script_root: str) -> tuple[str, dict[str, str]]:
    routes = app.url_map.bind("localhost", script_name=script_root or "/")

    def path(endpoint: str, **values: Any) -> str:
        return routes.build(endpoint, values)

    return _on_base(base, path("tables.join_link", code=code)), {"play": path("play.play", code=code), "projector": path("tables.projector", code=code),
                         "qr": path("tables.qr", code=code), "deck": path("api.deck", code=code)}


def table_links(code: str, script_root: str) -> tuple[str, dict[str, str]]:
    """A table's join link (on the public address, as `public_url` builds it) and its pages' paths
    under the prefix the app is served at (`script_root`): the same for every state of the table, so
    built once, from the app's URL map, with or without a request."""
    return _table_links(current_app._get_current_object(), code, public_base(), script_root)  # type: ignore[attr-defined]
