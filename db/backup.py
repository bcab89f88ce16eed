"""Backups of a database the bot may be writing: a SQLite file is copied with SQLite's online
backup API (``python bot.py --backup PATH``); PostgreSQL is backed up with its own tools.

The copy is one self-contained SQLite file (journal mode DELETE, no ``-wal`` beside it): to
restore, put it where the bot's database goes; the bot switches it back to WAL when it opens
it and migrates it if it is older than the code.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

#: pages copied per step (4 MiB at SQLite's default page size)
PAGES_PER_STEP = 1024
#: the pause between steps: the source is not read meanwhile, so the bot's writes go on
PAUSE = 0.005
#: a write by another connection restarts a paged copy from its first page; after this many
#: restarts the rest is copied in one step, which in WAL mode holds only a read snapshot (the
#: bot's writers never wait for a reader) and so always finishes
RESTARTS_BEFORE_ONE_STEP = 3
#: how long the copy waits for a lock on the source (a checkpoint, a WAL switch)
BUSY_WAIT_MS = 5000

PG_ADVICE = ("a PostgreSQL database is backed up with PostgreSQL's own tools, not by the bot: "
             "pg_dump -Fc -f stolik.dump 'postgresql://...' (restore into an empty database: "
             "pg_restore -d 'postgresql://...' stolik.dump); see db/README.md, Backups")


class BackupRefused(Exception):
    """The backup cannot be made (no such database, a PostgreSQL target); the message says why."""


@dataclass
class BackupReport:
    """What :func:`backup_sqlite` copied."""

    path: Path
    pages: int
    schema_version: int
    steps: int
    restarts: int
    one_step: bool  # the paged copy restarted too often and the rest went in one step


class _TooManyRestarts(Exception):
    """Raised from the progress callback: SQLite then abandons the paged copy."""


def backup_sqlite(source: str | Path, dest: str | Path, *, pages: int = PAGES_PER_STEP,
                  pause: float = PAUSE,
                  restarts_before_one_step: int = RESTARTS_BEFORE_ONE_STEP) -> BackupReport:
    """A consistent copy of the SQLite database ``source`` at ``dest``, while other processes
    may be writing it. Written to ``dest.partial`` and renamed when complete and checked, so
    ``dest`` is never a half-made copy."""
    source, dest = Path(source), Path(dest)
    if not source.is_file():
        raise BackupRefused(f"there is no SQLite database at {source}")
    if dest.resolve() == source.resolve():
        raise BackupRefused(f"the backup would overwrite the database itself: {dest}")
    partial = dest.with_name(dest.name + ".partial")
    for leftover in (partial, *_journals(partial)):  # a stale -wal would be replayed into it
        leftover.unlink(missing_ok=True)
    src = sqlite3.connect(source)
    copy = sqlite3.connect(partial)
    try:
        src.execute("PRAGMA query_only = ON")
        src.execute(f"PRAGMA busy_timeout = {BUSY_WAIT_MS}")
        report = _copy(src, copy, pages, pause, restarts_before_one_step)
        report.path = dest
        # one self-contained file: folds the copy's WAL into it and removes it
        copy.execute("PRAGMA journal_mode = DELETE")
        (checked,) = copy.execute("PRAGMA quick_check").fetchone()
        if checked != "ok":
            raise BackupRefused(f"the copy does not check out ({checked}); the database itself "
                                f"may be damaged: PRAGMA integrity_check on {source}")
        (report.schema_version,) = copy.execute("PRAGMA user_version").fetchone()
    except BaseException:
        copy.close()
        for leftover in (partial, *_journals(partial)):
            leftover.unlink(missing_ok=True)
        raise
    finally:
        src.close()
    copy.close()
    os.replace(partial, dest)
    _sync_folder(dest.parent)
    return report


def _copy(src: sqlite3.Connection, copy: sqlite3.Connection, pages: int, pause: float,
          restarts_before_one_step: int) -> BackupReport:
    """``pages`` at a time with ``pause`` between steps; the rest in one step after too many
    restarts (see :data:`RESTARTS_BEFORE_ONE_STEP`)."""
    report = BackupReport(Path(), 0, 0, 0, 0, False)
    left: list[int] = []

    def progress(_status: int, remaining: int, total: int) -> None:
        report.steps += 1
        report.pages = total
        if left and remaining >= left[-1]:  # it began again from the first page
            report.restarts += 1
            if report.restarts >= restarts_before_one_step:
                raise _TooManyRestarts
        left.append(remaining)
        time.sleep(pause)

    try:
        src.backup(copy, pages=pages, progress=progress)
    except _TooManyRestarts:
        report.one_step = True
        src.backup(copy)
        report.steps += 1
        (report.pages,) = copy.execute("PRAGMA page_count").fetchone()
    return report


def _journals(path: Path) -> tuple[Path, ...]:
    return tuple(path.with_name(path.name + suffix) for suffix in ("-wal", "-shm", "-journal"))


def _sync_folder(folder: Path) -> None:
    """The rename survives a power loss once the folder is synced (where the system allows)."""
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
