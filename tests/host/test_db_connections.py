"""How the backends spend connections and round trips: a session lock's holder works on the
lock's own connection, and a batch goes to PostgreSQL as one script with its parameters
written as literals. The same tests run on both backends: what the caller sees is the same."""

from __future__ import annotations

import asyncio
import math

import pytest

from db import Database, StoreBusy
from db.postgres import inline_params, literal

BACKENDS = "both"

TRICKY_TEXTS = ["O'Brien", "''", "back\\slash\\'", "?", "$1 $2", "-- not a comment",
                "'); DROP TABLE seats; --", "Zażółć gęślą jaźń, ґанок, їжак", "🎲\n\t\r",
                "E'\\x41'", "", " "]


async def _scratch(db: Database) -> None:
    await db.batch([("CREATE TABLE scratch (i BIGINT, t TEXT, r DOUBLE PRECISION, b BIGINT)", ())])


async def test_a_batch_stores_every_value_as_given(db_path):
    """Text with quotes, backslashes, placeholders and SQL in it, numbers, booleans and
    NULL come back exactly as they went in (on PostgreSQL, through literals)."""
    async with Database(db_path) as db:
        await _scratch(db)
        rows = [(n, text, n / 3, n % 2 == 0) for n, text in enumerate(TRICKY_TEXTS)]
        rows += [(-2**62, None, math.inf, True), (2**62, "x", -math.inf, False),
                 (0, "nan", 1e-300, None)]
        first = await db.batch([("INSERT INTO scratch VALUES (?, ?, ?, ?)", row) for row in rows])
        assert first == 1
        stored = await db.fetchall("SELECT i, t, r, b FROM scratch ORDER BY i, t")
        expected = sorted(((i, t, r, None if b is None else int(b)) for i, t, r, b in rows),
                          key=lambda row: (row[0], row[1] or ""))
        assert [tuple(row) for row in stored] == expected
        # a boolean stands where SQL needs one, too
        (flag,) = await db.fetchone("SELECT CASE WHEN ? THEN 'yes' ELSE 'no' END", (True,))
        assert flag == "yes"


@pytest.mark.postgres
async def test_a_value_no_literal_can_hold_writes_nothing(postgres_url):
    """(SQLite keeps NUL characters and bytes; PostgreSQL's text cannot.)"""
    async with Database(postgres_url) as db:
        await _scratch(db)
        for bad in ("nul\x00inside", b"bytes"):
            with pytest.raises((ValueError, TypeError)):
                await db.batch([("INSERT INTO scratch (t) VALUES ('kept')", ()),
                                ("INSERT INTO scratch (t) VALUES (?)", (bad,))])
        assert await db.fetchall("SELECT t FROM scratch") == []


def test_literals_are_quoted_once_and_placeholders_in_quotes_stay():
    assert literal("it's") == "'it''s'" and literal(None) == "NULL"
    assert literal(True) == "'1'" and literal(7) == "'7'" and literal(0.5) == "'0.5'"
    assert inline_params("SELECT '?', ? WHERE a = ?", ("x'", 3)) == \
        "SELECT '?', 'x''' WHERE a = '3'"
    with pytest.raises(ValueError):
        inline_params("SELECT ?", ())


async def test_reads_inside_a_lock_see_committed_data_only(db_path):
    """The lock's holder reads on the lock's connection; while that connection is inside a
    transaction, a read outside it must still not see the transaction's writes."""
    async with Database(db_path) as db:
        async with db.session_lock(1), db.transaction() as tx:
            await tx.execute("INSERT INTO dm_refusals VALUES (1, 'open')")
            assert await db.fetchone("SELECT until FROM dm_refusals WHERE user_id = 1") is None
            assert await db.lookup("SELECT until FROM dm_refusals WHERE user_id = 1") is None
        (until,) = await db.fetchone("SELECT until FROM dm_refusals WHERE user_id = 1")
        assert until == "open"


async def test_tasks_started_inside_a_lock_do_not_share_its_connection(db_path):
    """A task started by the holder inherits its context, but must read on a connection of
    its own (asyncpg runs one query at a time per connection)."""
    async with Database(db_path) as db:
        await db.batch([("INSERT INTO dm_refusals VALUES (?, 'x')", (n,)) for n in range(20)])
        async with db.session_lock(2):
            reads = [db.fetchone("SELECT until FROM dm_refusals WHERE user_id = ?", (n,))
                     for n in range(20)]
            rows = await asyncio.gather(db.batch([("UPDATE dm_refusals SET until = 'y'"
                                                   " WHERE user_id = 0", ())]), *reads)
        assert rows[0] == 1 and all(row is not None for row in rows[1:])


async def test_a_waiter_cancelled_or_refused_leaves_no_lock_behind(db_path):
    async with Database(db_path, lock_wait=0.3) as one, \
            Database(db_path, lock_wait=0.3) as two, Database(db_path, lock_wait=5) as three:
        async with one.session_lock(9):
            with pytest.raises(StoreBusy):  # refused after lock_wait
                async with two.session_lock(9):
                    pass

            async def hold() -> None:
                async with three.session_lock(9):
                    await asyncio.sleep(30)

            waiter = asyncio.ensure_future(hold())
            await asyncio.sleep(0.1)  # waiting for the lock
            waiter.cancel()
            with pytest.raises(asyncio.CancelledError):
                await waiter
        # neither the refused nor the cancelled waiter holds it now, in any process
        for db in (two, three, one):
            async with db.session_lock(9):
                pass


@pytest.mark.postgres
async def test_a_locked_section_needs_no_second_connection(postgres_url):
    """Every call of the lock's holder goes on the lock's connection: with a pool of one,
    a holder that asked the pool for another would wait forever."""
    async with Database(postgres_url, pool_size=1) as db, asyncio.timeout(10):
        async with db.session_lock(4):
            await db.batch([("INSERT INTO dm_refusals VALUES (4, 'a')", ()),
                            ("UPDATE dm_refusals SET until = 'b' WHERE user_id = 4", ())])
            assert tuple(await db.fetchone("SELECT until FROM dm_refusals")) == ("b",)
            assert tuple(await db.lookup("SELECT COUNT(*) FROM dm_refusals")) == (1,)
            async with db.transaction() as tx:
                await tx.execute("DELETE FROM dm_refusals")
        assert await db.fetchall("SELECT * FROM dm_refusals") == []


@pytest.mark.postgres
async def test_moves_leave_half_the_pool_to_short_calls(postgres_url):
    """A lock holds its connection for a whole move; short calls (a click's first answer)
    must not wait behind moves: locks take at most half the pool."""
    async with Database(postgres_url, pool_size=2) as db:
        release = asyncio.Event()

        async def move(key: int) -> None:
            async with db.session_lock(key):
                await release.wait()

        moves = [asyncio.ensure_future(move(key)) for key in (1, 2)]
        await asyncio.sleep(0.2)  # the first holds its lock, the second waits for a slot
        try:
            async with asyncio.timeout(2):
                assert tuple(await db.fetchone("SELECT 1")) == (1,)
        finally:
            release.set()
            await asyncio.gather(*moves)


@pytest.mark.postgres
async def test_a_lock_taken_inside_another_needs_no_second_slot(postgres_url):
    """A pool of two leaves one connection to moves: a second game's lock taken while the
    first is held goes on the same connection, and holds against another process."""
    async with Database(postgres_url, pool_size=2) as db, \
            Database(postgres_url, lock_wait=0.3) as other, asyncio.timeout(10):
        async with db.session_lock(1), db.session_lock(2):
            with pytest.raises(StoreBusy):
                async with other.session_lock(2):
                    pass
        async with other.session_lock(1), other.session_lock(2):  # both let go
            pass
