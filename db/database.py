"""One database interface, two backends: an embedded SQLite file or a PostgreSQL server.

``Database(target)`` opens a SQLite file for a path and PostgreSQL (asyncpg) for a
``postgresql://`` URL. Both speak the same small API:

- ``fetchone`` / ``fetchall``: reads that see committed data only (SQLite reads through a
  second connection, so a write transaction in flight is never visible);
- ``transaction()``: a :class:`Tx` whose ``execute`` returns the row count; ``BEGIN IMMEDIATE``
  on SQLite (one writer at a time across processes), a plain transaction on PostgreSQL where
  ``tx.lock(table, id)`` takes the row lock (``SELECT ... FOR UPDATE``) that SQLite already has;
- ``session_lock(key)``: a lock that holds across processes (a byte-range file lock beside the
  SQLite file; an advisory lock on PostgreSQL). It keeps clicks on one game in order; the
  version-guarded writes, not this lock, are what keep the log correct.

SQL is written once with ``?`` placeholders (translated to ``$n`` for PostgreSQL). Failures
of the database itself (disk full, read-only file, a lock held too long, a lost server) raise
:class:`StoreError`, so the caller can tell the user instead of hanging.

This module is the interface only; the backends are ``db/sqlite.py`` and ``db/postgres.py``
(they register themselves, see :func:`register`), the migrations ``db/migrate.py``.
"""

from __future__ import annotations

import asyncio
import contextvars
import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

#: how long a writer waits for another process's write lock before the user is told
LOCK_WAIT = 2.0

#: told ``(kind, seconds)`` after each call of the interface: kind is one of :data:`TIMED`
StatementObserver = Callable[[str, float], None]
#: the calls an observer times (a transaction from its BEGIN to its COMMIT or ROLLBACK)
TIMED = ("fetchone", "fetchall", "lookup", "batch", "transaction")
#: set while an observed call runs: a call it makes itself (SQLite's fetchone is its
#: fetchall, a PostgreSQL batch is a transaction) is not counted twice
_observing: contextvars.ContextVar[bool] = contextvars.ContextVar("observing", default=False)


class StoreError(Exception):
    """The database failed or refused (disk full, read-only, unreachable, locked too long)."""


class StoreBusy(StoreError):
    """Another writer held the lock longer than :data:`LOCK_WAIT`."""


class DamagedRow(StoreError):
    """A stored row cannot be read back (bad JSON, a missing seat): only that row is lost; the
    game it belongs to is named so its players can be told which one."""

    def __init__(self, message: str, *, session_id: int | None = None,
                 game_id: str | None = None) -> None:
        super().__init__(message)
        self.session_id = session_id
        self.game_id = game_id


class IntegrityViolation(Exception):
    """A unique or foreign-key constraint refused the write (e.g. one open game per channel)."""


class StaleVersion(Exception):
    """A version-guarded write found the row already moved on: another writer won."""


class SchemaMismatch(Exception):
    """The database's schema is not one this code can run on (newer than the code, or tables
    missing): refused when the database is opened, before anything reads or writes it."""


class Tx:
    """Statements inside one open transaction (from :meth:`Database.transaction`)."""

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement; returns the number of rows it changed."""
        raise NotImplementedError

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Any:
        raise NotImplementedError

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        raise NotImplementedError

    async def lock(self, table: str, row_id: int) -> None:
        """Hold ``table``'s row ``row_id`` until the end of the transaction."""
        raise NotImplementedError


def dialect_of(target: str | Path) -> str:
    """"postgres" for a ``postgresql://`` URL, "sqlite" for anything else (a file path)."""
    return "postgres" if str(target).startswith(("postgresql://", "postgres://")) else "sqlite"


class Database:
    """``Database(path)`` for SQLite, ``Database("postgresql://...")`` for PostgreSQL."""

    dialect = "?"

    def __new__(cls, target: str | Path, **kwargs: Any) -> Database:
        if cls is Database:
            cls = _backends[dialect_of(target)]
        return super().__new__(cls)

    def __init__(self, target: str | Path, *, lock_wait: float = LOCK_WAIT,
                 observer: StatementObserver | None = None) -> None:
        self.target = str(target)
        self.lock_wait = lock_wait
        #: statements run so far (benchmarks report statements per move)
        self.statements = 0
        if observer is not None:  # without one, the calls are the backend's own: no overhead
            _observe(self, observer)

    async def open(self) -> Database:
        raise NotImplementedError

    async def close(self) -> None:
        raise NotImplementedError

    async def __aenter__(self) -> Database:
        return await self.open()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def transaction(self) -> Any:
        raise NotImplementedError

    def session_lock(self, key: int) -> Any:
        raise NotImplementedError

    async def batch(self, statements: Sequence[tuple[str, Sequence[Any]]], *,
                    guarded: bool = False) -> int:
        """Run ``statements`` in ONE transaction; returns the first one's row count.
        ``guarded``: the first is a guarded write (``... WHERE version = ?``); when it changed
        no row, nothing is written and :class:`StaleVersion` is raised."""
        raise NotImplementedError

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Any:
        raise NotImplementedError

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        raise NotImplementedError

    async def lookup(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """``fetchone`` for a read of one row by its key (a session, a setting): on SQLite it
        is answered on the caller's thread (see :meth:`SqliteDatabase.lookup`)."""
        return await self.fetchone(sql, params)

    async def ping(self) -> None:
        """A trivial read that reaches the database itself (readiness checks): returns, or
        raises :class:`StoreError` when it cannot be read."""
        raise NotImplementedError

    async def schema_version(self) -> int:
        raise NotImplementedError

    async def migrate(self) -> int:
        """Apply every migration newer than the schema version (see ``db/migrate.py``);
        returns the new version."""
        raise NotImplementedError


def _observe(db: Database, observer: StatementObserver) -> None:
    """Time ``db``'s :data:`TIMED` calls: each is replaced on the instance by a wrapper that
    tells ``observer`` how long the outermost call took."""
    for kind in ("fetchone", "fetchall", "lookup", "batch"):
        setattr(db, kind, _timed_call(getattr(db, kind), kind, observer))
    db.transaction = _timed_transaction(db.transaction, observer)  # type: ignore[method-assign]


def _timed_call(call: Any, kind: str, observer: StatementObserver) -> Any:
    async def timed(*args: Any, **kwargs: Any) -> Any:
        if _observing.get():
            return await call(*args, **kwargs)
        token = _observing.set(True)
        started = time.perf_counter()
        try:
            return await call(*args, **kwargs)
        finally:
            observer(kind, time.perf_counter() - started)
            _observing.reset(token)
    return timed


def _timed_transaction(transaction: Any, observer: StatementObserver) -> Any:
    @asynccontextmanager
    async def timed() -> AsyncIterator[Any]:
        # the flag is not set here: reads the caller makes inside the transaction are its own
        if _observing.get():
            async with transaction() as tx:
                yield tx
            return
        started = time.perf_counter()
        try:
            async with transaction() as tx:
                yield tx
        finally:
            observer("transaction", time.perf_counter() - started)
    return timed


#: the backend classes by dialect; db/sqlite.py and db/postgres.py add theirs (db/__init__.py
#: imports both), so this module needs neither
_backends: dict[str, type[Database]] = {}


def register(backend: type[Database]) -> type[Database]:
    """Class decorator: ``Database(target)`` may open ``backend`` (by its ``dialect``)."""
    _backends[backend.dialect] = backend
    return backend


# --- in-process part of the cross-process lock -------------------------------------------
# A file lock (fcntl) or an advisory lock belongs to the process (or its one connection), so
# two waiters inside one process must first queue here, per database and key.
_local_locks: dict[tuple[str, int], asyncio.Lock] = {}
_local_users: dict[tuple[str, int], int] = {}


@asynccontextmanager
async def local_lock(scope: str, key: int, give_up: float) -> AsyncIterator[None]:
    """Wait until ``give_up`` (a ``time.monotonic()``) at most, then :class:`StoreBusy`."""
    ident = (scope, key)
    lock = _local_locks.setdefault(ident, asyncio.Lock())
    _local_users[ident] = _local_users.get(ident, 0) + 1
    try:
        try:
            # asyncio.timeout, not wait_for: wait_for wraps the acquire in a task of its own,
            # so even a free lock cost a turn of the event loop (~0.1 s at 200 games)
            async with asyncio.timeout(max(0.0, give_up - time.monotonic())):
                await lock.acquire()
        except TimeoutError:
            raise StoreBusy(f"session {key} is locked in this process") from None
        try:
            yield
        finally:
            lock.release()
    finally:
        _local_users[ident] -= 1
        if not _local_users[ident]:  # no waiter left: forget it (memory stays bounded)
            del _local_users[ident]
            _local_locks.pop(ident, None)

