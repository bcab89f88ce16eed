"""Sharding through the stand-in: first the gateway's rules as Discord applies them (a raw
websocket client), then the real bot as two processes, shards 0 and 1, on one database."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from db import Database
from tests.e2e.helpers import Stored, assert_no_violations, open_game
from tests.e2e.test_crash import move_or_retry
from tests.standin.botproc import BotProcess
from tests.standin.server import APP_COMMAND, Discord, Message, shard_of
from tests.standin.users import Player, Refused, Table, answer


class RawShard:
    """A bare gateway client: HELLO, IDENTIFY with a shard, then whatever Discord sends."""

    def __init__(self, discord: Discord, shard: list[int] | None) -> None:
        self.discord, self.shard = discord, shard
        self.events: list[tuple[str, Any]] = []

    async def __aenter__(self) -> RawShard:
        self.http = aiohttp.ClientSession()
        self.ws = await self.http.ws_connect(f"{self.discord.base_url}/gateway")
        hello = await self.ws.receive_json()
        assert hello["op"] == 10
        identify: dict[str, Any] = {"token": self.discord.token, "intents": 1,
                                    "properties": {"os": "linux", "browser": "t", "device": "t"}}
        if self.shard is not None:
            identify["shard"] = self.shard
        await self.ws.send_json({"op": 2, "d": identify})
        return self

    async def next_event(self, timeout: float = 5.0) -> tuple[str, Any] | int:
        """The next DISPATCH as (name, data), or the close code if Discord closed."""
        msg = await self.ws.receive(timeout)
        if msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING):
            return self.ws.close_code or 0
        data = json.loads(msg.data)
        return data["t"], data["d"]

    async def __aexit__(self, *exc: object) -> None:
        await self.ws.close()
        await self.http.close()


@pytest.fixture
async def two_guilds():
    discord = Discord(channels=0)
    guilds = [discord.add_guild(f"Guild on shard {n}", shard=(n, 2)) for n in (0, 1)]
    channels = [discord.add_channel(f"table-{n}", guild_id=g) for n, g in enumerate(guilds)]
    await discord.start()
    yield discord, guilds, channels
    await discord.stop()


async def test_a_guilds_events_go_to_its_shard_and_dms_to_shard_zero(two_guilds):
    discord, guilds, channels = two_guilds
    assert [shard_of(g, 2) for g in guilds] == [0, 1]
    user = discord.add_user("Ala")
    async with RawShard(discord, [0, 2]) as zero, RawShard(discord, [1, 2]) as one:
        for shard, guild in ((zero, guilds[0]), (one, guilds[1])):
            name, ready = await shard.next_event()
            assert name == "READY" and ready["shard"] == shard.shard
            # a shard hears only of its own guilds (of the default guild too, if it is its)
            assert str(guild) in [g["id"] for g in ready["guilds"]]
            assert str(guilds[1 - guilds.index(guild)]) not in [g["id"] for g in ready["guilds"]]
        for shard in (zero, one):
            names = []
            while (event := await shard.next_event()) and event[0] == "GUILD_CREATE":
                names.append(event[1]["id"])
                if str(guilds[shard.shard[0]]) in names:
                    break
        data = {"id": "1", "name": "game", "type": 1}
        await discord.send_interaction(user, channels[1], APP_COMMAND, data)
        name, payload = await one.next_event()
        assert name == "INTERACTION_CREATE" and payload["guild_id"] == str(guilds[1])
        await discord.send_interaction(user, channels[0], APP_COMMAND, data)
        name, payload = await zero.next_event()
        assert name == "INTERACTION_CREATE" and payload["guild_id"] == str(guilds[0])
        # a DM: shard 0, whatever guild the game it is about lives in
        await discord.send_interaction(user, discord.dm_channel(user), APP_COMMAND, data)
        name, payload = await zero.next_event()
        assert name == "INTERACTION_CREATE" and "guild_id" not in payload
        assert discord.session_for(guilds[1]) is discord.shard_sessions[(1, 2)]


@pytest.mark.parametrize(("shard", "code"), [
    ([2, 2], 4010),    # shard id outside the count: Invalid shard
    ([0, 0], 4010),
    (["0", 2], 4010),
    ([0, 1], 4011),    # fewer shards than the bot's guilds need: Sharding required
    (None, 4011),      # no shard at all counts as [0, 1]
])
async def test_a_wrong_shard_is_refused_as_discord_does(two_guilds, shard, code):
    discord, _, _ = two_guilds
    discord.required_shards = 2
    async with RawShard(discord, shard) as raw:
        assert await raw.next_event() == code
    assert discord.shard_sessions == {}


# --- the real bot as two shard processes -----------------------------------------------------
PACE = "realtime:0.5"  # 30 s a move: the reminder comes after 15 s
SLOW = 60.0  # generous waits: bot starts on a busy 2-core machine


def reminders(table: Table) -> list[Message]:
    return [m for m in table.public() if m.content.startswith("⏰") and "your move" in m.content]


async def fired_reminder_timers(target: Path | str, channel: int) -> int:
    async with Database(target) as db:
        row = await db.fetchone(
            "SELECT COUNT(*) FROM timers t JOIN sessions s ON s.id = t.session_id"
            " WHERE s.channel_id = ? AND t.kind IN ('remind', 'last_call')"
            " AND t.fired_at IS NOT NULL", (channel,))
        return int(row[0])


async def read_stored(target: Path | str, channel: int) -> Stored:
    """The channel's newest game as the database holds it (SQLite file or PostgreSQL)."""
    async with Database(target) as db:
        row = await db.fetchone("SELECT * FROM sessions WHERE channel_id = ? ORDER BY id DESC"
                                " LIMIT 1", (channel,))
        assert row is not None, f"no session in channel {channel}"
        seats = await db.fetchall("SELECT user_id, name FROM seats WHERE session_id = ?"
                                  " ORDER BY seat", (row["id"],))
        actions = await db.fetchall("SELECT n, seat, user_id, code FROM actions WHERE"
                                    " session_id = ? AND undone_version IS NULL ORDER BY n",
                                    (row["id"],))
    return Stored(row["id"], row["game_id"], row["status"], row["seed"], row["players"],
                  json.loads(row["options"]), row["version"], row["lang"],
                  json.loads(row["state"]) if row["state"] else None,
                  json.loads(row["result"]) if row["result"] else None,
                  [x["name"] for x in seats], [x["user_id"] for x in seats],
                  [(a["n"], a["seat"], a["user_id"], a["code"]) for a in actions])


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def shared_db(request, tmp_path) -> Path | str:
    """The one database both processes use: a SQLite file, or a PostgreSQL database."""
    if request.param == "postgres":
        return request.getfixturevalue("postgres_url")
    return tmp_path / "stolik.sqlite3"


async def test_two_shard_processes_on_one_database_survive_a_kill(two_guilds, tmp_path,
                                                                  shared_db):
    """Shards 0 and 1 as two processes on one SQLite file: games in a guild of each shard,
    Bunny Kingdom hands played from DMs (which arrive on shard 0 although the game's guild is
    on shard 1), a timed game whose reminders the owning process sends; shard 1's process is
    killed with -9 in the middle of a move and restarted. Every acknowledged move is in the
    log, every stored state is the replay of its log, and no reminder was sent twice."""
    discord, guilds, (channel0, channel1) = two_guilds
    discord.required_shards = 2
    timed_channel = discord.add_channel("timed", guild_id=guilds[1])
    db_path = shared_db
    common = {"extra_env": {"STOLIK_GUILD": "", "STOLIK_RENDER_WORKERS": "0"}, "shard_count": 2}
    zero = BotProcess(discord, db_path, tmp_path, log_name="shard0.log", shard_ids=[0], **common)
    one = BotProcess(discord, db_path, tmp_path, log_name="shard1.log", shard_ids=[1], **common)
    await zero.start(SLOW)  # shard 0 syncs the commands
    await one.start(SLOW)
    try:
        await play_with_a_kill(discord, one, db_path, channel0, channel1, timed_channel)
    finally:
        await one.stop()
        await zero.stop()
    for process in (zero, one):
        assert "Traceback" not in process.log_text(), process.log_tail(60)


async def play_with_a_kill(discord: Discord, one: BotProcess, db_path: Path | str, channel0: int,
                           channel1: int, timed_channel: int) -> None:
    rng = random.Random(5)
    plain = Table(discord, channel0, [Player(discord, "Ala"), Player(discord, "Bo")],
                  random.Random(1))
    hidden = Table(discord, channel1, [Player(discord, "Cy"), Player(discord, "Di")],
                   random.Random(2))
    timed = Table(discord, timed_channel, [Player(discord, "Ed"), Player(discord, "Fi")],
                  random.Random(3))
    timed.repaired = 0
    await open_game(plain, "kingdomino", timeout=SLOW)
    await open_game(hidden, "bunny_kingdom", timeout=SLOW)
    creator, other = timed.players
    inter = await creator.command(timed_channel, "game new", game="kingdomino", players=2,
                                  pace=PACE)
    await answer(discord, inter, SLOW)
    await discord.wait_for(lambda: timed.lobby_message(), SLOW, "the timed game's lobby")
    await answer(discord, await other.command(timed_channel, "game join"), SLOW)
    await discord.wait_for(lambda: timed.turn_message(), SLOW, "the timed game's first board")
    acknowledged: dict[int, list[tuple[int, str]]] = {channel0: [], channel1: [],
                                                      timed_channel: []}

    async def move(table: Table, secret: bool) -> None:
        made = await table.make_move(table.rng.choice(table.movers()), secret, timeout=SLOW)
        acknowledged[table.channel_id].append((made.player.id, made.code))

    for _ in range(4):
        await move(plain, False)
        await move(hidden, True)  # from a DM: shard 0's process, for a game on shard 1
    # shard 1's process reminds the timed game's player
    await discord.wait_for(lambda: reminders(timed), SLOW, "the first reminder")
    await move(timed, False)

    # kill -9 shard 1's process somewhere in a move of the timed game
    board = timed.turn_message()
    mover = timed.rng.choice(timed.movers())
    task = asyncio.ensure_future(timed.make_move(mover, False, timeout=SLOW))
    await asyncio.sleep(rng.uniform(0.0, 0.3))
    one.kill()
    await one.wait_dead()
    with contextlib.suppress(Refused, TimeoutError, AssertionError):
        made = await asyncio.wait_for(task, 0.3)
        acknowledged[timed_channel].append((made.player.id, made.code))
    task.cancel()
    # shard 1 is down: DMs still reach shard 0, which plays the hands of shard 1's game and
    # posts its board in shard 1's guild
    await move(hidden, True)  # acknowledged: the board in shard 1's guild changed
    assert not one.alive()
    await move(plain, False)

    await one.start(SLOW)
    await move_or_retry(timed, timed.rng.choice(timed.movers()))
    acknowledged[timed_channel].append((timed.moves[-1].player.id, timed.moves[-1].code))
    reminded = len(reminders(timed))
    # the restarted process sends the next reminder itself
    await discord.wait_for(lambda: len(reminders(timed)) > reminded, SLOW, "a reminder after the restart")
    await move(timed, False)
    for _ in range(2):
        await move(plain, False)
        await move(hidden, True)
    del board

    for table in (plain, hidden, timed):
        stored = await read_stored(db_path, table.channel_id)
        logged = iter((user_id, code) for _, _, user_id, code in stored.actions)
        missing = [m for m in acknowledged[table.channel_id] if m not in logged]
        assert not missing, f"acknowledged moves lost in {table.channel_id}: {missing}"
        assert stored.replay()[-1] == stored.state
    # every reminder the timers table shows fired was sent once, by one process; a timer is
    # claimed before its message goes out, so one claimed just now may still be on its way
    give_up = asyncio.get_running_loop().time() + SLOW
    while True:
        sent = len(reminders(timed))  # read first: a reminder is sent only after its claim
        fired = await fired_reminder_timers(db_path, timed_channel)
        assert sent <= fired, f"{sent} reminders sent for {fired} timers fired"
        if sent == fired or asyncio.get_running_loop().time() > give_up:
            break
        await asyncio.sleep(0.2)
    assert sent == fired >= 2
    assert_no_violations(discord)
