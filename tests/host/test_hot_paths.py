"""What every move costs: each statement a move runs uses an index (no table scan, so a move
stays flat however many timers and finished games there are), the state cache is bounded, and
a clock snapshot is written only where a clock runs."""

from __future__ import annotations

import re

import engines
from db import Database
from session.service import Sessions

CH = 60


async def start_kingdomino(sessions: Sessions, channel: int, pace: str | None):
    await sessions.new(guild_id=1, channel_id=channel, game_id="kingdomino", user_id=1,
                       name="Ala", players=2, pace=pace)
    return (await sessions.join(channel, 2, "Bo")).session


async def move(sessions: Sessions, row):
    game = engines.get(row.game_id)
    state = await sessions.state(row)
    seat = game.to_act(state)[0]
    return (await sessions.act(row.id, row.seats[seat].user_id,
                               game.legal_actions(state, seat)[0], row.version)).session


async def test_no_statement_of_a_move_scans_a_table(tmp_path, clock):
    async with Database(tmp_path / "plan.sqlite3") as db:
        sessions = Sessions(db, clock=clock, strict_bots=True)
        row = await start_kingdomino(sessions, CH, "realtime:10")  # clocks and timers too
        seen: list[str] = []
        for conn in (db.conn, db.reader):
            await conn.set_trace_callback(seen.append)
        await move(sessions, row)
        for conn in (db.conn, db.reader):
            await conn.set_trace_callback(None)
        statements = [s for s in seen if not re.match(r"\s*(BEGIN|COMMIT|ROLLBACK)", s)]
        assert any(s.startswith("DELETE FROM timers") for s in statements)
        for sql in statements:
            plan = " | ".join(r[3] for r in await db.conn.execute_fetchall(
                f"EXPLAIN QUERY PLAN {sql}"))
            assert not re.search(r"\bSCAN (sessions|seats|actions|timers|votes|seat_history)\b",
                                 plan), (sql, plan)


async def test_the_state_cache_is_bounded_and_an_idle_game_leaves_it(sessions):
    sessions.state_cache_size = 2
    rows = [await start_kingdomino(sessions, CH + n, None) for n in range(3)]
    for row in rows:
        await move(sessions, row)
    assert sessions.cached_states() == 2  # the least recently used game was dropped
    again = await sessions.session(rows[0].id)  # and it reads back from its row, exactly
    assert await sessions.state(again) == await sessions.replay(again)
    assert sessions.cached_states() == 2


async def test_a_finished_game_leaves_the_cache(sessions):
    row = await start_kingdomino(sessions, CH, None)
    while row.status == "active":
        row = await move(sessions, row)
    assert sessions.cached_states() == 0


async def test_a_clock_snapshot_is_written_only_where_a_clock_runs(sessions):
    untimed = await move(sessions, await start_kingdomino(sessions, CH, None))
    timed = await move(sessions, await start_kingdomino(sessions, CH + 1, "daily:1"))
    assert [a.clocks_before for a in await sessions.store.actions(untimed.id)] == [None]
    [snapshot] = [a.clocks_before for a in await sessions.store.actions(timed.id)]
    assert snapshot is not None and any(since for _seat, _bank, since in snapshot)
