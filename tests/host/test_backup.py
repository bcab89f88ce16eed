"""Backups (issue 26, item 3): ``python bot.py --backup PATH`` copies a SQLite database while
moves are being written; the copy, restored, plays on from every game's last acknowledged move.
PostgreSQL is pointed at pg_dump."""

from __future__ import annotations

import asyncio
import json
import random
import shutil
import sqlite3

import pytest

import bot
import engines
from db import Database
from db.backup import BackupRefused, backup_sqlite
from db.migrate import latest_version
from session.service import Sessions

GAMES = 4


async def new_game(sessions: Sessions, channel: int) -> int:
    await sessions.new(guild_id=1, channel_id=channel, game_id="kingdomino", user_id=1,
                       name="Ala", players=2)
    return (await sessions.join(channel, 2, "Bo")).session.id


async def play_one(sessions: Sessions, session_id: int, rng: random.Random) -> int | None:
    """One legal move of whoever is to act; the version it was acknowledged at (None: over)."""
    row = await sessions.session(session_id)
    if row.status != "active":
        return None
    game = engines.get(row.game_id)
    state = await sessions.state(row)
    seat = game.to_act(state)[0]
    code = rng.choice(game.legal_actions(state, seat))
    outcome = await sessions.act(session_id, row.seats[seat].user_id, code, row.version)
    return outcome.session.version


async def logs(sessions: Sessions, ids) -> dict[int, list[str]]:
    return {i: [a.code for a in await sessions.store.actions(i)] for i in ids}


async def check_plays_on(path, acknowledged: dict[int, int], live: dict[int, list[str]]) -> None:
    """Every game's state equals the replay of its log, its log is the start of the live
    database's, it holds every move acknowledged before the backup began, and a further legal
    move applies."""
    async with Database(path) as restored:
        sessions = Sessions(restored, seed_source=lambda: 7)
        rng = random.Random(2)
        for session_id, version in acknowledged.items():
            row = await sessions.session(session_id)
            assert row.version >= version, (session_id, row.version, version)
            assert json.loads(row.state_json) == await sessions.replay(row)
            log = [a.code for a in await sessions.store.actions(session_id)]
            assert log == live[session_id][:len(log)]
            if row.status == "active":
                assert await play_one(sessions, session_id, rng) == row.version + 1


async def test_a_backup_taken_while_moves_are_written_plays_on(tmp_path, clock):
    source, copy, fresh = tmp_path / "live.sqlite3", tmp_path / "copy.sqlite3", tmp_path / "new.sqlite3"
    async with Database(source) as live:
        sessions = Sessions(live, clock=clock, seed_source=lambda: 42)
        ids = [await new_game(sessions, 100 + n) for n in range(GAMES)]
        rng = random.Random(1)
        for session_id in ids * 3:
            await play_one(sessions, session_id, rng)
        acknowledged = {i: (await sessions.session(i)).version for i in ids}
        stop = asyncio.Event()
        during: list[int] = []

        async def writer() -> None:
            while not stop.is_set():
                for session_id in ids:
                    if await play_one(sessions, session_id, rng) is not None:
                        during.append(session_id)

        writing = asyncio.create_task(writer())
        await asyncio.sleep(0.05)  # the writer is under way
        # small steps and a pause: the writer's commits land between them (and restart it)
        report = await asyncio.to_thread(backup_sqlite, source, copy, pages=4, pause=0.01)
        stop.set()
        await writing
        live_logs = await logs(sessions, ids)
        assert during, "no move was written during the backup"
        assert report.steps > 1 and report.schema_version == latest_version()
    assert not list(tmp_path.glob("copy.sqlite3?*"))  # one file: no -wal, no partial left
    shutil.copyfile(copy, fresh)  # the copy is a database: a plain file copy restores it
    await check_plays_on(fresh, acknowledged, live_logs)


async def test_a_paged_copy_nobody_writes_to_needs_no_restart(tmp_path, clock):
    source, copy = tmp_path / "quiet.sqlite3", tmp_path / "copy.sqlite3"
    async with Database(source) as live:
        sessions = Sessions(live, clock=clock, seed_source=lambda: 42)
        ids = [await new_game(sessions, 100 + n) for n in range(2)]
        rng = random.Random(3)
        for session_id in ids * 5:
            await play_one(sessions, session_id, rng)
        acknowledged = {i: (await sessions.session(i)).version for i in ids}
        live_logs = await logs(sessions, ids)
    report = backup_sqlite(source, copy, pages=2, pause=0)
    assert report.restarts == 0 and not report.one_step and report.steps == -(-report.pages // 2)
    await check_plays_on(copy, acknowledged, live_logs)


def test_bot_backup_copies_the_database_named_as_for_running(tmp_path, monkeypatch, capsys):
    source = tmp_path / "named.sqlite3"
    with sqlite3.connect(source) as conn:
        conn.execute("CREATE TABLE kept (x INTEGER)")
        conn.execute("INSERT INTO kept VALUES (5)")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("STOLIK_DB", str(source))
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)  # not needed for a backup
    assert bot.main(["--backup", str(tmp_path / "b.sqlite3")]) == 0
    assert "backed up" in capsys.readouterr().out
    with sqlite3.connect(tmp_path / "b.sqlite3") as conn:
        assert conn.execute("SELECT x FROM kept").fetchall() == [(5,)]
    # --db wins over STOLIK_DB, as for running the bot
    assert bot.main(["--db", str(tmp_path / "absent.sqlite3"), "--backup", "x.sqlite3"]) == 1
    assert "no SQLite database at" in capsys.readouterr().err
    assert not (tmp_path / "absent.sqlite3").exists() and not (tmp_path / "x.sqlite3").exists()


def test_bot_backup_of_postgresql_points_at_pg_dump(monkeypatch, capsys):
    monkeypatch.setenv("STOLIK_DB", "postgresql://stolik@db.example/stolik")
    assert bot.main(["--backup", "x.dump"]) == 2
    err = capsys.readouterr().err
    assert "pg_dump -Fc" in err and "pg_restore" in err


def test_a_backup_never_overwrites_its_own_database(tmp_path):
    source = tmp_path / "s.sqlite3"
    sqlite3.connect(source).close()
    with pytest.raises(BackupRefused, match="overwrite the database itself"):
        backup_sqlite(source, source)
