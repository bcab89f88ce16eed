"""Boards repaired: a board Discord refused or a stop left unposted is posted again (at the next
click on the game, by ``/game board``, at start-up), and a live board a stop left without its
buttons is shown again at start-up. What is posted goes through the publish protocol
(:mod:`cogs.board`)."""

from __future__ import annotations

import logging
from collections.abc import Callable

import discord

from cogs.board import Board
from cogs.hands import Hands
from cogs.liveboards import LiveBoards
from session import facts
from session.errors import GameError, StoreError
from session.facts import SessionRow
from session.posts import Posts
from session.service import Sessions
from session.values import Outcome

log = logging.getLogger(__name__)


class BoardRepairs:
    """Repairs of live boards after a refusal or a stop; one per bot."""

    def __init__(self, sessions: Sessions, posts: Posts, hands: Hands, live_boards: LiveBoards,
                 board: Board, owns: Callable[[int | None], bool]) -> None:
        self.sessions = sessions
        self.posts = posts
        self.hands = hands
        self.live_boards = live_boards
        #: posts the repaired boards
        self.board = board
        #: whether this process runs a guild's shard (its start-up repairs are this process's)
        self.owns = owns

    def refused(self, session_id: int) -> bool:
        """Whether Discord refused the game's newest board in this process: a click on the
        game then posts it again (:meth:`repair_board`)."""
        return self.live_boards.refused(session_id)

    async def board_missing(self, session_id: int) -> bool:
        """Whether a board's post was started and never recorded (failed, or the bot stopped)."""
        return await self.posts.board_is_pending(session_id)

    async def repair_board(self, session_id: int, clicked_message_id: int | None = None) -> bool:
        """Post the current board when the live one is missing: its post failed or was never
        recorded (an intent is left), or a refused click shows the bot stopped after recording
        a move but before posting its board (the click was on the newest board, or on the
        lobby, and this process has posted no board for the session since it started).
        Returns whether it posted one."""
        async with self.live_boards.lock(session_id):
            row, pending = await self.posts.session_and_intent(session_id)
            if row.status == "lobby" or (row.status != "active" and not pending):
                return False
            if not pending:
                if self.live_boards.posted(session_id) is not None:
                    return False  # a publish of this process is current or under way
                if clicked_message_id is None or \
                        row.turn_message_id not in (None, clicked_message_id):
                    return False
            hands = await self._repost(row)
        if hands:
            await self.hands.send_in_order(row, hands)
        return True

    async def _repost(self, row: SessionRow) -> list[int]:
        """Post the current board as a new message; then take the buttons off every board of
        this session that was posted after the recorded one but never recorded itself."""
        seats = ([s.seat for s in row.seats if not s.is_bot]
                 if facts.hidden_information(row.game_id) else [])
        log.info("session %s: re-posting the board of version %s", row.id, row.version)
        # (with an intent left, the new board's publish sweeps for unrecorded boards)
        return await self.board.show_in_channel(
            Outcome(row, board_changed=True, private_seats=seats), force_new=True)

    async def reconcile(self) -> int:
        """At start-up: every board whose post was started and never recorded is posted again
        (or, within Discord's nonce window, found again) and stray copies retired; then every
        live board left without buttons is shown again (:meth:`restore_bare_boards`). One
        failing session does not stop the others. Returns how many sessions were repaired."""
        repaired = 0
        for session_id in await self.posts.pending_boards():
            try:
                if await self.repair_board(session_id):
                    repaired += 1
            except (GameError, StoreError, discord.HTTPException) as exc:
                log.warning("session %s: board not reconciled at start-up: %s", session_id, exc)
        return repaired + await self.restore_bare_boards()

    async def restore_bare_boards(self) -> int:
        """A process stopped between a click's first answer that took the board's buttons off
        and the move's record or its next board's post leaves the game's live board without
        buttons; the answer marked it first (:meth:`cogs.firstanswer.FirstAnswer.mark_bare`).
        At start-up each marked board of this process's shards that is still its game's live
        board is shown again in place with the current state and buttons (one call each: what
        changed, not what exists). Returns how many were."""
        restored = 0
        for session_id, message_id in await self.posts.bare_boards():
            try:
                restored += await self._restore_bare(session_id, message_id)
            except (GameError, StoreError, discord.HTTPException) as exc:
                log.warning("session %s: bare board not restored at start-up: %s", session_id, exc)
        return restored

    async def _restore_bare(self, session_id: int, message_id: int) -> bool:
        async with self.live_boards.lock(session_id):
            if self.live_boards.marked(session_id) == message_id:
                return False  # marked by a click of this process: its move shows the board
            row = await self.sessions.session(session_id)
            if not self.owns(row.guild_id):
                return False
            if row.status != "active" or row.turn_message_id != message_id \
                    or self.live_boards.posted(session_id) is not None:
                await self.posts.unmark_bare(session_id, message_id)  # retired or shown since
                return False
            log.info("session %s: board %s was left bare; shown again", row.id, message_id)
            await self.board.show_in_channel(Outcome(row, board_changed=True, new_turn=False))
            await self.posts.unmark_bare(session_id, message_id)
        return True
