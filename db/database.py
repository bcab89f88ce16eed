"""Opening the SQLite file and upgrading its schema.

The schema version is SQLite's ``PRAGMA user_version``; ``migrations/NNN_name.sql`` files are
applied in order, each in its own transaction, so an old file upgrades step by step.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import aiosqlite

MIGRATIONS_DIR = Path(__file__).parent / "migrations"


def migrations() -> list[tuple[int, str]]:
    """(version, sql) for every migration file, in order."""
    found = []
    for path in sorted(MIGRATIONS_DIR.glob("*.sql")):
        match = re.match(r"(\d+)_", path.name)
        if match:
            found.append((int(match.group(1)), path.read_text(encoding="utf-8")))
    return found


def latest_version() -> int:
    return max(version for version, _ in migrations())


async def migrate(conn: aiosqlite.Connection) -> int:
    """Apply every migration newer than the file's ``user_version``; returns the new version."""
    (current,) = await (await conn.execute("PRAGMA user_version")).fetchone()  # type: ignore[misc]  # always a row
    for version, sql in migrations():
        if version <= current:
            continue
        # executescript commits first; wrap the migration and its version bump in one transaction
        await conn.executescript(f"BEGIN;\n{sql}\nPRAGMA user_version = {version};\nCOMMIT;")
        current = version
    return current


class Database:
    """One aiosqlite connection in WAL mode; ``transaction()`` groups writes atomically."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self.conn: aiosqlite.Connection | None = None
        # one connection, so transactions from different sessions must not interleave
        self._write = asyncio.Lock()

    async def open(self) -> Database:
        self.conn = await aiosqlite.connect(self.path, isolation_level=None)
        self.conn.row_factory = aiosqlite.Row
        await self.conn.execute("PRAGMA journal_mode = WAL")
        await self.conn.execute("PRAGMA foreign_keys = ON")
        await self.conn.execute("PRAGMA synchronous = NORMAL")
        await self.conn.execute("PRAGMA busy_timeout = 5000")
        await migrate(self.conn)
        return self

    async def close(self) -> None:
        if self.conn is not None:
            await self.conn.close()
            self.conn = None

    async def __aenter__(self) -> Database:
        return await self.open()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK on any error."""
        assert self.conn is not None, "Database.open() first"
        async with self._write:
            await self.conn.execute("BEGIN IMMEDIATE")
            try:
                yield self.conn
            except BaseException:
                await self.conn.execute("ROLLBACK")
                raise
            await self.conn.execute("COMMIT")

    async def fetchone(self, sql: str, params: tuple = ()) -> aiosqlite.Row | None:
        assert self.conn is not None
        return await (await self.conn.execute(sql, params)).fetchone()

    async def fetchall(self, sql: str, params: tuple = ()) -> list[aiosqlite.Row]:
        assert self.conn is not None
        return list(await (await self.conn.execute(sql, params)).fetchall())
