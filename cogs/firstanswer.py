"""A click's first answer on the public board: whether it may take the board's buttons off
(decided from memory only), the bare mark it writes first, and the buttons given back when
the move is refused.

The guess never decides anything: the move is checked as always, and the board is repaired
when the guess was wrong (:meth:`FirstAnswer.give_back_board`).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord

from cogs.adapters import Channels
from cogs.board import Board
from cogs.liveboards import LIVE_BOARDS, LiveBoards
from cogs.replies import Replies
from session.errors import GameError, StoreError
from session.posts import Posts
from session.service import Sessions
from session.values import Outcome

log = logging.getLogger(__name__)

#: how long a click's first answer waits for the board's bare mark to be written before it
#: defers instead (the board then keeps its buttons; its retirement costs a call later): the
#: mark comes first, so a stop after the answer leaves a record of the bare board
BARE_MARK_BUDGET = 0.15
#: a board given back while the database failed is checked again this often once it answers,
#: for this long at most (an interaction token's lifetime)
RECHECK_EVERY = 2.0
RECHECK_FOR = 900.0
#: the refusals the session layer makes of a failing store (session/errors.py)
STORE_FAILED = ("error.store_failed", "error.store_busy")


def store_failed(exc: Exception) -> bool:
    """Whether ``exc`` is the store failing (as the store or the session layer raise it)."""
    return isinstance(exc, StoreError) or isinstance(exc, GameError) and exc.key in STORE_FAILED


class FirstAnswer:
    """The board's side of a click's first answer; one per bot."""

    def __init__(self, sessions: Sessions, posts: Posts, channels: Channels, replies: Replies,
                 live_boards: LiveBoards, board: Board) -> None:
        self.sessions = sessions
        self.posts = posts
        self.channels = channels
        self.replies = replies
        self.live_boards = live_boards
        #: shows the current board again when a refused click raced its publish
        self.board = board
        #: session id -> a late mark's write and its board: awaited before the move
        self._late: dict[int, tuple[asyncio.Future[None], int]] = {}
        #: session id -> the task checking a board given back while the database failed
        self._rechecks: dict[int, asyncio.Task[None]] = {}

    def acts_alone(self, session_id: int, version: int, user_id: int) -> bool:
        """Whether ``user_id`` alone must act on the game's board at ``version``, as this
        process last published it: a click on a board of that version may take the board's
        buttons off in its first answer (no call later to retire it). Memory only, so it may
        be behind (another process moved the game): a move then refused gets the board back
        (:meth:`give_back_board`); a miss only costs the later call."""
        live = self.live_boards.live(session_id)
        return live is not None and live.version == version and live.movers == {user_id}

    async def mark_bare(self, session_id: int, message_id: int, version: int) -> bool:
        """Record that a click's first answer is about to take this board's buttons off (a stop
        before it is shown again is then repaired at start-up:
        :meth:`cogs.repairs.BoardRepairs.restore_bare_boards`). Whether it was written within
        :data:`BARE_MARK_BUDGET`: only then may the answer take the buttons off; a late write
        is awaited by :meth:`settle_mark` before the move."""
        write = asyncio.ensure_future(self.posts.mark_bare(session_id, message_id, version))
        done, _ = await asyncio.wait({write}, timeout=BARE_MARK_BUDGET)
        if not done:
            self._late[session_id] = (write, message_id)
            return False
        try:
            write.result()
        except StoreError as exc:  # no mark, no bare board: the answer defers
            log.warning("session %s: board not marked bare: %s", session_id, exc)
            return False
        self.live_boards.note_mark(session_id, message_id)
        return True

    async def settle_mark(self, session_id: int) -> None:
        """After a deferred first answer whose mark was late: wait for it, so that the move's
        record, which drops the session's mark, comes after it (no write more under load:
        a board shown again in place drops it, else a stale mark costs one edit at start-up)."""
        late = self._late.pop(session_id, None)
        if late is None:
            return
        write, message_id = late
        try:
            await write
        except StoreError as exc:
            log.warning("session %s: late bare mark failed: %s", session_id, exc)
            return
        self.live_boards.note_mark(session_id, message_id)

    async def _unmark(self, session_id: int, message_id: int) -> None:
        self.live_boards.forget_mark(session_id, message_id)
        await self.posts.unmark_bare(session_id, message_id)

    def took_buttons(self, message_id: int) -> None:
        """A click's first answer took the buttons off this board (see :meth:`acts_alone`)."""
        self.live_boards.took_buttons(message_id)

    async def give_back_board(self, session_id: int, reply: discord.Interaction,
                              version: int) -> None:
        """A move was refused after its click's first answer took the clicked board's buttons
        off (:meth:`acts_alone` guessed wrong, or the game moved on). If that board is still
        the game's recorded live board it becomes live again: with the buttons it had, when
        the game is still at its ``version`` or this process failed to post the next board
        (a click on them posts that board, as before); else (the game moved on in place meanwhile) the
        current board is shown in it. A newer board or an ended game leaves it retired.

        When the store fails the buttons come back from memory if this process's newest board
        of the game is at ``version``, and :meth:`_recheck` checks it once the store answers."""
        message = reply.message
        if message is None:
            return
        try:
            async with self.live_boards.lock(session_id):
                await self._give_back(session_id, message, reply, version)
            return
        except (StoreError, GameError) as exc:
            if not store_failed(exc):
                raise
            log.warning("session %s: store failing, board %s given back from memory: %s",
                        session_id, message.id, exc)
        live = self.live_boards.live(session_id)
        shown = live is not None and live.version == version
        if session_id not in self._rechecks and len(self._rechecks) < LIVE_BOARDS:
            self._rechecks[session_id] = asyncio.create_task(
                self._recheck(session_id, message, reply, version, shown))
        if shown:
            self.live_boards.buttons_back(message.id)
            await self._show_buttons(await self.channels.get(reply.channel_id or 0), session_id,
                                     message, reply)

    async def _show_buttons(self, channel: Any, session_id: int, message: discord.Message,
                            reply: discord.Interaction | None) -> None:
        """The clicked board with the buttons it was clicked with."""
        view = discord.ui.View.from_message(message, timeout=None)
        view.stop()  # routed by custom id (DynamicItems), never stored
        log.info("session %s: board %s gets its buttons back", session_id, message.id)
        await self.replies.edit(channel, session_id, message.id, reply, lambda: {"view": view})

    async def _give_back(self, session_id: int, message: discord.Message,
                         reply: discord.Interaction, version: int, shown: bool = False) -> None:
        """:meth:`give_back_board` against the store; ``shown``: the buttons were already given
        back from memory (a board no longer live then loses them again)."""
        row = await self.sessions.session(session_id)
        channel = await self.channels.get(row.channel_id)
        if row.status != "active" or row.turn_message_id != message.id:
            if shown:  # the game moved on elsewhere meanwhile: those buttons are stale
                await self.replies.edit(channel, row.id, message.id, reply,
                                        lambda: {"view": None})
            return
        if row.version == version or self.live_boards.refused(row.id):
            # (a move accepted meanwhile then retires it with a call: it is not bare)
            self.live_boards.buttons_back(message.id)
            if not shown:
                await self._show_buttons(channel, row.id, message, reply)
            await self._unmark(row.id, message.id)
            return
        if self.live_boards.posted(row.id) != row.version:
            return  # the newer version's publish is still due: it shows the board
        # this process already showed the newer version in this message: the answer may
        # have taken those buttons off (the two calls raced), so show it again
        log.info("session %s: board %s shown again at version %s", row.id, message.id,
                 row.version)
        await self.board.show_in_channel(Outcome(row, board_changed=True, new_turn=False),
                                         reply=reply)
        await self._unmark(row.id, message.id)

    async def _recheck(self, session_id: int, message: discord.Message,
                       reply: discord.Interaction, version: int, shown: bool) -> None:
        """:meth:`_give_back` every :data:`RECHECK_EVERY` s until the store answers."""
        deadline = asyncio.get_running_loop().time() + RECHECK_FOR
        try:
            while True:
                await asyncio.sleep(RECHECK_EVERY)
                try:
                    async with self.live_boards.lock(session_id):
                        await self._give_back(session_id, message, reply, version, shown)
                    return
                except (StoreError, GameError) as exc:
                    if not store_failed(exc):
                        raise
                    if asyncio.get_running_loop().time() > deadline:
                        log.warning("session %s: board %s not checked: the store kept failing",
                                    session_id, message.id)
                        return
        except (GameError, discord.HTTPException) as exc:
            log.warning("session %s: board %s not given back: %s", session_id, message.id, exc)
        finally:
            self._rechecks.pop(session_id, None)
