"""Fixtures every test folder may use: a real PostgreSQL server for ``postgres`` tests."""

from __future__ import annotations

import os
import sys
import threading

import pytest

from tests.pg import started_for_test

# A computer player that crashes or answers an illegal move fails the test instead of being
# replaced by a fallback move (session/computer.py): e2e bot processes inherit this through the
# environment (bot.py's settings); in-process tests build Sessions(strict_bots=True).
os.environ["STOLIK_STRICT_BOTS"] = "1"


@pytest.fixture(scope="session")
def postgres_server():
    """One throwaway server per test run. In CI (``CI=true``) a server that cannot start is
    a failure, never a skip; elsewhere the ``postgres`` tests skip with the reason."""
    server = started_for_test()
    yield server
    server.stop()


@pytest.fixture
def postgres_url(postgres_server) -> str:
    """A fresh, empty schema on the test server (see tests/pg.py)."""
    return postgres_server.new_schema()


# A thread that is not a daemon keeps the interpreter alive after the last test: an aiosqlite
# connection a test never closed made CI wait for its whole time limit after "N passed". Each
# test must end with no thread of its own still running; the run ends either way.
THREAD_GRACE = 2.0  # seconds a closing connection's worker may take to finish


@pytest.fixture(autouse=True)
def no_thread_left_running():
    before = set(threading.enumerate())
    yield
    left = [t for t in threading.enumerate()
            if t not in before and not t.daemon and t.is_alive()]
    for thread in left:
        thread.join(THREAD_GRACE / len(left))
    left = [t.name for t in left if t.is_alive()]
    if left:
        pytest.fail(f"the test left threads running (a Database not closed?): {left}")


def pytest_unconfigure(config):
    """Never hang after the summary: a thread left running (already failed above) is named
    and the process exits with the run's status."""
    left = [t.name for t in threading.enumerate()
            if t is not threading.main_thread() and not t.daemon and t.is_alive()]
    if left:
        print(f"\nthreads still running after the tests: {left}", file=sys.stderr, flush=True)
        sys.stdout.flush()
        os._exit(getattr(config, "_stolik_status", 1) or 1)


def pytest_sessionfinish(session, exitstatus):
    session.config._stolik_status = int(exitstatus)
