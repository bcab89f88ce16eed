"""The stand-in's gateway: the websocket the bot connects to, with hello, identify (READY and
a GUILD_CREATE for each guild of the shard), heartbeats, resume with replay of missed events,
and DISPATCH events to the live session of a guild's shard."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from tests.standin.model import World, now_iso, shard_of

#: gateway opcodes
DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE, VOICE_STATE, RESUME, RECONNECT, REQUEST_MEMBERS = (
    0, 1, 2, 3, 4, 6, 7, 8)
INVALID_SESSION, HELLO, HEARTBEAT_ACK = 9, 10, 11


@dataclass
class GatewaySession:
    id: str
    seq: int = 0
    events: list[tuple[int, str, Any]] = field(default_factory=list)
    conn: GatewayConn | None = None
    resumes: int = 0
    #: [shard_id, num_shards] from IDENTIFY ([0, 1] when the bot sent none)
    shard: tuple[int, int] = (0, 1)


@dataclass
class GatewayConn:
    ws: web.WebSocketResponse
    opened: float
    session: GatewaySession | None = None
    heartbeats: list[float] = field(default_factory=list)
    identified: asyncio.Event = field(default_factory=asyncio.Event)


def valid_shard(shard: Any) -> bool:
    """``[shard_id, num_shards]`` with ``0 <= shard_id < num_shards``."""
    return (isinstance(shard, list) and len(shard) == 2
            and all(isinstance(x, int) for x in shard) and 0 <= shard[0] < shard[1])


class Gateway:
    """The websocket side of the stand-in's :class:`World`: sessions, connections and events."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.sessions: dict[str, GatewaySession] = {}
        #: the session identified or resumed last (any shard)
        self.current: GatewaySession | None = None
        #: the live session of each [shard_id, num_shards]: a guild's events go there
        self.shard_sessions: dict[tuple[int, int], GatewaySession] = {}
        self.conns: list[GatewayConn] = []
        self.all_conns: list[GatewayConn] = []
        self.log: list[tuple[float, str]] = []
        self._ops: dict[int, Callable[[GatewayConn, dict[str, Any]], Awaitable[None]]] = {
            HEARTBEAT: self.heartbeat, IDENTIFY: self.identify, RESUME: self.resume}

    async def serve(self, request: web.Request) -> web.StreamResponse:
        """One websocket connection, from hello to close."""
        ws = web.WebSocketResponse(autoping=True, max_msg_size=0)
        await ws.prepare(request)
        conn = GatewayConn(ws, time.monotonic())
        self.conns.append(conn)
        self.all_conns.append(conn)
        self.log.append((time.monotonic(), "connect"))
        await ws.send_json({"op": HELLO, "d": {
            "heartbeat_interval": int(self.world.heartbeat_interval * 1000)}, "s": None, "t": None})
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                await self.receive(conn, json.loads(msg.data))
        finally:
            self.conns.remove(conn)
            self.log.append((time.monotonic(), f"closed {ws.close_code}"))
            if conn.session is not None and conn.session.conn is conn:
                conn.session.conn = None
            await self.world.notify()
        return ws

    async def receive(self, conn: GatewayConn, msg: dict[str, Any]) -> None:
        """One message from the bot; presence, voice state and member requests are accepted
        and ignored."""
        op = msg.get("op")
        handler = next((h for code, h in self._ops.items() if code == op), None)
        if handler is not None:
            await handler(conn, msg["d"] if isinstance(msg.get("d"), dict) else {})

    async def heartbeat(self, conn: GatewayConn, data: dict[str, Any]) -> None:
        conn.heartbeats.append(time.monotonic())
        await conn.ws.send_json({"op": HEARTBEAT_ACK, "d": None, "s": None, "t": None})
        if len(conn.heartbeats) == 1:
            await self.world.notify()

    async def refuse_identify(self, conn: GatewayConn, data: dict[str, Any]) -> bool:
        """Close the connection as Discord does for a wrong token, an invalid shard or too
        few shards; True if it did."""
        if data.get("token") != self.world.token:
            await conn.ws.close(code=4004, message=b"Authentication failed.")
            return True
        shard = data.get("shard", [0, 1])
        if not valid_shard(shard):
            self.log.append((time.monotonic(), f"invalid shard {shard!r}"))
            await conn.ws.close(code=4010, message=b"Invalid shard.")
            return True
        if shard[1] < self.world.required_shards:
            self.log.append((time.monotonic(), f"sharding required {shard!r}"))
            await conn.ws.close(code=4011, message=b"Sharding required.")
            return True
        return False

    async def identify(self, conn: GatewayConn, data: dict[str, Any]) -> None:
        if await self.refuse_identify(conn, data):
            return
        shard = data.get("shard", [0, 1])
        session = GatewaySession(secrets.token_hex(16), shard=(shard[0], shard[1]))
        self.sessions[session.id] = session
        self.attach(session, conn)
        self.log.append((time.monotonic(), f"identify {session.id} shard {shard}"))
        world = self.world
        guilds = [g for g in world.guilds if shard_of(g, shard[1]) == shard[0]]
        await self.dispatch("READY", {
            "v": 10, "user": world.users[world.bot_id], "session_id": session.id,
            "resume_gateway_url": f"ws://127.0.0.1:{world.port}/gateway",
            "guilds": [{"id": str(g), "unavailable": True} for g in guilds],
            "shard": list(session.shard),
            "application": {"id": str(world.app_id), "flags": 0}, "private_channels": [],
            "relationships": [], "presences": [], "session_type": "normal",
            "geo_ordered_rtc_regions": [], "auth": {}, "user_settings": {},
        }, session=session)
        for guild_id in guilds:
            await self.dispatch("GUILD_CREATE", self.guild_payload(guild_id), session=session)
        conn.identified.set()

    def attach(self, session: GatewaySession, conn: GatewayConn) -> None:
        """``conn`` carries ``session`` now, the newest of its shard: it gets the events."""
        session.conn, conn.session = conn, session
        self.current = session
        self.shard_sessions.pop(session.shard, None)
        self.shard_sessions[session.shard] = session

    async def resume(self, conn: GatewayConn, data: dict[str, Any]) -> None:
        session = self.sessions.get(data.get("session_id", ""))
        if session is None or data.get("token") != self.world.token:
            await conn.ws.send_json({"op": INVALID_SESSION, "d": False, "s": None, "t": None})
            return
        self.attach(session, conn)
        session.resumes += 1
        missed = [e for e in session.events if e[0] > (data.get("seq") or 0)]
        self.log.append((time.monotonic(), f"resume {session.id} replaying {len(missed)}"))
        for seq, name, payload in missed:
            await conn.ws.send_json({"op": DISPATCH, "s": seq, "t": name, "d": payload})
        await self.dispatch("RESUMED", {}, session=session)
        conn.identified.set()

    def session_for(self, guild_id: int | None) -> GatewaySession | None:
        """The session that gets a guild's events: the newest one identified for the guild's
        shard, ``(guild_id >> 22) % num_shards``; DMs go to shard 0."""
        found = None
        for (shard_id, num_shards), session in self.shard_sessions.items():
            if shard_of(guild_id, num_shards) == shard_id:
                found = session
        return found

    async def dispatch(self, name: str, payload: Any, *, guild_id: int | None = None,
                       session: GatewaySession | None = None) -> bool:
        """Send a DISPATCH (kept for a resume) to ``session``, or else to the session of the
        guild's shard (``guild_id`` None: a DM's, shard 0); False if none is live."""
        session = session or self.session_for(guild_id)
        if session is None:
            return False
        session.seq += 1
        session.events.append((session.seq, name, payload))
        conn = session.conn
        if conn is None or conn.ws.closed:
            return False
        try:
            await conn.ws.send_json({"op": DISPATCH, "s": session.seq, "t": name, "d": payload})
        except (ConnectionError, RuntimeError):
            return False
        return True

    async def close(self, code: int = 4000) -> None:
        """Fault: close the live gateway connection with a code that asks for a resume."""
        session = self.current
        if session and session.conn:
            await session.conn.ws.close(code=code, message=b"standin: unknown error")

    async def close_all(self) -> None:
        for conn in list(self.conns):
            with contextlib.suppress(Exception):
                await conn.ws.close()

    async def send_reconnect(self) -> None:
        """Fault: op 7 RECONNECT, as Discord sends before moving a session."""
        session = self.current
        if session and session.conn:
            await session.conn.ws.send_json({"op": RECONNECT, "d": None, "s": None, "t": None})

    def heartbeat_gaps(self) -> list[float]:
        """Seconds between consecutive heartbeats on every connection. The bot's heartbeat
        thread waits ``interval`` after each send, and the send runs on the bot's event loop,
        so ``gap - interval`` is how long that loop was busy: its event-loop lag."""
        return [b - a for conn in self.all_conns for a, b in itertools.pairwise(conn.heartbeats)]

    def guild_payload(self, guild_id: int | None = None) -> dict[str, Any]:
        world = self.world
        guild_id = guild_id or world.guild_id
        everyone = {"id": str(guild_id), "name": "@everyone", "permissions": "2248473465835073",
                    "position": 0, "color": 0, "hoist": False, "managed": False, "mentionable": False,
                    "flags": 0}
        bot_member = {"user": world.users[world.bot_id], "roles": [], "joined_at": now_iso(),
                      "deaf": False, "mute": False, "flags": 0, "pending": False, "nick": None}
        mine = [c for c in world.channels.values() if c.guild_id == guild_id]
        channels = [c.payload(world) for c in mine if c.type == 0]
        threads = [c.payload(world) for c in mine if c.type == 11]
        return {
            "id": str(guild_id), "name": world.guilds[guild_id], "icon": None, "splash": None,
            "discovery_splash": None, "owner_id": str(world.bot_id + 1), "afk_channel_id": None,
            "afk_timeout": 300, "verification_level": 0, "default_message_notifications": 0,
            "explicit_content_filter": 0, "roles": [everyone], "emojis": [], "stickers": [],
            "features": [], "mfa_level": 0, "application_id": None, "system_channel_id": None,
            "system_channel_flags": 0, "rules_channel_id": None, "joined_at": now_iso(),
            "large": False, "unavailable": False, "member_count": len(world.users),
            "voice_states": [], "members": [bot_member], "channels": channels, "threads": threads,
            "presences": [], "stage_instances": [], "guild_scheduled_events": [],
            "preferred_locale": world.guild_locale, "premium_tier": 0, "nsfw_level": 0,
            "max_members": 500000, "vanity_url_code": None, "description": None, "banner": None,
            "premium_subscription_count": 0, "public_updates_channel_id": None,
            "max_video_channel_users": 25, "premium_progress_bar_enabled": False,
        }
