"""The live-board protocol: each game has exactly one live board (its newest turn message),
posted as "record the intent, post, record the message", edited in place while the same
players are to act. Elsewhere: the repairs after a refusal or a stop (:mod:`cogs.repairs`), a
click's first answer on the board (:mod:`cogs.firstanswer`), and what this process remembers
of each board with each session's publish lock (:mod:`cogs.liveboards`).

Nothing here decides game matters; it sends what the session layer and presenter return.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections.abc import Callable
from typing import Any

import discord

from cogs.adapters import Channels, clip, edit_kwargs, message_kwargs
from cogs.hands import Hands
from cogs.liveboards import LiveBoards
from cogs.pace import GlobalPace
from cogs.replies import Replies
from session import facts, ids, present, results
from session.errors import SessionError
from session.facts import SessionRow
from session.posts import Posts
from session.service import Sessions, started
from session.specs import MessageSpec
from session.values import Outcome

log = logging.getLogger(__name__)

#: waits before posting a board again when Discord answered 429 or 5xx (after discord.py's own
#: retries); then the board waits for the next click or ``/game board``
BOARD_RETRY_WAITS = (1.0, 2.0, 4.0)


def board_nonce(row: SessionRow, spec: MessageSpec) -> str:
    """The nonce of a session's board post (Discord: at most 25 characters): the session, its
    version, and a short digest of what the post says. Discord answers a repeated nonce with
    the message already made, so two different posts must never share one: an abandon, an end
    vote or ``/game admin end`` leave the version as it was, and their final board must not
    come back as the running board posted at that version (a retry of the same post keeps its
    nonce and still finds the message it made)."""
    said = "\n".join([row.status, spec.content or "",
                      *(item.custom_id for line in spec.rows for item in line)])
    digest = hashlib.blake2s(said.encode(), digest_size=4).hexdigest()
    return f"b{row.id}v{row.version}h{digest}"[-25:]



class BoardNotPosted(SessionError):
    """Discord did not take a board (every retry failed): the move is recorded, the board is
    re-posted at the next click or ``/game board``."""

    def __init__(self, session_id: int) -> None:
        super().__init__("error.board_failed", f"the board of session {session_id} was not posted")


class Board:
    """Publishes outcomes to Discord: lobbies and boards, then the hands (:class:`Hands`).
    One per bot; the cogs share it.

    A game has exactly one live board (the newest turn message). Posting it is "record the
    intent, post, record the message": the intent row (``board_posts``) is written first and
    dropped together with the new turn message id, and the post carries a nonce naming the
    session and version, which Discord uses to answer a repeated post with the message already
    made. A post that fails after its retries leaves the intent: the next click or
    ``/game board`` posts the board again, and start-up's reconcile does so
    (:class:`cogs.repairs.BoardRepairs`); the first board posted after an intent was left
    retires any board that was posted but never recorded (a kill between the post and the
    record: :meth:`_retire_unrecorded`).

    A human's move in the game's channel goes out on its interaction (``reply``), which
    Discord exempts from the global rate limit: the board as a public follow-up (same intent
    and record; a follow-up has no nonce), and edits of a board through the click's own
    response when the click was on that board, or through the token the board was posted with
    while it is valid. When the interaction cannot take it (a DM, an expired or refused token,
    Discord failing) the board goes by the channel as for computer moves and timers
    (:class:`Replies`).
    """

    def __init__(self, sessions: Sessions, posts: Posts, pace: GlobalPace, channels: Channels,
                 replies: Replies, hands: Hands, live_boards: LiveBoards) -> None:
        self.sessions = sessions
        self.posts = posts
        #: every call of this process that counts toward Discord's global limit waits here
        self.pace = pace
        self.channels = channels
        self.replies = replies
        self.hands = hands
        #: what this process last showed of each game, and each session's publish lock
        self.live_boards = live_boards

    async def publish(self, outcome: Outcome, interaction: discord.Interaction | None = None,
                      *, retired: int | None = None,
                      posted: Callable[[], None] | None = None) -> None:
        """After a change: post the lobby or a fresh board in the channel, then private hands.
        ``interaction``: the acknowledged interaction of a human's move, which the board goes
        out on when it can; ``retired``: a board whose buttons that interaction's first answer
        already took off (no call to retire it again). Raises :class:`BoardNotPosted` when
        Discord keeps refusing the board. ``posted``: told once the board is up, before
        the hands go out (the operator's board latency)."""
        async with self.live_boards.lock(outcome.session.id):
            hands = await self.show_in_channel(outcome, reply=interaction, retired=retired)
        if posted is not None:
            posted()
        if outcome.finished and started(outcome.session):
            await self.hands.end_in_order(outcome.session)  # no live button left anywhere
        elif hands:
            await self.hands.send_in_order(outcome.session, hands, outcome.started)

    async def show_in_channel(self, outcome: Outcome, *, force_new: bool = False,
                              reply: discord.Interaction | None = None,
                              retired: int | None = None) -> list[int]:
        """Show ``outcome`` in the channel, the session's publish lock held by the caller
        (:meth:`LiveBoards.lock`); returns the seats whose hands are due by DM."""
        row = outcome.session
        reply = self.replies.usable(reply, row)
        bare = self.live_boards.still_bare(retired)
        channel = await self.channels.get(row.channel_id)
        # publishes of a session take turns (its lock): what this read says of its
        # newest board stays true while this one renders
        current, pending = await self.posts.session_and_intent(row.id)
        if row.status == "lobby" or (row.status == "abandoned" and not started(row)):
            # only the newest lobby message keeps its Join/Start/Leave buttons
            self.live_boards.forget_live(row.id)
            await self._post_lobby(row, channel, current, outcome, reply)
            return []
        if row.status == "active" and current.status != "active":
            # the game ended (an end vote, an abandon) after this change: its final board is
            # or will be up, and no board of a running game may follow it
            return []
        stale = self.live_boards.posted_newer(row.id, row.version)
        if row.status == "active" and (stale or not outcome.board_changed):
            await self._post_news(channel, outcome)
            return self.hands.due(outcome)
        state = await self.sessions.state(row)
        # who acts and the public view come with a move's outcome; other publishes work them out
        to_act = facts.to_act(row, state) if outcome.to_act is None else outcome.to_act
        spec = await present.turn_message(row, state, outcome.notices, row.lang,
                                          self.sessions.clock(), public=outcome.public,
                                          to_act=to_act)
        self.live_boards.note_live(row, to_act)
        # the newest turn message loses its buttons only once the new one is up: a crash in
        # between never leaves no live board
        previous = current
        if not (outcome.new_turn or force_new or pending) \
                and await self._edit_turn_message(channel, previous, spec, reply):
            # the same players are still to act and nothing was revealed: edit in place
            self.live_boards.note_posted(row.id, row.version)
            marked = previous.turn_message_id
            if marked is not None and self.live_boards.marked(row.id) == marked:  # shown again
                self.live_boards.forget_mark(row.id, marked)
                await self.posts.unmark_bare(row.id, marked)
            return self.hands.due(outcome)
        await self._post_new_board(outcome, channel, to_act, spec, previous, reply, bare,
                                   pending)
        return self.hands.due(outcome)

    async def _post_news(self, channel: Any, outcome: Outcome) -> None:
        """A vote or a seat change: a line of news, not a new board."""
        row = outcome.session
        lines = present.notices_text(row, outcome.notices, row.lang)
        if lines:
            async with self.pace:
                await channel.send(clip("\n".join(lines)))

    async def _post_new_board(self, outcome: Outcome, channel: Any, to_act: list[int],
                              spec: MessageSpec, previous: SessionRow,
                              reply: discord.Interaction | None, bare: int | None,
                              pending: bool) -> None:
        """Post the board as a new message (on ``reply`` when it takes it), record it, then
        retire ``previous`` (the board before it) unless a first answer already did (``bare``);
        the final board of a finished game is followed by its score breakdown. ``pending``:
        an earlier post was started and never recorded (a stop, Discord failing), so a board
        newer than ``previous`` may be up with live buttons: the channel is swept for it, by
        whichever publish comes first after the stop (a move may beat start-up's reconcile)."""
        row = outcome.session
        pings = await self.hands.board_pings(row, to_act if outcome.started is None
                                             else outcome.started)
        board: discord.WebhookMessage | None = None
        maybe_posted = False  # a follow-up Discord failed may still have been made
        if reply is not None:
            board, maybe_posted = await self._follow_up_board(reply, row, spec, pings)
        message = board or await self._post_board(row, channel, spec, pings)
        self.live_boards.note_posted(row.id, row.version)
        self.live_boards.note_accepted(row.id)
        # the message id and the end of the intent in one transaction, before anything else
        # goes to Discord: a crash after it leaves in-place edits aimed at the right board
        await self.posts.board_posted(row.id, None if outcome.finished else message.id)
        self.live_boards.forget_mark(row.id)  # (the record dropped the session's bare mark)
        if previous.turn_message_id not in (message.id, bare):
            await self._retire_turn_message(channel, previous, reply)
        self.replies.remember(row.id, None if outcome.finished else board, reply)
        if maybe_posted or pending:
            await self._retire_unrecorded(previous, message.id)
        breakdown = results.breakdown_message(row, row.lang) if outcome.finished else None
        if breakdown is not None:  # too long for the final message: one file, whole lines
            await self.replies.post(reply, channel, lambda: message_kwargs(breakdown))

    async def _post_lobby(self, row: SessionRow, channel: Any, current: SessionRow,
                          outcome: Outcome, reply: discord.Interaction | None) -> None:
        """The lobby as a new message (on the interaction that changed it when there is one:
        exempt from the global limit), then the previous one loses its buttons."""
        spec = present.lobby_message(row, outcome.notices, row.lang)
        followed: discord.WebhookMessage | None = None
        maybe_posted = False
        if reply is not None:
            followed, maybe_posted = await self.replies.follow_up(reply, f"lobby of session {row.id}",
                                                           **message_kwargs(spec))
        if followed is not None:
            message_id = followed.id
        else:
            async with self.pace:
                message_id = (await channel.send(**message_kwargs(spec))).id
        await self._retire_turn_message(channel, current, reply)
        live = row.status == "lobby"
        await self.sessions.set_turn_message(row.id, message_id if live else None)
        self.replies.remember(row.id, followed if live else None, reply)
        if maybe_posted:  # a copy Discord made all the same keeps no live buttons
            await self._retire_unrecorded(current, message_id)

    async def _post_board(self, row: SessionRow, channel: Any, spec: MessageSpec,
                          pings: discord.AllowedMentions) -> discord.Message:
        """Post a board, after recording the intent. discord.py already waits out 429s and
        retries 500/502/504 a few times; a board must not be lost to a longer storm or to a
        503 (the move is recorded), so wait a little and try again, a bounded number of times.
        The nonce makes a repeat of a post Discord did make (a 5xx after the write) return
        that message instead of a second board."""
        await self.posts.board_pending(row.id, row.version)
        for attempt, wait in enumerate((*BOARD_RETRY_WAITS, None)):
            try:
                async with self.pace:
                    return await channel.send(  # a fresh file every time
                        **message_kwargs(spec), allowed_mentions=pings, nonce=board_nonce(row, spec))
            except discord.HTTPException as exc:
                if wait is None or not (exc.status == 429 or exc.status >= 500):
                    log.warning("board of session %s (version %s) not posted: %s", row.id,
                                row.version, exc)
                    self.live_boards.note_refused(row.id)
                    raise BoardNotPosted(row.id) from None
                log.warning("board of session %s: Discord answered %s (try %s), waiting %.1fs",
                            row.id, exc.status, attempt + 1, wait)
                await asyncio.sleep(wait)
        raise AssertionError("unreachable")

    async def _follow_up_board(self, reply: discord.Interaction, row: SessionRow,
                               spec: MessageSpec, pings: discord.AllowedMentions,
                               ) -> tuple[discord.WebhookMessage | None, bool]:
        """Post a board as a public follow-up of the move's interaction, after recording the
        intent (a follow-up's mentions notify, as a channel post's do). Returns the message,
        or None when the interaction did not take it (an expired or unknown token, Discord
        failing after discord.py's retries), with whether it may have been made all the same
        (a server error): the caller then posts it in the channel."""
        await self.posts.board_pending(row.id, row.version)
        return await self.replies.follow_up(reply, f"board of session {row.id} (version {row.version})",
                                     **message_kwargs(spec), allowed_mentions=pings)

    async def _retire_unrecorded(self, row: SessionRow, live: int | None) -> None:
        """Boards of ``row`` newer than its recorded turn message (before this repair) that are
        not the live one: posted by a process that stopped before recording them."""
        channel = await self.channels.get(row.channel_id)
        after = discord.Object(row.turn_message_id) if row.turn_message_id else None
        try:
            async with self.pace:  # one page of history: one call
                found = [message async for message in channel.history(limit=50, after=after)]
            for message in found:
                # only this bot's messages carry components with its custom ids; a vote's
                # ballot (posted meanwhile by a timer) is no board
                kinds = {getattr(ids.parse(item.custom_id or ""), "kind", None)
                         for component in message.components
                         for item in getattr(component, "children", [])
                         if str(getattr(item, "custom_id", "")).startswith(f"sk:{row.id}:")}
                if message.id != live and kinds - {"vote"}:
                    log.info("session %s: retiring unrecorded board %s", row.id, message.id)
                    async with self.pace:
                        await message.edit(view=None)
        except discord.HTTPException as exc:
            # no Read Message History: an unrecorded board keeps stale buttons, which refuse
            log.warning("session %s: could not look for unrecorded boards: %s", row.id, exc)

    async def _edit_turn_message(self, channel: Any, row: SessionRow, spec: MessageSpec,
                                 reply: discord.Interaction | None = None) -> bool:
        if not row.turn_message_id:
            return False
        try:
            await self.replies.edit(channel, row.id, row.turn_message_id, reply,
                                   lambda: edit_kwargs(spec))
        except discord.HTTPException:
            return False  # gone: post a new one
        return True

    async def _retire_turn_message(self, channel: Any, row: SessionRow,
                                   reply: discord.Interaction | None = None) -> None:
        """Take the buttons off the previous turn message, so only the newest one is live."""
        if not row.turn_message_id:
            return
        try:
            await self.replies.edit(channel, row.id, row.turn_message_id, reply,
                                   lambda: {"view": None})
        except discord.HTTPException:
            log.info("turn message %s of session %s is gone", row.turn_message_id, row.id)
