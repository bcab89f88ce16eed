"""Stolik, the Discord bot: ``python bot.py`` (token from DISCORD_TOKEN or .env), or
``python bot.py --demo kingdomino --players 4`` to watch computer players play offline."""

from __future__ import annotations

import argparse
import asyncio
import gc
import logging
import os
import sqlite3
import sys
from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from typing import Any

import settings
from settings import Loaded, Settings

EXTENSIONS = ("cogs.components", "cogs.game", "cogs.kingdomino")


def load_dotenv(path: Path = Path(".env")) -> None:
    """KEY=value lines from .env into the environment (already-set variables win)."""
    if not path.is_file():
        return
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, value = line.split("=", 1)
        os.environ.setdefault(key.strip(), value.strip().strip("'\""))


def point_at_discord(api_base: str | None) -> None:
    """Talk to another Discord-compatible server (the test stand-in) instead of discord.com.

    ``STOLIK_DISCORD_API`` = ``http://127.0.0.1:PORT``: REST goes to ``PORT/api/v10`` and the
    gateway to ``ws://127.0.0.1:PORT/gateway``. discord.py takes the gateway from its own
    default rather than from ``GET /gateway/bot``, so both are overridden. Unset in production.
    """
    if not api_base:
        return
    import discord.gateway
    import discord.http
    import yarl

    base = api_base.rstrip("/")
    discord.http.Route.BASE = f"{base}/api/v10"
    ws = base.replace("http://", "ws://").replace("https://", "wss://")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"{ws}/gateway")


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """The shard a guild's events arrive on (Discord's rule); DMs arrive on shard 0."""
    return 0 if guild_id is None else (guild_id >> 22) % shard_count


async def prepare_database(target: str) -> None:
    """Open the database once before connecting to Discord: an older schema is migrated, and one
    this code cannot run on (newer, or tables missing) raises :class:`db.SchemaMismatch`."""
    from db import Database

    db = await Database(target).open()
    await db.close()


def backup(target: str, dest: str) -> int:
    """``--backup PATH``: copy the SQLite database ``target`` to ``dest`` (see db/backup.py)."""
    from db.backup import PG_ADVICE, BackupRefused, backup_sqlite
    from db.database import dialect_of

    if dialect_of(target) == "postgres":
        print(PG_ADVICE, file=sys.stderr)
        return 2
    try:
        report = backup_sqlite(target, dest)
    except (BackupRefused, sqlite3.Error, OSError) as failed:
        print(f"no backup made: {failed}", file=sys.stderr)
        return 1
    print(f"backed up {target} (schema {report.schema_version}, {report.pages} pages) "
          f"to {report.path}")
    return 0


async def catch_up_standings(sessions: Any) -> int:
    """Count the games that ended just before a stop, once the database answers."""
    from session.errors import until_stored

    counted = await until_stored(lambda: sessions.standings.catch_up(sessions.now()),
                                 "standings catch-up at start-up")
    if counted:
        logging.info("counted %d ended games in the standings", counted)
    return counted


def make_bot(config: Settings):
    """The bot, its parts built from ``config`` when it starts (``setup_hook``)."""
    import discord
    from discord.ext import commands

    from cogs.adapters import Channels, on_command_error, remember_commands
    from cogs.board import Board
    from cogs.firstanswer import FirstAnswer
    from cogs.hands import Hands
    from cogs.host import Host
    from cogs.liveboards import LiveBoards
    from cogs.looplag import LoopLag
    from cogs.metrics import Metrics
    from cogs.ops import OpsServer
    from cogs.pace import GlobalPace
    from cogs.repairs import BoardRepairs
    from cogs.replies import Replies
    from cogs.translator import CatalogTranslator
    from db import Database
    from session.errors import until_stored
    from session.health import Health
    from session.posts import Posts
    from session.rooms import compose
    from session.service import Sessions
    from session.testclock import clock_from_file

    metrics = Metrics()  # counted whether served or not: a few microseconds per event
    # every call of this process that counts toward Discord's global limit waits here; it also
    # counts the ones discord.py makes by itself (login, gateway, command sync)
    pace = GlobalPace(config.global_limit, on_wait=metrics.waited)

    class StolikBot(commands.AutoShardedBot):
        def dispatch(self, event_name: str, /, *args: Any, **kwargs: Any) -> None:
            if event_name == "interaction":  # its arrival, before any handler runs
                metrics.received(args[0].id)
            super().dispatch(event_name, *args, **kwargs)

        def owns(self, guild_id: int | None) -> bool:
            """Whether this process runs the guild's shard: its timers and start-up recovery
            are this process's (any process can still answer any interaction: the database,
            not this process, keeps each game consistent)."""
            if self.shard_ids is None or self.shard_count is None:
                return True
            return shard_of(guild_id, self.shard_count) in self.shard_ids

        async def setup_hook(self) -> None:
            lag_log = config.loop_lag_log
            self.loop_lag = LoopLag(log_path=Path(lag_log) if lag_log else None,
                                    on_sample=metrics.lagged)
            self.loop_lag.start()
            self.db = await Database(config.db, observer=metrics.db_statement,
                                     **database_options(config)).open()
            self.sessions = Sessions(self.db, idle_after=timedelta(days=config.idle_days),
                                     clock=clock_from_file(config.clock_file),
                                     state_cache=config.state_cache, strict_bots=config.strict_bots,
                                     on_move=metrics.move)
            self.rooms = compose(self.sessions, owns=self.owns)
            self.ops: OpsServer | None = None
            if config.http is not None:
                self.ops = OpsServer(self, Health(self.sessions), metrics, config.http)
                await self.ops.start()
            # the cogs' host, part by part: one pace and one channel lookup for all the calls
            channels = Channels(self, pace)
            posts = Posts(self.sessions.store, self.sessions.clock)
            hands = Hands(self, self.sessions, posts, pace, channels)
            # the live-board cache, shared by the publish protocol, the first answer and repairs
            live_boards = LiveBoards()
            replies = Replies(pace)
            board = Board(self.sessions, posts, pace, channels, replies, hands, live_boards)
            first_answer = FirstAnswer(self.sessions, posts, channels, replies, live_boards, board)
            repairs = BoardRepairs(self.sessions, posts, hands, live_boards, board, owns=self.owns)
            self.host = Host(self.sessions, self.rooms, pace, channels, board, first_answer,
                             repairs, hands, metrics)
            # games that ended just before a stop, not yet in the stats and ratings: counted
            # beside the start (retried while the database is away; counting is idempotent)
            self.catching_up = asyncio.create_task(catch_up_standings(self.sessions))
            self.timers: asyncio.Task | None = None
            await self.tree.set_translator(CatalogTranslator())
            self.tree.error(on_command_error)  # every command answers, whatever goes wrong
            for extension in EXTENSIONS:
                await self.load_extension(extension)
            if config.shard_ids is not None and 0 not in config.shard_ids:
                return  # the commands are one set for the whole bot: shard 0's process syncs
            sync_guild = config.guild
            guild = discord.Object(sync_guild) if sync_guild else None
            if guild:
                self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            remember_commands(synced)  # texts name commands as clickable mentions
            logging.info("synced %d commands%s", len(synced), f" to guild {sync_guild}" if guild else "")

        async def on_ready(self) -> None:
            # turn clocks, reminders and archiving: one task, all its state in the database
            if self.timers is None:
                # boards whose post was started and never recorded (a crash, Discord failing)
                # (retried while the database is away: an outage delays it, never drops it)
                self.reconciling = asyncio.create_task(
                    until_stored(self.host.repairs.reconcile, "board reconcile at start-up"))
                self.timers = asyncio.create_task(
                    self.rooms.timers.run_dispatcher(self.host.publish_timer))
                # what start-up made lives as long as the bot: the collector need not walk it
                # again (at 200 games a full collection took ~100 ms of the event loop, and
                # a third of all collection time went to these objects)
                gc.collect()
                gc.freeze()

        async def close(self) -> None:
            # a failed login (wrong token) closes before setup_hook made any of these
            for task in ("timers", "reconciling", "catching_up"):
                running = getattr(self, task, None)
                if running is not None:
                    running.cancel()
            loop_lag = getattr(self, "loop_lag", None)
            if loop_lag is not None:
                await loop_lag.stop()
            ops = getattr(self, "ops", None)
            if ops is not None:
                await ops.stop()
            await super().close()
            if getattr(self, "db", None) is not None:
                await self.db.close()

    # nothing pings unless a message says so (turn starts, reminders: see cogs/board.py and cogs/host.py)
    # unset: every shard in this process (discord.py asks Discord for the count)
    shards: dict[str, Any] = {"shard_count": config.shard_count}
    if config.shard_ids is not None:
        shards["shard_ids"] = config.shard_ids
    return StolikBot(command_prefix=commands.when_mentioned, intents=discord.Intents.default(),
                     allowed_mentions=discord.AllowedMentions.none(),
                     http_trace=metrics.trace_config(on_global=pace.noticed), **shards)


def database_options(config: Settings) -> dict[str, Any]:
    """What the database backend takes from the settings (the pool is PostgreSQL's)."""
    if config.db.startswith(("postgresql://", "postgres://")):
        return {"pool_size": config.db_pool}
    return {}


def check_config(loaded: Loaded) -> int:
    """``--check-config``: the effective settings (secrets masked) on stdout; every bad value
    and unknown variable on stderr; 0 when the bot could start with them, else 2."""
    problems = list(loaded.problems)
    if not loaded.settings.token:
        problems.append("DISCORD_TOKEN: not set (the bot's token from "
                        "https://discord.com/developers/applications)")
    print(settings.describe(loaded.settings))
    for warning in loaded.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    for problem in problems:
        print(f"bad setting: {problem}", file=sys.stderr)
    return 2 if problems else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Stolik: board games in Discord.")
    parser.add_argument("--demo", metavar="GAME", help="play a whole game offline between computer players")
    parser.add_argument("--players", type=int, default=None, help="demo: number of players")
    parser.add_argument("--variants", default="", help="demo: variants, comma-separated")
    parser.add_argument("--seed", type=int, default=None, help="demo: seed for a repeatable game")
    parser.add_argument("--out", default="demo_out", help="demo: folder for the board images")
    parser.add_argument("--db", default=None, help="a SQLite file or a postgresql:// URL"
                        " (default: $STOLIK_DB or stolik.sqlite3)")
    parser.add_argument("--check-config", action="store_true",
                        help="print the effective settings (secrets masked) and exit; "
                        "non-zero when a setting is bad")
    parser.add_argument("--settings-table", action="store_true",
                        help="print the settings as the README's Markdown table and exit")
    parser.add_argument("--backup", metavar="PATH", help="write a consistent copy of the SQLite "
                        "database (the bot may be running) to PATH, then exit")
    args = parser.parse_args(argv)
    if args.settings_table:
        print(settings.markdown_table())
        return 0
    load_dotenv()
    loaded = settings.load(os.environ)
    if args.db:
        loaded = replace(loaded, settings=replace(loaded.settings, db=args.db))
    if args.check_config:
        return check_config(loaded)
    config = loaded.settings
    from session import logs

    logs.configure(config.log_format, config.log_level)
    for warning in loaded.warnings:
        logging.warning(warning)

    if args.demo:
        from session.demo import run_demo

        return asyncio.run(run_demo(args.demo, players=args.players, variants=args.variants,
                                    seed=args.seed, out=Path(args.out), db_path=args.db,
                                    strict_bots=config.strict_bots))

    if args.backup:
        return backup(config.db, args.backup)

    if not config.token:
        print("Set DISCORD_TOKEN (in the environment or a .env file) to your bot's token "
              "from https://discord.com/developers/applications, then run again.", file=sys.stderr)
        return 2
    if loaded.problems:
        for problem in loaded.problems:
            print(problem, file=sys.stderr)
        return 2
    from db import SchemaMismatch

    try:
        asyncio.run(prepare_database(config.db))
    except SchemaMismatch as refused:
        print(f"Stolik cannot start: {refused}", file=sys.stderr)
        return 1
    point_at_discord(config.discord_api)
    from session import workers

    workers.use_render_processes(config.render_workers)
    bot = make_bot(config)
    if config.shard_ids is not None:
        logging.info("running shards %s of %d", config.shard_ids, config.shard_count)
    from cogs.ops import OpsUnavailable

    try:
        bot.run(config.token, log_handler=None)
    except (SchemaMismatch, OpsUnavailable) as refused:
        # another process changed the schema since the check, or STOLIK_HTTP's port is taken
        print(f"Stolik cannot start: {refused}", file=sys.stderr)
        return 1
    finally:
        workers.stop_render_processes()
    return 0


if __name__ == "__main__":
    sys.exit(main())
