"""The real bot process on PostgreSQL (``STOLIK_DB=postgresql://...``): a whole game through
the stand-in, then a restart of the bot that finds the game as it was."""

from __future__ import annotations

import random

import asyncpg
import pytest

from tests.e2e.helpers import open_game, play_to_end
from tests.standin.botproc import BotProcess
from tests.standin.users import Player, Table

pytestmark = pytest.mark.postgres


async def test_a_whole_game_on_postgresql(discord, tmp_path, postgres_url):
    bot = BotProcess(discord, postgres_url, tmp_path)
    await bot.start()
    try:
        channel = discord.text_channels[1]
        table = Table(discord, channel, [Player(discord, n) for n in ("Ala", "Bo")],
                      random.Random(3))
        await open_game(table, "kingdomino")
        moves = await play_to_end(table, "kingdomino")
        await bot.stop()
        await bot.start()  # a new process over the same database
    finally:
        await bot.stop()
    assert "Traceback" not in bot.log_text(), bot.log_tail(60)
    conn = await asyncpg.connect(postgres_url)
    try:
        row = await conn.fetchrow("SELECT id, status, version FROM sessions WHERE channel_id = $1",
                                  channel)
        logged = await conn.fetch("SELECT version, user_id FROM actions WHERE session_id = $1"
                                  " ORDER BY n", row["id"])
    finally:
        await conn.close()
    assert row["status"] == "finished"
    assert [a["version"] for a in logged] == list(range(1, row["version"] + 1))
    assert sum(1 for a in logged if a["user_id"] is not None) == moves
