"""What a restart costs: many open games, the bot killed (-9) while some moves are in flight,
then started again, against the real bot process through the Discord stand-in.

    python bench/bench_restart.py [--games 1000] [--in-flight 10] [--postgres | --db URL]
                                  [--bot-checkout PATH] [--quiet-for 5]

Opens ``--games`` Kingdomino games for two (one channel each), starts a move in
``--in-flight`` of them (picked at random), kills the bot -9 once half of those clicks got
their first answer (so some boards are left without buttons, or posted and never recorded),
starts it again and reports:

- the globally limited calls (everything but interaction endpoints: Discord's 50/s per token)
  the bot made from its start until it went quiet for ``--quiet-for`` seconds, by route, and
  the goal (issue 26.4): at most 0.01 x games + 10;
- the time from the new process's start until its gateway session was up, and until every
  game's newest board offered buttons (every game playable);
- a click right after the restart (on a game the kill did not touch): its first response and
  its new board, beside the same for a click once the bot has been up a while.

``--bot-checkout`` runs ``bot.py`` of another checkout (e.g. an older commit, to compare).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.e2e.helpers import open_game  # noqa: E402
from tests.standin.botproc import REPO, BotProcess  # noqa: E402
from tests.standin.server import Discord  # noqa: E402
from tests.standin.users import Player, Refused, Table  # noqa: E402

GAME = "kingdomino"
CALLBACK = "POST /interactions/{interaction_id}/{token}/callback"


def playable(table: Table) -> bool:
    board = table.turn_message()
    return board is not None and bool(board.components)


async def timed_move(table: Table) -> tuple[float, float]:
    """(click -> first response, click -> new board) of one move, in seconds."""
    move = await table.make_move(table.rng.choice(table.movers()), False, timeout=120)
    click = move.clicks[-1]
    board = move.turn_message
    assert board is not None and click.latency is not None
    shown = next((s.t for s in board.history if s.t >= click.sent_at), board.created)
    return click.latency, shown - click.sent_at


async def open_all(tables: list[Table], batch: int = 100) -> int:
    """Open the games a batch at a time (the stand-in and the bot share two cores)."""
    opened = 0
    for start in range(0, len(tables), batch):
        results = await asyncio.gather(*(open_game(t, GAME, timeout=300)
                                         for t in tables[start:start + batch]),
                                       return_exceptions=True)
        opened += sum(1 for r in results if not isinstance(r, BaseException))
    return opened


async def run(games: int, in_flight: int, db: str | None, checkout: Path,
              quiet_for: float) -> None:
    discord = Discord(channels=games, heartbeat_interval=1.0, check_spec=False)
    await discord.start()
    workdir = Path(tempfile.mkdtemp(prefix="stolik-restart-"))
    bot = BotProcess(discord, db or workdir / "restart.sqlite3", workdir, checkout=checkout)
    try:
        await bot.start(120)
        rng = random.Random(1)
        tables = [Table(discord, channel, [Player(discord, f"G{n}P{i}") for i in range(2)],
                        random.Random(rng.random()))
                  for n, channel in enumerate(discord.text_channels[:games])]
        t0 = time.monotonic()
        opened = await open_all(tables)
        print(f"{checkout}: opened {opened} of {games} games in {time.monotonic() - t0:.0f} s")
        # moves in flight in games spread over all of them (a repair in session order must
        # not favour them), kill -9 somewhere in them; clicks timed on games left alone
        hit = rng.sample(tables, in_flight)
        spare = [t for t in tables if t not in hit]
        calm = [await timed_move(t) for t in spare[:5]]
        # kill -9 as soon as half of the in-flight clicks got their first answer: the others
        # are on their way, some boards bare, some moves recorded and their boards not
        answered: list[int] = []

        def kill_midway(call) -> None:
            if call.key == CALLBACK and call.status == 200:
                answered.append(1)
                if len(answered) == max(1, in_flight // 2):
                    bot.kill()

        discord.on_answered = kill_midway
        tasks = [asyncio.ensure_future(t.make_move(t.movers()[0], False, timeout=30))
                 for t in hit if t.movers()]
        await bot.wait_dead()
        discord.on_answered = None
        await asyncio.sleep(0.5)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Refused, TimeoutError,
                                     AssertionError):
                await task
        bare = sum(1 for t in tables if not playable(t))
        print(f"killed with {len(tasks)} moves in flight: {bare} games left without a "
              f"clickable board")

        before = len(discord.calls)
        started = time.monotonic()
        await bot.start(120)
        connected = time.monotonic() - started
        # a click right after the restart, on games the kill did not touch
        first = await asyncio.gather(*(timed_move(t) for t in spare[-5:]))
        await discord.wait_for(lambda: all(playable(t) for t in tables), 600,
                               "every game playable")
        every = time.monotonic() - started
        # then until the bot makes no globally limited call for quiet_for seconds
        while True:
            calls = [c for c in discord.calls[before:] if c.globally_limited]
            last = calls[-1].t if calls else started
            if time.monotonic() - last >= quiet_for:
                break
            await asyncio.sleep(0.5)
        routes = Counter(c.key for c in calls)
        goal = 0.01 * games + 10
        print(f"after the restart: {len(calls)} globally limited calls (goal <= {goal:.0f}), "
              f"the last {max(0.0, last - started):.1f} s after the start: "
              + ", ".join(f"{n} {k}" for k, n in routes.most_common()))
        print(f"gateway up {connected:.1f} s after the start; every game playable "
              f"{every:.1f} s after the start")
        print(f"a click right after the restart: first response median "
              f"{1000 * statistics.median(f for f, _ in first):.0f} ms, new board median "
              f"{1000 * statistics.median(b for _, b in first):.0f} ms; once up a while: "
              f"{1000 * statistics.median(f for f, _ in calm):.0f} ms and "
              f"{1000 * statistics.median(b for _, b in calm):.0f} ms")
        if discord.violations:
            print(f"{len(discord.violations)} stand-in violations, first: {discord.violations[:3]}")
    finally:
        await bot.stop()
        await discord.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--in-flight", type=int, default=10,
                        help="moves in flight (in as many games) when the bot is killed")
    parser.add_argument("--db", default=None, help="the bot's database: a path or postgresql:// URL")
    parser.add_argument("--postgres", action="store_true",
                        help="start a throwaway PostgreSQL server (tests/pg.py) for the bot")
    parser.add_argument("--bot-checkout", type=Path, default=REPO,
                        help="run bot.py of another checkout (e.g. an older commit, to compare)")
    parser.add_argument("--quiet-for", type=float, default=5.0,
                        help="the restart is over once no globally limited call came this long")
    args = parser.parse_args()
    if args.postgres:
        from tests.pg import PostgresServer

        server = PostgresServer().start()
        try:
            asyncio.run(run(args.games, args.in_flight, server.new_database(),
                            args.bot_checkout, args.quiet_for))
        finally:
            server.stop()
        return
    asyncio.run(run(args.games, args.in_flight, args.db, args.bot_checkout, args.quiet_for))


if __name__ == "__main__":
    main()
