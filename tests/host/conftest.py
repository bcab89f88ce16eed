from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

import engines
from db import Database
from session.service import Sessions
from tests.host import toy


class FakeClock:
    def __init__(self) -> None:
        self.now = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **kwargs) -> None:
        self.now += timedelta(**kwargs)


@pytest.fixture(autouse=True)
def forget_the_toy():
    """Unregister the toy game after a test that installed it (``toy.install``)."""
    yield
    engines.unregister("toy")


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


#: the modules whose tests run on both backends (the store and session suites)
BOTH_BACKENDS = ("sqlite", pytest.param("postgres", marks=pytest.mark.postgres))


def pytest_generate_tests(metafunc):
    if getattr(metafunc.module, "BACKENDS", None) == "both" and "backend" in metafunc.fixturenames:
        metafunc.parametrize("backend", BOTH_BACKENDS, indirect=True)


@pytest.fixture
def backend(request) -> str:
    return getattr(request, "param", "sqlite")


@pytest.fixture
def db_path(tmp_path, backend, request):
    """Where the database lives: a SQLite file, or a fresh PostgreSQL database's URL."""
    if backend == "postgres":
        return request.getfixturevalue("postgres_url")
    return tmp_path / "stolik.sqlite3"


@pytest.fixture
async def sessions(db_path, clock, monkeypatch):
    toy.install(monkeypatch)
    db = await Database(db_path).open()
    sessions = Sessions(db, clock=clock, seed_source=lambda: 42, strict_bots=True)
    yield sessions
    await db.close()
    if sessions.db is not db:  # a test that restarted over the same database
        await sessions.db.close()
