"""Private hands by DM: one living hand message per player and game, the bookkeeping of DMs
Discord refuses or fails, and each user's language for them."""

from __future__ import annotations

import asyncio
import logging
import time
from collections import defaultdict
from typing import Any

import discord

from cogs.adapters import Channels, edit_kwargs, message_kwargs
from cogs.pace import GlobalPace
from session import facts, present
from session.facts import SessionRow
from session.posts import HandMessage, Posts
from session.service import Sessions
from session.specs import MessageSpec
from text.catalog import language, t

log = logging.getLogger(__name__)

#: Discord's JSON error code for "Cannot send messages to this user" (DMs closed)
CANNOT_DM = 50007
#: how long a user's DMs are skipped after Discord failed one with a server error
DM_PAUSE = 120.0


class Hands:
    """DMs each player their private view after a board (see :meth:`send_hands`)."""

    def __init__(self, client: discord.Client, sessions: Sessions, posts: Posts,
                 pace: GlobalPace, channels: Channels) -> None:
        self.client = client
        self.sessions = sessions
        self.posts = posts
        self.pace = pace
        self.channels = channels
        # DMs go out after the board, outside the publish lock (a failing DM must not hold up
        # the next board), one session's DMs at a time so a newer hand never precedes an older
        self._dming: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        #: users whose DMs failed with a server error, until when (monotonic) they are skipped
        self._dm_down: dict[int, float] = {}
        #: (session id, user id) already told in the channel that their DMs do not arrive
        self._dm_told: set[tuple[int, int]] = set()
        self._languages: dict[int, str] = {}  # user id -> language last seen (remember_language)

    async def send_in_order(self, row: SessionRow, seats: list[int]) -> None:
        """:meth:`send_hands` in the game's channel, after any DMs of the session under way."""
        async with self._dming[row.id]:
            await self.send_hands(row, seats, await self.channels.get(row.channel_id))

    async def send_hands(self, row: SessionRow, seats: list[int], channel: Any) -> None:
        """DM each seat its private view; closed DMs fall back to the channel's button.

        A refused DM (50007) is remembered in the database; a DM Discord failed (5xx) pauses
        that user's DMs for a while in this process. Either way the player is told once per
        game in the channel, and the "My hand" button serves meanwhile."""
        # the current state, even for an outcome published late: a DM never shows an old hand
        row = await self.sessions.session(row.id)
        if row.status != "active":
            return
        state = await self.sessions.state(row)
        failed: list[int] = []
        to_act = facts.to_act(row, state)
        for seat in seats:
            user_id = row.seats[seat].user_id
            if user_id is None:
                continue
            if not await self.sessions.may_dm(user_id) \
                    or self._dm_down.get(user_id, 0.0) > time.monotonic():
                continue  # the turn message's "My hand" button serves
            lang = await self.posts.user_lang(user_id) or row.lang
            spec = await present.hand_message(row, state, seat, lang)
            try:
                await self._living_hand(row.id, user_id, spec, acting=seat in to_act)
            except discord.Forbidden as exc:
                if getattr(exc, "code", None) == CANNOT_DM:
                    await self.sessions.dm_refused(user_id)
                failed.append(user_id)
            except discord.HTTPException as exc:
                log.warning("DM to %s failed: %s", user_id, exc)
                self._dm_down[user_id] = time.monotonic() + DM_PAUSE
                failed.append(user_id)
        untold = [u for u in failed if (row.id, u) not in self._dm_told]
        if untold:
            # told once per player and game, with a ping: the player must learn where their
            # hand is
            self._dm_told.update((row.id, u) for u in untold)
            async with self.pace:
                await channel.send(t(row.lang, "ui.dm_closed",
                                 players=", ".join(f"<@{u}>" for u in untold)),
                               allowed_mentions=discord.AllowedMentions(users=True))

    async def _living_hand(self, session_id: int, user_id: int, spec: MessageSpec, *,
                           acting: bool) -> None:
        """One private message per player and game, edited in place when the view changes;
        a new DM (a notification) only when the player must act and has not had one for this
        turn. A message that is gone (deleted, DMs reset) is replaced by a new one."""
        stored = await self.posts.hand_message(session_id, user_id)
        if stored is not None and not (acting and not stored.acting):
            try:
                async with self.pace:
                    await self.client.get_partial_messageable(stored.channel_id) \
                        .get_partial_message(stored.message_id).edit(**edit_kwargs(spec))
            except discord.NotFound:
                pass  # gone: a new one below
            else:
                if stored.acting and not acting:  # the turn is over: next time, a new DM
                    await self.posts.save_hand_message(
                        session_id, user_id, HandMessage(stored.channel_id, stored.message_id,
                                                         False))
                return
        # each call its own slot: a first DM to a user may fetch the user and opens the DM
        # channel first (three calls in one slot went past a low limit)
        user = self.client.get_user(user_id)
        if user is None:
            async with self.pace:
                user = await self.client.fetch_user(user_id)
        if user.dm_channel is None:
            async with self.pace:
                await user.create_dm()
        async with self.pace:
            message = await user.send(**message_kwargs(spec))
        await self.posts.save_hand_message(session_id, user_id,
                                           HandMessage(message.channel.id, message.id, acting))

    async def remember_language(self, user_id: int, locale: str | None) -> None:
        """Each user's Discord language, from their interactions, for their DMs; written only
        when it changes (a cache per process: a second process at worst writes it again)."""
        if locale is None:
            return
        lang = language(locale)
        if self._languages.get(user_id) == lang:
            return
        if await self.posts.user_lang(user_id) != lang:
            await self.posts.save_user_lang(user_id, lang)
        self._languages[user_id] = lang
