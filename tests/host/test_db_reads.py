"""Reads see every committed write, also while other coroutines read all the time (the bot
under load): a SQLite read left open across an await kept an old snapshot alive."""

from __future__ import annotations

import asyncio

from db import Database

BACKENDS = "both"  # SQLite and PostgreSQL (tests/host/conftest.py)


async def test_a_read_after_a_commit_sees_it_while_others_keep_reading(db_path):
    async with Database(db_path) as db:
        async with db.transaction() as tx:
            await tx.execute("CREATE TABLE counter (id INTEGER PRIMARY KEY, v INTEGER)")
            await tx.execute("INSERT INTO counter (id, v) VALUES (1, 0)")
        done = False

        async def busy_reader() -> None:
            while not done:
                await db.fetchone("SELECT v FROM counter WHERE id = 1")
                await db.fetchall("SELECT id, v FROM counter")

        readers = [asyncio.ensure_future(busy_reader()) for _ in range(8)]
        stale = []
        try:
            for n in range(1, 60):
                async with db.transaction() as tx:
                    await tx.execute("UPDATE counter SET v = ? WHERE id = 1", (n,))
                seen = (await db.fetchone("SELECT v FROM counter WHERE id = 1"))[0]
                if seen != n:
                    stale.append((n, seen))
        finally:
            done = True
            await asyncio.gather(*readers)
        assert stale == []
