"""The PostgreSQL backend (asyncpg): a pool of connections and one more for advisory locks.

asyncpg is imported when first used, so a SQLite-only installation never loads it.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from db.database import (
    LOCK_WAIT,
    Database,
    IntegrityViolation,
    SchemaMismatch,
    StatementObserver,
    StoreBusy,
    StoreError,
    Tx,
    local_lock,
    register,
)
from db.migrate import apply_postgres, dollar_params


def _pg_failure(exc: BaseException) -> Exception:
    import asyncpg

    if isinstance(exc, asyncpg.IntegrityConstraintViolationError):
        return IntegrityViolation(str(exc))
    if isinstance(exc, asyncpg.LockNotAvailableError | asyncpg.QueryCanceledError):
        return StoreBusy(str(exc))
    return StoreError(f"{type(exc).__name__}: {exc}")


def _pg_errors() -> tuple[type[BaseException], ...]:
    import asyncpg

    return (asyncpg.PostgresError, asyncpg.InterfaceError, OSError)


def _rowcount(status: str) -> int:
    """asyncpg's command tag ('UPDATE 1', 'INSERT 0 1') to a row count."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


class PostgresTx(Tx):
    def __init__(self, db: PostgresDatabase, conn: Any) -> None:
        self.db, self.conn = db, conn

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        self.db.statements += 1
        try:
            return _rowcount(await self.conn.execute(dollar_params(sql), *params))
        except _pg_errors() as exc:
            raise _pg_failure(exc) from exc

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Any:
        self.db.statements += 1
        try:
            return await self.conn.fetchrow(dollar_params(sql), *params)
        except _pg_errors() as exc:
            raise _pg_failure(exc) from exc

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        self.db.statements += 1
        try:
            return list(await self.conn.fetch(dollar_params(sql), *params))
        except _pg_errors() as exc:
            raise _pg_failure(exc) from exc

    async def lock(self, table: str, row_id: int) -> None:
        if not re.fullmatch(r"[a-z_]+", table):
            raise ValueError(f"bad table name {table!r}")
        await self.execute(f"SELECT 1 FROM {table} WHERE id = ? FOR UPDATE", (row_id,))


@register
class PostgresDatabase(Database):
    """A pool of asyncpg connections; one more connection holds the advisory locks."""

    dialect = "postgres"

    def __init__(self, target: str | Path, *, lock_wait: float = LOCK_WAIT,
                 pool_size: int = 10, observer: StatementObserver | None = None) -> None:
        super().__init__(target, lock_wait=lock_wait, observer=observer)
        self.pool_size = pool_size
        self.pool: Any = None
        self._locker: Any = None  # the connection that holds advisory locks
        self._locker_busy = asyncio.Lock()  # asyncpg runs one query at a time per connection

    async def open(self) -> PostgresDatabase:
        import asyncpg

        # a statement waiting on a row lock gives up, so the user is told and nothing hangs
        settings = {"lock_timeout": str(int(self.lock_wait * 1000))}
        try:
            self.pool = await asyncpg.create_pool(self.target, min_size=1, max_size=self.pool_size,
                                                  server_settings=settings)
            self._locker = await asyncpg.connect(self.target)
            await self.migrate()
        except _pg_errors() as exc:
            await self.close()
            raise _pg_failure(exc) from exc
        except SchemaMismatch:
            await self.close()
            raise
        return self

    async def close(self) -> None:
        if self._locker is not None:
            await self._locker.close()
            self._locker = None
        if self.pool is not None:
            await self.pool.close()
            self.pool = None

    async def migrate(self) -> int:
        return await apply_postgres(self.transaction)

    async def schema_version(self) -> int:
        row = await self.fetchone("SELECT MAX(version) FROM schema_version")
        return int(row[0] or 0)

    async def ping(self) -> None:
        assert self.pool is not None, "Database.open() first"
        try:
            await self.pool.fetchval("SELECT 1")
        except _pg_errors() as exc:
            raise _pg_failure(exc) from exc

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[PostgresTx]:
        assert self.pool is not None, "Database.open() first"
        try:
            async with self.pool.acquire() as conn:
                self.statements += 2
                async with conn.transaction():
                    yield PostgresTx(self, conn)
        except _pg_errors() as exc:
            raise _pg_failure(exc) from exc

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Any:
        assert self.pool is not None, "Database.open() first"
        self.statements += 1
        try:
            return await self.pool.fetchrow(dollar_params(sql), *params)
        except _pg_errors() as exc:
            raise _pg_failure(exc) from exc

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        assert self.pool is not None, "Database.open() first"
        self.statements += 1
        try:
            return list(await self.pool.fetch(dollar_params(sql), *params))
        except _pg_errors() as exc:
            raise _pg_failure(exc) from exc

    async def _locker_call(self, sql: str, key: int) -> Any:
        import asyncpg

        async with self._locker_busy:
            try:
                if self._locker is None or self._locker.is_closed():
                    # the server restarted or the link dropped: its advisory locks went with
                    # the old connection, so a new one starts clean
                    self._locker = await asyncpg.connect(self.target)
                return await self._locker.fetchval(sql, key)
            except _pg_errors() as exc:
                raise _pg_failure(exc) from exc

    @asynccontextmanager
    async def session_lock(self, key: int) -> AsyncIterator[None]:
        """A session-level advisory lock on the locker connection (released by the server if
        this process dies); polled so the event loop and the pool are never held waiting."""
        assert self.pool is not None, "Database.open() first"
        give_up = time.monotonic() + self.lock_wait
        async with local_lock(self.target, key, give_up):
            while not await self._locker_call("SELECT pg_try_advisory_lock($1)", key):
                if time.monotonic() >= give_up:
                    raise StoreBusy(f"session {key} is locked elsewhere")
                await asyncio.sleep(0.01)
            try:
                yield
            finally:
                await self._locker_call("SELECT pg_advisory_unlock($1)", key)
