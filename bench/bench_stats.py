"""/game stats and /game leaderboard over a database of 100,000 finished games.

    python bench/bench_stats.py [--games 100000] [--queries 2000]             # SQLite file
    python bench/bench_stats.py --postgres                # a throwaway PostgreSQL server
    python bench/bench_stats.py --db postgresql://...     # an existing (empty) database

The database is filled with finished games (sessions, seats, results) among 5,000 players in
200 servers (each player plays in one home server and sometimes another), 2-4 players a game,
four game types; the standings are built by the real judge and openskill rating of
``session/standings.py`` and written in bulk. Then it times, through ``Standings``:

- stats: one player's rows in a server and everywhere (what /game stats reads);
- leaderboard: one game's top 10 in a server (the default) or everywhere;
- count: a game that just ended counted through the real path (one transaction);
- catch-up: the start-up look for ended games not yet counted.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.stats import pct  # noqa: E402
from db import Database  # noqa: E402
from db.standings import EVERYWHERE, EndedGame, Rating  # noqa: E402
from session.standings import Standings, judge, rate  # noqa: E402

GAMES = ("kingdomino", "bunny_kingdom", "gheos", "dwoch_nastepcow")
PLAYERS, SERVERS = 5_000, 200
BATCH = 400  # rows per INSERT statement
NOW = "2026-11-23T12:00:00+00:00"


def made_up_games(count: int, rng: random.Random):
    """(session id, guild, game id, seats' users, result) of finished games."""
    home = [rng.randrange(SERVERS) + 1 for _ in range(PLAYERS)]
    by_server: dict[int, list[int]] = defaultdict(list)
    for user, server in enumerate(home, 1):
        by_server[server].append(user)
    for session_id in range(1, count + 1):
        guild = rng.randrange(SERVERS) + 1
        n = rng.choice((2, 2, 3, 4, 4))
        pool = by_server[guild]
        if len(pool) >= 2:
            users = rng.sample(pool, min(n, len(pool)))
        else:
            users = rng.sample(range(1, PLAYERS + 1), n)
        if rng.random() < 0.1:  # a guest from elsewhere
            users[-1] = rng.randrange(PLAYERS) + 1
        users = list(dict.fromkeys(users))
        if len(users) < 2:
            users.append(users[0] % PLAYERS + 1)
        totals = [rng.randrange(20, 90) for _ in users]
        order = sorted(set(totals), reverse=True)
        ranking = [[s for s, t in enumerate(totals) if t == value] for value in order]
        yield session_id, guild * 1_000_003, rng.choice(GAMES), users, {"totals": totals,
                                                                         "ranking": ranking}


async def insert_rows(db: Database, table: str, columns: tuple[str, ...], rows: list[tuple]) -> None:
    marks = "(" + ", ".join("?" for _ in columns) + ")"
    async with db.transaction() as tx:
        for start in range(0, len(rows), BATCH):
            chunk = rows[start:start + BATCH]
            await tx.execute(f"INSERT INTO {table} ({', '.join(columns)}) VALUES "
                             + ", ".join(marks for _ in chunk),
                             [value for row in chunk for value in row])


async def fill(db: Database, count: int, rng: random.Random) -> list[tuple[int, int]]:
    """Returns the (user, guild) pairs that played, for the queries."""
    sessions, seats, results = [], [], []
    kept: dict[tuple[int, int, str], list] = {}  # (user, scope, game) -> row fields
    players: set[tuple[int, int]] = set()
    for session_id, guild, game_id, users, result in made_up_games(count, rng):
        sessions.append((session_id, guild, session_id, game_id, "finished", users[0], len(users),
                         "{}", session_id, "en", NOW, NOW, NOW, json.dumps(result), len(users) * 20))
        seats += [(session_id, seat, user, f"P{user}") for seat, user in enumerate(users)]
        results.append((session_id, 1, NOW))
        game = EndedGame(session_id, guild, game_id, "finished", result, None,
                         dict(enumerate(users)))
        lines = judge(game) or []
        for scope in (EVERYWHERE, guild):
            before = []
            for line in lines:
                players.add((line.user_id, guild))
                row = kept.setdefault((line.user_id, scope, game_id),
                                      [0, 0, 0, 0, 0, 0, None, None, None])
                row[0] += 1
                row[1] += line.won
                row[3] += 1
                row[4] += line.points or 0
                before.append((line.user_id, line.place, Rating(row[6], row[7], row[5])))
            for user, (mu, sigma, ordinal) in rate(before).items():
                row = kept[(user, scope, game_id)]
                row[5] += 1
                row[6:9] = [mu, sigma, ordinal]
    await insert_rows(db, "sessions", ("id", "guild_id", "channel_id", "game_id", "status",
                                       "creator_id", "players", "options", "seed", "lang",
                                       "created_at", "updated_at", "finished_at", "result",
                                       "version"), sessions)
    await insert_rows(db, "seats", ("session_id", "seat", "user_id", "name"), seats)
    await insert_rows(db, "game_results", ("session_id", "counted", "recorded_at"), results)
    await insert_rows(db, "standings", ("user_id", "scope", "game_id", "games", "wins",
                                        "abandoned", "scored", "points", "rated", "mu", "sigma",
                                        "rating"),
                      [(u, scope, g, *row) for (u, scope, g), row in kept.items()])
    return sorted(players)


async def timed(calls) -> list[float]:
    out = []
    for call in calls:
        t0 = time.perf_counter()
        await call()
        out.append((time.perf_counter() - t0) * 1000)
    return out


def line(name: str, ms: list[float]) -> str:
    return (f"{name:<34} p50 {statistics.median(ms):6.2f} ms  p99 {pct(ms, 0.99):6.2f} ms  "
            f"max {max(ms):6.2f} ms  ({len(ms)} calls)")


async def run(target: str, games: int, queries: int) -> None:
    rng = random.Random(10)
    async with Database(target) as db:
        t0 = time.perf_counter()
        players = await fill(db, games, rng)
        print(f"filled {games:,} finished games in {time.perf_counter() - t0:.0f} s "
              f"({type(db).__name__})")
        standings = Standings(db)
        sample = [rng.choice(players) for _ in range(queries)]
        stats = await timed(lambda u=u, g=g: standings.stats(u, g) for u, g in sample)
        games_asked = [rng.choice(GAMES) for _ in range(queries)]
        board_here = await timed(lambda g=g, game=game: standings.leaderboard(game, g)
                                 for (_, g), game in zip(sample, games_asked, strict=True))
        board_all = await timed(lambda game=game: standings.leaderboard(game, None)
                                for game in games_asked)
        # games that end now, counted through the real path
        new, new_seats = [], []
        for session_id, guild, game_id, users, result in made_up_games(games + 300, rng):
            if session_id > games:
                new.append((session_id, guild, session_id, game_id, "finished", users[0],
                            len(users), "{}", session_id, "en", NOW, NOW, NOW,
                            json.dumps(result), 1))
                new_seats += [(session_id, s, u, f"P{u}") for s, u in enumerate(users)]
        await insert_rows(db, "sessions", ("id", "guild_id", "channel_id", "game_id", "status",
                                           "creator_id", "players", "options", "seed", "lang",
                                           "created_at", "updated_at", "finished_at", "result",
                                           "version"), new)
        await insert_rows(db, "seats", ("session_id", "seat", "user_id", "name"), new_seats)
        counts = await timed(lambda sid=row[0]: standings.record(sid, NOW) for row in new)
        catch_up = await timed(lambda: standings.catch_up(NOW) for _ in range(5))
    print(line("stats (server + everywhere)", stats))
    print(line("leaderboard, this server", board_here))
    print(line("leaderboard, every server", board_all))
    print(line("count a game that ended", counts))
    print(line("start-up catch-up (none left)", catch_up))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=2_000)
    parser.add_argument("--db", default=None, help="a SQLite path or a postgresql:// URL")
    parser.add_argument("--postgres", action="store_true",
                        help="start a throwaway PostgreSQL server (tests/pg.py) and use it")
    args = parser.parse_args()
    if args.postgres:
        from tests.pg import PostgresServer

        server = PostgresServer().start()
        try:
            asyncio.run(run(server.new_database(), args.games, args.queries))
        finally:
            server.stop()
        return
    if args.db:
        asyncio.run(run(args.db, args.games, args.queries))
        return
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(run(str(Path(tmp) / "bench.sqlite3"), args.games, args.queries))


if __name__ == "__main__":
    main()
