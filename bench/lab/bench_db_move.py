"""The CPU a move's database work costs, SQLite against PostgreSQL, without Discord.

Plays Kingdomino games through the session layer (``Sessions.act``, as a click does, after
reading the game as a button's version would be read) on each backend in turn, in one run, and
prints per move: the CPU of this process (the session layer, the engine, the database client
or SQLite itself), the CPU of the PostgreSQL server (fsync on, as ``bench/bench_load.py``), their
sum and the statements run. The harness, the renders and the Discord side of
``bench_load.py`` are left out, so what differs between the backends stands alone. Then the
same for one call of each kind the store makes (``--calls N`` of each, 0: none), which is
what a move's calls add up to.

    python bench/lab/bench_db_move.py [--games 20] [--moves 40] [--rounds 3] [--calls 2000]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import resource
import statistics
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import engines  # noqa: E402
from db import Database  # noqa: E402
from session.service import Sessions  # noqa: E402


class Cost(NamedTuple):
    moves: int
    client_ms: float  # per move
    server_ms: float
    statements: float

    @property
    def total_ms(self) -> float:
        return self.client_ms + self.server_ms


def own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def play(target: str, games: int, moves: int, server_cpu: Callable[[], float],
               seed: int) -> Cost:
    """``games`` two-player games opened, then ``moves`` moves in each, all games at once."""
    game = engines.get("kingdomino")
    rng = random.Random(seed)
    async with Database(target) as db:
        sessions = Sessions(db)
        ids = []
        for n in range(games):
            channel = 1000 + n
            await sessions.new(guild_id=1, channel_id=channel, game_id="kingdomino",
                               user_id=2 * n + 1, name="A", players=2)
            ids.append((await sessions.join(channel, 2 * n + 2, "B")).session.id)

        async def one_game(session_id: int) -> int:
            for played in range(moves):
                row = await sessions.session(session_id)
                if row.status != "active":
                    return played
                state = await sessions.state(row)
                seat = game.to_act(state)[0]
                code = rng.choice(game.legal_actions(state, seat))
                await sessions.act(session_id, row.seats[seat].user_id or 0, code, row.version)
            return moves

        statements, client, server = db.statements, own_cpu(), server_cpu()
        played = sum(await asyncio.gather(*(one_game(i) for i in ids)))
        client, server = own_cpu() - client, server_cpu() - server
        return Cost(played, 1e3 * client / played, 1e3 * server / played,
                    (db.statements - statements) / played)


async def call_costs(target: str, calls: int, server_cpu: Callable[[], float]
                     ) -> dict[str, tuple[float, float]]:
    """(this process, server) CPU µs of one call of each kind, on a table of 100 rows."""
    async with Database(target) as db:
        await db.batch([("INSERT INTO dm_refusals VALUES (?, 'x')", (n,)) for n in range(100)])
        update = "UPDATE dm_refusals SET until = ? WHERE user_id = ?"

        async def lookup(n: int) -> None:
            await db.lookup("SELECT until FROM dm_refusals WHERE user_id = ?", (n % 100,))

        async def lookup_in_lock(n: int) -> None:
            async with db.session_lock(n % 100):
                for _ in range(10):
                    await lookup(n)

        async def write(n: int) -> None:
            await db.batch([(update, (str(n), n % 100))])

        async def guarded_six(n: int) -> None:
            await db.batch([(update, (str(n), (n + k) % 100)) for k in range(6)], guarded=True)

        async def lock(n: int) -> None:
            async with db.session_lock(n % 100):
                pass

        kinds = {"a read by key": (lookup, 1), "a read by key, inside a lock": (lookup_in_lock, 10),
                 "a one-statement write": (write, 1), "a guarded six-statement batch": (guarded_six, 1),
                 "a session lock and its release": (lock, 1)}
        out = {}
        for name, (call, per) in kinds.items():
            for n in range(50):  # warm: prepared statements, the pool
                await call(n)
            client, server = own_cpu(), server_cpu()
            for n in range(calls):
                await call(n)
            out[name] = (1e6 * (own_cpu() - client) / calls / per,
                         1e6 * (server_cpu() - server) / calls / per)
        # the lock's own reads and its acquisition are both in its figure: take the lock out
        client, server = out["a read by key, inside a lock"]
        lock_client, lock_server = out["a session lock and its release"]
        out["a read by key, inside a lock"] = (client - lock_client / 10,
                                               server - lock_server / 10)
        return out


def median_cost(costs: list[Cost]) -> Cost:
    return Cost(sum(c.moves for c in costs), statistics.median(c.client_ms for c in costs),
                statistics.median(c.server_ms for c in costs),
                statistics.median(c.statements for c in costs))


def show(name: str, cost: Cost) -> None:
    print(f"{name:10s} {cost.moves:6d} moves: this process {cost.client_ms:.2f} ms, database"
          f" server {cost.server_ms:.2f} ms, together {cost.total_ms:.2f} ms a move;"
          f" {cost.statements:.1f} statements a move", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--moves", type=int, default=40, help="moves a game (at most)")
    parser.add_argument("--rounds", type=int, default=3, help="each backend, interleaved")
    parser.add_argument("--calls", type=int, default=2000, help="of each kind (0: none)")
    args = parser.parse_args()
    from tests.pg import PostgresServer

    server = PostgresServer(fsync=True).start()
    sqlite: list[Cost] = []
    postgres: list[Cost] = []
    try:
        with tempfile.TemporaryDirectory() as folder:
            for n in range(args.rounds):
                sqlite.append(asyncio.run(play(str(Path(folder) / f"{n}.sqlite3"), args.games,
                                               args.moves, lambda: 0.0, n)))
                show("SQLite", sqlite[-1])
                postgres.append(asyncio.run(play(server.new_database(), args.games,
                                                 args.moves, server.cpu_seconds, n)))
                show("PostgreSQL", postgres[-1])
            if args.calls:
                lite_calls = asyncio.run(call_costs(str(Path(folder) / "calls.sqlite3"),
                                                    args.calls, lambda: 0.0))
                pg_calls = asyncio.run(call_costs(server.new_database(), args.calls,
                                                  server.cpu_seconds))
    finally:
        server.stop()
    lite, pg = median_cost(sqlite), median_cost(postgres)
    print(f"medians of {args.rounds}:")
    show("SQLite", lite)
    show("PostgreSQL", pg)
    print(f"PostgreSQL costs {pg.total_ms / lite.total_ms:.2f}x SQLite's CPU a move"
          f" (+{pg.total_ms - lite.total_ms:.2f} ms)")
    if args.calls:
        print(f"one call, CPU µs (this process + database server), {args.calls} of each:")
        for name, (client, _) in lite_calls.items():
            pg_client, pg_server = pg_calls[name]
            print(f"  {name:32s} SQLite {client:5.0f}   PostgreSQL {pg_client:5.0f} +"
                  f" {pg_server:4.0f} = {pg_client + pg_server:5.0f}")


if __name__ == "__main__":
    main()
