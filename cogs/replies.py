"""Boards and texts on an interaction rather than by the channel: Discord exempts the calls
of an interaction (its response, follow-ups, and edits through its token for 15 minutes) from
the global rate limit. Whatever an interaction cannot take goes by the channel, paced."""

from __future__ import annotations

import datetime
import logging
from collections.abc import Callable
from typing import Any

import discord

from cogs.pace import GlobalPace
from session.facts import SessionRow

log = logging.getLogger(__name__)

#: an interaction token serves follow-ups and edits for 15 minutes; a call is not started in
#: its last seconds (it would fail and then go by the channel anyway)
TOKEN_MARGIN = datetime.timedelta(seconds=30)


class Replies:
    """The interactions a board goes out on, and the follow-up tokens its later edits use."""

    def __init__(self, pace: GlobalPace) -> None:
        #: every call of this process that counts toward Discord's global limit waits here
        self.pace = pace
        #: session id -> (its board posted as a follow-up by this process, when its token
        #: expires): the board's later edits go through that token while it is valid
        self._followups: dict[int, tuple[discord.WebhookMessage, datetime.datetime]] = {}

    @staticmethod
    def usable(reply: discord.Interaction | None, row: SessionRow) -> discord.Interaction | None:
        """``reply`` when the board may go out on it: in the game's own channel (a DM's
        interaction posts in the DM), acknowledged, its token valid for a while yet."""
        if reply is None or reply.channel_id != row.channel_id or not reply.response.is_done():
            return None
        if discord.utils.utcnow() + TOKEN_MARGIN >= reply.expires_at:
            return None
        return reply

    @staticmethod
    async def follow_up(reply: discord.Interaction, what: str, **kwargs: Any,
                        ) -> tuple[discord.WebhookMessage | None, bool]:
        """A public follow-up of ``reply``; None when the interaction did not take it, with
        whether Discord may have made it all the same (a server error): the caller then posts
        by the channel."""
        try:
            return await reply.followup.send(**kwargs, wait=True), False
        except discord.HTTPException as exc:
            log.warning("%s not posted on interaction %s: %s; posting it in the channel", what,
                        reply.id, exc)
            return None, exc.status >= 500

    async def say(self, reply: discord.Interaction | None, channel: Any, content: str) -> None:
        """A public text: a follow-up of ``reply`` when it takes one, else by the channel."""
        await self.post(reply, channel, lambda: {"content": content})

    async def post(self, reply: discord.Interaction | None, channel: Any,
                   message: Callable[[], dict[str, Any]]) -> None:
        """A public message (a text, a file): a follow-up of ``reply`` when it takes one, else
        by the channel, paced. ``message`` makes the send's arguments afresh for each try: a
        sent file is read and closed, so the channel's try needs its own."""
        if reply is not None:
            try:
                await reply.followup.send(**message())
                return
            except discord.HTTPException as exc:
                log.info("message not sent on interaction %s: %s; by the channel", reply.id, exc)
        async with self.pace:
            await channel.send(**message())

    def remember(self, session_id: int, board: discord.WebhookMessage | None,
                 reply: discord.Interaction | None) -> None:
        """Keep the newest live board's follow-up (its token edits it later), once the previous
        board, which may need its own token, is retired; ``board`` None (not posted on an
        interaction of this process, or not live) forgets the session's."""
        self._followups.pop(session_id, None)  # re-inserted last: the dict stays in expiry order
        if board is None or reply is None:
            return
        self._followups[session_id] = (board, reply.expires_at)
        now = discord.utils.utcnow()
        while self._followups:  # forget tokens that have expired (games left idle, abandoned)
            oldest = next(iter(self._followups))
            if self._followups[oldest][1] > now:
                break
            del self._followups[oldest]

    async def edit(self, channel: Any, session_id: int, message_id: int,
                   reply: discord.Interaction | None,
                   edit: Callable[[], dict[str, Any]]) -> None:
        """Edit a board through an interaction where one can (exempt from the global limit):
        the click's own response when the click was on this board (a deferred update's
        original response is the clicked message), else the follow-up token the board was
        posted with while it is valid; by the channel when neither can. ``edit`` makes the
        arguments afresh for each try (a file is read once). Raises ``HTTPException`` when
        the channel edit fails."""
        if reply is not None and reply.message is not None and reply.message.id == message_id:
            try:
                await reply.edit_original_response(**edit())
                return
            except discord.HTTPException as exc:
                log.info("board %s not edited on interaction %s: %s", message_id, reply.id, exc)
        posted = self._followups.get(session_id)
        if posted is not None and posted[0].id == message_id \
                and discord.utils.utcnow() + TOKEN_MARGIN < posted[1]:
            try:
                await posted[0].edit(**edit())
                return
            except discord.HTTPException as exc:
                log.info("board %s not edited with its follow-up token: %s", message_id, exc)
        async with self.pace:
            await channel.get_partial_message(message_id).edit(**edit())
