"""Fixtures every test folder may use: a real PostgreSQL server for ``postgres`` tests."""

from __future__ import annotations

import os
import subprocess

import pytest

from tests.pg import PostgresServer

# A computer player that crashes or answers an illegal move fails the test instead of being
# replaced by a fallback move (session/computer.py). Set before any session module is imported;
# e2e bot processes inherit it through the environment.
os.environ["STOLIK_STRICT_BOTS"] = "1"


@pytest.fixture(scope="session")
def postgres_server():
    """One throwaway server per test run. In CI (``CI=true``) a server that cannot start is
    a failure, never a skip; elsewhere the ``postgres`` tests skip with the reason."""
    server = PostgresServer()
    try:
        server.start()
    except (RuntimeError, OSError, KeyError, subprocess.SubprocessError) as exc:
        detail = getattr(exc, "stderr", "") or ""
        server.stop()
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"PostgreSQL test server did not start: {exc} {detail}")
        pytest.skip(f"PostgreSQL test server did not start: {exc} {detail}")
    yield server
    server.stop()


@pytest.fixture
def postgres_url(postgres_server) -> str:
    """A fresh, empty schema on the test server (see tests/pg.py)."""
    return postgres_server.new_schema()
