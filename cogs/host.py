"""Discord glue shared by the cogs: turn message specs into messages, publish turns, DM hands.

Nothing here decides game matters; it sends what the session layer and presenter return.
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from typing import TYPE_CHECKING, Any

import discord

import engines
from engines.base import GameError
from session import present
from session.async_play import AsyncPlay, TimerEvent
from session.i18n import error_text, language, t
from session.present import ButtonSpec, MessageSpec, SelectSpec
from session.service import Outcome, Sessions

if TYPE_CHECKING:
    from db.store import SessionRow

log = logging.getLogger(__name__)

#: Discord's JSON error code for "Cannot send messages to this user" (DMs closed)
CANNOT_DM = 50007
#: rounds of discord.py's own five tries a board gets when Discord keeps answering 429
BOARD_ATTEMPTS = 3

_STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


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


async def confirm(interaction: discord.Interaction, key: str) -> None:
    """A private "done" after a recorded change. It may be lost (a 429 storm, an expired
    token) without holding back what matters more: the board that follows."""
    try:
        await interaction.followup.send(t(lang_of(interaction), key), ephemeral=True)
    except discord.HTTPException:
        log.warning("could not confirm %s to user %s", key, interaction.user.id)


async def answer_error(interaction: discord.Interaction, error: GameError) -> None:
    """An error goes only to the user who caused it (ephemeral), in their language."""
    lang = lang_of(interaction)
    message = error_text(lang, error.key, error.params)
    if interaction.response.is_done():
        await interaction.followup.send(message, ephemeral=True)
    else:
        await interaction.response.send_message(message, ephemeral=True)


class Host:
    """Publishes outcomes to Discord. One per bot; the cogs share it."""

    def __init__(self, client: discord.Client, sessions: Sessions) -> None:
        self.client = client
        self.sessions = sessions
        self.play = AsyncPlay(sessions)
        # one publish at a time per session: concurrent clicks (simultaneous phases) must not
        # post boards out of order, retire the wrong message or DM a closed user twice
        self._publishing: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._posted: dict[int, int] = {}  # session id -> version of the newest board posted
        self._languages: dict[int, str] = {}  # user id -> language last seen (remember_language)

    async def channel(self, channel_id: int) -> discord.abc.Messageable:
        channel = self.client.get_channel(channel_id)
        if channel is None:
            channel = await self.client.fetch_channel(channel_id)
        return channel  # type: ignore[return-value]

    async def publish(self, outcome: Outcome) -> None:
        """After a change: post the lobby or a fresh board in the channel, then private hands."""
        async with self._publishing[outcome.session.id]:
            await self._publish(outcome)

    async def _publish(self, outcome: Outcome) -> None:
        row = outcome.session
        channel = await self.channel(row.channel_id)
        if row.status == "lobby" or (row.status == "abandoned" and row.state_json is None):
            # only the newest lobby message keeps its Join/Start/Leave buttons
            previous = await self.sessions.session(row.id)
            message = await channel.send(**message_kwargs(present.lobby_message(
                row, outcome.notices, row.lang)))
            await self._retire_turn_message(channel, previous)
            await self.sessions.set_turn_message(row.id, message.id if row.status == "lobby"
                                                 else None)
            return
        stale = row.version < self._posted.get(row.id, -1)  # a newer board is already up
        if row.status == "active" and (stale or not outcome.board_changed):
            # a vote or a seat change: a line of news, not a new board
            lines = present.notices_text(row, outcome.notices, row.lang)
            if lines:
                await channel.send("\n".join(lines)[:2000])
            await self.send_hands(row, outcome.private_seats, channel)
            return
        state = await self.sessions.state(row)
        spec = await present.turn_message(row, state, outcome.notices, row.lang,
                                          self.sessions.clock())
        # the newest turn message (a publish just before this one may have posted it) loses its
        # buttons only once the new one is up: a crash in between never leaves no live board
        previous = await self.sessions.session(row.id)
        if not outcome.new_turn and await self._edit_turn_message(channel, previous, spec):
            # the same players are still to act and nothing was revealed: edit in place
            self._posted[row.id] = row.version
            await self.send_hands(row, outcome.private_seats, channel)
            return
        message = await self._post_board(channel, spec, await self._turn_pings(row, state))
        self._posted[row.id] = row.version
        # recorded before anything else goes to Discord: a crash between the post and this
        # would leave the next in-place edit aimed at the older message
        await self.sessions.set_turn_message(row.id, None if outcome.finished else message.id)
        await self._retire_turn_message(channel, previous)
        if outcome.finished:
            for content in present.breakdown_messages(row, row.lang):
                await channel.send(content)
        if row.status == "active":
            await self.send_hands(row, outcome.private_seats, channel)

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

    async def _post_board(self, channel: Any, spec: MessageSpec,
                          pings: discord.AllowedMentions | None = None) -> discord.Message:
        """Post a board. discord.py gives up after five 429s in a row, each waited out; a board
        must not be lost to a rate-limit storm (the move is already recorded), so wait a little
        and try again, a bounded number of times. A 429 means Discord did nothing: no double."""
        for attempt in range(BOARD_ATTEMPTS):
            try:
                return await channel.send(  # a fresh file every time
                    **message_kwargs(spec),
                    allowed_mentions=pings or discord.AllowedMentions.none())
            except discord.HTTPException as exc:
                if exc.status != 429 or attempt == BOARD_ATTEMPTS - 1:
                    raise
                log.warning("board for channel %s still rate limited, waiting", channel.id)
                await asyncio.sleep(1.0 + attempt)
        raise AssertionError("unreachable")

    async def repair_board(self, session_id: int, clicked_message_id: int) -> bool:
        """Post the current board when a refused click shows the bot stopped (a crash, a kill)
        after recording a move but before posting its board: the click was on the newest
        board (or on the lobby, when no board was posted yet), and this process has posted
        no board for the session since it started. Returns whether it posted one."""
        async with self._publishing[session_id]:
            if session_id in self._posted:
                return False  # a publish of this process is current or under way
            row = await self.sessions.session(session_id)
            if row.status != "active" or row.turn_message_id not in (None, clicked_message_id):
                return False
            seats = ([s.seat for s in row.seats if not s.is_bot]
                     if engines.get(row.game_id).meta.hidden_information else [])
            log.info("session %s: re-posting the board of version %s", row.id, row.version)
            await self._publish(Outcome(row, board_changed=True, private_seats=seats))
            return True

    async def _edit_turn_message(self, channel: Any, row: SessionRow, spec: MessageSpec) -> bool:
        if not row.turn_message_id:
            return False
        try:
            await channel.get_partial_message(row.turn_message_id).edit(**edit_kwargs(spec))
        except discord.HTTPException:
            return False  # gone: post a new one
        return True

    async def _retire_turn_message(self, channel: Any, row: SessionRow) -> None:
        """Take the buttons off the previous turn message, so only the newest one is live."""
        if not row.turn_message_id:
            return
        try:
            await channel.get_partial_message(row.turn_message_id).edit(view=None)
        except discord.HTTPException:
            log.info("turn message %s of session %s is gone", row.turn_message_id, row.id)

    async def send_hands(self, row: SessionRow, seats: list[int], channel: Any) -> None:
        """DM each seat its private view; closed DMs fall back to the channel's button."""
        # the current state, even for an outcome published late: a DM never shows an old hand
        row = await self.sessions.session(row.id)
        state = await self.sessions.state(row)
        closed: list[str] = []
        to_act = engines.get(row.game_id).to_act(state) if row.status == "active" else []
        for seat in seats:
            user_id = row.seats[seat].user_id
            if user_id is None:
                continue
            if not await self.sessions.may_dm(user_id):
                continue  # told once when refused; the turn message's "My hand" button serves
            lang = await self.sessions.store.user_lang(user_id) or row.lang
            spec = await present.hand_message(row, state, seat, lang)
            try:
                await self._living_hand(row.id, user_id, spec, acting=seat in to_act)
            except discord.Forbidden as exc:
                if getattr(exc, "code", None) == CANNOT_DM:
                    await self.sessions.dm_refused(user_id)
                closed.append(f"<@{user_id}>")
            except discord.HTTPException:
                log.warning("DM to %s failed", user_id)
                closed.append(f"<@{user_id}>")
        if closed:
            # told once, with a ping: the player must learn where their hand is
            await channel.send(t(row.lang, "ui.dm_closed", players=", ".join(closed)),
                               allowed_mentions=discord.AllowedMentions(users=True))

    async def _living_hand(self, session_id: int, user_id: int, spec: MessageSpec, *,
                           acting: bool) -> None:
        """One private message per player and game, edited in place when the view changes;
        a new DM (a notification) only when the player must act and has not had one for this
        turn. A message that is gone (deleted, DMs reset) is replaced by a new one."""
        stored = await self.sessions.store.hand_message(session_id, user_id)
        if stored is not None and not (acting and not stored["acting"]):
            try:
                await self.client.get_partial_messageable(stored["channel_id"]) \
                    .get_partial_message(stored["message_id"]).edit(**edit_kwargs(spec))
            except discord.NotFound:
                pass  # gone: a new one below
            else:
                if stored["acting"] and not acting:  # the turn is over: next time, a new DM
                    await self.sessions.store.save_hand_message(
                        session_id, user_id, stored["channel_id"], stored["message_id"], False)
                return
        user = self.client.get_user(user_id) or await self.client.fetch_user(user_id)
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
            await channel.send(**message_kwargs(spec), allowed_mentions=pings)
