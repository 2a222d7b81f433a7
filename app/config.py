"""The configuration: every setting's default (DEFAULTS, safe on a teacher's laptop), what the environment
says, and the two merged once for the factory (`settings`).

AUTHORS_ENV=production (set by `authors serve --prod`) turns the laptop defaults off: SECRET_KEY must
come from the environment (or the file SECRET_KEY_FILE names) and be a real secret, and cookies are sent over HTTPS only unless
AUTHORS_INSECURE_COOKIES=1 (a school network without TLS in front).
"""
from __future__ import annotations

import copy
import os
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

# Every setting's default, in one place: the factory applies them once, under what the environment says
# (from_environment) and what a test or a benchmark gives (create_app's test_config). The code reads
# app.config[KEY] and never names a default of its own.
DEFAULTS: dict[str, Any] = {
    "SQLALCHEMY_TRACK_MODIFICATIONS": False,
    "SQLALCHEMY_ENGINE_OPTIONS": {"pool_pre_ping": True},
    "MAX_CONTENT_LENGTH": 2 * 1024 * 1024,
    "SESSION_COOKIE_HTTPONLY": True,
    # Never unset (a test config's None too): the session cookie stays on this site's own requests.
    "SESSION_COOKIE_SAMESITE": "Lax",
    # The session cookie is sent again only when it changes, not on every poll (its lifetime runs
    # from the last change: a seat is kept PERMANENT_SESSION_LIFETIME, 31 days).
    "SESSION_REFRESH_EACH_REQUEST": False,
    # A form's CSRF token lives as long as the session: a play screen stays open all lesson.
    "WTF_CSRF_TIME_LIMIT": None,
    # Teachers sign up freely (ALLOW_SIGNUP=1, the default), only until the first teacher exists
    # (ALLOW_SIGNUP=first, what `authors serve --class` sets on a laptop), or never (0): then only
    # with a teacher's invitation link.
    "ALLOW_SIGNUP": True,
    # Behind a reverse proxy (nginx, a load balancer): how many proxies in front of the app set
    # X-Forwarded-For/-Proto/-Host. 0 (the default) trusts none, so a student cannot pose as
    # another address to dodge the join-code limit.
    "TRUSTED_PROXIES": 0,
    # The address students open (join links, QR codes, invitations): never the request's Host header,
    # which anyone can set. PUBLIC_URL, else SERVER_NAME; `authors serve` names its own address.
    "PUBLIC_URL": None,
    # The host names requests may carry (others get 400: app/web/security.py); unset: any.
    "ALLOWED_HOSTS": None,
    # Guessing (app/web/guard.py): wrong join codes a browser may try within JOIN_GUESS_WINDOW seconds,
    # and an address (JOIN_GUESS_ADDRESS_LIMIT, from the environment too: raise it for a district whose
    # schools all reach the server through one address); the class word's, the same way.
    "JOIN_GUESS_LIMIT": 20, "JOIN_GUESS_ADDRESS_LIMIT": 300, "JOIN_GUESS_WINDOW": 600,
    "CLASS_WORD_LIMIT": 10, "CLASS_WORD_ADDRESS_LIMIT": 100,
    # The pace of play (app/services/deals.py): seconds between computer players' moves (a pace a class
    # can follow), the pause after a hand, how often a screen polls; DEAL_SEED fixes the deals (tests).
    # Tests and benchmarks of a real server set them from the environment (AUTHORS_BOT_PACE_SECONDS ...).
    "BOT_PACE_SECONDS": 2.5, "HAND_PAUSE_SECONDS": 4.0, "POLL_MS": 1000, "DEAL_SEED": None,
    # The database (app/db.py): how long a writer waits for the write lock (SQLite) or a table's lock
    # (PostgreSQL) before giving up with a 503. A PostgreSQL server that stops answering (no refusal,
    # just silence: a dead host, a cut network) is given up on: a connection after CONNECT_SECONDS (libpq's
    # least), a statement's answer after ANSWER_SECONDS (the connection is then closed: its state is
    # unknown), so a request gets its 503 within 5 s; and for SILENCE_SECONDS after that, every request
    # that needs the database gets its 503 at once, so that a class's polls do not queue behind each
    # other's waits. A connection idle in the pool this long is pinged before it is handed out.
    "DATABASE_LOCK_TIMEOUT_MS": 3_500, "DATABASE_CONNECT_SECONDS": 2, "DATABASE_ANSWER_SECONDS": 4.0,
    "DATABASE_SILENCE_SECONDS": 3.0, "DATABASE_IDLE_PING_SECONDS": 5.0,
    "SQLITE_SYNCHRONOUS": "FULL",
}

WEAK_KEYS = {"dev", "development", "secret", "secret-key", "change-me", "changeme", "default", "test", "key"}
MIN_KEY_LENGTH = 24


class ConfigError(RuntimeError):
    """The server must not start with this configuration; the message says what to set."""


def is_production() -> bool:
    return os.environ.get("AUTHORS_ENV", "development").lower() == "production"


def secret_in_file(path: Path) -> str:
    """The secret key kept in this file, made (random, readable by this user only) on first start."""
    if path.exists():
        return path.read_text().strip()
    path.parent.mkdir(parents=True, exist_ok=True)
    secret = secrets.token_hex(32)
    with open(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w") as out:
        out.write(secret)
    return secret


def configured_secret() -> str | None:
    """SECRET_KEY, or else the key kept in the file SECRET_KEY_FILE names (made there on first start: a
    container's volume, a server's state folder), or None."""
    secret = os.environ.get("SECRET_KEY")
    if not secret and os.environ.get("SECRET_KEY_FILE"):
        secret = secret_in_file(Path(os.environ["SECRET_KEY_FILE"]))
    return secret


def from_environment(instance_path: str) -> dict[str, Any]:
    instance = Path(instance_path)
    database_url = os.environ.get("DATABASE_URL") or f"sqlite:///{instance / 'authors.sqlite3'}"
    secret = configured_secret()
    production = is_production()
    if production:
        check_secret_key(secret)
    elif not secret:
        # A laptop default: a random key kept in instance/, so sessions survive a restart.
        secret = secret_in_file(instance / "secret_key")
    return _play_settings() | {
        "AUTHORS_ENV": "production" if production else "development",
        "SECRET_KEY": secret,
        "SQLALCHEMY_DATABASE_URI": database_url,
        "UPLOAD_FOLDER": str(instance / "uploads"),
        "SESSION_COOKIE_SECURE": production and os.environ.get("AUTHORS_INSECURE_COOKIES") != "1",
        "ALLOW_SIGNUP": _signup(os.environ.get("ALLOW_SIGNUP")),
        "TRUSTED_PROXIES": _count(os.environ.get("TRUSTED_PROXIES"), "TRUSTED_PROXIES"),
        "PUBLIC_URL": public_url(os.environ.get("PUBLIC_URL"), os.environ.get("SERVER_NAME")),
        "ALLOWED_HOSTS": _hosts(os.environ.get("ALLOWED_HOSTS")),
        **_join_guess_address_limit(os.environ.get("JOIN_GUESS_ADDRESS_LIMIT")),
    }


def settings(instance_path: str, given: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The app's whole configuration, applied once by the factory: DEFAULTS, under what the environment
    says, under what `given` (a test's, a benchmark's) says."""
    merged = copy.deepcopy(DEFAULTS) | from_environment(instance_path) | dict(given or {})
    merged["SESSION_COOKIE_SAMESITE"] = merged["SESSION_COOKIE_SAMESITE"] or DEFAULTS["SESSION_COOKIE_SAMESITE"]
    return merged


def _join_guess_address_limit(value: str | None) -> dict[str, int]:
    if value is None or not value.strip():
        return {}
    try:
        number = int(value)
    except ValueError:
        number = 0
    if number < 1:
        raise ConfigError(f"JOIN_GUESS_ADDRESS_LIMIT is how many wrong join codes one address may try within "
                          f"JOIN_GUESS_WINDOW (a whole number, at least 1), not {value!r}")
    return {"JOIN_GUESS_ADDRESS_LIMIT": number}


def public_url(value: str | None, server_name: str | None = None) -> str | None:
    """The configured public address as scheme://host[:port], or None; ConfigError for anything else."""
    if (value is None or not value.strip()) and server_name and server_name.strip():
        value = f"http://{server_name.strip()}"
    if value is None or not value.strip():
        return None
    parts = urlsplit(value.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
        raise ConfigError(f"PUBLIC_URL is the address students open, such as http://192.168.1.20:5000 or "
                          f"https://authors.example.org, not {value!r}")
    return f"{parts.scheme}://{parts.netloc}{parts.path.rstrip('/')}"


def _hosts(value: str | None) -> list[str] | None:
    if value is None or not value.strip():
        return None
    return [host.strip() for host in value.split(",") if host.strip()]


def _count(value: str | None, name: str) -> int:
    if value is None or not value.strip():
        return int(DEFAULTS[name])
    try:
        number = int(value)
    except ValueError:
        number = -1
    if not 0 <= number <= 10:
        raise ConfigError(f"{name} is how many proxies stand in front of the app (0 to 10), not {value!r}")
    return number


def _signup(value: str | None) -> bool | str:
    if value is not None and value.strip().lower() == "first":
        return "first"
    return _flag(value, default=DEFAULTS["ALLOW_SIGNUP"])


def _flag(value: str | None, default: bool) -> bool:
    if value is None or not value.strip():
        return default
    return value.strip().lower() not in ("0", "false", "no", "off")


def check_secret_key(secret: str | None) -> None:
    if not secret:
        raise ConfigError("SECRET_KEY is not set. In production the key must come from the environment: "
                          "generate one with `python -c 'import secrets; print(secrets.token_hex(32))'`, or "
                          "set SECRET_KEY_FILE to a file where the server keeps one it makes on first start.")
    if secret.strip().lower() in WEAK_KEYS or len(secret) < MIN_KEY_LENGTH:
        raise ConfigError(f"SECRET_KEY looks like a default or is shorter than {MIN_KEY_LENGTH} characters; "
                          "set a long random key.")


# The pace of play, from the environment (tests and benchmarks of a real server set them).
PLAY_SETTINGS = {"BOT_PACE_SECONDS": float, "HAND_PAUSE_SECONDS": float, "POLL_MS": int}


def _play_settings() -> dict[str, float | int]:
    settings: dict[str, float | int] = {}
    for name, kind in PLAY_SETTINGS.items():
        value = os.environ.get(f"AUTHORS_{name}")
        if value:
            try:
                settings[name] = kind(value)
            except ValueError:
                raise ConfigError(f"AUTHORS_{name} should be a number, not {value!r}") from None
    return settings
