"""The SQLite backend: a writer connection with its group commit, a reader, and file locks.

One writer connection per process (WAL, ``synchronous = FULL``) whose thread commits every
batch waiting for it in one transaction (:class:`_GroupCommit`); reads go through a second,
read-only connection, or for one row by key straight on the event loop's thread
(:meth:`SqliteDatabase.lookup`). ``session_lock`` is a byte-range lock on ``<file>-locks``.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import functools
import logging
import os
import sqlite3
import threading
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiosqlite

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
from db.migrate import apply_sqlite

#: a read by key on the event loop (SqliteDatabase.lookup) costing more CPU is logged
SLOW_LOOKUP = 0.005

log = logging.getLogger(__name__)


def _is_busy(exc: sqlite3.OperationalError) -> bool:
    """SQLITE_BUSY / SQLITE_LOCKED: another connection holds what this one needs."""
    return "locked" in str(exc) or "busy" in str(exc)


def _sqlite_failure(exc: sqlite3.Error) -> Exception:
    if isinstance(exc, sqlite3.IntegrityError):
        return IntegrityViolation(str(exc))
    if isinstance(exc, sqlite3.OperationalError) and "locked" in str(exc):
        return StoreBusy(str(exc))
    return StoreError(f"{type(exc).__name__}: {exc}")


class _WriteLockBusy(Exception):
    """In the writer's thread: BEGIN IMMEDIATE found another process writing."""


#: how long the writer's thread sleeps between tries of another process's write lock
_BUSY_RETRY = 0.02


@dataclass
class _Queued:
    """One batch waiting for the writer's thread (see :class:`_GroupCommit`)."""

    statements: list[tuple[str, tuple[Any, ...]]]
    guarded: bool
    give_up: float  # time.monotonic() after which another process's lock is not waited for
    future: asyncio.Future[list[int] | None]


class _GroupCommit:
    """Batches committed together: every batch waiting when the writer's thread gets to them
    goes into ONE transaction, each in its own savepoint, with one fsync for all.

    ``synchronous = FULL`` makes each commit wait for the disk (3 ms p50, 12 ms p90 on the
    shared machine), and one thread commits for the whole bot: at 200 games, one commit per
    batch made every write wait ~1.3 s in that thread's queue, three times a move
    (bench/bench_load.py). A batch stays all or nothing (its savepoint) and is durable before
    its caller hears back (the group's COMMIT); a batch that fails or whose guard missed is
    rolled back to its savepoint alone and the others commit."""

    def __init__(self) -> None:
        self._lock = threading.Lock()  # between the event loop and the writer's thread
        self._queued: list[_Queued] = []
        self._draining = False
        #: transactions the groups took so far (written by the writer's thread only)
        self.transactions = 0

    def add(self, item: _Queued) -> bool:
        """Queue ``item``; True when the caller must start :meth:`drain` on the writer's
        thread (nothing is draining)."""
        with self._lock:
            self._queued.append(item)
            start, self._draining = not self._draining, True
            return start

    def _take(self) -> list[_Queued]:
        with self._lock:
            group, self._queued = self._queued, []
            if not group:
                self._draining = False
            return group

    def drain(self, conn: sqlite3.Connection) -> None:
        """On the writer's thread: commit groups until nothing is queued."""
        while group := self._take():
            try:
                group = _begin_immediate(conn, group)
                if group:
                    self.transactions += 1
                    _hand_back([*zip(group, _commit_group(conn, group), strict=True)])
            except BaseException as exc:
                # the group failed as a whole (BEGIN refused: a read-only file, an I/O error)
                # or a bug: each of its callers raises it, none is left waiting
                if conn.in_transaction:
                    with contextlib.suppress(sqlite3.Error):
                        conn.execute("ROLLBACK")
                _hand_back([(item, exc) for item in group])


def _hand_back(done: list[tuple[_Queued, Any]]) -> None:
    """From the writer's thread: settle the batches' futures on their event loop."""
    if done:
        done[0][0].future.get_loop().call_soon_threadsafe(_settle, done)


def _settle(done: list[tuple[_Queued, Any]]) -> None:
    """On the event loop: hand each batch its row counts (None: its guard missed) or error."""
    for item, outcome in done:
        if item.future.done():  # its caller was cancelled; the batch was committed all the same
            continue
        if isinstance(outcome, BaseException):
            item.future.set_exception(outcome)
        else:
            item.future.set_result(outcome)


def _begin_immediate(conn: sqlite3.Connection, group: list[_Queued]) -> list[_Queued]:
    """BEGIN IMMEDIATE, waiting in the writer's thread (never on the event loop) while another
    process writes. Batches that waited past their ``give_up`` get :class:`_WriteLockBusy`;
    returns the others (the transaction is open when there are any)."""
    while True:
        try:
            conn.execute("BEGIN IMMEDIATE")
            return group
        except sqlite3.OperationalError as exc:
            if not _is_busy(exc):
                raise
            now = time.monotonic()
            _hand_back([(item, _WriteLockBusy()) for item in group if now >= item.give_up])
            group = [item for item in group if now < item.give_up]
            if not group:
                return group
        time.sleep(_BUSY_RETRY)


def _commit_group(conn: sqlite3.Connection, group: list[_Queued]) -> list[Any]:
    """In an open transaction: each batch in its savepoint, then COMMIT. Returns each batch's
    row counts (None: its guard missed, rolled back) or the error it gets."""
    outcomes: list[Any] = []
    for item in group:
        conn.execute("SAVEPOINT batch")
        try:
            counts = []
            for sql, params in item.statements:
                counts.append(conn.execute(sql, params).rowcount)
                if item.guarded and counts[0] != 1:
                    break
        except sqlite3.Error as exc:  # this batch's error goes to its caller, raised there
            if not conn.in_transaction:
                # SQLite rolled the whole transaction back (disk full, I/O error): every
                # batch of the group is lost and told so
                return [exc] * len(group)
            conn.execute("ROLLBACK TO batch")
            outcomes.append(exc)
        else:
            if item.guarded and counts[0] != 1:
                conn.execute("ROLLBACK TO batch")
                outcomes.append(None)
            else:
                outcomes.append(counts)
        conn.execute("RELEASE batch")
    try:
        conn.execute("COMMIT")
    except sqlite3.Error as exc:
        if conn.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
        return [exc] * len(group)
    return outcomes


class _SqliteConnection(aiosqlite.Connection):
    """aiosqlite's connection plus :meth:`submit`: a whole function on the connection's thread.

    Each ``await execute`` is a round trip between the event loop and that thread, and a
    transaction holds the one write lock across all of its round trips: under load (a busy
    loop, a busy machine) a move's three transactions held it ~10 ms each and moves queued
    behind it for seconds (bench/bench_load.py). A batch is one round trip."""

    def submit(self, fn: Any, *args: Any) -> asyncio.Future[Any]:
        """Queue ``fn(sqlite3_connection, *args)`` on the thread now (no await in between,
        so nothing can be queued before it); the future has its result."""
        if not self._running or self._connection is None:
            raise ValueError("Connection closed")
        future = asyncio.get_running_loop().create_future()
        self._tx.put_nowait((future, functools.partial(fn, self._connection, *args)))
        return future


class SqliteTx(Tx):
    def __init__(self, db: SqliteDatabase, conn: aiosqlite.Connection) -> None:
        self.db, self.conn = db, conn

    async def _run(self, sql: str, params: Sequence[Any]) -> aiosqlite.Cursor:
        self.db.statements += 1
        try:
            return await self.conn.execute(sql, tuple(params))
        except sqlite3.Error as exc:
            raise _sqlite_failure(exc) from exc

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        return (await self._run(sql, params)).rowcount

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Any:
        cur = await self._run(sql, params)
        return await cur.fetchone()

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        cur = await self._run(sql, params)
        return list(await cur.fetchall())

    async def lock(self, table: str, row_id: int) -> None:
        """BEGIN IMMEDIATE already holds the whole file."""

@register
class SqliteDatabase(Database):
    """A writer connection (WAL, ``synchronous = FULL``) and a reader connection.

    ``synchronous = FULL``: in WAL mode NORMAL may lose the last commits on power loss, and a
    board is shown only after its move committed, so a shown move must survive.
    """

    dialect = "sqlite"

    def __init__(self, target: str | Path, *, lock_wait: float = LOCK_WAIT,
                 observer: StatementObserver | None = None) -> None:
        super().__init__(target, lock_wait=lock_wait, observer=observer)
        self.path = self.target
        self.conn: _SqliteConnection | None = None  # the writer
        self.reader: _SqliteConnection | None = None
        #: reads by key, run on the event loop's thread (see lookup)
        self.quick: sqlite3.Connection | None = None
        # one writer connection: its transactions must not interleave (a connection rule,
        # not a correctness one: two processes are kept apart by SQLite's own lock)
        self._write = asyncio.Lock()
        self._group = _GroupCommit()
        #: the file's real path names its cross-process locks (resolved once the file exists:
        #: realpath makes a system call per part of the path, and every move takes a lock)
        self._lock_scope = self.path
        self._lock_fd: int | None = None

    async def _connect(self, *, busy_ms: int) -> _SqliteConnection:
        path = self.path
        conn = _SqliteConnection(lambda: sqlite3.connect(path, isolation_level=None), 64)
        await conn  # starts its thread and connects, as aiosqlite.connect does
        conn.row_factory = aiosqlite.Row
        # short waits inside the driver thread; longer waits are async retries (transaction)
        await conn.execute(f"PRAGMA busy_timeout = {busy_ms}")
        await conn.execute("PRAGMA foreign_keys = ON")
        return conn

    async def open(self) -> SqliteDatabase:
        try:
            self.conn = await self._connect(busy_ms=int(self.lock_wait * 1000))
            self._lock_scope = os.path.realpath(self.path)
            await self._journal_to_wal()
            await self.conn.execute("PRAGMA synchronous = FULL")
            await self.migrate()
            await self.conn.execute("PRAGMA busy_timeout = 50")
            if self.path == ":memory:":
                self.reader = self.conn
            else:
                self.reader = await self._connect(busy_ms=int(self.lock_wait * 1000))
                await self.reader.execute("PRAGMA query_only = ON")
                # never waits: a read that would (rare in WAL mode) goes to the reader thread
                self.quick = sqlite3.connect(self.path, isolation_level=None)
                self.quick.row_factory = sqlite3.Row
                self.quick.execute("PRAGMA query_only = ON")
                self.quick.execute("PRAGMA busy_timeout = 0")
        except sqlite3.Error as exc:
            await self.close()
            raise _sqlite_failure(exc) from exc
        except SchemaMismatch:
            await self.close()
            raise
        return self

    async def _journal_to_wal(self) -> None:
        """Switch a new file to WAL. The switch needs the file to itself and SQLite does not
        wait for it (no busy handler): processes opening a new file at the same moment got
        "database is locked". Try again until ``lock_wait`` has passed."""
        assert self.conn is not None
        give_up = time.monotonic() + self.lock_wait
        while True:
            try:
                await self.conn.execute("PRAGMA journal_mode = WAL")
                return
            except sqlite3.OperationalError as exc:
                if exc.sqlite_errorcode != sqlite3.SQLITE_BUSY or time.monotonic() > give_up:
                    raise
            await asyncio.sleep(0.01)

    async def close(self) -> None:
        if self.quick is not None:
            self.quick.close()
            self.quick = None
        for conn in {id(c): c for c in (self.reader, self.conn) if c is not None}.values():
            await conn.close()
        self.conn = self.reader = None
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None

    async def schema_version(self) -> int:
        row = await self.fetchone("PRAGMA user_version")
        return int(row[0])

    async def ping(self) -> None:
        """Open the file afresh, read-only, and read its first page (in a thread): the open
        connections keep reading a file that was moved, deleted or replaced under them, so
        only a new one tells whether the path still leads to this database."""
        if self.path == ":memory:":
            await self.fetchone("SELECT 1")
            return
        try:
            await asyncio.to_thread(_read_first_page, self.path)
        except sqlite3.Error as exc:
            raise _sqlite_failure(exc) from exc
    async def migrate(self) -> int:
        assert self.conn is not None, "Database.open() first"
        conn = self.conn
        return await apply_sqlite(conn, lambda wait: self._begin(conn, wait))

    async def _begin(self, conn: aiosqlite.Connection, wait: float | None = None) -> None:
        """BEGIN IMMEDIATE, retried without blocking the event loop while another process
        writes; :class:`StoreBusy` after ``wait`` (default ``lock_wait``) seconds."""
        give_up = time.monotonic() + (self.lock_wait if wait is None else wait)
        while True:
            try:
                await conn.execute("BEGIN IMMEDIATE")
                return
            except sqlite3.OperationalError as exc:
                if not _is_busy(exc):
                    raise _sqlite_failure(exc) from exc
                if time.monotonic() >= give_up:
                    raise StoreBusy(f"{self.path}: write lock held elsewhere") from exc
                await asyncio.sleep(0.02)
            except sqlite3.Error as exc:
                raise _sqlite_failure(exc) from exc

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[SqliteTx]:
        """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK on any error."""
        assert self.conn is not None, "Database.open() first"
        conn = self.conn
        async with self._write:
            self.statements += 2
            await self._begin(conn)
            try:
                yield SqliteTx(self, conn)
            except BaseException:
                # SQLite may have rolled back already (disk full): the first error tells
                with contextlib.suppress(sqlite3.Error):
                    await conn.execute("ROLLBACK")
                raise
            try:
                await conn.execute("COMMIT")
            except sqlite3.Error as exc:
                if conn.in_transaction:
                    await conn.execute("ROLLBACK")
                raise _sqlite_failure(exc) from exc

    async def batch(self, statements: Sequence[tuple[str, Sequence[Any]]], *,
                    guarded: bool = False) -> int:
        """Committed together with the other batches waiting for the writer's thread
        (:class:`_GroupCommit`); another process's write lock is waited for in that thread,
        never on the event loop, up to ``lock_wait``."""
        assert self.conn is not None, "Database.open() first"
        item = _Queued([(sql, tuple(params)) for sql, params in statements], guarded,
                       time.monotonic() + self.lock_wait,
                       asyncio.get_running_loop().create_future())
        self.statements += len(item.statements) + 2
        # the lock orders the batch against a transaction() in progress (its statements are
        # round trips of their own on the same thread); batches need not wait for each other
        async with self._write:
            if self._group.add(item):
                self.conn.submit(self._group.drain)
        try:
            counts = await item.future
        except _WriteLockBusy as exc:
            raise StoreBusy(f"{self.path}: write lock held elsewhere") from exc
        except sqlite3.Error as exc:
            raise _sqlite_failure(exc) from exc
        if counts is None:
            raise StaleVersion("the guarded write found the row moved on")
        return counts[0]

    @property
    def batch_transactions(self) -> int:
        """Transactions the batches took so far (fewer than the batches when they queued)."""
        return self._group.transactions

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Any:
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        # execute, fetch and close in ONE call on the reader's thread: a statement left open
        # across an await (another coroutine's read starting meanwhile) keeps the connection's
        # read snapshot alive, and under steady load every later read saw old data
        assert self.reader is not None, "Database.open() first"
        self.statements += 1
        try:
            return list(await self.reader.execute_fetchall(sql, tuple(params)))
        except sqlite3.Error as exc:
            raise _sqlite_failure(exc) from exc

    async def lookup(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """One row by its key, read on the event loop's own thread: SQLite answers it from
        its cache in ~25 us (a WAL reader never waits for a writer). Through the reader's
        thread the same read cost the loop 3x the CPU, a wake-up of that thread (which then
        competes for the GIL), and a whole turn of the loop before the caller went on
        (~0.1 s each at 200 games, five of them between a click and its board). A read that
        would wait (SQLite busy) goes through the reader's thread instead."""
        if self.quick is None:
            return await self.fetchone(sql, params)
        self.statements += 1
        started = time.thread_time()
        try:
            rows = self.quick.execute(sql, tuple(params)).fetchall()
        except sqlite3.OperationalError as exc:
            if _is_busy(exc):
                return await self.fetchone(sql, params)
            raise _sqlite_failure(exc) from exc
        except sqlite3.Error as exc:
            raise _sqlite_failure(exc) from exc
        took = time.thread_time() - started
        if took > SLOW_LOOKUP:  # CPU time: what the read itself cost, not the GIL's turns
            log.warning("a read by key took %.1f ms of the event loop: %s", took * 1000, sql[:80])
        return rows[0] if rows else None

    @asynccontextmanager
    async def session_lock(self, key: int) -> AsyncIterator[None]:
        """Byte ``key`` of ``<file>-locks`` locked with fcntl: across processes, released by
        the kernel if the process dies. Waits asynchronously; :class:`StoreBusy` after
        ``lock_wait`` seconds."""
        give_up = time.monotonic() + self.lock_wait
        if self.path == ":memory:":
            async with local_lock(self.path + str(id(self)), key, give_up):
                yield
            return
        scope = self._lock_scope
        async with local_lock(scope, key, give_up):
            fd = _lock_file(scope)
            while True:
                try:
                    fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, key)
                    break
                except OSError as exc:
                    if time.monotonic() >= give_up:
                        raise StoreBusy(f"session {key} is locked elsewhere") from exc
                    await asyncio.sleep(0.01)
            try:
                yield
            finally:
                fcntl.lockf(fd, fcntl.LOCK_UN, 1, key)


def _read_first_page(path: str) -> None:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
    finally:
        conn.close()


#: one descriptor per lock file and process: closing any descriptor of a file drops every
#: POSIX lock the process holds on it, so it is opened once and kept
_lock_fds: dict[str, int] = {}


def _lock_file(path: str) -> int:
    if path not in _lock_fds:
        _lock_fds[path] = os.open(path + "-locks", os.O_RDWR | os.O_CREAT, 0o600)
    return _lock_fds[path]
