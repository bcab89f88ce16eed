"""The PostgreSQL backend (asyncpg): one pool of connections.

A session lock is an advisory lock taken on a pool connection, which then serves every call
the holding task makes until the lock is let go: a move costs one pool acquisition, and its
statements do not queue for connections behind other games' moves. Moves hold half the pool
at most; the other half serves the short calls made outside a lock. Connections go back to
the pool as they are (no reset query per release): the bot sets no session state, and a lock
that could not be let go ends its connection instead.

asyncpg is imported when first used, so a SQLite-only installation never loads it.
"""

from __future__ import annotations

import asyncio
import contextvars
import re
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager, nullcontext
from pathlib import Path
from typing import Any

from db.database import (
    LOCK_WAIT,
    Database,
    IntegrityViolation,
    SchemaMismatch,
    StaleVersion,
    StatementObserver,
    StoreBusy,
    StoreError,
    Tx,
    local_lock,
    register,
)
from db.migrate import apply_postgres, dollar_params, text_between_params


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


#: the connection a task holds a session lock on, with that task (a task it starts inherits
#: the variable, but must not share the connection: asyncpg runs one query at a time)
_held: contextvars.ContextVar[tuple[asyncio.Task[Any] | None, Any] | None] = \
    contextvars.ContextVar("held_connection", default=None)


async def _as_it_is(conn: Any) -> None:
    """The pool's reset: nothing to undo (asyncpg's default runs four statements a release)."""


def literal(value: Any) -> str:
    """A parameter as a quoted literal, for statements sent as one script (the simple query
    protocol, which takes no parameters). Quoted, a literal's type comes from where it
    stands, as a parameter's does. With ``standard_conforming_strings`` on (set for every
    connection) doubling the quotes is the whole escaping, as in psycopg2's client-side
    binding."""
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        text = "1" if value else "0"  # read as a boolean or a number, as the column needs
    elif isinstance(value, int | float | str):
        text = str(value)  # PostgreSQL reads 'inf', '-inf' and 'nan' too
    else:
        raise TypeError(f"no SQL literal for {value!r}")
    if "\x00" in text:
        raise ValueError("PostgreSQL text cannot hold a NUL character")
    return "'" + text.replace("'", "''") + "'"


def inline_params(sql: str, params: Sequence[Any]) -> str:
    """``sql`` with each ``?`` replaced by its parameter's :func:`literal`."""
    parts = text_between_params(sql)
    if len(parts) != len(params) + 1:
        raise ValueError(f"{len(parts) - 1} placeholders, {len(params)} parameters: {sql!r}")
    return parts[0] + "".join(literal(v) + part for v, part in zip(params, parts[1:], strict=True))


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
    """A pool of asyncpg connections (see the module's docstring for how locks use it)."""

    dialect = "postgres"

    def __init__(self, target: str | Path, *, lock_wait: float = LOCK_WAIT,
                 pool_size: int = 10, observer: StatementObserver | None = None) -> None:
        super().__init__(target, lock_wait=lock_wait, observer=observer)
        self.pool_size = pool_size
        self.pool: Any = None
        # a move holds its connection for the whole move: half the pool at most, so the rest
        # stays free for the short calls (a click's first answer, a board's records), which
        # otherwise waited behind whole moves (bench_load, 200 saturated games: first answer
        # p50 171 -> 40 ms, board p99 2.7 -> 1.2 s)
        self._held_slots = asyncio.Semaphore(max(1, pool_size // 2))

    async def open(self) -> PostgresDatabase:
        import asyncpg

        # a statement waiting on a row or advisory lock gives up, so the user is told and
        # nothing hangs
        settings = {"lock_timeout": str(int(self.lock_wait * 1000)),
                    "standard_conforming_strings": "on"}  # what literal() relies on
        try:
            self.pool = await asyncpg.create_pool(self.target, min_size=1, max_size=self.pool_size,
                                                  server_settings=settings, reset=_as_it_is)
            await self.migrate()
        except _pg_errors() as exc:
            await self.close()
            raise _pg_failure(exc) from exc
        except SchemaMismatch:
            await self.close()
            raise
        return self

    async def close(self) -> None:
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
            async with self._connection() as conn:
                await conn.fetchval("SELECT 1")
        except _pg_errors() as exc:
            raise _pg_failure(exc) from exc

    @staticmethod
    def _own_connection() -> Any:
        """The connection this task holds a session lock on, or None."""
        held = _held.get()
        return held[1] if held is not None and held[0] is asyncio.current_task() else None

    @asynccontextmanager
    async def _connection(self) -> AsyncIterator[Any]:
        """The connection this task holds a session lock on, when it is free to use (not
        inside a transaction: reads outside one see committed data only); else one from
        the pool."""
        own = self._own_connection()
        if own is not None and not own.is_in_transaction():
            yield own
            return
        assert self.pool is not None, "Database.open() first"
        async with self.pool.acquire() as conn:
            yield conn

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[PostgresTx]:
        try:
            async with self._connection() as conn:
                self.statements += 2
                async with conn.transaction():
                    yield PostgresTx(self, conn)
        except _pg_errors() as exc:
            raise _pg_failure(exc) from exc

    async def batch(self, statements: Sequence[tuple[str, Sequence[Any]]], *,
                    guarded: bool = False) -> int:
        """Two round trips for any number of statements: ``BEGIN`` with the first one, whose
        row count decides (a guard), then the rest with ``COMMIT``; one statement alone is
        one round trip (a transaction of its own)."""
        if not statements:
            return 0
        first = statements[0]
        self.statements += len(statements) + (2 if len(statements) > 1 else 0)
        try:
            async with self._connection() as conn:
                if len(statements) == 1:
                    count = _rowcount(await conn.execute(dollar_params(first[0]), *first[1]))
                else:
                    count = await self._script(conn, [inline_params(*x) for x in statements],
                                               guarded)
        except _pg_errors() as exc:
            raise _pg_failure(exc) from exc
        if guarded and count != 1:
            raise StaleVersion("the guarded write found the row moved on")
        return count

    @staticmethod
    async def _script(conn: Any, statements: list[str], guarded: bool) -> int:
        try:
            count = _rowcount(await conn.execute(f"BEGIN;\n{statements[0]}"))
            if guarded and count != 1:
                await conn.execute("ROLLBACK")
            else:
                await conn.execute(";\n".join([*statements[1:], "COMMIT"]))
        except BaseException:
            if not conn.is_closed() and conn.is_in_transaction():
                await PostgresDatabase._run_or_end(conn, "ROLLBACK")
            raise
        return count

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Any:
        self.statements += 1
        try:
            async with self._connection() as conn:
                return await conn.fetchrow(dollar_params(sql), *params)
        except _pg_errors() as exc:
            raise _pg_failure(exc) from exc

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        self.statements += 1
        try:
            async with self._connection() as conn:
                return list(await conn.fetch(dollar_params(sql), *params))
        except _pg_errors() as exc:
            raise _pg_failure(exc) from exc

    @asynccontextmanager
    async def session_lock(self, key: int) -> AsyncIterator[None]:
        """A session-level advisory lock on a pool connection, which the holding task then
        uses for all its calls. The server waits for a lock another process holds, up to
        ``lock_timeout`` (then :class:`StoreBusy`), and lets it go if this process dies."""
        assert self.pool is not None, "Database.open() first"
        give_up = time.monotonic() + self.lock_wait
        async with local_lock(self.target, key, give_up), self._locked(key) as conn:
            token = _held.set((asyncio.current_task(), conn))
            try:
                yield
            finally:
                _held.reset(token)

    @asynccontextmanager
    async def _locked(self, key: int) -> AsyncIterator[Any]:
        """The lock on a connection of its own, or on the one this task already holds a lock
        on (a lock taken inside another needs no second slot, which could wait forever)."""
        own = self._own_connection()
        async with nullcontext(own) if own is not None else self._slot() as conn:
            await self._run_or_end(conn, "SELECT pg_advisory_lock($1)", key)
            try:
                yield conn
            finally:
                await self._run_or_end(conn, "SELECT pg_advisory_unlock($1)", key)

    @asynccontextmanager
    async def _slot(self) -> AsyncIterator[Any]:
        """One of the connections moves may hold (see ``_held_slots``)."""
        async with self._held_slots:
            try:
                conn = await self.pool.acquire()
            except _pg_errors() as exc:
                raise _pg_failure(exc) from exc
            try:
                yield conn
            finally:
                await self.pool.release(conn)

    @staticmethod
    async def _run_or_end(conn: Any, sql: str, *args: Any) -> None:
        """Run a statement whose failure (refused, lost, cancelled mid-call) may leave the
        connection holding a lock or a transaction: the connection is then ended, so the
        server lets go of what it held and the pool never hands it out again."""
        try:
            await conn.execute(sql, *args)
        except BaseException as exc:
            conn.terminate()
            if isinstance(exc, _pg_errors()):
                raise _pg_failure(exc) from exc
            raise
