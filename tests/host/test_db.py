"""Schema migrations and the two backends' settings."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time

import aiosqlite
import pytest

from db import Database, StoreBusy, StoreError
from db.database import IntegrityViolation, StaleVersion
from db.migrate import dollar_params, latest_version, migrate, split_statements, to_postgres
from db.postgres import PostgresDatabase
from db.sqlite import SqliteDatabase

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
        first = await db.batch([("UPDATE dm_refusals SET until = 'z'", ()),
                                ("INSERT INTO dm_refusals VALUES (1, 'a')", ()),
                                ("INSERT INTO dm_refusals VALUES (2, 'b')", ()),
                                ("UPDATE dm_refusals SET until = ? WHERE user_id > ?", ("c", 0))])
        assert first == 0  # the first statement's row count
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
                              guarded=True) == 1


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

        async def batch(n: int) -> int:
            return await db.batch([("INSERT INTO dm_refusals VALUES (?, 'b')", (n,)),
                                   ("UPDATE dm_refusals SET until = 'batch' WHERE user_id = ?",
                                    (n,))])

        results = await asyncio.gather(*(batch(n) for n in range(20)), open_transaction(),
                                       *(batch(n) for n in range(20, 40)))
        assert all(r == 1 for r in results[:20] + results[21:])
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
        if isinstance(one, PostgresDatabase):  # the server drops one's link
            pid = (await one.fetchone("SELECT pg_backend_pid()"))[0]
            await two.fetchone("SELECT pg_terminate_backend(?)", (pid,))
            await asyncio.sleep(0.2)  # the pool hears of it
            async with one.session_lock(7):
                pass


async def _held_writer(db: SqliteDatabase) -> threading.Event:
    """Keep the SQLite writer's thread busy until the event is set: batches queue meanwhile."""
    assert db.conn is not None
    holding, release = threading.Event(), threading.Event()

    def hold(_conn: object) -> None:
        holding.set()
        release.wait(10)

    db.conn.submit(hold)
    while not holding.is_set():  # the thread has finished what it was doing before
        await asyncio.sleep(0.001)
    return release


async def test_queued_batches_commit_together_each_all_or_nothing(tmp_path):
    """Batches waiting for the writer go into one transaction (one fsync); a batch that fails
    or whose guard missed is taken back alone, and every caller gets its own answer."""
    async with Database(tmp_path / "g.sqlite3") as db:
        assert isinstance(db, SqliteDatabase)
        await db.batch([("INSERT INTO dm_refusals VALUES (1, 'one')", ())])
        before = db.batch_transactions
        release = await _held_writer(db)

        def insert(n: int) -> tuple[str, tuple]:
            return "INSERT INTO dm_refusals VALUES (?, 'new')", (n,)

        calls = [db.batch([insert(n), ("UPDATE dm_refusals SET until = 'both' WHERE user_id = ?",
                                       (n,))]) for n in range(100, 130)]
        calls.append(db.batch([insert(200), insert(1)]))  # 1 exists: this batch fails whole
        calls.append(db.batch([("UPDATE dm_refusals SET until = 'x' WHERE user_id = 99", ()),
                               insert(300)], guarded=True))  # its guard misses
        calls.append(db.batch([("UPDATE dm_refusals SET until = 'kept' WHERE user_id = 1", ())],
                              guarded=True))
        tasks = [asyncio.ensure_future(c) for c in calls]
        await asyncio.sleep(0)  # every batch is queued behind the held thread
        release.set()
        results = await asyncio.gather(*tasks, return_exceptions=True)
        assert results[:30] == [1] * 30
        assert isinstance(results[30], IntegrityViolation)
        assert isinstance(results[31], StaleVersion)
        assert results[32] == 1
        assert db.batch_transactions == before + 1  # one transaction for the 33 batches
        rows = {r[0]: r[1] for r in await db.fetchall("SELECT user_id, until FROM dm_refusals")}
        assert rows == {1: "kept", **{n: "both" for n in range(100, 130)}}


async def test_a_group_the_disk_refuses_tells_every_batch_and_keeps_none(tmp_path):
    """A commit that fails (here: the file turned read-only under the writer) fails every
    batch of its group; none of them is half kept."""
    path = tmp_path / "ro.sqlite3"
    async with Database(path) as db:
        assert isinstance(db, SqliteDatabase) and db.conn is not None
        await db.batch([("INSERT INTO dm_refusals VALUES (1, 'one')", ())])
        release = await _held_writer(db)
        db.conn.submit(lambda conn: conn.execute("PRAGMA query_only = ON"))
        tasks = [asyncio.ensure_future(db.batch([("INSERT INTO dm_refusals VALUES (?, 'n')",
                                                   (n,))])) for n in range(2, 6)]
        await asyncio.sleep(0)
        release.set()
        results = await asyncio.gather(*tasks, return_exceptions=True)
        assert all(isinstance(r, StoreError) for r in results), results
        await db.conn.execute("PRAGMA query_only = OFF")
        assert [r[0] for r in await db.fetchall("SELECT user_id FROM dm_refusals")] == [1]
        assert await db.batch([("INSERT INTO dm_refusals VALUES (7, 'after')", ())]) == 1


async def test_batches_wait_for_another_process_then_are_told_busy(tmp_path):
    """Another process holds the write lock: queued batches wait in the writer's thread, not
    on the event loop, and each is told busy once its own wait is over."""
    path = tmp_path / "busy.sqlite3"
    async with Database(path, lock_wait=0.3) as db:
        blocker = sqlite3.connect(str(path), isolation_level=None)
        try:
            blocker.execute("BEGIN IMMEDIATE")
            started = time.monotonic()
            first = asyncio.ensure_future(db.batch([("INSERT INTO dm_refusals VALUES (1, 'a')",
                                                     ())]))
            await asyncio.sleep(0.2)
            second = asyncio.ensure_future(db.batch([("INSERT INTO dm_refusals VALUES (2, 'b')",
                                                      ())]))
            with pytest.raises(StoreBusy):
                await first
            assert time.monotonic() - started >= 0.25
            with pytest.raises(StoreBusy):
                await second
            assert time.monotonic() - started >= 0.45  # its own 0.3 s, not the first one's
        finally:
            blocker.execute("ROLLBACK")
            blocker.close()
        assert await db.batch([("INSERT INTO dm_refusals VALUES (3, 'c')", ())]) == 1


async def test_a_free_session_lock_is_taken_without_a_turn_of_the_event_loop(tmp_path):
    """Every move takes its game's lock; a free one must not wait behind everything else the
    event loop has to do (wait_for's task did: ~0.1 s a move at 200 games)."""
    async with Database(tmp_path / "l.sqlite3") as db:
        turns: list[int] = []
        asyncio.get_running_loop().call_soon(turns.append, 1)
        async with db.session_lock(3):
            assert turns == []
        await asyncio.sleep(0)
        assert turns == [1]


async def test_a_lookup_reads_committed_data_only(db_path):
    """Reads by key (sessions, settings) see what was committed and never an open
    transaction, as every read does."""
    async with Database(db_path) as db:
        sql = "SELECT until FROM dm_refusals WHERE user_id = ?"
        assert await db.lookup(sql, (5,)) is None
        await db.batch([("INSERT INTO dm_refusals VALUES (5, 'now')", ())])
        assert tuple(await db.lookup(sql, (5,))) == ("now",)
        async with db.transaction() as tx:
            await tx.execute("UPDATE dm_refusals SET until = 'open' WHERE user_id = 5")
            assert tuple(await db.lookup(sql, (5,))) == ("now",)
        assert tuple(await db.lookup(sql, (5,))) == ("open",)


async def test_a_lookup_answers_without_a_turn_of_the_event_loop(tmp_path):
    """A read by key is answered on the loop's thread: no wait behind the rest of the loop."""
    async with Database(tmp_path / "q.sqlite3") as db:
        await db.batch([("INSERT INTO dm_refusals VALUES (5, 'x')", ())])
        turns: list[int] = []
        asyncio.get_running_loop().call_soon(turns.append, 1)
        assert tuple(await db.lookup("SELECT until FROM dm_refusals WHERE user_id = ?", (5,))) \
            == ("x",)
        assert turns == []


async def test_a_lookup_sqlite_would_make_wait_goes_through_the_reader(tmp_path):
    """When SQLite answers the loop's read "busy" (in WAL mode: another connection recovering
    the log or switching modes, which cannot be staged from here, so the loop's connection is
    pointed at a file another connection really holds), the read is not retried on the loop:
    it goes through the reader's thread, which waits as any read does."""
    async with Database(tmp_path / "x.sqlite3") as db:
        assert isinstance(db, SqliteDatabase) and db.quick is not None
        await db.batch([("INSERT INTO dm_refusals VALUES (5, 'x')", ())])
        held = tmp_path / "held.sqlite3"
        blocker = sqlite3.connect(str(held), isolation_level=None)
        blocker.execute("CREATE TABLE dm_refusals (user_id INTEGER, until TEXT)")
        blocker.execute("BEGIN EXCLUSIVE")  # a rollback-journal file: nobody may read it now
        own, db.quick = db.quick, sqlite3.connect(str(held), isolation_level=None)
        db.quick.execute("PRAGMA busy_timeout = 0")
        try:
            row = await db.lookup("SELECT until FROM dm_refusals WHERE user_id = ?", (5,))
            assert tuple(row) == ("x",)
        finally:
            db.quick.close()
            db.quick = own
            blocker.execute("ROLLBACK")
            blocker.close()
