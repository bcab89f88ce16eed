"""Many processes, one database: no correctness rests on an in-process lock. Each test runs on
SQLite and on PostgreSQL; the workers are separate OS processes (tests/host/worker.py)."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from contextlib import asynccontextmanager
from datetime import timedelta
from pathlib import Path

import pytest

import engines
from db import Database, StaleVersion
from session.errors import SessionError
from session.service import Sessions
from tests.host.days import rooms_over

#: the session suite runs on SQLite and on PostgreSQL
BACKENDS = "both"

CH = 70
ROOT = Path(__file__).resolve().parents[2]


def run_workers(target, folder: Path, now, commands: list[list[str]]) -> list[dict]:
    """Start one OS process per command, let them all go at once, return their answers."""
    folder.mkdir(exist_ok=True)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    procs = [subprocess.Popen([sys.executable, "-m", "tests.host.worker", str(target), str(folder),
                               f"w{i}", now.isoformat(), *command],
                              cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) for i, command in enumerate(commands)]
    give_up = time.monotonic() + 120
    while not all((folder / f"w{i}.ready").exists() for i in range(len(procs))):
        assert time.monotonic() < give_up, "workers did not start"
        assert all(p.poll() is None for p in procs), [p.communicate() for p in procs]
        time.sleep(0.01)
    (folder / "go").touch()
    answers = []
    for proc in procs:
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
        answers.append(json.loads(out.strip().splitlines()[-1]))
    return answers


async def kingdomino(sessions: Sessions, *, pace: str | None = None, bot: bool = False):
    await sessions.new(guild_id=1, channel_id=CH, game_id="kingdomino", user_id=1, name="Ala",
                       players=2, pace=pace)
    return (await sessions.join(CH, None if bot else 2, "Bot" if bot else "Bo")).session


async def test_two_processes_click_at_once_exactly_one_move_lands(sessions, db_path, tmp_path):
    row = await kingdomino(sessions)
    game = engines.get("kingdomino")
    state = await sessions.state(row)
    seat = game.to_act(state)[0]
    user = row.seats[seat].user_id
    first, second = game.legal_actions(state, seat)[:2]
    answers = run_workers(db_path, tmp_path / "w", sessions.clock(), [
        ["act", str(row.id), str(user), first, str(row.version)],
        ["act", str(row.id), str(user), second, str(row.version)],
    ])
    assert sorted(answers, key=str) == [{"error": "error.stale"}, {"version": row.version + 1}]
    after = await sessions.session(row.id)
    assert after.version == row.version + 1
    assert [a.code for a in await sessions.store.actions(row.id)] in ([first], [second])
    assert await sessions.replay(after) == await Sessions(sessions.db, strict_bots=True).state(after)


async def test_without_any_lock_the_version_guard_alone_keeps_one_move(sessions, db_path,
                                                                      monkeypatch):
    """Two instances (own connections) with the session lock switched off: both read the same
    version, both apply, the guarded write lets exactly one in."""
    row = await kingdomino(sessions)
    other_db = await Database(db_path).open()
    other = Sessions(other_db, clock=sessions.clock, strict_bots=True)

    @asynccontextmanager
    async def no_lock(_session_id):
        yield

    game = engines.get("kingdomino")
    state = await sessions.state(row)
    seat = game.to_act(state)[0]
    first, second = game.legal_actions(state, seat)[:2]
    reads = 0
    real_session = Sessions.session

    async def session_then_wait(self, session_id):
        nonlocal reads
        got = await real_session(self, session_id)
        reads += 1
        while reads < 2:  # both have read version n before either writes
            await asyncio.sleep(0.001)
        return got

    for s in (sessions, other):
        monkeypatch.setattr(s, "locked", no_lock)
    monkeypatch.setattr(Sessions, "session", session_then_wait)
    user = row.seats[seat].user_id
    results = await asyncio.gather(sessions.act(row.id, user, first, row.version),
                                   other.act(row.id, user, second, row.version),
                                   return_exceptions=True)
    monkeypatch.undo()
    stale = [r for r in results if isinstance(r, SessionError)]
    assert len(stale) == 1 and stale[0].key == "error.stale", results
    assert (await sessions.session(row.id)).version == row.version + 1
    assert len(await sessions.store.actions(row.id)) == 1
    await other_db.close()


async def test_the_store_refuses_a_second_write_at_the_same_version(sessions):
    row = await kingdomino(sessions)
    args = dict(session_id=row.id, version=row.version, seat=0, user_id=1, state_json="{}",
                finished=False, result=None, now=sessions.now())
    await sessions.store.record_action(code="a", **args)
    with pytest.raises(StaleVersion):
        await sessions.store.record_action(code="b", **args)
    assert [a.code for a in await sessions.store.actions(row.id)] == ["a"]


async def test_a_timer_fires_once_across_processes(sessions, db_path, tmp_path):
    row = await kingdomino(sessions, pace="realtime:10")
    assert any(t["kind"] == "remind" for t in await sessions.store.pending_timers(row.id))
    answers = run_workers(db_path, tmp_path / "w", sessions.clock() + timedelta(minutes=6),
                          [["fire"], ["fire"], ["fire"]])
    fired = [kind for a in answers for kind in a["fired"]]
    assert fired == ["remind"]


async def test_recovery_in_several_processes_at_once_moves_the_computer_once(
        sessions, db_path, tmp_path, monkeypatch):
    row = await kingdomino(sessions, bot=True)
    game = engines.get("kingdomino")

    async def no_computers(outcome):
        return outcome

    # the process stops right after a human move, before the computer moved
    monkeypatch.setattr(sessions, "run_computer_players", no_computers)
    while True:
        state = await sessions.state(row)
        seat = game.to_act(state)[0]
        if row.seats[seat].is_bot:
            break
        row = (await sessions.act(row.id, 1, game.legal_actions(state, seat)[0])).session
    monkeypatch.undo()
    answers = run_workers(db_path, tmp_path / "w", sessions.clock(),
                          [["recover"], ["recover"], ["recover"]])
    assert sorted(len(a["events"]) for a in answers) == [0, 0, 1], answers
    after = await sessions.session(row.id)
    assert after.version > row.version
    assert not after.seats[game.to_act(await sessions.state(after))[0]].is_bot
    versions = [a.version for a in await sessions.store.actions(row.id)]
    assert versions == list(range(1, after.version + 1))  # no fork, no gap


async def test_a_cached_state_never_outlives_a_move_made_elsewhere(sessions, db_path):
    row = await kingdomino(sessions)
    other_db = await Database(db_path).open()
    other = Sessions(other_db, clock=sessions.clock, strict_bots=True)
    game = engines.get("kingdomino")
    for turn in range(4):  # the two processes take turns; each caches what it saw
        here = sessions if turn % 2 == 0 else other
        row = await here.session(row.id)
        state = await here.state(row)
        seat = game.to_act(state)[0]
        row = (await here.act(row.id, row.seats[seat].user_id,
                              game.legal_actions(state, seat)[0], row.version)).session
    for s in (sessions, other):
        fresh = await s.session(row.id)
        assert await s.state(fresh) == await s.replay(fresh)
    await other_db.close()


async def test_play_goes_on_across_processes(sessions, db_path, clock):
    """A second process sees the first's game and its pending timers (no local state)."""
    row = await kingdomino(sessions, pace="realtime:10")
    other_db = await Database(db_path).open()
    play = rooms_over(Sessions(other_db, clock=clock, strict_bots=True)).timers
    clock.advance(minutes=6)
    assert [e.kind for e in await play.fire_due()] == ["remind"]
    assert [e.kind for e in await rooms_over(sessions).timers.fire_due()] == []
    assert row.id
    await other_db.close()


async def test_a_vote_is_announced_again_by_one_process_only(sessions, db_path, tmp_path, clock):
    """Processes restarting at once after a timeout fired: one of them posts the vote again."""
    row = await kingdomino(sessions, pace="realtime:10")
    clock.advance(minutes=11)
    fired = [e.kind for e in await rooms_over(sessions).timers.fire_due()]
    assert "timeout" in fired
    answers = run_workers(db_path, tmp_path / "w", clock() + timedelta(minutes=1),
                          [["recover"], ["recover"], ["recover"]])
    assert sorted(a["events"].count("timeout") for a in answers) == [0, 0, 1], answers
    assert row.id
