"""Schema migrations and SQLite settings."""

from __future__ import annotations

import aiosqlite

from db import Database
from db.database import latest_version, migrate


async def test_new_file_gets_the_latest_schema_in_wal_mode(db_path):
    async with Database(db_path) as db:
        (version,) = await db.fetchone("PRAGMA user_version")
        (mode,) = await db.fetchone("PRAGMA journal_mode")
        assert version == latest_version() and mode == "wal"
        tables = {r[0] for r in await db.fetchall("SELECT name FROM sqlite_master WHERE type='table'")}
        assert {"sessions", "seats", "actions", "dm_refusals"} <= tables


async def test_an_old_file_is_upgraded_and_keeps_its_data(db_path):
    async with aiosqlite.connect(db_path) as conn:
        await conn.execute("CREATE TABLE keep_me (x INTEGER)")
        await conn.execute("INSERT INTO keep_me VALUES (7)")
        await conn.commit()
    async with Database(db_path) as db:
        assert (await db.fetchone("SELECT x FROM keep_me"))[0] == 7
        assert (await db.fetchone("PRAGMA user_version"))[0] == latest_version()
        assert await migrate(db.conn) == latest_version()  # idempotent


async def test_a_failed_transaction_leaves_nothing(db_path):
    async with Database(db_path) as db:
        try:
            async with db.transaction() as conn:
                await conn.execute("INSERT INTO dm_refusals VALUES (1, 'x')")
                raise RuntimeError("boom")
        except RuntimeError:
            pass
        assert await db.fetchall("SELECT * FROM dm_refusals") == []
