"""Constructed Discord objects for cog tests: they record what the bot sends.

Only the attributes the cogs use exist, so a cog reaching for something new fails loudly.
"""

from __future__ import annotations

import datetime
import itertools
import types
from dataclasses import dataclass, field
from typing import Any

import discord

from cogs.adapters import Channels
from cogs.board import Board
from cogs.firstanswer import FirstAnswer
from cogs.hands import Hands
from cogs.host import Host
from cogs.liveboards import LiveBoards
from cogs.metrics import Metrics
from cogs.pace import GlobalPace
from cogs.repairs import BoardRepairs
from cogs.replies import Replies
from session.posts import Posts
from session.rooms import compose
from session.service import Sessions

_ids = itertools.count(10_000)


@dataclass
class Sent:
    content: str | None
    ephemeral: bool = False
    view: discord.ui.View | None = None
    file: discord.File | None = None
    where: str = ""
    pings: discord.AllowedMentions | None = None
    files: list[discord.File] = field(default_factory=list)

    def pinged(self) -> list[int]:
        """Users this message notifies (none unless allowed explicitly, as in the bot)."""
        users = self.pings.users if self.pings is not None else False
        return [u.id for u in users] if isinstance(users, list) else []

    @property
    def custom_ids(self) -> list[str]:
        return [item.custom_id for item in self.items()]

    def items(self) -> list[Any]:
        """The components (buttons and menus, which all have a custom id here)."""
        return list(self.view.children) if self.view else []

    def item(self, custom_id: str) -> Any:
        return next(i for i in self.items() if i.custom_id == custom_id)

    def image(self) -> bytes | None:
        if self.file is None:
            return None
        self.file.fp.seek(0)
        return self.file.fp.read()


class FakeMessage:
    def __init__(self, channel: FakeChannel, sent: Sent) -> None:
        self.id = next(_ids)
        self.channel = channel
        self.sent = sent
        self.flags = discord.MessageFlags._from_value(64 if sent.ephemeral else 0)
        self.edits = 0

    @property
    def content(self) -> str | None:
        return self.sent.content

    @property
    def components(self) -> list[Any]:
        """Action rows as discord.py parses them from Discord's payload."""
        view = self.sent.view
        return [discord.ActionRow(row) for row in view.to_components()] if view else []

    async def edit(self, **kwargs: Any) -> None:
        self.edits += 1
        if "view" in kwargs:
            self.sent.view = kwargs["view"]
        if "content" in kwargs:
            self.sent.content = kwargs["content"]
        if "attachments" in kwargs:
            self.sent.file = kwargs["attachments"][0] if kwargs["attachments"] else None


class FakeChannel:
    def __init__(self, channel_id: int) -> None:
        self.id = channel_id
        self.messages: list[FakeMessage] = []
        self.threads: list[FakeThread] = []
        #: HTTP statuses the next sends fail with (after discord.py's own retries), in order
        self.failures: list[int] = []
        #: nonce -> the message posted with it (discord.py enforces nonces: a repeated nonce
        #: is answered with the message already made, within a few minutes)
        self.nonces: dict[str, FakeMessage] = {}
        #: members an overwrite denies View Channel, or Read Message History
        self.hidden_from: set[int] = set()
        self.history_hidden_from: set[int] = set()

    def permissions_for(self, member: Any) -> discord.Permissions:
        """A member's permissions here, as discord.py resolves them from the roles and this
        channel's overwrites: a member's usual ones, less what an overwrite denies them."""
        if member.id in self.hidden_from:
            return discord.Permissions.none()  # no View Channel: nothing else either
        return discord.Permissions(view_channel=True, send_messages=True,
                                   read_message_history=member.id not in self.history_hidden_from)

    async def send(self, content: str | None = None, *, view=None, file=None,
                   allowed_mentions: discord.AllowedMentions | None = None,
                   nonce: str | None = None, **_: Any) -> FakeMessage:
        if self.failures:
            raise http_error(self.failures.pop(0))
        if nonce is not None and nonce in self.nonces:
            return self.nonces[nonce]
        sent = Sent(content, False, view, file, where=f"channel {self.id}")
        sent.pings = allowed_mentions
        message = FakeMessage(self, sent)
        self.messages.append(message)
        if nonce is not None:
            self.nonces[nonce] = message
        return message

    async def create_thread(self, *, name: str, **_: Any) -> FakeThread:
        thread = FakeThread(next(_ids), name, self)
        self.threads.append(thread)
        return thread

    async def history(self, *, limit: int = 100, after: Any = None):
        """Newest first, as Discord lists them (discord.py turns them oldest first for
        ``after``, which no caller relies on)."""
        newer = [m for m in self.messages if after is None or m.id > after.id]
        for message in list(reversed(newer))[:limit]:
            yield message

    async def fetch_message(self, message_id: int) -> FakeMessage:
        return self.get_partial_message(message_id)

    def get_partial_message(self, message_id: int) -> FakeMessage:
        found = next((m for m in self.messages if m.id == message_id), None)
        if found is None:  # as Discord answers an edit of a message that is not there
            raise discord.NotFound(types.SimpleNamespace(status=404, reason="Not Found"),
                                   {"code": 10008, "message": "Unknown Message"})
        return found

    @property
    def last(self) -> FakeMessage:
        return self.messages[-1]


class FakeThread(discord.Thread):
    """Only what the cogs use; subclassing Thread so isinstance checks see a thread."""

    def __init__(self, thread_id: int, name: str, parent: FakeChannel) -> None:  # noqa: D107
        self.id = thread_id
        self.name = name
        self.parent_channel = parent
        self.deleted = False

    async def delete(self, *, reason: str | None = None) -> None:
        self.deleted = True


def http_error(status: int) -> discord.HTTPException:
    """What discord.py raises when Discord answers ``status``."""
    response = types.SimpleNamespace(status=status, reason="fault")
    body = {"code": 0, "message": f"{status}: fault"}
    if status >= 500:
        return discord.DiscordServerError(response, body)
    return discord.HTTPException(response, body)


class FakeUser:
    def __init__(self, user_id: int, name: str, client: FakeClient) -> None:
        self.id = user_id
        self.display_name = name
        self.client = client
        self.dms: list[Sent] = []
        self.dm_attempts = 0
        self.dm_channel: FakeChannel | None = None

    async def create_dm(self) -> FakeChannel:
        self.dm_channel = self.client.channel(-self.id)
        return self.dm_channel

    async def send(self, content: str | None = None, *, view=None, file=None, **_: Any) -> FakeMessage:
        self.dm_attempts += 1
        if self.id in self.client.failing_dms:
            raise http_error(503)
        if self.id in self.client.closed_dms:
            response = types.SimpleNamespace(status=403, reason="Forbidden")
            raise discord.Forbidden(response, {"code": 50007,
                                               "message": "Cannot send messages to this user"})
        sent = Sent(content, False, view, file, where=f"dm {self.id}")
        self.dms.append(sent)
        channel = self.client.channel(-self.id)  # the DM channel: its messages can be edited
        message = FakeMessage(channel, sent)
        channel.messages.append(message)
        return message


def host_for(client: FakeClient, sessions: Sessions) -> Host:
    """The cogs' host over ``client``, its parts built as bot.py builds them (every guild's
    shard this process's)."""
    pace = GlobalPace()
    channels = Channels(client, pace)
    posts = Posts(sessions.store, sessions.clock)
    hands = Hands(client, sessions, posts, pace, channels)
    live_boards = LiveBoards()
    replies = Replies(pace)
    board = Board(sessions, posts, pace, channels, replies, hands, live_boards)
    first_answer = FirstAnswer(sessions, posts, channels, replies, live_boards, board)
    repairs = BoardRepairs(sessions, posts, hands, live_boards, board, owns=lambda guild_id: True)
    return Host(sessions, compose(sessions, owns=lambda guild_id: True), pace, channels, board,
                first_answer, repairs, hands, Metrics())


class FakeClient:
    def __init__(self, sessions: Sessions) -> None:
        self.channels: dict[int, FakeChannel] = {}
        self.users: dict[int, FakeUser] = {}
        self.closed_dms: set[int] = set()
        self.failing_dms: set[int] = set()  # Discord answers 5xx to their DMs
        self.gone: set[int] = set()  # deleted channels (or ones the bot can no longer see)
        self.host = host_for(self, sessions)

    def channel(self, channel_id: int) -> FakeChannel:
        if channel_id not in self.channels:
            # a thread the bot opened is a channel of its own to post in
            self.channels[channel_id] = FakeChannel(channel_id)
        return self.channels[channel_id]

    def get_partial_messageable(self, channel_id: int) -> FakeChannel:
        return self.channel(channel_id)

    def get_channel(self, channel_id: int) -> FakeChannel | None:
        return None if channel_id in self.gone else self.channel(channel_id)

    async def fetch_channel(self, channel_id: int) -> FakeChannel:
        if channel_id in self.gone:  # as Discord answers for a deleted channel
            raise discord.NotFound(types.SimpleNamespace(status=404, reason="Not Found"),
                                   {"code": 10003, "message": "Unknown Channel"})
        return self.channel(channel_id)

    def user(self, user_id: int, name: str | None = None) -> FakeUser:
        return self.users.setdefault(user_id, FakeUser(user_id, name or f"User{user_id}", self))

    def get_user(self, user_id: int) -> FakeUser:
        return self.user(user_id)

    async def fetch_user(self, user_id: int) -> FakeUser:
        return self.user(user_id)


class FakeResponse:
    def __init__(self, interaction: FakeInteraction) -> None:
        self.interaction = interaction
        self.type: discord.InteractionResponseType | None = None

    def is_done(self) -> bool:
        return self.type is not None

    def _answer(self, kind: discord.InteractionResponseType) -> None:
        assert self.type is None, "an interaction can be answered only once"
        self.type = kind

    async def defer(self, *, ephemeral: bool = False, thinking: bool = False) -> None:
        kinds = discord.InteractionResponseType
        self._answer(kinds.deferred_channel_message if thinking else kinds.deferred_message_update)
        self.interaction.deferred = True
        self.interaction.thinking = thinking

    async def send_message(self, content: str | None = None, *, ephemeral: bool = False,
                           view=None, file=None, **_: Any) -> None:
        self._answer(discord.InteractionResponseType.channel_message)
        self.interaction.replies.append(Sent(content, ephemeral, view, file, where="reply"))

    async def edit_message(self, **kwargs: Any) -> None:
        """Discord: an update of the clicked message itself (kept arguments unchanged)."""
        self._answer(discord.InteractionResponseType.message_update)
        message = self.interaction.message
        assert message is not None, "only a component's message can be updated"
        await message.edit(**kwargs)
        self.interaction.replies.append(Sent(message.sent.content, message.sent.ephemeral,
                                             message.sent.view, message.sent.file, where="edit"))


class FakeFollowup:
    def __init__(self, interaction: FakeInteraction) -> None:
        self.interaction = interaction

    async def send(self, content: str | None = None, *, ephemeral: bool = False, view=None,
                   file=None, files=None, allowed_mentions: discord.AllowedMentions | None = None,
                   wait: bool = False, **_: Any) -> FakeMessage | None:
        """Discord: the first follow-up of a "thinking" defer takes that message's place (a
        reply); any other public follow-up is a new message in the channel (failing as the
        channel's sends do), returned with ``wait=True``."""
        inter = self.interaction
        assert inter.response.is_done(), "follow-ups need an answered interaction"
        assert not (file and files), "discord.py takes file or files, not both"
        first_of_thinking = inter.thinking and not inter.replies
        sent = Sent(content, ephemeral, view, file or (files or [None])[0], where="followup",
                    files=list(files or []), pings=allowed_mentions)
        message = None
        if not ephemeral and not first_of_thinking:
            channel = inter.client.channel(inter.channel_id)
            if channel.failures:
                raise http_error(channel.failures.pop(0))
            message = FakeMessage(channel, sent)
            channel.messages.append(message)  # a message of the channel, not a private reply
        else:
            inter.replies.append(sent)
        return message if wait else None


@dataclass
class FakeInteraction:
    client: FakeClient
    user: FakeUser
    channel_id: int
    guild_id: int | None = 1
    locale: discord.Locale = discord.Locale.american_english
    guild_locale: discord.Locale | None = None
    permissions: discord.Permissions = field(default_factory=discord.Permissions.none)
    message: FakeMessage | None = None
    data: dict[str, Any] = field(default_factory=dict)
    namespace: Any = None
    channel: Any = None
    replies: list[Sent] = field(default_factory=list)
    deferred: bool = False
    thinking: bool = False
    extras: dict[str, Any] = field(default_factory=dict)  # as discord.Interaction's
    id: int = field(default_factory=lambda: next(_ids))
    #: Discord's 15 minutes for follow-ups and edits with the interaction's token
    expires_at: datetime.datetime = field(
        default_factory=lambda: discord.utils.utcnow() + datetime.timedelta(minutes=15))

    def __post_init__(self) -> None:
        self.response = FakeResponse(self)
        self.followup = FakeFollowup(self)

    async def edit_original_response(self, **kwargs: Any):
        """For a component click the original response is the clicked message itself."""
        private = self.message is None or self.message.flags.ephemeral
        self.replies.append(Sent(kwargs.get("content"), private, kwargs.get("view"), None,
                                 where="edit_original"))
        if self.message is not None:
            await self.message.edit(**kwargs)

    @property
    def answered(self) -> bool:
        return self.response.is_done()

    def ephemeral_texts(self) -> list[str]:
        return [r.content or "" for r in self.replies if r.ephemeral]
