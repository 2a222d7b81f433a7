"""Configuration from the environment, with defaults that are safe on a teacher's laptop."""
from __future__ import annotations

import os
import secrets
from pathlib import Path


def from_environment(instance_path: str) -> dict:
    instance = Path(instance_path)
    database_url = os.environ.get("DATABASE_URL") or f"sqlite:///{instance / 'authors.sqlite3'}"
    secret = os.environ.get("SECRET_KEY")
    if not secret:
        # A laptop default: a random key kept in instance/, so sessions survive a restart.
        key_file = instance / "secret_key"
        if key_file.exists():
            secret = key_file.read_text().strip()
        else:
            secret = secrets.token_hex(32)
            key_file.write_text(secret)
            key_file.chmod(0o600)
    return {
        "SECRET_KEY": secret,
        "SQLALCHEMY_DATABASE_URI": database_url,
        "SQLALCHEMY_TRACK_MODIFICATIONS": False,
        "MAX_CONTENT_LENGTH": 2 * 1024 * 1024,
        "UPLOAD_FOLDER": str(instance / "uploads"),
    }
