import pytest

from app import create_app
from app.db import db


@pytest.fixture
def app(tmp_path, monkeypatch):
    monkeypatch.setenv("AUTHORS_INSTANCE_PATH", str(tmp_path / "instance"))
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'test.sqlite3'}"})
    yield app
    with app.app_context():
        db.engine.dispose()


@pytest.fixture
def client(app):
    return app.test_client()
