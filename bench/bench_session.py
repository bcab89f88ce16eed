"""Action round trip through the session layer with a real SQLite file (WAL), and replay.

    python bench/bench_session.py [--games 20] [--game kingdomino] [--players 4]

Each action: lock, load (cached) state, validate and apply, one transaction writing the log
row and the new state, computer seats none. Prints p50/p99/max per action and replay time.
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
from session.service import Sessions  # noqa: E402


async def run(game_id: str, players: int, games: int) -> None:
    game = engines.get(game_id)
    times: list[float] = []
    replays: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        async with Database(Path(tmp) / "bench.sqlite3") as db:
            sessions = Sessions(db)
            for g in range(games):
                out = await sessions.new(guild_id=1, channel_id=g, game_id=game_id, user_id=1,
                                         name="P1", players=players)
                for u in range(2, players + 1):
                    out = await sessions.join(g, u, f"P{u}")
                row = out.session
                rng = random.Random(g)
                while row.status == "active":
                    state = await sessions.state(row)
                    seat = game.to_act(state)[0]
                    code = game.bot_action(state, seat, rng)
                    t0 = time.perf_counter()
                    user = row.seats[seat].user_id
                    assert user is not None  # the benchmark's seats are all users
                    row = (await sessions.act(row.id, user, code, row.version)).session
                    times.append(time.perf_counter() - t0)
                t0 = time.perf_counter()
                await sessions.replay(row)
                replays.append(time.perf_counter() - t0)
    ms = [t * 1000 for t in times]
    print(f"session round trip ({game_id}, {players} players, {games} games, {len(ms)} actions): "
          f"p50 {statistics.median(ms):.2f} ms, p99 {pct(ms, 0.99):.2f} ms, max {max(ms):.2f} ms")
    print(f"replay of a whole game from seed + log: mean {statistics.mean(replays) * 1000:.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--game", default="kingdomino")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()
    asyncio.run(run(args.game, args.players, args.games))


if __name__ == "__main__":
    main()
