"""Action round trip through the session layer and a real database, and replay.

    python bench/bench_session.py [--games 20] [--game kingdomino] [--players 4] [--postgres]
        [--pending-timers N[,M...]] [--finished-games N[,M...]] [--sync full[,normal]]

Each action: store lock, load (cached) state, validate and apply, one transaction writing the
log row and the new state, computer seats none. Prints p50/p99/max per action, statements per
action, bytes per action row and replay time. ``--postgres`` starts a throwaway PostgreSQL
server (tests/pg.py); ``--pending-timers`` / ``--finished-games`` preload that many rows of
other games first (a move must not slow down as they grow); ``--sync full,normal`` measures what
SQLite's ``synchronous = FULL`` costs. Comma lists compare setups in one run, their games
interleaved.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engines  # noqa: E402
from bench.stats import pct  # noqa: E402
from db import Database  # noqa: E402
from db.sqlite import SqliteDatabase  # noqa: E402
from session.service import Sessions  # noqa: E402

#: filler games are put in channels far from the benchmark's own
FILLER_CHANNEL = 10**12


def series(db: Database, n: int) -> str:
    """A row source of 1..n in the database's dialect."""
    if db.dialect == "postgres":
        return f"SELECT generate_series(1, {n}) AS x"
    return f"WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < {n}) SELECT x FROM c"


async def preload(db: Database, finished: int, timers: int) -> None:
    """Other games' rows: ``finished`` finished 4-player games with a 10-move log each, and
    ``timers`` pending timers spread over 1,000 other games."""
    holders = 1000 if timers else 0
    games = finished + holders
    if not games:
        return
    async with db.transaction() as tx:
        await tx.execute(
            "INSERT INTO sessions (guild_id, channel_id, game_id, status, creator_id, players,"
            " options, seed, state, version, lang, created_at, updated_at, finished_at, result)"
            f" SELECT 1, {FILLER_CHANNEL} + x, 'kingdomino',"
            f" CASE WHEN x <= {finished} THEN 'finished' ELSE 'abandoned' END, 1, 4,"
            " '{\"variants\": []}', x, '{\"over\": true}', 10, 'en', '2026-01-01T00:00:00+00:00',"
            " '2026-01-01T00:00:00+00:00', '2026-01-02T00:00:00+00:00',"
            " '{\"totals\": [1, 2, 3, 4], \"ranking\": [[3], [2], [1], [0]]}'"
            f" FROM ({series(db, games)}) AS g")
        first = (await tx.fetchone("SELECT MIN(id) FROM sessions WHERE channel_id > ?",
                                   (FILLER_CHANNEL,)))[0]
        for seat in range(4):
            await tx.execute(
                "INSERT INTO seats (session_id, seat, user_id, name)"
                f" SELECT id, {seat}, 1000 + {seat}, 'P' FROM sessions WHERE channel_id > ?",
                (FILLER_CHANNEL,))
        if finished:
            for n in range(10):
                await tx.execute(
                    "INSERT INTO actions (session_id, n, seat, user_id, code, created_at, version)"
                    f" SELECT id, {n}, {n % 4}, 1000, 'pick 1', '2026-01-01T00:00:00+00:00', {n + 1}"
                    " FROM sessions WHERE channel_id > ? AND status = 'finished'",
                    (FILLER_CHANNEL,))
        if timers:
            await tx.execute(
                "INSERT INTO timers (session_id, seat, kind, due_at)"
                f" SELECT {first} + {finished} + x % {holders}, 0, 'remind',"
                " '2099-01-01T00:00:00+00:00'"
                f" FROM ({series(db, timers)}) AS g")


class Setup:
    """One database under test (a size and a sync mode) and what was measured on it."""

    def __init__(self, target: str, *, sync: str, finished: int, timers: int) -> None:
        self.target, self.sync, self.finished, self.timers = target, sync, finished, timers
        self.db = Database(target)
        self.times: list[float] = []
        self.replays: list[float] = []
        self.statements = 0

    async def open(self) -> Sessions:
        await self.db.open()
        if isinstance(self.db, SqliteDatabase) and self.db.conn is not None:
            await self.db.conn.execute(f"PRAGMA synchronous = {self.sync.upper()}")
        await preload(self.db, self.finished, self.timers)
        return Sessions(self.db)

    def label(self) -> str:
        sync = f" sync={self.sync}" if self.db.dialect == "sqlite" else ""
        return f"{self.db.dialect}{sync}, {self.finished} finished games, {self.timers} pending timers"


async def play_game(setup: Setup, sessions: Sessions, game_id: str, players: int, g: int) -> None:
    game = engines.get(game_id)
    db = setup.db
    out = await sessions.new(guild_id=1, channel_id=g, game_id=game_id, user_id=1, name="P1",
                             players=players)
    for u in range(2, players + 1):
        out = await sessions.join(g, u, f"P{u}")
    row = out.session
    rng = random.Random(g)
    while row.status == "active":
        state = await sessions.state(row)
        seat = game.to_act(state)[0]
        code = game.bot_action(state, seat, rng)
        before = db.statements
        t0 = time.perf_counter()
        row = (await sessions.act(row.id, row.seats[seat].user_id or 0, code, row.version)).session
        setup.times.append(time.perf_counter() - t0)
        setup.statements += db.statements - before
    t0 = time.perf_counter()
    await sessions.replay(row)
    setup.replays.append(time.perf_counter() - t0)


async def report(setup: Setup, game_id: str, players: int, games: int) -> float:
    db = setup.db
    size = await db.fetchone(
        "SELECT AVG(LENGTH(code) + LENGTH(created_at) + COALESCE(LENGTH(clocks_before), 0))"
        " FROM actions WHERE session_id IN (SELECT id FROM sessions WHERE channel_id < ?)",
        (FILLER_CHANNEL,))
    row_bytes = ""
    if db.dialect == "postgres":
        (whole,) = await db.fetchone(
            "SELECT AVG(pg_column_size(a.*)) FROM actions a WHERE session_id IN"
            " (SELECT id FROM sessions WHERE channel_id < ?)", (FILLER_CHANNEL,))
        row_bytes = f", whole row {float(whole):.0f} B"
    ms = [t * 1000 for t in setup.times]
    print(f"{setup.label()}: session round trip ({game_id}, {players} players, {games} games,"
          f" {len(ms)} actions): p50 {statistics.median(ms):.2f} ms, p99 {pct(ms, 0.99):.2f} ms,"
          f" max {max(ms):.2f} ms; {setup.statements / len(ms):.1f} statements per action"
          f" (BEGIN/COMMIT included); action row text {float(size[0]):.0f} B{row_bytes};"
          f" replay of a whole game {statistics.mean(setup.replays) * 1000:.1f} ms")
    return statistics.median(ms)


async def run(setups: list[Setup], game_id: str, players: int, games: int) -> None:
    """Games alternate between the setups, so machine load falls on all of them alike and
    their ratio is meaningful even on a busy machine."""
    sessions = [await setup.open() for setup in setups]
    try:
        for g in range(games):
            for setup, s in zip(setups, sessions, strict=True):
                await play_game(setup, s, game_id, players, g)
        medians = [await report(setup, game_id, players, games) for setup in setups]
    finally:
        for setup in setups:
            await setup.db.close()
    if len(setups) > 1:
        print("p50 relative to the first: " + ", ".join(f"{m / medians[0]:.2f}x" for m in medians))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--game", default="kingdomino")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--postgres", action="store_true",
                        help="start a throwaway PostgreSQL server (fsync on) and use it")
    parser.add_argument("--sync", default="full",
                        help="SQLite synchronous: full, normal, or full,normal to compare")
    parser.add_argument("--pending-timers", default="0",
                        help="N, or N,M,... to compare sizes in one run (a fresh database each)")
    parser.add_argument("--finished-games", default="0", help="N, or N,M,... (paired with the above)")
    args = parser.parse_args()
    timers = [int(n) for n in args.pending_timers.split(",")]
    finished = [int(n) for n in args.finished_games.split(",")]
    syncs = args.sync.split(",")
    sizes = max(len(timers), len(finished), len(syncs))
    timers += timers[-1:] * (sizes - len(timers))
    finished += finished[-1:] * (sizes - len(finished))
    syncs += syncs[-1:] * (sizes - len(syncs))
    server = None
    if args.postgres:
        from tests.pg import PostgresServer

        server = PostgresServer(fsync=True).start()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            setups = [Setup(server.new_database() if server else str(Path(tmp) / f"bench{n}.sqlite3"),
                            sync=syncs[n], finished=finished[n], timers=timers[n])
                      for n in range(sizes)]
            asyncio.run(run(setups, args.game, args.players, args.games))
    finally:
        if server is not None:
            server.stop()


if __name__ == "__main__":
    main()
