"""A local stand-in for Discord: the subset of the HTTP API and gateway that Stolik uses.

The unmodified bot (``python bot.py`` with ``STOLIK_DISCORD_API=http://127.0.0.1:PORT``) logs in,
syncs its commands, connects to the gateway and answers interactions here exactly as it would
on discord.com. Everything it sends is recorded (:attr:`Discord.calls`, :attr:`Discord.messages`,
:attr:`Discord.interactions`), Discord's own rules that a wrong call would break are enforced
and recorded as :attr:`Discord.violations` (late or double acknowledgement, follow-ups without
an acknowledgement, invalid components, content too long...), and faults are injected on demand
(:attr:`Discord.faults`). Loopback only.
"""

from __future__ import annotations

import asyncio
import contextlib
import fnmatch
import itertools
import json
import math
import random
import re
import secrets
import time
from collections import defaultdict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from aiohttp import WSMsgType, web

from tests.standin import spec

DISCORD_EPOCH_MS = 1_420_070_400_000
EPHEMERAL = 1 << 6
LOADING = 1 << 7
#: Discord's deadline for the first answer to an interaction
ACK_DEADLINE = 3.0
#: how long an interaction token is valid for follow-ups and edits (Discord: 15 minutes)
TOKEN_LIFETIME = 15 * 60.0
#: how long Discord remembers a message nonce for ``enforce_nonce`` ("a few minutes")
NONCE_WINDOW = 5 * 60.0
#: Discord's global rate limit: requests per bot token per window (seconds)
GLOBAL_LIMIT, GLOBAL_WINDOW = 50, 1.0
#: requests that arrive this soon after a global 429 was answered were on their way before the
#: bot could have read it (concurrent requests, event-loop lag): 429 too, not a violation
GLOBAL_REACTION = 0.25
#: the types of interaction callbacks
PONG, MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE, AUTOCOMPLETE, MODAL = 1, 4, 5, 6, 7, 8, 9
#: interaction types
APP_COMMAND, COMPONENT, AUTOCOMPLETE_REQUEST = 2, 3, 4


def now_iso(t: float | None = None) -> str:
    return datetime.fromtimestamp(time.time() if t is None else t, UTC).isoformat()


class Snowflakes:
    """Discord-shaped ids: milliseconds since 2015 in the high bits, a counter below."""

    def __init__(self) -> None:
        self._counter = itertools.count(1)

    def __call__(self) -> int:
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        return (ms << 22) | (next(self._counter) & 0x3FFFFF)

    def on_shard(self, shard_id: int, num_shards: int) -> int:
        """An id whose guild lives on ``shard_id`` of ``num_shards`` (its time bits chosen)."""
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        ms += (shard_id - ms) % num_shards
        return (ms << 22) | (next(self._counter) & 0x3FFFFF)


def shard_of(guild_id: int | None, num_shards: int) -> int:
    """Discord's rule: a guild's events go to shard ``(guild_id >> 22) % num_shards``; events
    outside guilds (DMs) go to shard 0."""
    return 0 if guild_id is None else (guild_id >> 22) % num_shards


# --- records -------------------------------------------------------------------------------
@dataclass
class Call:
    """One HTTP request the bot made, with what the stand-in answered."""

    t: float
    method: str
    path: str
    route: str  # "POST /channels/{channel_id}/messages"
    major: str  # the route's major parameter (channel, webhook...) for buckets
    body: Any
    files: list[tuple[str, int]]
    status: int = 0
    fault: str | None = None
    answered_at: float = 0.0
    auth: str = ""
    query: dict[str, str] = field(default_factory=dict)

    @property
    def key(self) -> str:
        return f"{self.method} {self.route}"

    @property
    def globally_limited(self) -> bool:
        """Whether the call counts toward the bot's global rate limit: Discord exempts the
        interaction endpoints (callbacks, and follow-ups and edits under the interaction's
        webhook)."""
        return not self.route.startswith(("/interactions/", "/webhooks/"))


@dataclass
class Attachment:
    id: int
    filename: str
    data: bytes
    content_type: str
    #: alt text, from the ``attachments`` entry of ``payload_json`` that names this upload
    description: str | None = None

    def payload(self, base: str, channel_id: int) -> dict[str, Any]:
        data = {"id": str(self.id), "filename": self.filename, "size": len(self.data),
                "url": f"{base}/attachments/{channel_id}/{self.id}/{self.filename}",
                "proxy_url": f"{base}/attachments/{channel_id}/{self.id}/{self.filename}",
                "content_type": self.content_type}
        if self.description is not None:
            data["description"] = self.description
        return data


@dataclass
class Snapshot:
    """What a message showed from time ``t`` on: as posted, and after each edit of its text or
    files (taking the buttons away is not a new snapshot)."""

    t: float
    content: str
    components: list[dict[str, Any]]
    images: list[bytes]

    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for row in self.components for c in row.get("components", [])
                if "custom_id" in c]


@dataclass
class Message:
    id: int
    channel_id: int
    author: dict[str, Any]
    content: str = ""
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    created: float = field(default_factory=time.monotonic)
    #: what made it: "channel", "dm", "reply", "deferred", "followup"
    via: str = "channel"
    interaction_id: int | None = None
    #: for ephemeral messages: the only user who sees it
    visible_to: int | None = None
    edits: list[tuple[float, dict[str, Any]]] = field(default_factory=list)
    deleted: bool = False
    guild_id: int | None = None
    #: the components as first sent (edits may take them away later)
    first_components: list[dict[str, Any]] = field(default_factory=list)
    history: list[Snapshot] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.first_components = self.components
        self.snapshot()

    def snapshot(self) -> None:
        self.history.append(Snapshot(time.monotonic(), self.content, self.components, self.images()))

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def public(self) -> bool:
        return not self.ephemeral and self.visible_to is None and not self.deleted

    def custom_ids(self, *, first: bool = False) -> list[str]:
        rows = self.first_components if first else self.components
        return [c["custom_id"] for row in rows for c in row.get("components", []) if "custom_id" in c]

    def images(self) -> list[bytes]:
        return [a.data for a in self.attachments if a.content_type == "image/png"]

    def type(self, discord: Discord) -> int:
        """0 for a plain message, 20 for the answer to a slash command."""
        inter = discord.interactions.get(self.interaction_id or 0)
        return 20 if inter is not None and inter.type == APP_COMMAND else 0

    def payload(self, discord: Discord) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id), "channel_id": str(self.channel_id), "type": self.type(discord),
            "author": self.author, "content": self.content, "timestamp": now_iso(),
            "edited_timestamp": now_iso() if self.edits else None, "tts": False,
            "mention_everyone": False, "mentions": [], "mention_roles": [], "mention_channels": [],
            "attachments": [a.payload(discord.base_url, self.channel_id) for a in self.attachments],
            "embeds": [], "reactions": [], "pinned": False, "flags": self.flags,
            "components": self.components, "application_id": str(discord.app_id),
            "webhook_id": str(discord.app_id) if self.interaction_id else None,
        }
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        if self.interaction_id is not None:
            inter = discord.interactions.get(self.interaction_id)
            if inter is not None:
                data["interaction_metadata"] = {
                    "id": str(inter.id), "type": inter.type,
                    "user": discord.user_payload(inter.user_id),
                    "authorizing_integration_owners": {"0": str(discord.guild_id)},
                }
        return data


@dataclass
class Interaction:
    id: int
    token: str
    type: int
    user_id: int
    channel_id: int
    data: dict[str, Any]
    sent_at: float
    message_id: int | None = None  # the message a component is on
    acked_at: float | None = None
    response_type: int | None = None
    #: the message the response created (reply or "thinking"), or the component's message
    original_id: int | None = None
    first_followup_done: bool = False
    followups: list[int] = field(default_factory=list)
    choices: list[dict[str, Any]] | None = None  # autocomplete answer
    #: times of every answer the bot gave (callback, follow-up, original edit)
    answers: list[tuple[float, str, int | None]] = field(default_factory=list)

    @property
    def latency(self) -> float | None:
        return None if self.acked_at is None else self.acked_at - self.sent_at


@dataclass
class Channel:
    id: int
    type: int  # 0 text, 1 DM, 11 public thread
    name: str = ""
    guild_id: int | None = None
    recipient: int | None = None
    parent_id: int | None = None

    def payload(self, discord: Discord) -> dict[str, Any]:
        data: dict[str, Any] = {"id": str(self.id), "type": self.type, "last_message_id": None,
                                "flags": 0}
        if self.type == 1:
            data["recipients"] = [discord.user_payload(self.recipient or 0)]
            return data
        data.update({"guild_id": str(self.guild_id), "name": self.name, "position": 0,
                     "permission_overwrites": [], "nsfw": False, "topic": None,
                     "rate_limit_per_user": 0, "parent_id": None})
        if self.type == 11:
            data.update({"parent_id": str(self.parent_id), "owner_id": str(discord.bot_id),
                         "message_count": 0, "member_count": 1, "total_message_sent": 0,
                         "thread_metadata": {"archived": False, "auto_archive_duration": 10080,
                                             "archive_timestamp": now_iso(), "locked": False}})
        return data


# --- faults -------------------------------------------------------------------------------
@dataclass
class Fault:
    """Applied to requests whose ``"METHOD /route"`` matches ``pattern`` (fnmatch)."""

    kind: str  # "429", "500", "slow"
    pattern: str = "*"
    count: int | None = 1  # how many requests it hits; None = until removed
    probability: float = 1.0
    retry_after: float = 0.5
    is_global: bool = False
    status: int = 500
    delay: float = 0.0
    hits: int = 0
    #: a 5xx after Discord did the work (the message exists, the answer is lost)
    after_write: bool = False

    def matches(self, key: str, rng: random.Random) -> bool:
        if self.count is not None and self.hits >= self.count:
            return False
        if not fnmatch.fnmatchcase(key, self.pattern):
            return False
        return rng.random() < self.probability


class Faults:
    """Faults on demand. Every helper returns the :class:`Fault` so a test can read ``hits``."""

    def __init__(self, seed: int = 0) -> None:
        self.active: list[Fault] = []
        self.rng = random.Random(seed)
        #: users whose DMs are closed, and where Discord refuses: "message" (as Discord does:
        #: the DM channel opens, the message is refused) or "create" (opening is refused)
        self.closed_dms: dict[int, str] = {}
        #: users whose DMs Discord fails with a server error (status), every time
        self.failing_dms: dict[int, int] = {}

    def rate_limit(self, pattern: str = "*", *, retry_after: float = 0.5, count: int | None = 1,
                   probability: float = 1.0, is_global: bool = False) -> Fault:
        return self._add(Fault("429", pattern, count, probability, retry_after, is_global))

    def server_error(self, pattern: str = "*", *, status: int = 500, count: int | None = 1,
                     probability: float = 1.0, after_write: bool = False) -> Fault:
        return self._add(Fault("500", pattern, count, probability, status=status,
                               after_write=after_write))

    def slow(self, pattern: str = "*", *, delay: float = 1.0, count: int | None = 1,
             probability: float = 1.0) -> Fault:
        return self._add(Fault("slow", pattern, count, probability, delay=delay))

    def refuse_dms(self, user_id: int, at: str = "message") -> None:
        assert at in ("message", "create")
        self.closed_dms[user_id] = at

    def fail_dms(self, user_id: int, status: int = 503) -> None:
        """Discord answers ``status`` (5xx) to every DM to this user, as in an outage."""
        self.failing_dms[user_id] = status

    def clear(self) -> None:
        self.active.clear()

    def _add(self, fault: Fault) -> Fault:
        self.active.append(fault)
        return fault

    def pick(self, kind: str, key: str) -> Fault | None:
        for fault in self.active:
            if fault.kind == kind and fault.matches(key, self.rng):
                fault.hits += 1
                return fault
        return None


class HTTPError(Exception):
    """A refusal, answered with Discord's error body: ``code``, ``message`` and, for an invalid
    form, ``errors`` nested like the request body (``{"content": {"_errors": [...]}}``)."""

    def __init__(self, status: int, code: int, message: str,
                 problems: list[tuple[str, str, str]] | None = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message
        self.problems = problems or []

    @property
    def errors(self) -> list[str]:
        return [f"{path}: {name} {text}" for path, name, text in self.problems]

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.problems:
            body["errors"] = spec.form_errors(self.problems)
        return body


def invalid_form(*problems: tuple[str, str, str]) -> HTTPError:
    return HTTPError(400, 50035, "Invalid Form Body", list(problems))


# --- gateway --------------------------------------------------------------------------------
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


ROUTES: list[tuple[str, str, str]] = [
    ("GET", r"/users/@me", "get_me"),
    ("GET", r"/oauth2/applications/@me", "get_app"),
    ("GET", r"/gateway", "get_gateway"),
    ("GET", r"/gateway/bot", "get_gateway"),
    ("PUT", r"/applications/(?P<application_id>\d+)/commands", "put_commands"),
    ("PUT", r"/applications/(?P<application_id>\d+)/guilds/(?P<guild_id>\d+)/commands", "put_commands"),
    ("GET", r"/applications/(?P<application_id>\d+)/guilds/(?P<guild_id>\d+)/commands", "get_commands"),
    ("GET", r"/channels/(?P<channel_id>\d+)", "get_channel"),
    ("DELETE", r"/channels/(?P<channel_id>\d+)", "delete_channel"),
    ("POST", r"/channels/(?P<channel_id>\d+)/threads", "create_thread"),
    ("POST", r"/channels/(?P<channel_id>\d+)/messages", "post_message"),
    ("GET", r"/channels/(?P<channel_id>\d+)/messages", "list_messages"),
    ("GET", r"/channels/(?P<channel_id>\d+)/messages/(?P<message_id>\d+)", "get_message"),
    ("PATCH", r"/channels/(?P<channel_id>\d+)/messages/(?P<message_id>\d+)", "patch_message"),
    ("DELETE", r"/channels/(?P<channel_id>\d+)/messages/(?P<message_id>\d+)", "delete_message"),
    ("GET", r"/users/(?P<user_id>\d+)", "get_user"),
    ("POST", r"/users/@me/channels", "create_dm"),
    ("POST", r"/interactions/(?P<interaction_id>\d+)/(?P<token>[^/]+)/callback", "callback"),
    ("POST", r"/webhooks/(?P<webhook_id>\d+)/(?P<token>[^/]+)", "followup"),
    ("GET", r"/webhooks/(?P<webhook_id>\d+)/(?P<token>[^/]+)/messages/(?P<message_id>@original|\d+)",
     "get_webhook_message"),
    ("PATCH", r"/webhooks/(?P<webhook_id>\d+)/(?P<token>[^/]+)/messages/(?P<message_id>@original|\d+)",
     "edit_webhook_message"),
    ("DELETE", r"/webhooks/(?P<webhook_id>\d+)/(?P<token>[^/]+)/messages/(?P<message_id>@original|\d+)",
     "delete_webhook_message"),
]
_COMPILED = [(m, re.compile(p + "$"), name, re.sub(r"\(\?P<(\w+)>[^)]*\)", r"{\1}", p))
             for m, p, name in ROUTES]


def _json_response(payload: Any, status: int, headers: dict[str, str]) -> web.Response:
    """Discord's exact content type: discord.py parses JSON only for 'application/json'."""
    return web.Response(body=json.dumps(payload).encode(), status=status,
                        headers={**headers, "Content-Type": "application/json"})


def _route(method: str, path: str) -> tuple[str, str, dict[str, str]] | None:
    """(handler name, route template, parameters) of a REST path, or None."""
    for route_method, regex, name, template in _COMPILED:
        match = regex.match(path)
        if route_method == method and match:
            return name, template, match.groupdict()
    return None


_MAJOR = ("channel_id", "webhook_id", "interaction_id", "guild_id")


class Discord:
    """The stand-in. ``await Discord().start()``; then run the bot with :meth:`bot_env`."""

    def __init__(self, *, channels: int = 3, heartbeat_interval: float = 41.25,
                 ack_deadline: float = ACK_DEADLINE, seed: int = 0,
                 token_lifetime: float = TOKEN_LIFETIME, check_spec: bool = True,
                 global_limit: int | None = GLOBAL_LIMIT) -> None:
        self.snowflake = Snowflakes()
        self.app_id = self.bot_id = self.snowflake()
        self.guild_id = self.snowflake()
        #: every guild the bot is in (the first one is :attr:`guild_id`): id -> name
        self.guilds: dict[int, str] = {self.guild_id: "Stand-in guild"}
        #: Discord closes an IDENTIFY with fewer shards than this (4011 Sharding required);
        #: also the count GET /gateway/bot recommends
        self.required_shards = 1
        self.heartbeat_interval = heartbeat_interval
        self.ack_deadline = ack_deadline
        #: an interaction token works for follow-ups and edits this long after the interaction
        self.token_lifetime = token_lifetime
        #: check request bodies against Discord's OpenAPI spec (tests/standin/spec.py)
        self.check_spec = check_spec
        #: (channel id, nonce) -> (message id, when) of posts with ``enforce_nonce``
        self._nonces: dict[tuple[int, str], tuple[int, float]] = {}
        #: called with each call once answered, before the answer goes out (a test may kill
        #: the bot there: "Discord did it, the bot never heard")
        self.on_answered: Callable[[Call], None] | None = None
        self.token = "standin-" + secrets.token_hex(8)
        self.faults = Faults(seed)
        self.users: dict[int, dict[str, Any]] = {
            self.bot_id: {"id": str(self.bot_id), "username": "Stolik", "global_name": "Stolik",
                          "discriminator": "0", "avatar": None, "bot": True, "public_flags": 0}}
        self.locales: dict[int, str] = {}
        self.channels: dict[int, Channel] = {}
        self.text_channels: list[int] = []
        for n in range(channels):
            self.add_channel(f"table-{n + 1}")
        self.messages: dict[int, Message] = {}
        #: channel id -> its messages, oldest first (a channel's read need not scan them all)
        self._in_channel: dict[int, list[Message]] = defaultdict(list)
        self.interactions: dict[int, Interaction] = {}
        self._by_token: dict[str, Interaction] = {}
        self.commands: dict[int | None, list[dict[str, Any]]] = {}
        self.calls: list[Call] = []
        self.violations: list[str] = []
        self.sessions: dict[str, GatewaySession] = {}
        #: the session identified or resumed last (any shard)
        self.current: GatewaySession | None = None
        #: the live session of each [shard_id, num_shards]: a guild's events go there
        self.shard_sessions: dict[tuple[int, int], GatewaySession] = {}
        self.conns: list[GatewayConn] = []
        self.all_conns: list[GatewayConn] = []
        self.gateway_log: list[tuple[float, str]] = []
        self._changed = asyncio.Condition()
        self._runner: web.AppRunner | None = None
        self.port = 0
        #: (bucket, major) -> time before which a request breaks a 429's retry_after
        self._blocked_until: dict[tuple[str, str], float] = {}
        self._global_blocked_until = 0.0
        #: Discord's global limit, counted per token over every route not exempt (see
        #: :attr:`Call.globally_limited`); ``None`` turns it off (a test may lower it)
        self.global_limit = global_limit
        self.global_window = GLOBAL_WINDOW
        #: token -> times of its globally limited requests Discord served in the last window
        self._global_log: defaultdict[str, deque[float]] = defaultdict(deque)
        #: token -> when the current global block began (its first 429)
        self._global_since: dict[str, float] = {}
        self.guild_locale = "en-US"

    # --- set-up ------------------------------------------------------------------------
    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def add_guild(self, name: str, *, shard: tuple[int, int] | None = None) -> int:
        """Another guild the bot is in; ``shard=(shard_id, num_shards)`` picks an id whose
        events go to that shard. Add it before the bot connects (no GUILD_CREATE is sent)."""
        guild_id = self.snowflake.on_shard(*shard) if shard else self.snowflake()
        self.guilds[guild_id] = name
        return guild_id

    def add_channel(self, name: str, *, thread_of: int | None = None,
                    guild_id: int | None = None) -> int:
        channel_id = self.snowflake()
        if thread_of is not None:
            guild_id = self.channels[thread_of].guild_id
        self.channels[channel_id] = Channel(channel_id, 11 if thread_of else 0, name,
                                            guild_id or self.guild_id, parent_id=thread_of)
        self.text_channels.append(channel_id)
        return channel_id

    def add_user(self, name: str, locale: str = "en-US") -> int:
        user_id = self.snowflake()
        self.users[user_id] = {"id": str(user_id), "username": name.lower(), "global_name": name,
                               "discriminator": "0", "avatar": None, "public_flags": 0}
        self.locales[user_id] = locale
        return user_id

    def dm_channel(self, user_id: int) -> int:
        """The DM channel between the bot and a user (opened on first use)."""
        channel = next((c for c in self.channels.values() if c.type == 1 and c.recipient == user_id),
                       None)
        if channel is None:
            channel = Channel(self.snowflake(), 1, recipient=user_id)
            self.channels[channel.id] = channel
        return channel.id

    def user_payload(self, user_id: int) -> dict[str, Any]:
        return self.users.get(user_id) or {"id": str(user_id), "username": f"user{user_id}",
                                           "global_name": None, "discriminator": "0", "avatar": None}

    def bot_env(self, db_path: str) -> dict[str, str]:
        """The settings that point an unmodified ``python bot.py`` at this stand-in."""
        return {"STOLIK_DISCORD_API": self.base_url, "DISCORD_TOKEN": self.token,
                "STOLIK_DB": db_path, "STOLIK_GUILD": str(self.guild_id)}

    async def start(self) -> Discord:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_get("/attachments/{channel}/{attachment}/{name}", self._attachment)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._http)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        return self

    async def stop(self) -> None:
        for conn in list(self.conns):
            with contextlib.suppress(Exception):
                await conn.ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    # --- waiting ---------------------------------------------------------------------------
    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    async def wait_for(self, predicate: Callable[[], Any], timeout: float = 30.0,
                       what: str = "condition") -> Any:
        """Wait until ``predicate()`` is truthy (checked after every change); returns it."""
        deadline = time.monotonic() + timeout
        async with self._changed:
            while True:
                value = predicate()
                if value:
                    return value
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"stand-in: timed out waiting for {what}")
                # asyncio.timeout, not wait_for: wait_for made a task for every waiter at
                # every change (a fifth of the bench's CPU with 400 players waiting)
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(min(left, 0.5)):
                        await self._changed.wait()

    async def wait_ready(self, timeout: float = 60.0) -> GatewaySession:
        """The bot identified, got READY and GUILD_CREATE, and sent its first heartbeat."""
        def ready():
            session = self.current
            if session and session.conn and session.conn.heartbeats:
                return session
            return None
        return await self.wait_for(ready, timeout, "the bot to connect")

    # --- gateway -------------------------------------------------------------------------
    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(autoping=True, max_msg_size=0)
        await ws.prepare(request)
        conn = GatewayConn(ws, time.monotonic())
        self.conns.append(conn)
        self.all_conns.append(conn)
        self.gateway_log.append((time.monotonic(), "connect"))
        await ws.send_json({"op": 10, "d": {"heartbeat_interval": int(self.heartbeat_interval * 1000)},
                            "s": None, "t": None})
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                await self._gateway_op(conn, json.loads(msg.data))
        finally:
            self.conns.remove(conn)
            self.gateway_log.append((time.monotonic(), f"closed {ws.close_code}"))
            if conn.session is not None and conn.session.conn is conn:
                conn.session.conn = None
            await self._notify()
        return ws

    async def _gateway_op(self, conn: GatewayConn, msg: dict[str, Any]) -> None:
        op = msg.get("op")
        data: dict[str, Any] = msg["d"] if isinstance(msg.get("d"), dict) else {}
        if op == 1:  # heartbeat
            conn.heartbeats.append(time.monotonic())
            await conn.ws.send_json({"op": 11, "d": None, "s": None, "t": None})
            if len(conn.heartbeats) == 1:
                await self._notify()
        elif op == 2:  # identify
            if data.get("token") != self.token:
                await conn.ws.close(code=4004, message=b"Authentication failed.")
                return
            shard = data.get("shard", [0, 1])
            if not (isinstance(shard, list) and len(shard) == 2
                    and all(isinstance(x, int) for x in shard) and 0 <= shard[0] < shard[1]):
                self.gateway_log.append((time.monotonic(), f"invalid shard {shard!r}"))
                await conn.ws.close(code=4010, message=b"Invalid shard.")
                return
            if shard[1] < self.required_shards:
                self.gateway_log.append((time.monotonic(), f"sharding required {shard!r}"))
                await conn.ws.close(code=4011, message=b"Sharding required.")
                return
            session = GatewaySession(secrets.token_hex(16), shard=(shard[0], shard[1]))
            self.sessions[session.id] = session
            self.current = session
            self.shard_sessions.pop(session.shard, None)  # the newest last: it gets the events
            self.shard_sessions[session.shard] = session
            session.conn = conn
            conn.session = session
            self.gateway_log.append((time.monotonic(), f"identify {session.id} shard {shard}"))
            guilds = [g for g in self.guilds if shard_of(g, shard[1]) == shard[0]]
            await self.dispatch("READY", {
                "v": 10, "user": self.users[self.bot_id], "session_id": session.id,
                "resume_gateway_url": f"ws://127.0.0.1:{self.port}/gateway",
                "guilds": [{"id": str(g), "unavailable": True} for g in guilds],
                "shard": list(session.shard),
                "application": {"id": str(self.app_id), "flags": 0}, "private_channels": [],
                "relationships": [], "presences": [], "session_type": "normal",
                "geo_ordered_rtc_regions": [], "auth": {}, "user_settings": {},
            }, session=session)
            for guild_id in guilds:
                await self.dispatch("GUILD_CREATE", self.guild_payload(guild_id), session=session)
            conn.identified.set()
        elif op == 6:  # resume
            found = self.sessions.get(data.get("session_id", ""))
            if found is None or data.get("token") != self.token:
                await conn.ws.send_json({"op": 9, "d": False, "s": None, "t": None})
                return
            session = found
            session.conn, conn.session = conn, session
            session.resumes += 1
            self.current = session
            self.shard_sessions.pop(session.shard, None)
            self.shard_sessions[session.shard] = session
            missed = [e for e in session.events if e[0] > (data.get("seq") or 0)]
            self.gateway_log.append((time.monotonic(), f"resume {session.id} replaying {len(missed)}"))
            for seq, name, payload in missed:
                await conn.ws.send_json({"op": 0, "s": seq, "t": name, "d": payload})
            await self.dispatch("RESUMED", {}, session=session)
            conn.identified.set()
        elif op in (3, 4, 8):  # presence, voice state, request members: accepted, ignored
            return

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
            await conn.ws.send_json({"op": 0, "s": session.seq, "t": name, "d": payload})
        except (ConnectionError, RuntimeError):
            return False
        return True

    async def close_gateway(self, code: int = 4000) -> None:
        """Fault: close the live gateway connection with a code that asks for a resume."""
        session = self.current
        if session and session.conn:
            await session.conn.ws.close(code=code, message=b"standin: unknown error")

    async def send_reconnect(self) -> None:
        """Fault: op 7 RECONNECT, as Discord sends before moving a session."""
        session = self.current
        if session and session.conn:
            await session.conn.ws.send_json({"op": 7, "d": None, "s": None, "t": None})

    def heartbeat_gaps(self) -> list[float]:
        """Seconds between consecutive heartbeats on every connection. The bot's heartbeat
        thread waits ``interval`` after each send, and the send runs on the bot's event loop,
        so ``gap - interval`` is how long that loop was busy: its event-loop lag."""
        return [b - a for conn in self.all_conns for a, b in itertools.pairwise(conn.heartbeats)]

    def guild_payload(self, guild_id: int | None = None) -> dict[str, Any]:
        guild_id = guild_id or self.guild_id
        everyone = {"id": str(guild_id), "name": "@everyone", "permissions": "2248473465835073",
                    "position": 0, "color": 0, "hoist": False, "managed": False, "mentionable": False,
                    "flags": 0}
        bot_member = {"user": self.users[self.bot_id], "roles": [], "joined_at": now_iso(),
                      "deaf": False, "mute": False, "flags": 0, "pending": False, "nick": None}
        mine = [c for c in self.channels.values() if c.guild_id == guild_id]
        channels = [c.payload(self) for c in mine if c.type == 0]
        threads = [c.payload(self) for c in mine if c.type == 11]
        return {
            "id": str(guild_id), "name": self.guilds[guild_id], "icon": None, "splash": None,
            "discovery_splash": None, "owner_id": str(self.bot_id + 1), "afk_channel_id": None,
            "afk_timeout": 300, "verification_level": 0, "default_message_notifications": 0,
            "explicit_content_filter": 0, "roles": [everyone], "emojis": [], "stickers": [],
            "features": [], "mfa_level": 0, "application_id": None, "system_channel_id": None,
            "system_channel_flags": 0, "rules_channel_id": None, "joined_at": now_iso(),
            "large": False, "unavailable": False, "member_count": len(self.users),
            "voice_states": [], "members": [bot_member], "channels": channels, "threads": threads,
            "presences": [], "stage_instances": [], "guild_scheduled_events": [],
            "preferred_locale": self.guild_locale, "premium_tier": 0, "nsfw_level": 0,
            "max_members": 500000, "vanity_url_code": None, "description": None, "banner": None,
            "premium_subscription_count": 0, "public_updates_channel_id": None,
            "max_video_channel_users": 25, "premium_progress_bar_enabled": False,
        }

    # --- HTTP ------------------------------------------------------------------------------
    async def _attachment(self, request: web.Request) -> web.Response:
        attachment_id = int(request.match_info["attachment"])
        for message in self.messages.values():
            for a in message.attachments:
                if a.id == attachment_id:
                    return web.Response(body=a.data, content_type=a.content_type)
        raise web.HTTPNotFound()

    async def _http(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["tail"]
        method = request.method
        found = _route(method, path)
        if found is None:
            self.violations.append(f"unsupported call {method} {path}")
            return self._json(404, {"code": 0, "message": "404: Not Found"})
        name, template, params = found
        major = next((params[k] for k in _MAJOR if k in params), "")
        if "webhook_id" in params and "token" in params:
            # Discord: a webhook's top-level resource is its id and token (each interaction's
            # token has its own limits), as discord.py's webhook buckets assume
            major = f"{params['webhook_id']}/{params['token']}"
        body, files = await self._read_body(request)
        call = Call(time.monotonic(), method, path, template, major, body,
                    [(f.filename, len(f.data)) for f in files],
                    auth=request.headers.get("Authorization", ""), query=dict(request.query))
        self.calls.append(call)
        self._check_retry_after(call)
        if self._over_global_limit(call):
            return self._globally_limited(call)
        try:
            slow = self.faults.pick("slow", call.key)
            if slow is not None:
                call.fault = f"slow {slow.delay}s"
                await asyncio.sleep(slow.delay)
            limited = self.faults.pick("429", call.key)
            if limited is not None:
                return self._rate_limited(call, limited)
            broken = self.faults.pick("500", call.key)
            if broken is not None and broken.after_write:
                await getattr(self, "_" + name)(call, params, body, files)
            if broken is not None:
                call.fault = f"{broken.status}"
                call.status = broken.status
                return self._json(broken.status, {"message": "500: Internal Server Error", "code": 0})
            if self.check_spec:
                problems = spec.check(call.key, body)
                if problems:
                    raise invalid_form(*problems)
            handler = getattr(self, "_" + name)
            status, payload = await handler(call, params, body, files)
        except HTTPError as error:
            status, payload = error.status, error.body()
            if error.status == 400:
                self.violations.append(f"{call.key}: {error.message} {error.errors}")
        call.status = status
        call.answered_at = time.monotonic()
        if self.on_answered is not None:
            self.on_answered(call)
        await self._notify()
        return self._json(status, payload, bucket=template)

    async def _read_body(self, request: web.Request) -> tuple[Any, list[Attachment]]:
        files: list[Attachment] = []
        # the raw header: aiohttp's content_type parses it with the email package (a tenth of
        # this process's CPU at 200 games, bench/bench_load.py)
        if request.headers.get("Content-Type", "").lower().startswith("multipart/"):
            body: Any = None
            reader = await request.multipart()
            async for part in reader:
                if part.name == "payload_json":  # type: ignore[union-attr]
                    body = json.loads(await part.text())  # type: ignore[union-attr]
                elif part.name and part.name.startswith("files["):  # type: ignore[union-attr]
                    data = await part.read()  # type: ignore[union-attr]
                    files.append(Attachment(self.snowflake(), part.filename or "file",  # type: ignore
                                            bytes(data),
                                            part.headers.get("Content-Type",  # type: ignore[union-attr]
                                                             "application/octet-stream")))
            for attachment in files:
                if attachment.filename.endswith(".png") and attachment.data.startswith(b"\x89PNG"):
                    attachment.content_type = "image/png"
            # a new upload is named in payload_json's attachments by its index among the files
            for entry in (body or {}).get("attachments") or []:
                index = str(entry.get("id"))
                if index.isdigit() and int(index) < len(files):
                    files[int(index)].description = entry.get("description")
            return body, files
        raw = await request.read()
        if not raw:
            return None, files
        return json.loads(raw), files

    def _json(self, status: int, payload: Any, bucket: str = "") -> web.Response:
        headers = {"Via": "1.1 google"}
        if bucket:
            headers.update({"X-RateLimit-Limit": "50", "X-RateLimit-Remaining": "49",
                            "X-RateLimit-Reset-After": "1.000", "X-RateLimit-Bucket":
                            f"{abs(hash(bucket)) % 16**12:012x}",
                            "X-RateLimit-Reset": f"{time.time() + 1:.3f}"})
        if status == 204:
            return web.Response(status=204, headers=headers)
        return _json_response(payload, status, headers)

    def _rate_limited(self, call: Call, fault: Fault) -> web.Response:
        call.status = 429
        call.fault = f"429 {'global' if fault.is_global else 'route'} {fault.retry_after}s"
        call.answered_at = time.monotonic()
        until = call.answered_at + fault.retry_after
        if fault.is_global:
            self._global_blocked_until = max(self._global_blocked_until, until)
        else:
            self._blocked_until[(call.key, call.major)] = until
        headers = {"Via": "1.1 google", "Retry-After": str(math.ceil(fault.retry_after)),
                   "X-RateLimit-Scope": "global" if fault.is_global else "user"}
        if fault.is_global:
            headers["X-RateLimit-Global"] = "true"
        else:
            headers.update({"X-RateLimit-Limit": "5", "X-RateLimit-Remaining": "0",
                            "X-RateLimit-Reset-After": f"{fault.retry_after:.3f}",
                            "X-RateLimit-Reset": f"{time.time() + fault.retry_after:.3f}",
                            "X-RateLimit-Bucket": f"{abs(hash(call.route)) % 16**12:012x}"})
        body = {"message": "You are being rate limited.", "retry_after": fault.retry_after,
                "global": fault.is_global, "code": 0}
        return _json_response(body, 429, headers)

    def _over_global_limit(self, call: Call) -> bool:
        """Discord's global limit: at most :attr:`global_limit` globally limited requests per
        token in any :attr:`global_window`; the ones past it are refused (and not counted)."""
        if self.global_limit is None or not call.globally_limited:
            return False
        served = self._global_log[call.auth]
        while served and served[0] <= call.t - self.global_window:
            served.popleft()
        if len(served) >= self.global_limit:
            return True
        served.append(call.t)
        return False

    def _globally_limited(self, call: Call) -> web.Response:
        """429 with ``global: true``: retry after the oldest request leaves the window. A
        request sent while a global 429 holds is a violation (:meth:`_check_retry_after`)
        unless it was on its way before the bot could have read the first 429."""
        served = self._global_log[call.auth]
        retry_after = max(0.001, served[0] + self.global_window - call.t)
        call.status = 429
        call.fault = f"429 global limit {retry_after:.3f}s"
        call.answered_at = time.monotonic()
        if call.t >= self._global_blocked_until:
            self._global_since[call.auth] = call.t  # a new block begins
        self._global_blocked_until = max(self._global_blocked_until, call.t + retry_after)
        headers = {"Via": "1.1 google", "Retry-After": str(math.ceil(retry_after)),
                   "X-RateLimit-Global": "true", "X-RateLimit-Scope": "global"}
        body = {"message": "You are being rate limited.", "retry_after": round(retry_after, 3),
                "global": True, "code": 0}
        return _json_response(body, 429, headers)

    #: tolerance for "too early" after a 429: clocks of two processes, timer granularity
    EARLY_TOLERANCE = 0.02

    def _check_retry_after(self, call: Call) -> None:
        """A request sent before a 429's retry_after ran out is a violation (not the bot's
        webhook/interaction calls for a global limit: Discord exempts interaction endpoints)."""
        until = self._blocked_until.get((call.key, call.major), 0.0)
        if call.t + self.EARLY_TOLERANCE < until:
            self.violations.append(f"{call.key} ({call.major}) {until - call.t:.3f}s before retry_after")
        since = self._global_since.get(call.auth, -math.inf)
        if call.globally_limited and call.t + self.EARLY_TOLERANCE < self._global_blocked_until \
                and call.t > since + GLOBAL_REACTION:
            self.violations.append(
                f"{call.key} {self._global_blocked_until - call.t:.3f}s before the global retry_after")

    # --- message rules -------------------------------------------------------------------
    def _validate(self, body: dict[str, Any], files: list[Attachment]) -> None:
        """Discord's documented message limits (some stricter than the spec's schemas, which
        :meth:`_http` checks first): a 400 with the failing fields, as Discord answers."""
        errors: list[tuple[str, str, str]] = []

        def bad(path: str, text: str, code: str = "BASE_TYPE_INVALID") -> None:
            errors.append((path, code, text))

        content = body.get("content") or ""
        if len(content) > 2000:
            bad("content", "Must be 2000 or fewer in length.", "BASE_TYPE_MAX_LENGTH")
        rows = body.get("components") or []
        if len(rows) > 5:
            bad("components", "Must be 5 or fewer in length.", "BASE_TYPE_MAX_LENGTH")
        seen: set[str] = set()
        for r, row in enumerate(rows):
            at = f"components.{r}"
            if row.get("type") != 1:
                bad(f"{at}.type", "not an action row")
                continue
            items = row.get("components") or []
            selects = [c for c in items if c.get("type") in (3, 5, 6, 7, 8)]
            if not items or len(items) > 5 or (selects and len(items) > 1):
                bad(f"{at}.components", f"{len(items)} items (1-5 buttons or one menu)",
                    "COMPONENT_LAYOUT_WIDTH_EXCEEDED")
            for n, c in enumerate(items):
                here = f"{at}.components.{n}"
                custom_id = c.get("custom_id")
                if c.get("type") == 2 and c.get("style") != 5 and not custom_id:
                    bad(f"{here}.custom_id", "A custom id is required", "BASE_TYPE_REQUIRED")
                if custom_id is not None:
                    if not 1 <= len(custom_id) <= 100:
                        bad(f"{here}.custom_id", "Must be between 1 and 100 in length.",
                            "BASE_TYPE_BAD_LENGTH")
                    if custom_id in seen:
                        bad(f"{here}.custom_id", f"Component custom id {custom_id!r} is duplicated",
                            "COMPONENT_CUSTOM_ID_DUPLICATED")
                    seen.add(custom_id)
                if c.get("type") == 2 and len(c.get("label") or "") > 80:
                    bad(f"{here}.label", "Must be 80 or fewer in length.", "BASE_TYPE_MAX_LENGTH")
                if c.get("type") == 3:
                    options = c.get("options") or []
                    if not 1 <= len(options) <= 25:
                        bad(f"{here}.options", "Must be between 1 and 25 in length.",
                            "BASE_TYPE_BAD_LENGTH")
                    for k, o in enumerate(options):
                        if len(o.get("label", "")) > 100 or len(o.get("value", "")) > 100:
                            bad(f"{here}.options.{k}", "Must be 100 or fewer in length.",
                                "BASE_TYPE_MAX_LENGTH")
                    if len({o.get("value") for o in options}) != len(options):
                        bad(f"{here}.options", "Select option values must be unique",
                            "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED")
                    if len(c.get("placeholder") or "") > 150:
                        bad(f"{here}.placeholder", "Must be 150 or fewer in length.",
                            "BASE_TYPE_MAX_LENGTH")
                    low, high = c.get("min_values", 1), c.get("max_values", 1)
                    if not (0 <= low <= 25 and 1 <= high <= 25 and low <= high <= len(options)):
                        bad(f"{here}.max_values", f"min_values {low} / max_values {high} do not fit"
                            f" {len(options)} options", "SELECT_COMPONENT_MAX_VALUES")
        if len(files) > 10 or any(len(f.data) > 10 * 1024 * 1024 for f in files):
            bad("files", "Too many or too large", "BASE_TYPE_MAX_LENGTH")
        for n, f in enumerate(files):
            if len(f.description or "") > 1024:
                bad(f"attachments.{n}.description", "Must be 1024 or fewer in length.",
                    "BASE_TYPE_MAX_LENGTH")
        if not content and not files and not rows and not body.get("embeds") \
                and "attachments" not in body:
            bad("content", "Cannot send an empty message", "BASE_TYPE_REQUIRED")
        if errors:
            raise invalid_form(*errors)

    def _new_message(self, channel_id: int, body: dict[str, Any], files: list[Attachment], *,
                     via: str, flags: int = 0, interaction: Interaction | None = None) -> Message:
        channel = self.channels[channel_id]
        message = Message(
            self.snowflake(), channel_id, self.users[self.bot_id], body.get("content") or "",
            body.get("components") or [], list(files), flags | (body.get("flags") or 0) & EPHEMERAL,
            via=via, interaction_id=interaction.id if interaction else None,
            guild_id=channel.guild_id,
        )
        if message.ephemeral and interaction is not None:
            message.visible_to = interaction.user_id
        self.messages[message.id] = message
        self._in_channel[channel_id].append(message)
        return message

    def _apply_edit(self, message: Message, body: dict[str, Any], files: list[Attachment]) -> None:
        self._validate({**body, "content": body.get("content", message.content)}, files)
        message.edits.append((time.monotonic(), body))
        if "content" in body:
            message.content = body["content"] or ""
        if "components" in body:
            message.components = body["components"] or []
        if "attachments" in body:
            keep = {str(a.get("id")) for a in body["attachments"] or []}
            message.attachments = [a for a in message.attachments if str(a.id) in keep]
        message.attachments.extend(files)
        if "flags" in body and body["flags"] is not None:
            message.flags = (message.flags & (EPHEMERAL | LOADING)) | (body["flags"] & ~EPHEMERAL)
        message.flags &= ~LOADING
        if "content" in body or "attachments" in body or files:
            message.snapshot()

    # --- REST handlers -------------------------------------------------------------------
    async def _get_me(self, call, params, body, files):
        if call.auth != f"Bot {self.token}":
            raise HTTPError(401, 0, "401: Unauthorized")
        return 200, {**self.users[self.bot_id], "verified": True, "mfa_enabled": False,
                     "flags": 0, "email": None}

    async def _get_app(self, call, params, body, files):
        return 200, {"id": str(self.app_id), "name": "Stolik", "icon": None, "description": "",
                     "rpc_origins": [], "bot_public": True, "bot_require_code_grant": False,
                     "owner": self.user_payload(self.bot_id + 1), "summary": "",
                     "verify_key": "00" * 32, "team": None, "flags": 0, "tags": [],
                     "interactions_endpoint_url": None, "approximate_guild_count": 1,
                     "bot": self.users[self.bot_id], "redirect_uris": []}

    async def _get_gateway(self, call, params, body, files):
        return 200, {"url": f"ws://127.0.0.1:{self.port}/gateway", "shards": self.required_shards,
                     "session_start_limit": {"total": 1000, "remaining": 999,
                                             "reset_after": 86_400_000, "max_concurrency": 1}}

    async def _put_commands(self, call, params, body, files):
        guild = int(params["guild_id"]) if "guild_id" in params else None
        synced = []
        for command in body or []:
            command = {**command, "id": str(self.snowflake()), "application_id": str(self.app_id),
                       "version": str(self.snowflake()), "default_member_permissions": None,
                       "type": command.get("type", 1)}
            if guild:
                command["guild_id"] = str(guild)
            synced.append(command)
        self.commands[guild] = synced
        return 200, synced

    async def _get_commands(self, call, params, body, files):
        return 200, self.commands.get(int(params["guild_id"]), [])

    def _channel(self, channel_id: int) -> Channel:
        channel = self.channels.get(channel_id)
        if channel is None:
            raise HTTPError(404, 10003, "Unknown Channel")
        return channel

    async def _get_channel(self, call, params, body, files):
        return 200, self._channel(int(params["channel_id"])).payload(self)

    async def _delete_channel(self, call, params, body, files):
        channel = self._channel(int(params["channel_id"]))
        if channel.type != 11:
            raise HTTPError(403, 50013, "Missing Permissions")
        del self.channels[channel.id]
        self.text_channels.remove(channel.id)
        await self.dispatch("THREAD_DELETE", {"id": str(channel.id), "type": 11,
                                              "guild_id": str(channel.guild_id),
                                              "parent_id": str(channel.parent_id)},
                            guild_id=channel.guild_id)
        return 200, channel.payload(self)

    async def _create_thread(self, call, params, body, files):
        """A thread without a starter message (Discord: POST /channels/{id}/threads)."""
        parent = self._channel(int(params["channel_id"]))
        body = body or {}
        if parent.type != 0:
            raise HTTPError(400, 50024, "Cannot execute action on this channel type")
        if not 1 <= len(body.get("name") or "") <= 100:
            raise invalid_form(("name", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length."))
        thread_id = self.add_channel(body["name"], thread_of=parent.id)
        payload = self.channels[thread_id].payload(self)
        await self.dispatch("THREAD_CREATE", {**payload, "newly_created": True},
                            guild_id=parent.guild_id)
        return 201, payload

    async def _post_message(self, call, params, body, files):
        channel = self._channel(int(params["channel_id"]))
        body = body or {}
        if channel.type == 1 and self.faults.closed_dms.get(channel.recipient or 0) == "message":
            raise HTTPError(403, 50007, "Cannot send messages to this user")
        if channel.type == 1 and (channel.recipient or 0) in self.faults.failing_dms:
            status = self.faults.failing_dms[channel.recipient or 0]
            raise HTTPError(status, 0, f"{status}: Service Unavailable")
        nonce = body.get("nonce")
        if nonce is not None and len(str(nonce)) > 25:
            raise invalid_form(("nonce", "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length."))
        if nonce is not None and body.get("enforce_nonce"):
            seen = self._nonces.get((channel.id, str(nonce)))
            if seen is not None and time.monotonic() - seen[1] < NONCE_WINDOW:
                return 200, self.messages[seen[0]].payload(self)  # the post already made
        self._validate(body, files)
        if body.get("flags", 0) & EPHEMERAL:
            raise invalid_form(("flags", "BASE_TYPE_INVALID", "Ephemeral outside interactions."))
        message = self._new_message(channel.id, body, files, via="dm" if channel.type == 1 else "channel")
        if nonce is not None and body.get("enforce_nonce"):
            self._nonces[(channel.id, str(nonce))] = (message.id, time.monotonic())
        return 200, message.payload(self)

    async def _list_messages(self, call, params, body, files):
        """Discord: newest first; ``after`` gives the oldest ones after it, ``before`` the
        newest ones before it; at most ``limit`` (1-100, default 50)."""
        channel = self._channel(int(params["channel_id"]))
        query = call.query
        try:
            limit = int(query.get("limit", 50))
            after, before = int(query.get("after", 0)), int(query.get("before", 0))
        except ValueError:
            raise invalid_form(("limit", "NUMBER_TYPE_COERCE", "Value is not int.")) from None
        if not 1 <= limit <= 100:
            raise invalid_form(("limit", "NUMBER_TYPE_MAX", "int value should be between 1 and 100."))
        found = [m for m in self.messages.values() if m.channel_id == channel.id
                 and not m.deleted and not m.ephemeral and m.id > after
                 and (not before or m.id < before)]
        found.sort(key=lambda m: m.id, reverse=not after)
        return 200, sorted((m.payload(self) for m in found[:limit]), key=lambda p: -int(p["id"]))

    def _message(self, channel_id: int, message_id: int) -> Message:
        message = self.messages.get(message_id)
        if message is None or message.channel_id != channel_id or message.deleted or message.ephemeral:
            raise HTTPError(404, 10008, "Unknown Message")
        return message

    async def _get_message(self, call, params, body, files):
        return 200, self._message(int(params["channel_id"]), int(params["message_id"])).payload(self)

    async def _patch_message(self, call, params, body, files):
        message = self._message(int(params["channel_id"]), int(params["message_id"]))
        if message.author["id"] != str(self.bot_id):
            raise HTTPError(403, 50005, "Cannot edit a message authored by another user")
        self._apply_edit(message, body or {}, files)
        return 200, message.payload(self)

    async def _delete_message(self, call, params, body, files):
        self._message(int(params["channel_id"]), int(params["message_id"])).deleted = True
        return 204, None

    async def _get_user(self, call, params, body, files):
        user_id = int(params["user_id"])
        if user_id not in self.users:
            raise HTTPError(404, 10013, "Unknown User")
        return 200, self.users[user_id]

    async def _create_dm(self, call, params, body, files):
        user_id = int((body or {}).get("recipient_id", 0))
        if user_id not in self.users:
            raise invalid_form(("recipient_id", "BASE_TYPE_INVALID", "Unknown user."))
        if self.faults.closed_dms.get(user_id) == "create":
            raise HTTPError(403, 50007, "Cannot send messages to this user")
        return 200, self.channels[self.dm_channel(user_id)].payload(self)

    # --- interactions --------------------------------------------------------------------
    def interaction_by_token(self, token: str) -> Interaction | None:
        """The interaction a token belongs to (expired or not), for reports."""
        return self._by_token.get(token)

    def _interaction(self, token: str) -> Interaction:
        inter = self._by_token.get(token)
        if inter is None or time.monotonic() - inter.sent_at > self.token_lifetime:
            raise HTTPError(401, 50027, "Invalid Webhook Token")
        return inter

    async def _callback(self, call, params, body, files):
        inter = self.interactions.get(int(params["interaction_id"]))
        if inter is None or inter.token != params["token"]:
            raise HTTPError(404, 10062, "Unknown interaction")
        now = time.monotonic()
        if inter.acked_at is not None:
            self.violations.append(f"interaction {inter.id} answered twice")
            raise HTTPError(400, 40060, "Interaction has already been acknowledged.")
        if now - inter.sent_at > self.ack_deadline:
            self.violations.append(f"interaction {inter.id} answered after {now - inter.sent_at:.2f}s")
            raise HTTPError(404, 10062, "Unknown interaction")
        body = body or {}
        kind = body.get("type")
        data = body.get("data") or {}
        message: Message | None = None
        if kind == MESSAGE:
            self._validate(data, files)
            message = self._new_message(inter.channel_id, data, files, via="reply", interaction=inter)
        elif kind == DEFERRED_MESSAGE:
            message = self._new_message(inter.channel_id, {"content": ""}, [], via="deferred",
                                        flags=LOADING | (data.get("flags") or 0) & EPHEMERAL,
                                        interaction=inter)
        elif kind in (DEFERRED_UPDATE, UPDATE):
            if inter.type != COMPONENT or inter.message_id is None:
                raise HTTPError(400, 40043, "This interaction type cannot be updated")
            message = self.messages[inter.message_id]
            if kind == UPDATE:
                self._apply_edit(message, data, files)
        elif kind == AUTOCOMPLETE:
            if inter.type != AUTOCOMPLETE_REQUEST:
                raise HTTPError(400, 40043, "This interaction type cannot have autocomplete")
            choices = data.get("choices") or []
            # documented (stricter than the spec's 6000 for a value): 25 choices, 100 each
            problems = [(f"data.choices.{n}.{key}", "BASE_TYPE_BAD_LENGTH",
                         "Must be between 1 and 100 in length.")
                        for n, c in enumerate(choices) for key in ("name", "value")
                        if isinstance(c.get(key), str) and not 1 <= len(c[key]) <= 100]
            if len(choices) > 25:
                problems.append(("data.choices", "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length."))
            if problems:
                raise invalid_form(*problems)
            inter.choices = choices
        else:
            raise invalid_form(("type", "BASE_TYPE_CHOICES", f"Value {kind} is not a valid enum value."))
        inter.acked_at, inter.response_type = now, kind
        inter.original_id = message.id if message else None
        inter.answers.append((now, f"callback {kind}", inter.original_id))
        response: dict[str, Any] = {"interaction": {
            "id": str(inter.id), "type": inter.type, "activity_instance_id": None,
            "response_message_id": str(message.id) if message else None,
            "response_message_loading": kind == DEFERRED_MESSAGE,
            "response_message_ephemeral": bool(message and message.ephemeral)}}
        resource: dict[str, Any] = {"type": kind}
        if message is not None and kind in (MESSAGE, UPDATE, DEFERRED_MESSAGE):
            resource["message"] = message.payload(self)
        response["resource"] = resource
        return 200, response

    async def _followup(self, call, params, body, files):
        inter = self._interaction(params["token"])
        if inter.acked_at is None:
            self.violations.append(f"follow-up before acknowledging interaction {inter.id}")
            raise HTTPError(404, 10015, "Unknown Webhook")
        body = body or {}
        now = time.monotonic()
        if inter.response_type == DEFERRED_MESSAGE and not inter.first_followup_done:
            # Discord: the first follow-up after a "thinking" defer replaces that message, with
            # the defer's visibility (its own ephemeral flag is ignored)
            inter.first_followup_done = True
            message = self.messages[inter.original_id or 0]
            self._apply_edit(message, {k: v for k, v in body.items() if k != "flags"}, files)
            if (body.get("flags") or 0) & EPHEMERAL and not message.ephemeral:
                self.violations.append(
                    f"interaction {inter.id}: an ephemeral follow-up after a public 'thinking' defer"
                    f" is shown to everyone: {message.content[:80]!r}")
        else:
            self._validate(body, files)
            message = self._new_message(inter.channel_id, body, files, via="followup", interaction=inter)
        inter.followups.append(message.id)
        inter.answers.append((now, "followup", message.id))
        return 200, message.payload(self)

    def _webhook_message(self, inter: Interaction, which: str) -> Message:
        if which == "@original":
            if inter.acked_at is None or inter.original_id is None:
                raise HTTPError(404, 10008, "Unknown Message")
            return self.messages[inter.original_id]
        message = self.messages.get(int(which))
        if message is None or message.interaction_id != inter.id:
            raise HTTPError(404, 10008, "Unknown Message")
        return message

    async def _get_webhook_message(self, call, params, body, files):
        inter = self._interaction(params["token"])
        return 200, self._webhook_message(inter, params["message_id"]).payload(self)

    async def _edit_webhook_message(self, call, params, body, files):
        inter = self._interaction(params["token"])
        message = self._webhook_message(inter, params["message_id"])
        self._apply_edit(message, body or {}, files)
        if params["message_id"] == "@original" and inter.response_type == DEFERRED_MESSAGE:
            inter.first_followup_done = True
        inter.answers.append((time.monotonic(), "edit", message.id))
        return 200, message.payload(self)

    async def _delete_webhook_message(self, call, params, body, files):
        inter = self._interaction(params["token"])
        self._webhook_message(inter, params["message_id"]).deleted = True
        return 204, None

    # --- what users do -------------------------------------------------------------------
    async def send_interaction(self, user_id: int, channel_id: int, kind: int, data: dict[str, Any],
                               message: Message | None = None) -> Interaction:
        """Dispatch an INTERACTION_CREATE shaped like Discord's and return its record."""
        channel = self.channels[channel_id]
        inter = Interaction(self.snowflake(), "aW50ZXJhY3Rpb24" + secrets.token_urlsafe(48), kind,
                            user_id, channel_id, data, time.monotonic(),
                            message.id if message else None)
        self.interactions[inter.id] = inter
        self._by_token[inter.token] = inter
        locale = self.locales.get(user_id, "en-US")
        payload: dict[str, Any] = {
            "id": str(inter.id), "application_id": str(self.app_id), "type": kind, "data": data,
            "token": inter.token, "version": 1, "locale": locale,
            "app_permissions": "2248473465835073", "entitlements": [],
            "attachment_size_limit": 10 * 1024 * 1024, "channel_id": str(channel_id),
            "channel": {**channel.payload(self), "permissions": "2248473465835073"},
        }
        if channel.type == 1:
            payload["user"] = self.user_payload(user_id)
            payload["context"] = 1
            payload["authorizing_integration_owners"] = {"0": str(self.guild_id)}
        else:
            guild = str(channel.guild_id)
            payload.update({
                "guild_id": guild, "guild_locale": self.guild_locale, "context": 0,
                "guild": {"id": guild, "locale": self.guild_locale, "features": []},
                "authorizing_integration_owners": {"0": guild},
                "member": {"user": self.user_payload(user_id), "roles": [], "joined_at": now_iso(),
                           "deaf": False, "mute": False, "flags": 0, "pending": False, "nick": None,
                           "avatar": None, "premium_since": None, "communication_disabled_until": None,
                           "permissions": self.permissions_of(user_id)},
            })
        if message is not None:
            payload["message"] = message.payload(self)
        delivered = await self.dispatch("INTERACTION_CREATE", payload,
                                        guild_id=channel.guild_id if channel.type != 1 else None)
        if not delivered:
            inter.answers.append((time.monotonic(), "undelivered", None))
        return inter

    #: users given Manage Channels in every channel
    managers: set[int] = set()

    def permissions_of(self, user_id: int) -> str:
        # View, Send Messages, Read History, Use Application Commands (+ Manage Channels)
        value = (1 << 10) | (1 << 11) | (1 << 16) | (1 << 31)
        if user_id in self.managers:
            value |= 1 << 4
        return str(value)

    # --- reading what happened -----------------------------------------------------------
    def channel_messages(self, channel_id: int, *, public_only: bool = True) -> list[Message]:
        out = [m for m in self._in_channel.get(channel_id, ()) if not m.deleted]
        if public_only:
            out = [m for m in out if m.public]
        return sorted(out, key=lambda m: m.id)

    def dms(self, user_id: int) -> list[Message]:
        ids = {c.id for c in self.channels.values() if c.type == 1 and c.recipient == user_id}
        return sorted((m for m in self.messages.values() if m.channel_id in ids and m.via == "dm"),
                      key=lambda m: m.id)

    def calls_to(self, pattern: str) -> list[Call]:
        return [c for c in self.calls if fnmatch.fnmatchcase(c.key, pattern)]

    def call_counts(self) -> dict[str, int]:
        counts: dict[str, int] = defaultdict(int)
        for call in self.calls:
            counts[call.key] += 1
        return dict(counts)
