"""Discord glue shared by the cogs: turn message specs into messages, publish turns, DM hands.

Nothing here decides game matters; it sends what the session layer and presenter return.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import logging
import time
from collections import defaultdict
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

import discord

import engines
from cogs.pace import GlobalPace, limit_from_env
from db.database import StoreError
from engines.base import GameError
from session import present
from session.errors import SessionError
from session.present import ButtonSpec, MessageSpec, SelectSpec
from session.rooms import Rooms
from session.service import Sessions
from session.values import Outcome, TimerEvent
from text.catalog import error_text, language, t

if TYPE_CHECKING:
    from db.store import SessionRow

log = logging.getLogger(__name__)

#: Discord's JSON error code for "Cannot send messages to this user" (DMs closed)
CANNOT_DM = 50007
#: waits before posting a board again when Discord answered 429 or 5xx (after discord.py's own
#: retries); then the board waits for the next click or ``/game board``
BOARD_RETRY_WAITS = (1.0, 2.0, 4.0)
#: how long a user's DMs are skipped after Discord failed one with a server error
DM_PAUSE = 120.0
#: Discord's limit on a message's content
MAX_CONTENT = 2000
#: an interaction token serves follow-ups and edits for 15 minutes; a call is not started in
#: its last seconds (it would fail and then go by the channel anyway)
TOKEN_MARGIN = datetime.timedelta(seconds=30)
#: at most this much of a user's own text is echoed back in an error
ECHO_LIMIT = 100
#: live boards remembered per process (who acts at which version)
LIVE_BOARDS = 4096

_STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


def board_nonce(row: SessionRow) -> str:
    """The nonce of a session's board at its version (Discord: at most 25 characters)."""
    return f"b{row.id}v{row.version}"[:25]


def lang_of(interaction: discord.Interaction) -> str:
    return language(str(interaction.locale) if interaction.locale else None)


def to_view(spec: MessageSpec) -> discord.ui.View | None:
    """Persistent components (timeout=None); their clicks are routed by custom_id."""
    if not spec.rows:
        return None
    view = discord.ui.View(timeout=None)
    for row_number, row in enumerate(spec.rows):
        for item in row:
            if isinstance(item, ButtonSpec):
                view.add_item(discord.ui.Button(
                    label=item.label, custom_id=item.custom_id, style=_STYLES[item.style],
                    row=row_number,
                ))
            elif isinstance(item, SelectSpec):
                view.add_item(discord.ui.Select(
                    custom_id=item.custom_id, placeholder=item.placeholder, row=row_number,
                    options=[discord.SelectOption(label=label, value=value)
                             for label, value in item.options],
                ))
    # clicks are routed by the DynamicItems (custom ids), so discord.py need not keep this view
    # in its store for the message; a finished view is sent but never stored (no memory growth)
    view.stop()
    return view


def message_kwargs(spec: MessageSpec) -> dict[str, Any]:
    kwargs: dict[str, Any] = {"content": spec.content}
    view = to_view(spec)
    if view is not None:
        kwargs["view"] = view
    if spec.image is not None:
        kwargs["file"] = discord.File(_bytes_io(spec.image), filename=spec.filename,
                                      description=spec.description)
    return kwargs


def edit_kwargs(spec: MessageSpec) -> dict[str, Any]:
    """The same message as an edit: files go in ``attachments``; no view clears the buttons."""
    kwargs = message_kwargs(spec)
    file = kwargs.pop("file", None)
    kwargs["attachments"] = [file] if file is not None else []
    kwargs.setdefault("view", None)
    return kwargs


def _bytes_io(data: bytes) -> Any:
    import io

    return io.BytesIO(data)


async def confirm(interaction: discord.Interaction, key: str) -> bool:
    """A private "done" after a recorded change. It may be lost (a 429 storm, an expired
    token) without holding back what matters more: the board that follows. Returns whether
    it went out (after a "thinking" defer, a later follow-up may then be public)."""
    try:
        await interaction.followup.send(t(lang_of(interaction), key), ephemeral=True)
    except discord.HTTPException:
        log.warning("could not confirm %s to user %s", key, interaction.user.id)
        return False
    return True


def clip(text: str, limit: int = MAX_CONTENT) -> str:
    """``text`` cut to ``limit`` characters (an ellipsis shows the cut)."""
    return text if len(text) <= limit else text[:limit - 1] + "…"


async def answer_error(interaction: discord.Interaction, error: GameError) -> None:
    """An error goes only to the user who caused it (ephemeral), in their language; what the
    user typed is echoed clipped, so a long input never makes the answer itself too long."""
    lang = lang_of(interaction)
    params = {k: clip(v, ECHO_LIMIT) if isinstance(v, str) else v for k, v in error.params.items()}
    await _answer_privately(interaction, clip(error_text(lang, error.key, params)))


async def answer_failure(interaction: discord.Interaction, exc: BaseException) -> None:
    """The last resort for an error nobody foresaw: logged with its traceback (a bug to fix),
    and the user still gets a clear private answer instead of "thinking…" forever."""
    log.error("interaction %s of user %s failed", interaction.id, interaction.user.id,
              exc_info=exc)
    await _answer_privately(interaction, t(lang_of(interaction), "error.internal"))


async def on_command_error(interaction: discord.Interaction,
                           error: discord.app_commands.AppCommandError) -> None:
    """The command tree's error handler: a refusal nobody caught is still answered."""
    original = getattr(error, "original", error)
    if isinstance(original, GameError):
        await answer_error(interaction, original)
    else:
        await answer_failure(interaction, original)


def closed_privately(interaction: discord.Interaction) -> bool:
    """Whether the first answer updated the clicked private (ephemeral) message, as a move
    picker is closed by the click that plays its move."""
    message = interaction.message
    return (interaction.response.type == discord.InteractionResponseType.message_update
            and message is not None and message.flags.ephemeral)


async def _answer_privately(interaction: discord.Interaction, message: str) -> None:
    try:
        if not interaction.response.is_done():
            await interaction.response.send_message(message, ephemeral=True)
        elif closed_privately(interaction):
            # the picker the user is looking at says why, in place of its "done"
            await interaction.edit_original_response(content=message, view=None,
                                                     attachments=[])
        else:
            await interaction.followup.send(message, ephemeral=True)
    except discord.HTTPException as exc:
        # an expired token (15 minutes) or Discord failing: nothing more can reach the user
        log.warning("could not answer interaction %s: %s", interaction.id, exc)


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


class Host:
    """Publishes outcomes to Discord. One per bot; the cogs share it.

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
    Discord failing) the board goes by the channel as for computer moves and timers.
    """

    def __init__(self, client: discord.Client, sessions: Sessions, rooms: Rooms) -> None:
        self.client = client
        self.sessions = sessions
        self.rooms = rooms
        # one publish at a time per session: concurrent clicks (simultaneous phases) must not
        # post boards out of order, retire the wrong message or DM a closed user twice
        self._publishing: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        # DMs go out after the board, outside the publish lock (a failing DM must not hold up
        # the next board), one session's DMs at a time so a newer hand never precedes an older
        self._dming: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._posted: dict[int, int] = {}  # session id -> version of the newest board posted
        #: users whose DMs failed with a server error, until when (monotonic) they are skipped
        self._dm_down: dict[int, float] = {}
        #: sessions whose newest board Discord refused in this process (see repair_board)
        self.missing: set[int] = set()
        #: (session id, user id) already told in the channel that their DMs do not arrive
        self._dm_told: set[tuple[int, int]] = set()
        self._languages: dict[int, str] = {}  # user id -> language last seen (remember_language)
        #: session id -> (its board posted as a follow-up by this process, when its token
        #: expires): the board's later edits go through that token while it is valid
        self._followups: dict[int, tuple[discord.WebhookMessage, datetime.datetime]] = {}
        #: every call of this process that counts toward Discord's global limit waits here
        self.pace = GlobalPace(limit_from_env())
        #: session id -> its live board as this process last published it (a guess for the
        #: first answer to a click, never trusted for correctness; see acts_alone)
        self._live: dict[int, LiveBoard] = {}
        #: boards whose buttons a click's first answer took off, until its publish (which
        #: then retires them with no call) or a refusal gives them back
        self._bare: dict[int, None] = {}

    def acts_alone(self, session_id: int, version: int, user_id: int) -> bool:
        """Whether ``user_id`` alone must act on the game's board at ``version``, as this
        process last published it: a click on a board of that version may take the board's
        buttons off in its first answer (no call later to retire it). Memory only, so it may
        be behind (another process moved the game): a move then refused gets the board back
        (:meth:`give_back_board`); a miss only costs the later call."""
        live = self._live.get(session_id)
        return live is not None and live.version == version and live.movers == {user_id}

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

    def _note_live(self, row: SessionRow, state: Any) -> None:
        self._live.pop(row.id, None)  # re-inserted last: the oldest entry goes first
        if row.status != "active":
            return
        users = (row.seats[seat].user_id for seat in engines.get(row.game_id).to_act(state))
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
        current board is shown in it. A newer board or an ended game leaves it retired."""
        message = reply.message
        if message is None:
            return
        async with self._publishing[session_id]:
            row = await self.sessions.session(session_id)
            if row.status != "active" or row.turn_message_id != message.id:
                return
            channel = await self.channel(row.channel_id)
            if row.version == version or row.id in self.missing:
                # (a move accepted meanwhile then retires it with a call: it is not bare)
                self._bare.pop(message.id, None)
                view = discord.ui.View.from_message(message, timeout=None)
                view.stop()  # routed by custom id (DynamicItems), never stored
                log.info("session %s: board %s gets its buttons back", row.id, message.id)
                await self._edit_board(channel, row.id, message.id, reply, lambda: {"view": view})
                return
            if self._posted.get(row.id) != row.version:
                return  # the newer version's publish is still due: it shows the board
            # this process already showed the newer version in this message: the answer may
            # have taken those buttons off (the two calls raced), so show it again
            log.info("session %s: board %s shown again at version %s", row.id, message.id,
                     row.version)
            hands = await self._publish(Outcome(row, board_changed=True, new_turn=False),
                                        reply=reply)
        if hands:
            await self._send_hands_in_order(row, hands)

    async def channel(self, channel_id: int) -> discord.abc.Messageable:
        channel = self.client.get_channel(channel_id)
        if channel is None:
            async with self.pace:
                channel = await self.client.fetch_channel(channel_id)
        return channel  # type: ignore[return-value]

    async def publish(self, outcome: Outcome, interaction: discord.Interaction | None = None,
                      *, retired: int | None = None) -> None:
        """After a change: post the lobby or a fresh board in the channel, then private hands.
        ``interaction``: the acknowledged interaction of a human's move, which the board goes
        out on when it can; ``retired``: a board whose buttons that interaction's first answer
        already took off (no call to retire it again). Raises :class:`BoardNotPosted` when
        Discord keeps refusing the board."""
        async with self._publishing[outcome.session.id]:
            hands = await self._publish(outcome, reply=interaction, retired=retired)
        if hands:
            await self._send_hands_in_order(outcome.session, hands)

    @staticmethod
    def _usable(reply: discord.Interaction | None, row: SessionRow) -> discord.Interaction | None:
        """``reply`` when the board may go out on it: in the game's own channel (a DM's
        interaction posts in the DM), acknowledged, its token valid for a while yet."""
        if reply is None or reply.channel_id != row.channel_id or not reply.response.is_done():
            return None
        if discord.utils.utcnow() + TOKEN_MARGIN >= reply.expires_at:
            return None
        return reply

    async def _publish(self, outcome: Outcome, *, force_new: bool = False,
                       reply: discord.Interaction | None = None,
                       retired: int | None = None) -> list[int]:
        """Show ``outcome`` in the channel; returns the seats whose hands are due by DM."""
        row = outcome.session
        reply = self._usable(reply, row)
        bare = self._still_bare(retired)
        channel = await self.channel(row.channel_id)
        current = await self.sessions.session(row.id)
        if row.status == "lobby" or (row.status == "abandoned" and row.state_json is None):
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
            # a vote or a seat change: a line of news, not a new board
            lines = present.notices_text(row, outcome.notices, row.lang)
            if lines:
                async with self.pace:
                    await channel.send(clip("\n".join(lines)))
            return outcome.private_seats
        state = await self.sessions.state(row)
        spec = await present.turn_message(row, state, outcome.notices, row.lang,
                                          self.sessions.clock())
        self._note_live(row, state)
        # the newest turn message (a publish just before this one may have posted it) loses its
        # buttons only once the new one is up: a crash in between never leaves no live board
        previous = await self.sessions.session(row.id)
        pending = await self.sessions.store.board_is_pending(row.id)
        if not (outcome.new_turn or force_new or pending) \
                and await self._edit_turn_message(channel, previous, spec, reply):
            # the same players are still to act and nothing was revealed: edit in place
            self._posted[row.id] = row.version
            return outcome.private_seats if row.status == "active" else []
        pings = await self._turn_pings(row, state)
        board: discord.WebhookMessage | None = None
        maybe_posted = False  # a follow-up Discord failed may still have been made
        if reply is not None:
            board, maybe_posted = await self._follow_up_board(reply, row, spec, pings)
        message = board or await self._post_board(row, channel, spec, pings)
        self._posted[row.id] = row.version
        self.missing.discard(row.id)
        # the message id and the end of the intent in one transaction, before anything else
        # goes to Discord: a crash after it leaves in-place edits aimed at the right board
        await self.sessions.store.board_posted(row.id, None if outcome.finished else message.id)
        if previous.turn_message_id not in (message.id, bare):
            await self._retire_turn_message(channel, previous, reply)
        self._remember_follow_up(row.id, None if outcome.finished else board, reply)
        if maybe_posted:
            await self._retire_unrecorded(previous, message.id)
        if outcome.finished:
            for content in present.breakdown_messages(row, row.lang):
                await self._say(reply, channel, content)
        return outcome.private_seats if row.status == "active" else []

    async def _say(self, reply: discord.Interaction | None, channel: Any, content: str) -> None:
        """A public text: a follow-up of ``reply`` when it takes one, else by the channel."""
        if reply is not None:
            try:
                await reply.followup.send(content)
                return
            except discord.HTTPException as exc:
                log.info("text not sent on interaction %s: %s; by the channel", reply.id, exc)
        async with self.pace:
            await channel.send(content)

    async def _post_lobby(self, row: SessionRow, channel: Any, current: SessionRow,
                          outcome: Outcome, reply: discord.Interaction | None) -> None:
        """The lobby as a new message (on the interaction that changed it when there is one:
        exempt from the global limit), then the previous one loses its buttons."""
        spec = present.lobby_message(row, outcome.notices, row.lang)
        followed: discord.WebhookMessage | None = None
        maybe_posted = False
        if reply is not None:
            followed, maybe_posted = await self._follow_up(reply, f"lobby of session {row.id}",
                                                           **message_kwargs(spec))
        if followed is not None:
            message_id = followed.id
        else:
            async with self.pace:
                message_id = (await channel.send(**message_kwargs(spec))).id
        await self._retire_turn_message(channel, current, reply)
        live = row.status == "lobby"
        await self.sessions.set_turn_message(row.id, message_id if live else None)
        self._remember_follow_up(row.id, followed if live else None, reply)
        if maybe_posted:  # a copy Discord made all the same keeps no live buttons
            await self._retire_unrecorded(current, message_id)

    async def _turn_pings(self, row: SessionRow, state: Any) -> discord.AllowedMentions:
        """Who a new board may ping: the players now to move, in every pace, never someone who
        turned pings off or is in quiet hours (their ping is a timer then, due when the quiet
        hours end: see session/nudges.py)."""
        if row.status != "active":
            return discord.AllowedMentions.none()
        users = []
        now = self.sessions.clock()
        for seat in engines.get(row.game_id).to_act(state):
            user_id = row.seats[seat].user_id
            if user_id is None:
                continue
            settings = await self.sessions.store.settings(user_id)
            if settings is not None and not settings["pings"]:
                continue
            if not (await self.sessions.quiet(user_id)).is_quiet(now):
                users.append(discord.Object(user_id))
        return discord.AllowedMentions(everyone=False, roles=False, users=users)

    async def _post_board(self, row: SessionRow, channel: Any, spec: MessageSpec,
                          pings: discord.AllowedMentions) -> discord.Message:
        """Post a board, after recording the intent. discord.py already waits out 429s and
        retries 500/502/504 a few times; a board must not be lost to a longer storm or to a
        503 (the move is recorded), so wait a little and try again, a bounded number of times.
        The nonce makes a repeat of a post Discord did make (a 5xx after the write) return
        that message instead of a second board."""
        await self.sessions.store.board_pending(row.id, row.version,
                                                self.sessions.clock().isoformat())
        for attempt, wait in enumerate((*BOARD_RETRY_WAITS, None)):
            try:
                async with self.pace:
                    return await channel.send(  # a fresh file every time
                        **message_kwargs(spec), allowed_mentions=pings, nonce=board_nonce(row))
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
        await self.sessions.store.board_pending(row.id, row.version,
                                                self.sessions.clock().isoformat())
        return await self._follow_up(reply, f"board of session {row.id} (version {row.version})",
                                     **message_kwargs(spec), allowed_mentions=pings)

    @staticmethod
    async def _follow_up(reply: discord.Interaction, what: str, **kwargs: Any,
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

    def _remember_follow_up(self, session_id: int, board: discord.WebhookMessage | None,
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

    async def board_missing(self, session_id: int) -> bool:
        """Whether a board's post was started and never recorded (failed, or the bot stopped)."""
        return await self.sessions.store.board_is_pending(session_id)

    async def repair_board(self, session_id: int, clicked_message_id: int | None = None) -> bool:
        """Post the current board when the live one is missing: its post failed or was never
        recorded (an intent is left), or a refused click shows the bot stopped after recording
        a move but before posting its board (the click was on the newest board, or on the
        lobby, and this process has posted no board for the session since it started).
        Returns whether it posted one."""
        async with self._publishing[session_id]:
            row = await self.sessions.session(session_id)
            pending = await self.sessions.store.board_is_pending(session_id)
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
            await self._send_hands_in_order(row, hands)
        return True

    async def _repost(self, row: SessionRow) -> list[int]:
        """Post the current board as a new message; then take the buttons off every board of
        this session that was posted after the recorded one but never recorded itself."""
        seats = ([s.seat for s in row.seats if not s.is_bot]
                 if engines.get(row.game_id).meta.hidden_information else [])
        log.info("session %s: re-posting the board of version %s", row.id, row.version)
        hands = await self._publish(Outcome(row, board_changed=True, private_seats=seats),
                                    force_new=True)
        await self._retire_unrecorded(row, (await self.sessions.session(row.id)).turn_message_id)
        return hands

    async def _retire_unrecorded(self, row: SessionRow, live: int | None) -> None:
        """Boards of ``row`` newer than its recorded turn message (before this repair) that are
        not the live one: posted by a process that stopped before recording them."""
        channel = await self.channel(row.channel_id)
        after = discord.Object(row.turn_message_id) if row.turn_message_id else None
        prefix = f"sk:{row.id}:"
        try:
            async with self.pace:  # one page of history: one call
                found = [message async for message in channel.history(limit=50, after=after)]
            for message in found:
                if message.id == live:
                    continue
                # only this bot's messages carry components with its custom ids
                if any(getattr(item, "custom_id", None) and item.custom_id.startswith(prefix)
                       for component in message.components
                       for item in getattr(component, "children", [])):
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
        for session_id in await self.sessions.store.pending_boards():
            try:
                if await self.repair_board(session_id):
                    repaired += 1
            except (GameError, StoreError, discord.HTTPException) as exc:
                log.warning("session %s: board not reconciled at start-up: %s", session_id, exc)
        return repaired + await self.restore_bare_boards()

    async def restore_bare_boards(self) -> int:
        """A process stopped between a click's first answer that took the board's buttons off
        and the move's record or its next board's post leaves the game's live board without
        buttons, and nothing recorded says so. At start-up each running game of this process's
        shards without secrets (only those get buttons that take a move) has its recorded board
        read, one paced call at a time (live calls go in between); a bare one is shown again in
        place with the current state and buttons. Returns how many were."""
        restored = 0
        for session_id in await self.sessions.store.open_session_ids():
            try:
                if session_id in self._posted:
                    continue  # this process has published it since it started
                row = await self.sessions.session(session_id)
                if row.status != "active" or row.turn_message_id is None \
                        or not self.rooms.timers.owns(row.guild_id) \
                        or engines.get(row.game_id).meta.hidden_information:
                    continue
                channel = await self.channel(row.channel_id)
                async with self.pace:
                    message = await channel.fetch_message(row.turn_message_id)
                if message.components:
                    continue
                async with self._publishing[session_id]:
                    row = await self.sessions.session(session_id)  # a click may have come
                    if row.status != "active" or row.turn_message_id != message.id \
                            or session_id in self._posted:
                        continue
                    log.info("session %s: board %s has no buttons; shown again", row.id,
                             message.id)
                    await self._publish(Outcome(row, board_changed=True, new_turn=False))
                restored += 1
            except (GameError, StoreError, discord.HTTPException) as exc:
                log.warning("session %s: bare board not checked at start-up: %s", session_id, exc)
        return restored

    async def _edit_turn_message(self, channel: Any, row: SessionRow, spec: MessageSpec,
                                 reply: discord.Interaction | None = None) -> bool:
        if not row.turn_message_id:
            return False
        try:
            await self._edit_board(channel, row.id, row.turn_message_id, reply,
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
            await self._edit_board(channel, row.id, row.turn_message_id, reply,
                                   lambda: {"view": None})
        except discord.HTTPException:
            log.info("turn message %s of session %s is gone", row.turn_message_id, row.id)

    async def _edit_board(self, channel: Any, session_id: int, message_id: int,
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

    async def _send_hands_in_order(self, row: SessionRow, seats: list[int]) -> None:
        async with self._dming[row.id]:
            await self.send_hands(row, seats, await self.channel(row.channel_id))

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
        to_act = engines.get(row.game_id).to_act(state)
        for seat in seats:
            user_id = row.seats[seat].user_id
            if user_id is None:
                continue
            if not await self.sessions.may_dm(user_id) \
                    or self._dm_down.get(user_id, 0.0) > time.monotonic():
                continue  # the turn message's "My hand" button serves
            lang = await self.sessions.store.user_lang(user_id) or row.lang
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
        stored = await self.sessions.store.hand_message(session_id, user_id)
        if stored is not None and not (acting and not stored["acting"]):
            try:
                async with self.pace:
                    await self.client.get_partial_messageable(stored["channel_id"]) \
                        .get_partial_message(stored["message_id"]).edit(**edit_kwargs(spec))
            except discord.NotFound:
                pass  # gone: a new one below
            else:
                if stored["acting"] and not acting:  # the turn is over: next time, a new DM
                    await self.sessions.store.save_hand_message(
                        session_id, user_id, stored["channel_id"], stored["message_id"], False)
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
        await self.sessions.store.save_hand_message(session_id, user_id, message.channel.id,
                                                    message.id, acting)

    async def remember_language(self, user_id: int, locale: str | None) -> None:
        """Each user's Discord language, from their interactions, for their DMs; written only
        when it changes (a cache per process: a second process at worst writes it again)."""
        if locale is None:
            return
        lang = language(locale)
        if self._languages.get(user_id) == lang:
            return
        if await self.sessions.store.user_lang(user_id) != lang:
            await self.sessions.store.save_user_lang(user_id, lang)
        self._languages[user_id] = lang

    async def publish_timer(self, event: TimerEvent) -> None:
        """A fired timer: a ping, a vote, a warning, or the turn a computer played."""
        if event.outcome is not None:
            with contextlib.suppress(BoardNotPosted):  # logged; the next click re-posts it
                await self.publish(event.outcome)
            return
        spec = present.timer_message(event, event.session.lang)
        if spec is not None:
            channel = await self.channel(event.session.channel_id)
            # a reminder is meant to ping (the player allowed it: the timer checked their
            # settings and quiet hours when it was scheduled and fired); a vote on an absent
            # player pings that player, once
            users = [event.session.seats[seat].user_id
                     for seat, _ in event.params.get("seats", [])
                     if event.kind in ("remind", "last_call", "ping")]
            if event.kind in ("timeout", "absent") and event.seat is not None:
                users.append(event.session.seats[event.seat].user_id)
            pings = discord.AllowedMentions(
                users=[discord.Object(u) for u in users if u is not None])
            async with self.pace:
                await channel.send(**message_kwargs(spec), allowed_mentions=pings)
