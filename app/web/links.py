"""Absolute links (a table's join link and QR code, an invitation): built on the configured public
address, never on the request's Host header, which whoever sends the request chooses."""
from __future__ import annotations

from urllib.parse import urlsplit

from flask import current_app, url_for

# Where `authors serve` listens by default; a server started otherwise names its address (PUBLIC_URL).
FALLBACK = "http://127.0.0.1:5000"


def public_base() -> str:
    return current_app.config.get("PUBLIC_URL") or FALLBACK


def public_url(endpoint: str, **values) -> str:
    """url_for's path on the public address. A path in PUBLIC_URL (the app behind a proxy's prefix) is
    not doubled when the request already carries it as its script root."""
    base = public_base()
    path = url_for(endpoint, _external=False, **values)
    prefix = urlsplit(base).path
    if prefix and (path == prefix or path.startswith(prefix + "/")):
        path = path[len(prefix):]
    return base + path
