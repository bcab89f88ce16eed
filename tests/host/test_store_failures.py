"""When the database fails: the player is told, nothing is half-written, other games go on
(issue 14). Each failure listed there has its test here or in test_db.py."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sqlite3
import subprocess
import time

import pytest

import engines
from cogs.game import GameCog
from db import Database
from db.sqlite import SqliteDatabase
from session.errors import SessionError
from session.service import Sessions
from tests.host.days import rooms_over
from tests.host.driver import click
from tests.host.fakes import FakeClient, FakeInteraction
from text.catalog import t

#: the session suite runs on SQLite and on PostgreSQL
BACKENDS = "both"

CH = 90


async def kingdomino(sessions: Sessions, channel: int = CH, bot: bool = False):
    await sessions.new(guild_id=1, channel_id=channel, game_id="kingdomino", user_id=1,
                       name="Ala", players=2)
    return (await sessions.join(channel, None if bot else 2, "Bot" if bot else "Bo")).session


async def first_move(sessions: Sessions, row):
    game = engines.get(row.game_id)
    state = await sessions.state(row)
    seat = game.to_act(state)[0]
    return row.seats[seat].user_id, game.legal_actions(state, seat)[0]


async def test_a_read_only_database_is_told_on_new_and_on_a_click(tmp_path, clock, monkeypatch):
    from tests.host import toy

    toy.install(monkeypatch)
    db = await Database(tmp_path / "ro.sqlite3").open()
    client = FakeClient(Sessions(db, clock=clock, seed_source=lambda: 42, strict_bots=True))
    cog = GameCog(client)  # type: ignore[arg-type]
    first = FakeInteraction(client, client.user(1, "Ala"), CH)
    await GameCog.new.callback(cog, first, "toy", 2, None)
    lobby = client.channel(CH).last.sent
    await db.conn.execute("PRAGMA query_only = ON")  # the file turned read-only under us
    busy = FakeInteraction(client, client.user(3, "Cy"), CH + 1)
    await GameCog.new.callback(cog, busy, "toy", 2, None)
    assert busy.ephemeral_texts() == [t("en", "error.store_failed")]  # answered, no hang
    join = await click(client, 2, CH, lobby, lobby.custom_ids[0])
    assert t("en", "error.store_failed") in join.ephemeral_texts()
    row = await client.host.sessions.in_channel(CH)
    assert [s.user_id for s in row.seats] == [1] and row.status == "lobby"
    await db.conn.execute("PRAGMA query_only = OFF")
    await click(client, 2, CH, lobby, lobby.custom_ids[0])
    assert (await client.host.sessions.in_channel(CH)).status == "active"
    await db.close()


async def test_a_read_only_database_keeps_the_move_and_tells_the_player(
        backend, tmp_path, clock, caplog, request):
    if backend == "sqlite":
        target = tmp_path / "ro.sqlite3"
    else:  # a whole database of its own: its settings change below
        target = request.getfixturevalue("postgres_server").new_database()
    async with Database(target) as db:
        sessions = Sessions(db, clock=clock, strict_bots=True)
        row = await kingdomino(sessions)
        user, code = await first_move(sessions, row)
        if isinstance(db, SqliteDatabase):
            await db.conn.execute("PRAGMA query_only = ON")
        else:  # the server's database turned read-only (e.g. a replica after a fail-over)
            name = await db.pool.fetchval("SELECT current_database()")
            await db.pool.execute(f'ALTER DATABASE "{name}" SET default_transaction_read_only = on')
            await db.pool.expire_connections()
        with caplog.at_level(logging.ERROR), pytest.raises(SessionError) as err:
            await sessions.act(row.id, user, code, row.version)
        assert err.value.key == "error.store_failed"
        assert "storage failed" in caplog.text  # and the log says why
        assert (await sessions.session(row.id)).version == row.version
        assert await sessions.store.actions(row.id) == []


@pytest.fixture
def small_disk(tmp_path):
    """A 1 MB file system that we can fill (a real ENOSPC, as on a full disk)."""
    disk = tmp_path / "disk"
    disk.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(disk)],
                             capture_output=True, text=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a small file system here: {mounted.stderr.strip()}")
    yield disk
    subprocess.run(["umount", "-l", str(disk)], check=True)


async def test_a_full_disk_is_told_nothing_is_lost_and_play_resumes(small_disk, clock):
    async with Database(small_disk / "full.sqlite3") as db:
        sessions = Sessions(db, clock=clock, strict_bots=True)
        row = await kingdomino(sessions)
        user, code = await first_move(sessions, row)
        filler = small_disk / "filler"
        with contextlib.suppress(OSError), open(filler, "wb") as f:
            while True:  # fill the disk to the last byte
                f.write(b"\0" * 4096)
                f.flush()
        with pytest.raises(SessionError) as err:
            await sessions.act(row.id, user, code, row.version)
        assert err.value.key == "error.store_failed"
        with pytest.raises(SessionError) as err:
            await sessions.new(guild_id=1, channel_id=CH + 1, game_id="kingdomino", user_id=5,
                               name="Ed", players=2)
        assert err.value.key == "error.store_failed"
        assert (await sessions.session(row.id)).version == row.version  # reads still answer
        os.remove(filler)
        out = await sessions.act(row.id, user, code, row.version)  # the same click now lands
        assert out.session.version == row.version + 1


async def test_another_writer_holding_the_lock_never_stalls_the_bot(sessions, db_path, clock):
    """Another process holds the write lock: the move waits without blocking the event loop,
    reads of the same game still answer, and after ``lock_wait`` the player is told."""
    lock_wait = 1.5
    db = await Database(db_path, lock_wait=lock_wait).open()
    here = Sessions(db, clock=clock, strict_bots=True)
    row = await kingdomino(here)
    user, code = await first_move(here, row)
    if db.dialect == "sqlite":
        blocker = sqlite3.connect(str(db_path), isolation_level=None)
        blocker.execute("BEGIN IMMEDIATE")
    else:
        import asyncpg

        blocker = await asyncpg.connect(db.target)
        await blocker.execute("BEGIN")
        await blocker.execute("SELECT 1 FROM sessions WHERE id = $1 FOR UPDATE", row.id)
    gaps: list[float] = []

    async def ticker():
        last = time.monotonic()
        while True:
            await asyncio.sleep(0.01)
            now = time.monotonic()
            gaps.append(now - last)
            last = now

    ticking = asyncio.create_task(ticker())
    started = time.monotonic()
    move = asyncio.create_task(here.act(row.id, user, code, row.version))
    await asyncio.sleep(0.2)
    seen = await here.session(row.id)  # a reader is not stuck behind the waiting writer
    assert seen.version == row.version and not move.done()
    with pytest.raises(SessionError) as err:
        await move
    waited = time.monotonic() - started
    ticking.cancel()
    assert err.value.key == "error.store_busy"
    assert lock_wait - 0.1 <= waited < lock_wait + 2.5  # told well within Discord's 15 minutes
    assert max(gaps) < 0.5  # the loop kept running (a blocked loop shows one gap of ~lock_wait)
    if db.dialect == "sqlite":
        blocker.execute("ROLLBACK")
        blocker.close()
    else:
        await blocker.execute("ROLLBACK")
        await blocker.close()
    assert (await here.act(row.id, user, code, row.version)).session.version == row.version + 1
    await db.close()


async def test_one_damaged_row_never_stops_the_recovery_of_the_others(sessions, monkeypatch,
                                                                     caplog):
    async def no_computers(outcome):
        return outcome

    rows = []
    for channel in (CH, CH + 1, CH + 2):
        row = await kingdomino(sessions, channel, bot=True)
        game = engines.get("kingdomino")
        monkeypatch.setattr(sessions, "run_computer_players", no_computers)
        while True:  # stopped after the human's move, before the computer's
            state = await sessions.state(row)
            seat = game.to_act(state)[0]
            if row.seats[seat].is_bot:
                break
            row = (await sessions.act(row.id, 1, game.legal_actions(state, seat)[0])).session
        monkeypatch.undo()
        rows.append(row)
    async with sessions.db.transaction() as tx:  # one row is damaged beyond replay
        # (unreadable options alone are rebuilt now: its state lost and its log broken too)
        await tx.execute("UPDATE sessions SET options = '{oops', state = NULL WHERE id = ?",
                         (rows[1].id,))
        await tx.execute("UPDATE actions SET code = 'nonsense' WHERE session_id = ?",
                         (rows[1].id,))
    with caplog.at_level(logging.ERROR):
        again = Sessions(sessions.db, clock=sessions.clock, strict_bots=True)
        events = await rooms_over(again).timers.recover()
    assert sorted(e.session.id for e in events if e.kind == "computer") == [rows[0].id,
                                                                           rows[2].id]
    assert f"session {rows[1].id}" in caplog.text
