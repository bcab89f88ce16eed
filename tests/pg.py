"""A throwaway PostgreSQL server for the tests: ``initdb`` in a temporary folder, a unix
socket in that folder (no TCP port to collide on), run as the ``postgres`` system user when
the tests run as root (PostgreSQL refuses root). One server per test session; each test gets
a fresh, empty schema of its own (``search_path`` in its URL: as isolated as a new database for
our unqualified SQL, and ~1 ms instead of the ~0.5-1 s a ``CREATE DATABASE`` takes); a test
that changes database-wide settings asks for a whole database.
"""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path

PORT = 5432  # only names the socket file inside our own folder


def find_bin(name: str) -> str | None:
    """A PostgreSQL program: on PATH, or in Debian's versioned folder (newest first)."""
    for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if os.access(os.path.join(folder, name), os.X_OK):
            return os.path.join(folder, name)
    return shutil.which(name)


class PostgresServer:
    def __init__(self, *, fsync: bool = False) -> None:
        self.fsync = fsync  # tests need no durability; benchmarks measure it
        self.root = Path(tempfile.mkdtemp(prefix="stolik-pg-"))
        self.data = self.root / "data"
        self.socket_dir = self.root
        self._names = itertools.count(1)
        self._demote: Callable[[], None] | None = None
        self._options = ""

    def _run(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(args, check=True, capture_output=True, text=True,
                              preexec_fn=self._demote, cwd=self.root, timeout=120)

    def start(self) -> PostgresServer:
        initdb, pg_ctl = find_bin("initdb"), find_bin("pg_ctl")
        if not (initdb and pg_ctl):
            raise RuntimeError("PostgreSQL is not installed (initdb/pg_ctl not found)")
        if os.geteuid() == 0:
            user = pwd.getpwnam("postgres")
            os.chown(self.root, user.pw_uid, user.pw_gid)

            def demote() -> None:
                os.setgid(user.pw_gid)
                os.setuid(user.pw_uid)

            self._demote = demote
        self._run(initdb, "-D", str(self.data), "-A", "trust", "-U", "postgres", "-E", "UTF8",
                  "--locale=C", "--no-sync")
        self._options = (f"-k {self.socket_dir} -p {PORT} -c listen_addresses=''"
                         f" -c fsync={'on' if self.fsync else 'off'} -c max_connections=200")
        self.resume()
        return self

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@/{database}?host={self.socket_dir}&port={PORT}"

    def _sql(self, sql: str) -> None:
        psql = find_bin("psql")
        assert psql is not None
        self._run(psql, "-h", str(self.socket_dir), "-p", str(PORT), "-U", "postgres", "-d",
                  "postgres", "-q", "-c", sql)

    def new_database(self) -> str:
        """A fresh empty database; returns its URL."""
        name = f"t{os.getpid()}_{next(self._names)}"
        self._sql(f"CREATE DATABASE {name}")
        return self.url(name)

    def new_schema(self) -> str:
        """A fresh empty schema in the ``postgres`` database; returns a URL whose connections
        use it (asyncpg passes unknown URL parameters on as server settings)."""
        name = f"s{os.getpid()}_{next(self._names)}"
        self._sql(f"CREATE SCHEMA {name}")
        return self.url() + f"&search_path={name}"

    def pause(self) -> None:
        """An outage: the server stops at once (connections drop), its data kept for
        :meth:`resume`."""
        pg_ctl = find_bin("pg_ctl")
        assert pg_ctl is not None
        self._run(pg_ctl, "-D", str(self.data), "-m", "immediate", "-w", "stop")

    def resume(self) -> None:
        """The server back after :meth:`pause`, on the same socket and data."""
        pg_ctl = find_bin("pg_ctl")
        assert pg_ctl is not None
        self._run(pg_ctl, "-D", str(self.data), "-o", self._options, "-l", str(self.root / "log"),
                  "-w", "-t", "60", "start")

    def cpu_seconds(self) -> float:
        """User + system CPU seconds of the server and its backends so far (those alive)."""
        try:
            postmaster = int((self.data / "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return 0.0
        ticks = os.sysconf("SC_CLK_TCK")
        total = 0
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:  # ended meanwhile
                continue
            if int(entry.name) == postmaster or int(fields[1]) == postmaster:
                total += int(fields[11]) + int(fields[12])
        return total / ticks

    def stop(self) -> None:
        pg_ctl = find_bin("pg_ctl")
        if pg_ctl and (self.data / "postmaster.pid").exists():
            self._run(pg_ctl, "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.root, ignore_errors=True)


def started_for_test() -> PostgresServer:
    """A started server for a test or fixture (stop it when done). In CI (``CI=true``) a
    server that cannot start fails the test, never skips it; elsewhere the test skips with
    the reason."""
    import pytest  # here, not above: the benchmarks use this module without pytest

    server = PostgresServer()
    try:
        server.start()
    except (RuntimeError, OSError, KeyError, subprocess.SubprocessError) as exc:
        detail = getattr(exc, "stderr", "") or ""
        server.stop()
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"PostgreSQL test server did not start: {exc} {detail}")
        pytest.skip(f"PostgreSQL test server did not start: {exc} {detail}")
    return server
