"""The schema is checked when the database is opened (issue 27, item 6): an older one is
migrated; a newer one, or one missing a table, is refused with a message that says what is
wrong, on SQLite and on PostgreSQL; bot.py exits with that message and no traceback."""

from __future__ import annotations

import importlib
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

import bot
from db import Database, SchemaMismatch
from db.migrate import check_schema, expected_tables, latest_version, migrations

#: the checks run on SQLite and on PostgreSQL
BACKENDS = "both"

ROOT = Path(__file__).resolve().parents[2]
#: the module (``db.migrate`` as an attribute is the package's ``migrate`` function)
MIGRATE = importlib.import_module("db.migrate")


async def set_schema_version(target, version: int) -> None:
    """Mark a migrated database as being at ``version`` (as a newer Stolik would leave it)."""
    async with Database(target) as opened, opened.transaction() as tx:
        if opened.dialect == "sqlite":
            await tx.execute(f"PRAGMA user_version = {version}")
        else:
            await tx.execute("INSERT INTO schema_version (version) VALUES (?)", (version,))


async def drop_tables(target, *names: str) -> None:
    async with Database(target) as opened, opened.transaction() as tx:
        for name in names:
            await tx.execute(f"DROP TABLE {name}")


def test_the_expected_tables_come_from_the_migrations():
    assert {"sessions", "seats", "actions", "timers", "votes", "board_posts",
            "standings", "hand_messages"} <= expected_tables()
    check_schema(latest_version(), expected_tables())  # a complete schema passes


def test_a_table_dropped_or_renamed_by_a_later_migration_is_no_longer_expected(monkeypatch):
    later = [(998, "DROP TABLE IF EXISTS votes;\n-- CREATE TABLE not_this_one (x INTEGER);\n"),
             (999, "ALTER TABLE dm_refusals RENAME TO dm_blocks;")]
    everything = migrations()
    monkeypatch.setattr(MIGRATE, "migrations", lambda dialect="sqlite": everything + later)
    tables = expected_tables()
    assert "votes" not in tables and "dm_refusals" not in tables and "not_this_one" not in tables
    assert "dm_blocks" in tables


async def test_a_database_newer_than_the_code_is_refused_naming_both_versions(db_path):
    async with Database(db_path):
        pass
    newer = latest_version() + 2
    await set_schema_version(db_path, newer)
    with pytest.raises(SchemaMismatch) as refused:
        await Database(db_path).open()
    assert str(refused.value) == (f"the database is at schema {newer}, this code knows up to "
                                  f"{latest_version()}: run a newer Stolik")


async def test_a_database_missing_tables_is_refused_naming_them(db_path):
    async with Database(db_path):
        pass
    await drop_tables(db_path, "timers", "votes")
    with pytest.raises(SchemaMismatch, match=r"schema \d+ but has no table timers, votes"):
        await Database(db_path).open()


async def test_an_older_database_is_migrated_to_the_latest(db_path, monkeypatch):
    everything = migrations
    old = [step for step in migrations() if step[0] <= 3]
    with monkeypatch.context() as patch:  # a Stolik that knew up to schema 3
        patch.setattr(MIGRATE, "migrations",
                      lambda dialect="sqlite": [s for s in everything(dialect) if s[0] <= 3])
        async with Database(db_path) as opened:
            assert await opened.schema_version() == old[-1][0] == 3
    async with Database(db_path) as opened:
        assert await opened.schema_version() == latest_version()
        await opened.fetchall("SELECT * FROM board_posts")  # a table from a later migration


def test_the_bot_refuses_a_newer_database_before_it_connects(tmp_path, monkeypatch, capsys):
    path = tmp_path / "newer.sqlite3"
    with sqlite3.connect(path) as conn:
        conn.execute(f"PRAGMA user_version = {latest_version() + 1}")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "not used")
    monkeypatch.setattr(bot, "make_bot", lambda *a, **k: pytest.fail("the bot was started"))
    assert bot.main(["--db", str(path)]) == 1
    err = capsys.readouterr().err
    assert f"schema {latest_version() + 1}, this code knows up to {latest_version()}" in err


def test_the_bot_process_exits_with_the_message_and_no_traceback(tmp_path):
    path = tmp_path / "damaged.sqlite3"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE sessions (id INTEGER PRIMARY KEY)")
        conn.execute(f"PRAGMA user_version = {latest_version()}")
    env = {**os.environ, "DISCORD_TOKEN": "not used", "STOLIK_DB": str(path)}
    env.pop("STOLIK_DISCORD_API", None)
    done = subprocess.run([sys.executable, str(ROOT / "bot.py")], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stderr
    assert "Stolik cannot start: the database is at schema" in done.stderr
    missing = ", ".join(sorted(expected_tables() - {"sessions"}))
    assert f"has no table {missing}:" in done.stderr
    assert "Traceback" not in done.stderr
