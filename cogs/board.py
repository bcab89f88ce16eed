"""The live-board protocol: each game has exactly one live board (its newest turn message),
posted as "record the intent, post, record the message", edited in place while the same
players are to act, repaired when Discord refused it or a crash came in between.

Nothing here decides game matters; it sends what the session layer and presenter return.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections import defaultdict
from collections.abc import Callable
from typing import Any, NamedTuple

import discord

from cogs.adapters import Channels, clip, edit_kwargs, message_kwargs
from cogs.hands import Hands
from cogs.pace import GlobalPace
from cogs.replies import Replies
from session import facts, ids, present, results
from session.errors import GameError, SessionError, StoreError
from session.facts import SessionRow
from session.posts import Posts
from session.service import Sessions, started
from session.specs import MessageSpec
from session.values import Outcome

log = logging.getLogger(__name__)

#: waits before posting a board again when Discord answered 429 or 5xx (after discord.py's own
#: retries); then the board waits for the next click or ``/game board``
BOARD_RETRY_WAITS = (1.0, 2.0, 4.0)
#: live boards remembered per process (who acts at which version)
LIVE_BOARDS = 4096
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


class LiveBoard(NamedTuple):
    """A game's newest board as this process last showed it (noted just before it goes out:
    a quick click on it must find it)."""

    version: int
    #: the users who must act on it (computer seats left out)
    movers: frozenset[int]


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
    ``/game board`` posts the board again, and :meth:`reconcile` does so at start-up, retiring
    any board that was posted but never recorded (a kill between the post and the record).

    A human's move in the game's channel goes out on its interaction (``reply``), which
    Discord exempts from the global rate limit: the board as a public follow-up (same intent
    and record; a follow-up has no nonce), and edits of a board through the click's own
    response when the click was on that board, or through the token the board was posted with
    while it is valid. When the interaction cannot take it (a DM, an expired or refused token,
    Discord failing) the board goes by the channel as for computer moves and timers
    (:class:`Replies`).
    """

    def __init__(self, sessions: Sessions, posts: Posts, pace: GlobalPace, channels: Channels,
                 replies: Replies, hands: Hands, owns: Callable[[int | None], bool]) -> None:
        self.sessions = sessions
        self.posts = posts
        #: every call of this process that counts toward Discord's global limit waits here
        self.pace = pace
        self.channels = channels
        self.replies = replies
        self.hands = hands
        #: whether this process runs a guild's shard (its start-up repairs are this process's)
        self.owns = owns
        # one publish at a time per session: concurrent clicks (simultaneous phases) must not
        # post boards out of order, retire the wrong message or DM a closed user twice
        self._publishing: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._posted: dict[int, int] = {}  # session id -> version of the newest board posted
        #: sessions whose newest board Discord refused in this process (see repair_board)
        self.missing: set[int] = set()
        #: session id -> its live board as this process last published it (a guess for the
        #: first answer to a click, never trusted for correctness; see acts_alone)
        self._live: dict[int, LiveBoard] = {}
        #: boards whose buttons a click's first answer took off, until its publish (which
        #: then retires them with no call) or a refusal gives them back
        self._bare: dict[int, None] = {}
        #: session id -> the board this process marked bare in the store (bare_boards)
        self._marked: dict[int, int] = {}
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
        live = self._live.get(session_id)
        return live is not None and live.version == version and live.movers == {user_id}

    async def mark_bare(self, session_id: int, message_id: int, version: int) -> bool:
        """Record that a click's first answer is about to take this board's buttons off (a stop
        before it is shown again is then repaired at start-up: :meth:`restore_bare_boards`).
        Whether it was written within :data:`BARE_MARK_BUDGET`: only then may the answer take
        the buttons off; a late write is awaited by :meth:`settle_mark` before the move."""
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
        self._note_mark(session_id, message_id)
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
        self._note_mark(session_id, message_id)

    def _note_mark(self, session_id: int, message_id: int) -> None:
        self._marked.pop(session_id, None)
        self._marked[session_id] = message_id
        while len(self._marked) > LIVE_BOARDS:
            del self._marked[next(iter(self._marked))]

    async def _unmark(self, session_id: int, message_id: int) -> None:
        if self._marked.get(session_id) == message_id:
            del self._marked[session_id]
        await self.posts.unmark_bare(session_id, message_id)

    def took_buttons(self, message_id: int) -> None:
        """A click's first answer took the buttons off this board (see :meth:`acts_alone`)."""
        self._bare[message_id] = None
        while len(self._bare) > LIVE_BOARDS:  # left by a click that failed before publishing
            del self._bare[next(iter(self._bare))]

    def _still_bare(self, message_id: int | None) -> int | None:
        """``message_id`` if a first answer took its buttons off and nothing gave them back
        since; forgotten now (its click's publish is the one that asks)."""
        if message_id is None or message_id not in self._bare:
            return None
        del self._bare[message_id]
        return message_id

    def _note_live(self, row: SessionRow, to_act: list[int]) -> None:
        self._live.pop(row.id, None)  # re-inserted last: the oldest entry goes first
        if row.status != "active":
            return
        users = (row.seats[seat].user_id for seat in to_act)
        movers = frozenset(user for user in users if user is not None)
        self._live[row.id] = LiveBoard(row.version, movers)
        while len(self._live) > LIVE_BOARDS:
            del self._live[next(iter(self._live))]

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
            async with self._publishing[session_id]:
                await self._give_back(session_id, message, reply, version)
            return
        except (StoreError, GameError) as exc:
            if not store_failed(exc):
                raise
            log.warning("session %s: store failing, board %s given back from memory: %s",
                        session_id, message.id, exc)
        live = self._live.get(session_id)
        shown = live is not None and live.version == version
        if session_id not in self._rechecks and len(self._rechecks) < LIVE_BOARDS:
            self._rechecks[session_id] = asyncio.create_task(
                self._recheck(session_id, message, reply, version, shown))
        if shown:
            self._bare.pop(message.id, None)
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
        if row.version == version or row.id in self.missing:
            # (a move accepted meanwhile then retires it with a call: it is not bare)
            self._bare.pop(message.id, None)
            if not shown:
                await self._show_buttons(channel, row.id, message, reply)
            await self._unmark(row.id, message.id)
            return
        if self._posted.get(row.id) != row.version:
            return  # the newer version's publish is still due: it shows the board
        # this process already showed the newer version in this message: the answer may
        # have taken those buttons off (the two calls raced), so show it again
        log.info("session %s: board %s shown again at version %s", row.id, message.id,
                 row.version)
        await self._publish(Outcome(row, board_changed=True, new_turn=False), reply=reply)
        await self._unmark(row.id, message.id)

    async def _recheck(self, session_id: int, message: discord.Message,
                       reply: discord.Interaction, version: int, shown: bool) -> None:
        """:meth:`_give_back` every :data:`RECHECK_EVERY` s until the store answers."""
        deadline = asyncio.get_running_loop().time() + RECHECK_FOR
        try:
            while True:
                await asyncio.sleep(RECHECK_EVERY)
                try:
                    async with self._publishing[session_id]:
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

    async def publish(self, outcome: Outcome, interaction: discord.Interaction | None = None,
                      *, retired: int | None = None,
                      posted: Callable[[], None] | None = None) -> None:
        """After a change: post the lobby or a fresh board in the channel, then private hands.
        ``interaction``: the acknowledged interaction of a human's move, which the board goes
        out on when it can; ``retired``: a board whose buttons that interaction's first answer
        already took off (no call to retire it again). Raises :class:`BoardNotPosted` when
        Discord keeps refusing the board. ``posted``: told once the board is up, before
        the hands go out (the operator's board latency)."""
        async with self._publishing[outcome.session.id]:
            hands = await self._publish(outcome, reply=interaction, retired=retired)
        if posted is not None:
            posted()
        if outcome.finished and started(outcome.session):
            await self.hands.end_in_order(outcome.session)  # no live button left anywhere
        elif hands:
            await self.hands.send_in_order(outcome.session, hands, outcome.started)

    async def _publish(self, outcome: Outcome, *, force_new: bool = False,
                       reply: discord.Interaction | None = None,
                       retired: int | None = None) -> list[int]:
        """Show ``outcome`` in the channel; returns the seats whose hands are due by DM."""
        row = outcome.session
        reply = self.replies.usable(reply, row)
        bare = self._still_bare(retired)
        channel = await self.channels.get(row.channel_id)
        # publishes of a session take turns (``_publishing``): what this read says of its
        # newest board stays true while this one renders
        current, pending = await self.posts.session_and_intent(row.id)
        if row.status == "lobby" or (row.status == "abandoned" and not started(row)):
            # only the newest lobby message keeps its Join/Start/Leave buttons
            self._live.pop(row.id, None)
            await self._post_lobby(row, channel, current, outcome, reply)
            return []
        if row.status == "active" and current.status != "active":
            # the game ended (an end vote, an abandon) after this change: its final board is
            # or will be up, and no board of a running game may follow it
            return []
        stale = row.version < self._posted.get(row.id, -1)  # a newer board is already up
        if row.status == "active" and (stale or not outcome.board_changed):
            await self._post_news(channel, outcome)
            return self.hands.due(outcome)
        state = await self.sessions.state(row)
        # who acts and the public view come with a move's outcome; other publishes work them out
        to_act = facts.to_act(row, state) if outcome.to_act is None else outcome.to_act
        spec = await present.turn_message(row, state, outcome.notices, row.lang,
                                          self.sessions.clock(), public=outcome.public,
                                          to_act=to_act)
        self._note_live(row, to_act)
        # the newest turn message loses its buttons only once the new one is up: a crash in
        # between never leaves no live board
        previous = current
        if not (outcome.new_turn or force_new or pending) \
                and await self._edit_turn_message(channel, previous, spec, reply):
            # the same players are still to act and nothing was revealed: edit in place
            self._posted[row.id] = row.version
            if previous.turn_message_id is not None \
                    and self._marked.get(row.id) == previous.turn_message_id:
                await self._unmark(row.id, previous.turn_message_id)  # shown again
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
        self._posted[row.id] = row.version
        self.missing.discard(row.id)
        # the message id and the end of the intent in one transaction, before anything else
        # goes to Discord: a crash after it leaves in-place edits aimed at the right board
        await self.posts.board_posted(row.id, None if outcome.finished else message.id)
        self._marked.pop(row.id, None)  # (the record dropped the session's bare mark)
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
                    self.missing.add(row.id)
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

    async def board_missing(self, session_id: int) -> bool:
        """Whether a board's post was started and never recorded (failed, or the bot stopped)."""
        return await self.posts.board_is_pending(session_id)

    async def repair_board(self, session_id: int, clicked_message_id: int | None = None) -> bool:
        """Post the current board when the live one is missing: its post failed or was never
        recorded (an intent is left), or a refused click shows the bot stopped after recording
        a move but before posting its board (the click was on the newest board, or on the
        lobby, and this process has posted no board for the session since it started).
        Returns whether it posted one."""
        async with self._publishing[session_id]:
            row, pending = await self.posts.session_and_intent(session_id)
            if row.status == "lobby" or (row.status != "active" and not pending):
                return False
            if not pending:
                if session_id in self._posted:
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
        return await self._publish(Outcome(row, board_changed=True, private_seats=seats),
                                   force_new=True)

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
        buttons; the answer marked it first (:meth:`mark_bare`). At start-up each marked board
        of this process's shards that is still its game's live board is shown again in place
        with the current state and buttons (one call each: what changed, not what exists).
        Returns how many were."""
        restored = 0
        for session_id, message_id in await self.posts.bare_boards():
            try:
                restored += await self._restore_bare(session_id, message_id)
            except (GameError, StoreError, discord.HTTPException) as exc:
                log.warning("session %s: bare board not restored at start-up: %s", session_id, exc)
        return restored

    async def _restore_bare(self, session_id: int, message_id: int) -> bool:
        async with self._publishing[session_id]:
            if self._marked.get(session_id) == message_id:
                return False  # marked by a click of this process: its move shows the board
            row = await self.sessions.session(session_id)
            if not self.owns(row.guild_id):
                return False
            if row.status != "active" or row.turn_message_id != message_id \
                    or session_id in self._posted:
                await self.posts.unmark_bare(session_id, message_id)  # retired or shown since
                return False
            log.info("session %s: board %s was left bare; shown again", row.id, message_id)
            await self._publish(Outcome(row, board_changed=True, new_turn=False))
            await self.posts.unmark_bare(session_id, message_id)
        return True

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
