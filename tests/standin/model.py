"""The stand-in's shared model: the records of what the bot did (calls, messages with their
history, channels, interactions) and :class:`World`, the state every part of the stand-in reads
and changes (users, guilds, channels, messages, interactions, what was recorded).

The HTTP routes (:mod:`tests.standin.routes`), the gateway (:mod:`tests.standin.gateway`), the
rate limits (:mod:`tests.standin.limits`) and the request checks
(:mod:`tests.standin.validation`) each work on a :class:`World`; :class:`tests.standin.server.Discord`
is the world with all of them attached.
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import fnmatch
import itertools
import secrets
import time
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

DISCORD_EPOCH_MS = 1_420_070_400_000
EPHEMERAL = 1 << 6
LOADING = 1 << 7
#: Discord's deadline for the first answer to an interaction
ACK_DEADLINE = 3.0
#: how long an interaction token is valid for follow-ups and edits (Discord: 15 minutes)
TOKEN_LIFETIME = 15 * 60.0
#: how long Discord remembers a message nonce for ``enforce_nonce`` ("a few minutes")
NONCE_WINDOW = 5 * 60.0
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

    def has_image(self) -> bool:
        """Whether it carries an image (without copying them, as :meth:`images` does)."""
        return any(a.content_type == "image/png" for a in self.attachments)

    def type(self, discord: World) -> int:
        """0 for a plain message, 20 for the answer to a slash command."""
        inter = discord.interactions.get(self.interaction_id or 0)
        return 20 if inter is not None and inter.type == APP_COMMAND else 0

    def payload(self, discord: World) -> dict[str, Any]:
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

    def payload(self, discord: World) -> dict[str, Any]:
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



class World:
    """What the stand-in's Discord holds: the bot's application and user, guilds, channels,
    users, messages, interactions and synced commands, with the settings tests may change, and
    the record of every call and violation. :meth:`notify` wakes :meth:`wait_for` after each
    change: every waiter that named no channel, and the waiters of the channels that changed."""

    #: users given Manage Channels in every channel
    managers: set[int] = set()
    #: a waiter re-checks this often even if nothing woke it (a change no notify named)
    recheck_every = 0.5

    def __init__(self, *, channels: int, heartbeat_interval: float, ack_deadline: float,
                 token_lifetime: float, check_spec: bool) -> None:
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
        #: called with each call once answered, before the answer goes out (a test may kill
        #: the bot there: "Discord did it, the bot never heard")
        self.on_answered: Callable[[Call], None] | None = None
        self.token = "standin-" + secrets.token_hex(8)
        self.users: dict[int, dict[str, Any]] = {
            self.bot_id: {"id": str(self.bot_id), "username": "Stolik", "global_name": "Stolik",
                          "discriminator": "0", "avatar": None, "bot": True, "public_flags": 0}}
        self.locales: dict[int, str] = {}
        self.channels: dict[int, Channel] = {}
        self.text_channels: list[int] = []
        for n in range(channels):
            self.add_channel(f"table-{n + 1}")
        self.messages: dict[int, Message] = {}
        #: channel id -> its messages in id order, oldest first (a channel's read need not scan
        #: them all, nor sort them)
        self._in_channel: dict[int, list[Message]] = defaultdict(list)
        #: user id -> their DM channel with the bot
        self._dm_of: dict[int, int] = {}
        self.interactions: dict[int, Interaction] = {}
        self._by_token: dict[str, Interaction] = {}
        self.commands: dict[int | None, list[dict[str, Any]]] = {}
        self.calls: list[Call] = []
        self.violations: list[str] = []
        #: the waiters of :meth:`wait_for`: those of every change, and those of a channel's
        #: (each one's event, set to wake it)
        self._everything: set[asyncio.Event] = set()
        self._of_channel: dict[int, set[asyncio.Event]] = defaultdict(set)
        #: channels changed since the last :meth:`notify`
        self._touched: set[int] = set()
        self.port = 0
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
        channel_id = self._dm_of.get(user_id)
        if channel_id is None:
            channel_id = self.snowflake()
            self.channels[channel_id] = Channel(channel_id, 1, recipient=user_id)
            self._dm_of[user_id] = channel_id
        return channel_id

    def user_payload(self, user_id: int) -> dict[str, Any]:
        return self.users.get(user_id) or {"id": str(user_id), "username": f"user{user_id}",
                                           "global_name": None, "discriminator": "0", "avatar": None}

    def permissions_of(self, user_id: int) -> str:
        # View, Send Messages, Read History, Use Application Commands (+ Manage Channels)
        value = (1 << 10) | (1 << 11) | (1 << 16) | (1 << 31)
        if user_id in self.managers:
            value |= 1 << 4
        return str(value)

    # --- changes -----------------------------------------------------------------------
    def new_message(self, channel_id: int, body: dict[str, Any], files: list[Attachment], *,
                    via: str, flags: int = 0, interaction: Interaction | None = None) -> Message:
        """A message by the bot in ``channel_id``, as ``body`` describes it (checked already)."""
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
        in_channel = self._in_channel[channel_id]
        if in_channel and in_channel[-1].id > message.id:  # the clock went back: keep id order
            bisect.insort(in_channel, message, key=lambda m: m.id)
        else:
            in_channel.append(message)
        self.touch(channel_id)
        return message

    def new_interaction(self, user_id: int, channel_id: int, kind: int, data: dict[str, Any],
                        message: Message | None = None) -> Interaction:
        """A user's interaction, recorded (its token known) before it is sent to the bot."""
        inter = Interaction(self.snowflake(), "aW50ZXJhY3Rpb24" + secrets.token_urlsafe(48), kind,
                            user_id, channel_id, data, time.monotonic(),
                            message.id if message else None)
        self.interactions[inter.id] = inter
        self._by_token[inter.token] = inter
        return inter

    # --- waiting ---------------------------------------------------------------------------
    def touch(self, channel_id: int) -> None:
        """Note that something in ``channel_id`` changed (its messages, or an interaction made
        there): the next :meth:`notify` wakes that channel's waiters."""
        self._touched.add(channel_id)

    async def notify(self, *channels: int) -> None:
        """Wake the waiters of every change, and those of ``channels`` and of the channels
        touched since the last notify (async: callers await it, as they did a condition)."""
        for event in self._everything:
            event.set()
        self._touched.update(channels)
        for channel_id in self._touched:
            for event in self._of_channel.get(channel_id, ()):
                event.set()
        self._touched.clear()

    async def wait_for(self, predicate: Callable[[], Any], timeout: float = 30.0,
                       what: str = "condition", *, channels: Iterable[int] = ()) -> Any:
        """Wait until ``predicate()`` is truthy (checked after every change, or with
        ``channels`` only after a change in one of them: a predicate that reads nothing else
        need not run for every request at 200 games); returns it. It is also checked every
        half second whatever changed."""
        deadline = time.monotonic() + timeout
        event = asyncio.Event()
        keys = set(channels)
        for key in keys:
            self._of_channel[key].add(event)
        if not keys:
            self._everything.add(event)
        try:
            while True:
                event.clear()  # before the check: a change after it sets the event again
                value = predicate()
                if value:
                    return value
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"stand-in: timed out waiting for {what}")
                # asyncio.timeout, not wait_for: wait_for made a task for every waiter at
                # every change (a fifth of the bench's CPU with 400 players waiting)
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(min(left, self.recheck_every)):
                        await event.wait()
        finally:
            self._everything.discard(event)
            for key in keys:
                waiters = self._of_channel[key]
                waiters.discard(event)
                if not waiters:
                    del self._of_channel[key]

    # --- reading what happened -----------------------------------------------------------
    def interaction_by_token(self, token: str) -> Interaction | None:
        """The interaction a token belongs to (expired or not), for reports."""
        return self._by_token.get(token)

    def channel_messages(self, channel_id: int, *, public_only: bool = True) -> list[Message]:
        """A channel's messages not deleted (by default only those everyone sees), oldest
        first."""
        if public_only:
            return [m for m in self._in_channel.get(channel_id, ()) if m.public]
        return [m for m in self._in_channel.get(channel_id, ()) if not m.deleted]

    def newest_message(self, channel_id: int, where: Callable[[Message], bool]) -> Message | None:
        """The newest public message of a channel that ``where`` accepts (read from the end:
        a wait's predicate calls this after every change in the channel)."""
        for message in reversed(self._in_channel.get(channel_id, ())):
            if message.public and where(message):
                return message
        return None

    def dms(self, user_id: int) -> list[Message]:
        """The DMs the bot sent a user, oldest first."""
        channel_id = self._dm_of.get(user_id)
        if channel_id is None:
            return []
        return [m for m in self._in_channel.get(channel_id, ()) if m.via == "dm"]

    def calls_to(self, pattern: str) -> list[Call]:
        return [c for c in self.calls if fnmatch.fnmatchcase(c.key, pattern)]

    def call_counts(self) -> dict[str, int]:
        counts: dict[str, int] = defaultdict(int)
        for call in self.calls:
            counts[call.key] += 1
        return dict(counts)
