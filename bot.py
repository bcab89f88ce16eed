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
from datetime import timedelta
from pathlib import Path
from typing import Any

EXTENSIONS = ("cogs.components", "cogs.game", "cogs.kingdomino")
DEFAULT_DB = "stolik.sqlite3"


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


def render_workers() -> int:
    """``STOLIK_RENDER_WORKERS``: processes that draw the images (default one per core, at most
    two; 0 draws in a thread of the bot's own process)."""
    value = os.environ.get("STOLIK_RENDER_WORKERS", "").strip()
    return int(value) if value else min(2, os.cpu_count() or 1)


class BadSetting(ValueError):
    """A setting that cannot be used; the message says which and why."""


def shard_settings(count_text: str | None, ids_text: str | None) -> tuple[int | None, list[int] | None]:
    """``STOLIK_SHARD_COUNT`` and ``STOLIK_SHARD_IDS`` -> (shard_count, shard_ids).

    Neither set: (None, None), one process with every shard Discord recommends. A count alone:
    this process runs all of them. Ids (``0,1`` or ``0-3``, or both mixed) need a count: this
    process runs those shards and other processes run the rest (each guild's events arrive on
    shard ``(guild_id >> 22) % count``, DMs on shard 0).
    """
    count_text, ids_text = (count_text or "").strip(), (ids_text or "").strip()
    if not count_text:
        if ids_text:
            raise BadSetting("STOLIK_SHARD_IDS needs STOLIK_SHARD_COUNT (the total over all processes)")
        return None, None
    try:
        count = int(count_text)
    except ValueError:
        raise BadSetting(f"STOLIK_SHARD_COUNT must be a whole number, not {count_text!r}") from None
    if count < 1:
        raise BadSetting(f"STOLIK_SHARD_COUNT must be at least 1, not {count}")
    if not ids_text:
        return count, None
    ids: set[int] = set()
    for part in ids_text.split(","):
        first, dash, last = part.strip().partition("-")
        try:
            span = range(int(first), int(last) + 1) if dash else range(int(first), int(first) + 1)
        except ValueError:
            raise BadSetting(f"STOLIK_SHARD_IDS: {part.strip()!r} is not a shard id or a range a-b") from None
        if not span:
            raise BadSetting(f"STOLIK_SHARD_IDS: the range {part.strip()!r} is empty")
        for shard_id in span:
            if not 0 <= shard_id < count:
                raise BadSetting(f"STOLIK_SHARD_IDS: shard {shard_id} is outside 0-{count - 1} "
                                 f"(STOLIK_SHARD_COUNT={count})")
            ids.add(shard_id)
    return count, sorted(ids)


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


def make_bot(db_path: str, sync_guild: int | None, idle_days: float = 30, *,
             shard_count: int | None = None, shard_ids: list[int] | None = None):
    import discord
    from discord.ext import commands

    from cogs.adapters import Channels, on_command_error, remember_commands
    from cogs.board import Board
    from cogs.hands import Hands
    from cogs.host import Host
    from cogs.looplag import LoopLag
    from cogs.pace import GlobalPace, limit_from_env
    from cogs.replies import Replies
    from cogs.translator import CatalogTranslator
    from db import Database
    from session.posts import Posts
    from session.rooms import compose
    from session.service import Sessions
    from session.testclock import clock_from_env

    class StolikBot(commands.AutoShardedBot):
        def owns(self, guild_id: int | None) -> bool:
            """Whether this process runs the guild's shard: its timers and start-up recovery
            are this process's (any process can still answer any interaction: the database,
            not this process, keeps each game consistent)."""
            if self.shard_ids is None or self.shard_count is None:
                return True
            return shard_of(guild_id, self.shard_count) in self.shard_ids

        async def setup_hook(self) -> None:
            self.loop_lag = LoopLag.from_env()
            self.loop_lag.start()
            self.db = await Database(db_path).open()
            self.sessions = Sessions(self.db, idle_after=timedelta(days=idle_days),
                                     clock=clock_from_env())
            self.rooms = compose(self.sessions, owns=self.owns)
            # the cogs' host, part by part: one pace and one channel lookup for all the calls
            pace = GlobalPace(limit_from_env())
            channels = Channels(self, pace)
            posts = Posts(self.sessions.store, self.sessions.clock)
            hands = Hands(self, self.sessions, posts, pace, channels)
            board = Board(self.sessions, posts, pace, channels, Replies(pace), hands,
                          owns=self.owns)
            self.host = Host(self.sessions, self.rooms, pace, channels, board, hands)
            # games that ended just before a stop, not yet in the stats and ratings
            counted = await self.sessions.standings.catch_up(self.sessions.clock().isoformat())
            if counted:
                logging.info("counted %d ended games in the standings", counted)
            self.timers: asyncio.Task | None = None
            await self.tree.set_translator(CatalogTranslator())
            self.tree.error(on_command_error)  # every command answers, whatever goes wrong
            for extension in EXTENSIONS:
                await self.load_extension(extension)
            if shard_ids is not None and 0 not in shard_ids:
                return  # the commands are one set for the whole bot: shard 0's process syncs
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
                self.reconciling = asyncio.create_task(self.host.board.reconcile())
                self.timers = asyncio.create_task(
                    self.rooms.timers.run_dispatcher(self.host.publish_timer))
                # what start-up made lives as long as the bot: the collector need not walk it
                # again (at 200 games a full collection took ~100 ms of the event loop, and
                # a third of all collection time went to these objects)
                gc.collect()
                gc.freeze()

        async def close(self) -> None:
            # a failed login (wrong token) closes before setup_hook made any of these
            timers = getattr(self, "timers", None)
            if timers is not None:
                timers.cancel()
            loop_lag = getattr(self, "loop_lag", None)
            if loop_lag is not None:
                await loop_lag.stop()
            await super().close()
            if getattr(self, "db", None) is not None:
                await self.db.close()

    # nothing pings unless a message says so (turn starts, reminders: see cogs/board.py and cogs/host.py)
    # unset: every shard in this process (discord.py asks Discord for the count)
    shards: dict[str, Any] = {"shard_count": shard_count}
    if shard_ids is not None:
        shards["shard_ids"] = shard_ids
    return StolikBot(command_prefix=commands.when_mentioned, intents=discord.Intents.default(),
                     allowed_mentions=discord.AllowedMentions.none(), **shards)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Stolik: board games in Discord.")
    parser.add_argument("--demo", metavar="GAME", help="play a whole game offline between computer players")
    parser.add_argument("--players", type=int, default=None, help="demo: number of players")
    parser.add_argument("--variants", default="", help="demo: variants, comma-separated")
    parser.add_argument("--seed", type=int, default=None, help="demo: seed for a repeatable game")
    parser.add_argument("--out", default="demo_out", help="demo: folder for the board images")
    parser.add_argument("--db", default=None, help="a SQLite file or a postgresql:// URL"
                        f" (default: $STOLIK_DB or {DEFAULT_DB})")
    parser.add_argument("--backup", metavar="PATH", help="write a consistent copy of the SQLite "
                        "database (the bot may be running) to PATH, then exit")
    args = parser.parse_args(argv)
    load_dotenv()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    db_path = args.db or os.environ.get("STOLIK_DB") or DEFAULT_DB

    if args.demo:
        from session.demo import run_demo

        return asyncio.run(run_demo(args.demo, players=args.players, variants=args.variants,
                                    seed=args.seed, out=Path(args.out), db_path=args.db))

    if args.backup:
        return backup(db_path, args.backup)

    token = os.environ.get("DISCORD_TOKEN", "").strip()
    if not token:
        print("Set DISCORD_TOKEN (in the environment or a .env file) to your bot's token "
              "from https://discord.com/developers/applications, then run again.", file=sys.stderr)
        return 2
    try:
        shard_count, shard_ids = shard_settings(os.environ.get("STOLIK_SHARD_COUNT"),
                                                os.environ.get("STOLIK_SHARD_IDS"))
    except BadSetting as bad:
        print(bad, file=sys.stderr)
        return 2
    from db import SchemaMismatch

    try:
        asyncio.run(prepare_database(db_path))
    except SchemaMismatch as refused:
        print(f"Stolik cannot start: {refused}", file=sys.stderr)
        return 1
    point_at_discord(os.environ.get("STOLIK_DISCORD_API"))
    from session import workers

    workers.use_render_processes(render_workers())
    guild = os.environ.get("STOLIK_GUILD")
    idle_days = float(os.environ.get("STOLIK_IDLE_DAYS") or 30)
    bot = make_bot(db_path, int(guild) if guild else None, idle_days,
                   shard_count=shard_count, shard_ids=shard_ids)
    if shard_ids is not None:
        logging.info("running shards %s of %d", shard_ids, shard_count)
    try:
        bot.run(token, log_handler=None)
    except SchemaMismatch as refused:  # another process changed the schema since the check
        print(f"Stolik cannot start: {refused}", file=sys.stderr)
        return 1
    finally:
        workers.stop_render_processes()
    return 0


if __name__ == "__main__":
    sys.exit(main())
