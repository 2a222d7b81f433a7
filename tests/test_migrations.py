"""The migrations build exactly the schema the models describe, on SQLite and on PostgreSQL."""
from __future__ import annotations

import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

import flask_migrate
import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect, text

from app import create_app
from app.db import db
from app.factory import MIGRATIONS
from app.models import Deal, MoveRow, Table, Teacher
from tests.conftest import SERVER_DATABASE, database_url


def head_revision() -> str:
    """The newest migration: the one every database is brought to (a single head)."""
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    config = Config()
    config.set_main_option("script_location", str(Path(__file__).resolve().parents[1] / "app" / "migrations"))
    heads = ScriptDirectory.from_config(config).get_heads()
    assert len(heads) == 1, f"the migrations have {len(heads)} heads: {heads}"
    return heads[0]


HEAD = head_revision()


def drop_everything() -> None:
    db.drop_all()
    with db.engine.begin() as connection:
        connection.execute(text("DROP TABLE IF EXISTS alembic_version"))


@contextmanager
def migrated_app(tmp_path, monkeypatch):
    """The app on an empty database brought to the head by the migrations, in its app context; on a
    server database everything is dropped again afterwards."""
    monkeypatch.setenv("AUTHORS_INSTANCE_PATH", str(tmp_path / "instance"))
    url = database_url(tmp_path)
    if SERVER_DATABASE:  # start from an empty server database
        scratch = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": url})
        with scratch.app_context():
            drop_everything()
            db.engine.dispose()
    app = create_app({"TESTING": True, "USE_MIGRATIONS": True, "SQLALCHEMY_DATABASE_URI": url})
    with app.app_context():
        try:
            yield app
        finally:
            db.session.remove()
            if SERVER_DATABASE:
                drop_everything()
            db.engine.dispose()


@pytest.mark.database
def test_the_migrations_build_the_models_schema(tmp_path, monkeypatch):
    with migrated_app(tmp_path, monkeypatch):
        with db.engine.connect() as connection:
            context = MigrationContext.configure(connection)
            assert context.get_current_revision() == HEAD
            differences = compare_metadata(context, db.metadata)
        assert differences == [], differences


def test_authors_db_upgrade_prepares_a_fresh_database(tmp_path):
    import os

    env = {**os.environ, "AUTHORS_INSTANCE_PATH": str(tmp_path)}
    env.pop("DATABASE_URL", None)
    result = subprocess.run([str(Path(sys.executable).parent / "authors"), "db", "upgrade"], env=env,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    import sqlite3

    tables = {row[0] for row in sqlite3.connect(tmp_path / "authors.sqlite3").execute(
        "select name from sqlite_master where type = 'table'")}
    assert {"alembic_version", "play_tables", "play_moves", "teachers", "studio_decks"} <= tables


def test_the_table_language_migration_adds_the_column_and_old_tables_play_in_english(tmp_path, monkeypatch):
    """0002 (issue #9): play_tables.language, the language the teacher chose; a table from before it is English."""
    monkeypatch.setenv("AUTHORS_INSTANCE_PATH", str(tmp_path / "instance"))
    app = create_app({"TESTING": True, "USE_MIGRATIONS": True,
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'language.sqlite3'}"})
    with app.app_context():
        try:
            flask_migrate.downgrade(directory=str(MIGRATIONS), revision="0001")
            assert "language" not in {c["name"] for c in inspect(db.engine).get_columns("play_tables")}
            with db.engine.begin() as connection:
                connection.execute(text(
                    "INSERT INTO teachers (id, name, name_key, password_hash, session_version, created_at) "
                    "VALUES (1, 'Ms Teacher', 'ms teacher', 'x', 0, 0)"))
                connection.execute(text(
                    "INSERT INTO play_tables (code, name, deck_id, rules, options_json, match_format, match_value, "
                    "status, teacher_id, created_at, changed_at, next_bot_at, version) "
                    "VALUES ('ACEFHK', '', 'standard-52', 'standard', '{}', 'hands', 1, 'lobby', 1, 0, 0, 0, 1)"))
            flask_migrate.upgrade(directory=str(MIGRATIONS))
            with db.engine.connect() as connection:
                assert MigrationContext.configure(connection).get_current_revision() == HEAD
                assert connection.execute(text("SELECT language FROM play_tables WHERE code = 'ACEFHK'")).scalar() == "en"
        finally:
            db.engine.dispose()


@pytest.mark.database
def test_the_deals_migration_keeps_every_deal_and_move_under_the_new_names(tmp_path, monkeypatch):
    """0013: `play_hands` becomes `play_deals` and the move log's `hand_id` becomes `deal_id`; a match
    stored before keeps its deals, its moves and the link between them, both ways."""
    with migrated_app(tmp_path, monkeypatch):
        teacher = Teacher(name="Ms Teacher", name_key="ms teacher", password_hash="x")
        db.session.add(teacher)
        db.session.flush()
        table = Table(code="ACEFHK", deck_id="standard-52", rules="standard", teacher_id=teacher.id)
        for number, seqs in ((1, (0, 1)), (2, (0,))):
            table.deals.append(Deal(number=number, header_json="{}", moves=[
                MoveRow(seq=seq, data_json=f'{{"seq": {seq}}}', played_at=0.0) for seq in seqs]))
        db.session.add(table)
        db.session.commit()
        db.session.remove()
        flask_migrate.downgrade(directory=str(MIGRATIONS), revision="0012")
        names = inspect(db.engine).get_table_names()
        assert "play_hands" in names and "play_deals" not in names
        with db.engine.connect() as connection:
            assert connection.execute(text(
                "SELECT h.number, m.seq FROM play_moves m JOIN play_hands h ON h.id = m.hand_id "
                "ORDER BY h.number, m.seq")).all() == [(1, 0), (1, 1), (2, 0)]
        flask_migrate.upgrade(directory=str(MIGRATIONS))
        names = inspect(db.engine).get_table_names()
        assert "play_deals" in names and "play_hands" not in names
        assert "deal_id" in {c["name"] for c in inspect(db.engine).get_columns("play_moves")}
        deals = Deal.query.order_by(Deal.number).all()
        assert [(d.number, [m.seq for m in d.moves]) for d in deals] == [(1, [0, 1]), (2, [0])]
        assert sorted(m.deal.number for m in MoveRow.query.all()) == [1, 1, 2]
