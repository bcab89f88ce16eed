"""Schema migrations and the two backends' settings."""

from __future__ import annotations

import asyncio

import aiosqlite
import pytest

from db import Database, StoreBusy
from db.database import (
    IntegrityViolation,
    PostgresDatabase,
    StaleVersion,
    dollar_params,
    latest_version,
    migrate,
    split_statements,
    to_postgres,
)

#: the store suite runs on SQLite and on PostgreSQL
BACKENDS = "both"


async def test_new_file_gets_the_latest_schema_in_wal_mode_with_full_sync(tmp_path):
    async with Database(tmp_path / "s.sqlite3") as db:
        (version,) = await db.fetchone("PRAGMA user_version")
        (mode,) = await db.fetchone("PRAGMA journal_mode")
        assert version == latest_version() and mode == "wal"
        tables = {r[0] for r in await db.fetchall("SELECT name FROM sqlite_master WHERE type='table'")}
        assert {"sessions", "seats", "actions", "dm_refusals"} <= tables
        # FULL (2): a move whose board was shown survives a power loss (NORMAL may lose it)
        assert (await (await db.conn.execute("PRAGMA synchronous")).fetchone())[0] == 2


async def test_an_old_file_is_upgraded_and_keeps_its_data(tmp_path):
    path = tmp_path / "old.sqlite3"
    async with aiosqlite.connect(path) as conn:
        await conn.execute("CREATE TABLE keep_me (x INTEGER)")
        await conn.execute("INSERT INTO keep_me VALUES (7)")
        await conn.commit()
    async with Database(path) as db:
        assert (await db.fetchone("SELECT x FROM keep_me"))[0] == 7
        assert await db.schema_version() == latest_version()
        assert await migrate(db) == latest_version()  # idempotent


async def test_every_backend_gets_the_latest_schema(db_path):
    async with Database(db_path) as db:
        assert await db.schema_version() == latest_version()
        assert await migrate(db) == latest_version()


async def test_several_processes_starting_at_once_migrate_once(db_path):
    dbs = [Database(db_path) for _ in range(4)]
    try:
        await asyncio.gather(*(db.open() for db in dbs))
        for db in dbs:
            assert await db.schema_version() == latest_version()
    finally:
        for db in dbs:
            await db.close()


async def test_a_new_file_opened_by_several_at_once_never_refuses(tmp_path):
    """Switching a new SQLite file to WAL needs it to itself and SQLite does not wait for that:
    one opening in ten of six at once failed with "database is locked" before the switch was
    retried (CI saw it once)."""
    for round_ in range(20):
        dbs = [Database(tmp_path / f"new{round_}.sqlite3") for _ in range(6)]
        try:
            await asyncio.gather(*(db.open() for db in dbs))
        finally:
            for db in dbs:
                await db.close()


async def test_a_failed_transaction_leaves_nothing(db_path):
    async with Database(db_path) as db:
        with pytest.raises(RuntimeError):
            async with db.transaction() as conn:
                await conn.execute("INSERT INTO dm_refusals VALUES (1, 'x')")
                raise RuntimeError("boom")
        assert await db.fetchall("SELECT * FROM dm_refusals") == []


async def test_a_batch_is_one_transaction(db_path):
    async with Database(db_path) as db:
        counts = await db.batch([("INSERT INTO dm_refusals VALUES (1, 'a')", ()),
                                 ("INSERT INTO dm_refusals VALUES (2, 'b')", ()),
                                 ("UPDATE dm_refusals SET until = ? WHERE user_id > ?", ("c", 0))])
        assert counts == [1, 1, 2]
        # a statement that fails takes the ones before it back with it
        with pytest.raises(IntegrityViolation):
            await db.batch([("UPDATE dm_refusals SET until = 'x' WHERE user_id = 1", ()),
                            ("INSERT INTO dm_refusals VALUES (2, 'again')", ())])
        rows = await db.fetchall("SELECT user_id, until FROM dm_refusals ORDER BY user_id")
        assert [tuple(r) for r in rows] == [(1, "c"), (2, "c")]


async def test_a_guarded_batch_whose_guard_missed_writes_nothing(db_path):
    async with Database(db_path) as db:
        await db.batch([("INSERT INTO dm_refusals VALUES (1, 'kept')", ())])
        with pytest.raises(StaleVersion):
            await db.batch([("UPDATE dm_refusals SET until = 'no' WHERE user_id = 99", ()),
                            ("INSERT INTO dm_refusals VALUES (2, 'not written')", ())],
                           guarded=True)
        rows = await db.fetchall("SELECT user_id, until FROM dm_refusals")
        assert [tuple(r) for r in rows] == [(1, "kept")]
        assert await db.batch([("UPDATE dm_refusals SET until = 'yes' WHERE user_id = 1", ())],
                              guarded=True) == [1]


async def test_batches_in_flight_never_interleave_with_a_transaction(db_path):
    async with Database(db_path) as db:
        async def open_transaction() -> int:
            async with db.transaction() as tx:
                await tx.execute("INSERT INTO dm_refusals VALUES (1000, 'tx')")
                await asyncio.sleep(0.01)  # batches queue up meanwhile
                (count,) = await tx.fetchone("SELECT COUNT(*) FROM dm_refusals")
                await tx.execute("UPDATE dm_refusals SET until = ? WHERE user_id = 1000",
                                 (str(count),))
                return int(count)

        async def batch(n: int) -> list[int]:
            return await db.batch([("INSERT INTO dm_refusals VALUES (?, 'b')", (n,)),
                                   ("UPDATE dm_refusals SET until = 'batch' WHERE user_id = ?",
                                    (n,))])

        results = await asyncio.gather(*(batch(n) for n in range(20)), open_transaction(),
                                       *(batch(n) for n in range(20, 40)))
        assert all(r == [1, 1] for r in results[:20] + results[21:])
        # the transaction saw a stable set: its own row and whole batches, nothing half done
        seen = results[20]
        (kept,) = await db.fetchone("SELECT until FROM dm_refusals WHERE user_id = 1000")
        assert kept == str(seen) and 1 <= seen <= 41
        assert (await db.fetchone("SELECT COUNT(*) FROM dm_refusals WHERE until = 'batch'"))[0] \
            == 40


async def test_readers_never_see_an_open_transaction(db_path):
    async with Database(db_path) as db:
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO dm_refusals VALUES (5, 'later')")
            assert await tx.fetchone("SELECT until FROM dm_refusals WHERE user_id = 5")
            assert await db.fetchone("SELECT until FROM dm_refusals WHERE user_id = 5") is None
        with pytest.raises(RuntimeError):
            async with db.transaction() as tx:
                await tx.execute("UPDATE dm_refusals SET until = 'rolled back'")
                assert tuple(await db.fetchone("SELECT until FROM dm_refusals")) == ("later",)
                raise RuntimeError("boom")
        assert tuple(await db.fetchone("SELECT until FROM dm_refusals")) == ("later",)


async def test_discord_ids_fit(db_path):
    big = 1_300_000_000_000_000_000  # a snowflake needs 64 bits
    async with Database(db_path) as db:
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO dm_refusals (user_id, until) VALUES (?, ?)", (big, "x"))
        assert (await db.fetchone("SELECT user_id FROM dm_refusals"))[0] == big


def test_placeholders_and_ddl_translate_for_postgres():
    assert dollar_params("SELECT ? , '?' FROM t WHERE a = ? AND b = \"?\"") == (
        "SELECT $1 , '?' FROM t WHERE a = $2 AND b = \"?\"")
    ddl = to_postgres("CREATE TABLE t (id INTEGER PRIMARY KEY, u INTEGER, b REAL, s TEXT);")
    assert ddl == ('CREATE TABLE t (id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,'
                   ' u BIGINT, b DOUBLE PRECISION, s TEXT COLLATE "C");')
    assert split_statements("-- a\nCREATE TABLE a (x INTEGER);\n-- b\nINSERT INTO a VALUES (';');\n"
                            ) == ["-- a\nCREATE TABLE a (x INTEGER);", "-- b\nINSERT INTO a VALUES (';');"]


async def test_the_session_lock_excludes_another_instance_and_survives_a_lost_link(db_path):
    async with Database(db_path, lock_wait=0.3) as one, Database(db_path, lock_wait=0.3) as two:
        async with one.session_lock(7):
            with pytest.raises(StoreBusy):
                async with two.session_lock(7):
                    pass
            async with two.session_lock(8):  # other games are not held up
                pass
        async with two.session_lock(7):  # released
            pass
        if isinstance(one, PostgresDatabase):
            await one._locker.close()  # the server dropped the link
            async with one.session_lock(7):
                pass
