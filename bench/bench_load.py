"""Load: many concurrent games against the real bot process through the Discord stand-in.

    python bench/bench_load.py [--games 200] [--seconds 90] [--game kingdomino] [--players 2]
                               [--render-workers N] [--shards N] [--postgres | --db URL]
                               [--check-spec] [--bot-checkout PATH] [--think SECONDS]

``--shards N`` runs the bot as N processes, one shard each (``STOLIK_SHARD_COUNT`` /
``STOLIK_SHARD_IDS``), the games spread over N guilds, one on each shard; ``--postgres`` puts
the bot on a throwaway PostgreSQL server (tests/pg.py, fsync on) instead of a SQLite file.

Each game has its own channel; its simulated players click as fast as the bot answers (the
next click as soon as the new board is up), or with ``--think S`` after thinking 0.5–1.5 × S
seconds (uniform) from the moment the board is up. With no thinking the players form a closed
loop: the machine is saturated, and by Little's law a move waits 200 games / moves-per-second
on average however the bot divides its work; thinking sets the offered load (about games /
(think + response) moves a second), so latency can be read at a given throughput.
Reports, for the bot (a separate ``python bot.py``):

- interaction -> first response (Discord needs one within 3 s): p50 / p99 / max
- act click -> the new board image in the channel: p50 / p99
- API calls per human move in Discord's two buckets: globally limited (channel, guild and user
  endpoints; 50/s per token, enforced by the stand-in) and interaction (callbacks, follow-ups,
  @original edits; exempt), and the global 429s the bot got
- memory (RSS now and peak) and CPU (share of one core) of the bot process
- event-loop lag, measured inside the bot (cogs/looplag.py: how late a 50 ms timer wakes,
  every sample written to a file), and as the stand-in sees it: it asks for a heartbeat every
  250 ms, discord.py sends it from the bot's event loop, so the delay past 250 ms is the
  loop's lag plus the stand-in's own delay in reading it (its process is busy with the players)

The stand-in checks no request body against Discord's OpenAPI spec here unless
``--check-spec`` is given: jsonschema took about half of this process's CPU at 200 games, so
the load generator, not the bot, set the pace (the end-to-end tests check every body).
Also reported: the load average, and CPU milliseconds per move of each process (the bot's
event-loop process, its render processes, this process: the stand-in and the players, and a
PostgreSQL server's processes), with the bot's and its database's summed: on a saturated
machine that sum, not the wait, sets how many moves a second it carries.

Stops by itself after ``--seconds`` of play (the games need not finish). Loopback only.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import os
import random
import resource
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engines  # noqa: E402
from bench.stats import pct  # noqa: E402
from cogs.looplag import read_samples  # noqa: E402
from tests.e2e.helpers import open_game  # noqa: E402
from tests.standin.botproc import REPO, BotProcess  # noqa: E402
from tests.standin.server import Call, Discord  # noqa: E402
from tests.standin.users import Player, Refused, Table  # noqa: E402

HEARTBEAT = 0.25



def no_server() -> float:
    """The database server's CPU seconds for SQLite: none (it runs inside the bot)."""
    return 0.0


def own_cpu_seconds() -> float:
    """CPU time of this process (the stand-in and the simulated players)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def load_average() -> str:
    return " / ".join(f"{v:.1f}" for v in os.getloadavg())


def board_requests(discord: Discord, clicks: list[tuple[int, float]]) -> list[float]:
    """For each act click: how long until the stand-in had the bot's next request carrying an
    image in that channel (a new board or an edit), i.e. the bot's share of click -> board."""
    with_image: dict[str, list[float]] = {}
    for call in discord.calls:
        if call.files:
            with_image.setdefault(channel_of(discord, call), []).append(call.t)
    out = []
    for channel_id, sent_at in clicks:
        times = with_image.get(str(channel_id), [])
        at = bisect.bisect_left(times, sent_at)
        if at < len(times):
            out.append(times[at] - sent_at)
    return out


def channel_of(discord: Discord, call: Call) -> str:
    """The channel a call writes to: its major parameter, or for an interaction's follow-up or
    edit (``/webhooks/{application}/{token}/...``) the channel of that interaction."""
    parts = call.path.split("/")
    if call.path.startswith("/webhooks/") and len(parts) > 3:
        interaction = discord.interaction_by_token(parts[3])
        if interaction is not None:
            return str(interaction.channel_id)
    return call.major


def ms(value: float) -> str:
    return f"{value * 1000:.0f} ms"


async def play(table: Table, game_id: str, stop_at: float, board_times: list[float],
               errors: list[str], clicks: list[tuple[int, float]] | None = None,
               think: float = 0.0) -> int:
    hidden = engines.get(game_id).meta.hidden_information
    thinking = random.Random(table.channel_id)  # apart from table.rng: the same moves either way
    moves = 0
    while time.monotonic() < stop_at and not table.finished():
        movers = table.movers()
        if not movers:
            await asyncio.sleep(0.05)
            continue
        if think:
            await asyncio.sleep(think * thinking.uniform(0.5, 1.5))
        try:
            move = await table.make_move(table.rng.choice(movers), hidden, timeout=120)
        except Refused as refused:  # a stale click in a race is an answer too
            errors.append(str(refused))
            continue
        except TimeoutError as timeout:
            errors.append(str(timeout))
            break
        act = move.clicks[-1]
        board = move.turn_message
        if board is not None:
            shown = next((s.t for s in board.history if s.t >= act.sent_at), board.created)
            board_times.append(shown - act.sent_at)
            if clicks is not None:
                clicks.append((table.channel_id, act.sent_at))
        moves += 1
    return moves


class Bots:
    """The bot's processes (one, or one per shard), measured together."""

    def __init__(self, processes: list[BotProcess]) -> None:
        self.processes_ = processes

    async def start(self) -> None:
        for process in self.processes_:  # shard 0 first: it syncs the commands
            await process.start(120)

    async def stop(self) -> None:
        for process in self.processes_:
            await process.stop()

    @property
    def pid(self) -> str:
        return ", ".join(str(p.pid) for p in self.processes_)

    def cpu_seconds(self, *, tree: bool = False) -> float:
        return sum(p.cpu_seconds(tree=tree) for p in self.processes_)

    def memory(self, *, tree: bool = False) -> dict[str, int]:
        out = {"VmRSS": 0, "VmHWM": 0}
        for p in self.processes_:
            for key, value in p.memory(tree=tree).items():
                out[key] += value
        return out

    def processes(self) -> list[int]:
        return [pid for p in self.processes_ for pid in p.processes()]


async def run(games: int, seconds: float, game_id: str, players: int,
              render_workers: str | None = None, shards: int = 0, db: str | None = None,
              check_spec: bool = False, checkout: Path | None = None, think: float = 0.0,
              server_cpu: Callable[[], float] = no_server) -> None:
    discord = Discord(channels=0 if shards else games, heartbeat_interval=HEARTBEAT,
                      check_spec=check_spec)
    if shards:
        discord.required_shards = shards
        guilds = [discord.add_guild(f"shard {n}", shard=(n, shards)) for n in range(shards)]
        for n in range(games):
            discord.add_channel(f"table-{n + 1}", guild_id=guilds[n % shards])
    await discord.start()
    workdir = Path(tempfile.mkdtemp(prefix="stolik-load-"))
    env = {"STOLIK_RENDER_WORKERS": render_workers} if render_workers is not None else {}
    where = checkout or REPO
    target: Path | str = db or workdir / "load.sqlite3"  # a file, or a postgresql:// URL
    if shards:
        env["STOLIK_GUILD"] = ""  # commands for every guild (global), synced by shard 0
        bots = Bots([BotProcess(discord, target, workdir, log_name=f"shard{n}.log",
                                extra_env=env | {"STOLIK_LOOP_LAG_LOG": str(workdir / f"lag{n}.txt")},
                                shard_ids=[n], shard_count=shards, checkout=where)
                     for n in range(shards)])
    else:
        bots = Bots([BotProcess(discord, target, workdir, checkout=where,
                                extra_env=env | {"STOLIK_LOOP_LAG_LOG": str(workdir / "lag0.txt")})])
    try:
        await measure(discord, bots, games, seconds, game_id, players, think, workdir, server_cpu)
    finally:
        await bots.stop()  # also when something failed: no bot left running
        await discord.stop()


async def measure(discord: Discord, bot: Bots, games: int, seconds: float, game_id: str,
                  players: int, think: float, workdir: Path,
                  server_cpu: Callable[[], float]) -> None:
    await bot.start()
    print(f"bot pid {bot.pid}, {games} games of {game_id} for {players}, {seconds:.0f} s of play, "
          f"spec checks {'on' if discord.check_spec else 'off'}, players think "
          f"{f'{think:.2f} s on average' if think else 'not at all'}, load average {load_average()}")
    rng = random.Random(1)
    tables = []
    for n, channel in enumerate(discord.text_channels[:games]):
        people = [Player(discord, f"G{n}P{i}") for i in range(players)]
        tables.append(Table(discord, channel, people, random.Random(rng.random())))
    t0 = time.monotonic()
    cpu0 = bot.cpu_seconds()
    opened = await asyncio.gather(*(open_game(t, game_id, timeout=300) for t in tables),
                                  return_exceptions=True)
    failed = [o for o in opened if isinstance(o, BaseException)]
    t_open = time.monotonic() - t0
    print(f"opened {games - len(failed)} games in {t_open:.1f} s ({len(failed)} failed)")
    calls_before = len(discord.calls)
    inter_before = set(discord.interactions)
    beats_before = sum(len(c.heartbeats) for c in discord.all_conns)
    board_times: list[float] = []
    errors: list[str] = []
    t1 = time.monotonic()
    cpu1 = bot.cpu_seconds()
    tree1 = bot.cpu_seconds(tree=True)
    own1 = own_cpu_seconds()
    server1 = server_cpu()
    clicks: list[tuple[int, float]] = []
    counts = await asyncio.gather(*(play(t, game_id, t1 + seconds, board_times, errors, clicks,
                                         think)
                                    for t, o in zip(tables, opened, strict=True)
                                    if not isinstance(o, BaseException)))
    wall = time.monotonic() - t1
    cpu = bot.cpu_seconds() - cpu1
    tree_cpu = bot.cpu_seconds(tree=True) - tree1
    own_cpu = own_cpu_seconds() - own1
    db_cpu = server_cpu() - server1
    memory = bot.memory()
    tree_memory = bot.memory(tree=True)
    workers = len(bot.processes()) - len(bot.processes_)
    moves = sum(counts)
    played = [i for k, i in discord.interactions.items() if k not in inter_before]
    first = [i.latency for i in played if i.latency is not None]
    unanswered = [i for i in played if i.latency is None]
    calls = discord.calls[calls_before:]
    global_calls = sum(1 for c in calls if c.globally_limited)
    global_429 = sum(1 for c in calls if c.globally_limited and c.status == 429)
    gaps = [g for conn in discord.all_conns for g in
            (b - a for a, b in zip(conn.heartbeats, conn.heartbeats[1:], strict=False))]
    lag = [max(0.0, g - HEARTBEAT) for g in gaps[beats_before:]] or [0.0]
    inside = [v for path in sorted(workdir.glob("lag*.txt"))
              for v in read_samples(path, t1, t1 + wall)] or [0.0]

    print(f"played {moves} moves in {wall:.1f} s ({moves / wall:.1f} moves/s), "
          f"{len(played)} interactions, {len(errors)} refused/timeouts")
    print(f"interaction -> first response: p50 {ms(statistics.median(first))}, "
          f"p99 {ms(pct(first, 0.99))}, max {ms(max(first))}, over 3 s: "
          f"{sum(1 for v in first if v >= 3)}, unanswered: {len(unanswered)}")
    print(f"act click -> new board image: p50 {ms(statistics.median(board_times))}, "
          f"p99 {ms(pct(board_times, 0.99))}, max {ms(max(board_times))}")
    to_request = board_requests(discord, clicks)
    if to_request:
        print(f"  of which act click -> the board's request received by the stand-in: p50 "
              f"{ms(statistics.median(to_request))}, p99 {ms(pct(to_request, 0.99))} (the bot's "
              f"part; the rest is the stand-in answering and the players seeing it)")
    print(f"API calls per human move: {global_calls / max(moves, 1):.2f} globally limited "
          f"(goal <= 0.3), {(len(calls) - global_calls) / max(moves, 1):.2f} interaction "
          f"(callbacks, follow-ups, @original edits); {global_429} global 429s")
    print(f"bot memory: RSS {memory['VmRSS'] / 2**20:.0f} MiB, peak {memory['VmHWM'] / 2**20:.0f} MiB"
          f" (with its {workers} helper processes: {tree_memory['VmRSS'] / 2**20:.0f} MiB, peaks "
          f"summed {tree_memory['VmHWM'] / 2**20:.0f} MiB)")
    print(f"bot CPU: event-loop process {100 * cpu / wall:.0f}% of one core, with the render "
          f"processes {100 * tree_cpu / wall:.0f}% (opening the games: "
          f"{100 * (cpu1 - cpu0) / max(t_open, 1e-9):.0f}% for the loop process)")
    print(f"event-loop lag inside the bot (a 50 ms timer's delay): p50 "
          f"{ms(statistics.median(inside))}, p99 {ms(pct(inside, 0.99))}, max {ms(max(inside))} "
          f"({len(inside)} samples); as the stand-in sees heartbeats (delay past "
          f"{HEARTBEAT * 1000:.0f} ms): p50 {ms(statistics.median(lag))}, p99 {ms(pct(lag, 0.99))}, "
          f"max {ms(max(lag))} ({len(lag)} beats)")
    per_move = 1000 / max(moves, 1)
    print(f"CPU per move: bot event-loop process {cpu * per_move:.1f} ms, render processes "
          f"{(tree_cpu - cpu) * per_move:.1f} ms, stand-in + players (this process) "
          f"{own_cpu * per_move:.1f} ms ({100 * own_cpu / wall:.0f}% of one core), database "
          f"server {db_cpu * per_move:.1f} ms; load average after: {load_average()}")
    print(f"CPU per move of the bot and its database together: "
          f"{(tree_cpu + db_cpu) * per_move:.1f} ms")
    if discord.violations:
        print(f"{len(discord.violations)} stand-in violations, first: {discord.violations[:3]}")
    if errors:
        print("first errors:", errors[:3])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=90.0)
    parser.add_argument("--game", default="kingdomino")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--render-workers", default=None,
                        help="STOLIK_RENDER_WORKERS for the bot (0: render in a thread)")
    parser.add_argument("--shards", type=int, default=0,
                        help="run the bot as this many processes, one shard each")
    parser.add_argument("--db", default=None, help="the bot's database: a path or postgresql:// URL")
    parser.add_argument("--postgres", action="store_true",
                        help="start a throwaway PostgreSQL server (tests/pg.py) for the bot")
    parser.add_argument("--check-spec", action="store_true",
                        help="check every request body against Discord's OpenAPI spec (slow)")
    parser.add_argument("--think", type=float, default=0.0,
                        help="players think 0.5-1.5 x this many seconds before each move")
    parser.add_argument("--bot-checkout", type=Path, default=None,
                        help="run bot.py of another checkout (e.g. an older commit, to compare)")
    args = parser.parse_args()
    if args.postgres:
        from tests.pg import PostgresServer

        # fsync on, as SQLite's synchronous = FULL: both keep a shown move through a crash
        server = PostgresServer(fsync=True).start()
        try:
            asyncio.run(run(args.games, args.seconds, args.game, args.players,
                            args.render_workers, args.shards, server.new_database(),
                            args.check_spec, args.bot_checkout, args.think,
                            server.cpu_seconds))
        finally:
            server.stop()
        return
    asyncio.run(run(args.games, args.seconds, args.game, args.players, args.render_workers,
                    args.shards, args.db, args.check_spec, args.bot_checkout, args.think))


if __name__ == "__main__":
    main()
