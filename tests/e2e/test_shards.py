"""Sharding through the stand-in: first the gateway's rules as Discord applies them (a raw
websocket client), then the real bot as two processes, shards 0 and 1, on one database."""

from __future__ import annotations

import json
from typing import Any

import aiohttp
import pytest

from tests.standin.server import APP_COMMAND, Discord, shard_of


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
