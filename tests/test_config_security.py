"""Production configuration refuses default secrets; every response carries the security headers."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from app import create_app
from app.config import ConfigError, check_secret_key

AUTHORS = str(Path(sys.executable).parent / "authors")


@pytest.mark.parametrize("key", [None, "", "dev", "change-me", "short-but-random-1234"])
def test_production_refuses_a_missing_or_default_key(key, monkeypatch, tmp_path):
    with pytest.raises(ConfigError):
        check_secret_key(key)
    monkeypatch.setenv("AUTHORS_ENV", "production")
    monkeypatch.setenv("AUTHORS_INSTANCE_PATH", str(tmp_path))
    if key is None:
        monkeypatch.delenv("SECRET_KEY", raising=False)
    else:
        monkeypatch.setenv("SECRET_KEY", key)
    with pytest.raises(ConfigError):
        create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'db.sqlite3'}"})


def test_production_with_a_real_key_sends_secure_cookies(monkeypatch, tmp_path):
    monkeypatch.setenv("AUTHORS_ENV", "production")
    monkeypatch.setenv("AUTHORS_INSTANCE_PATH", str(tmp_path))
    monkeypatch.setenv("SECRET_KEY", "x" * 12 + "a-long-random-secret-value")
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'db.sqlite3'}"})
    assert app.config["SESSION_COOKIE_SECURE"] is True
    assert not (tmp_path / "secret_key").exists()  # no laptop key file in production
    response = app.test_client().get("/")
    assert response.headers["Strict-Transport-Security"].startswith("max-age=")


def test_serve_prod_refuses_to_start_with_a_default_key(tmp_path):
    result = subprocess.run([AUTHORS, "serve", "--prod"], capture_output=True, text=True,
                            env={"PATH": "/usr/bin:/bin", "SECRET_KEY": "dev", "AUTHORS_INSTANCE_PATH": str(tmp_path)})
    assert result.returncode == 1 and "SECRET_KEY" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize("path", ["/", "/decks/authors-1861", "/decks/nope", "/static/site.css"])
def test_every_response_has_the_security_headers(client, path):
    response = client.get(path)
    policy = response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy
    assert "frame-ancestors 'none'" in policy
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["X-Frame-Options"] == "DENY"
    assert response.headers["Referrer-Policy"] == "same-origin"


def test_no_template_has_inline_script_or_style():
    templates = Path(__file__).resolve().parents[1] / "app" / "templates"
    for page in templates.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        for position in range(len(text)):
            position = text.find("<script", position)
            if position < 0:
                break
            tag = text[position:text.find(">", position)]
            # a script comes from a file; a JSON data block is data the browser never runs
            assert "src=" in tag or 'type="application/json"' in tag, f"{page.name} has an inline script"
        assert "<style" not in text and " style=" not in text, f"{page.name} has inline style"
        assert " onclick=" not in text.lower() and " onload=" not in text.lower(), f"{page.name}: inline handler"
