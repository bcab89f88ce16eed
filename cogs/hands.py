"""Private hands by DM: one living hand message per player and game, the bookkeeping of DMs
Discord refuses or fails, and each user's language for them; and who is told of a turn where
(one notification per turn: the hand's new DM or the board's mention, never both)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections import defaultdict
from typing import Any

import discord

from cogs.adapters import Channels, edit_kwargs, message_kwargs
from cogs.pace import GlobalPace
from session import facts, history, ids, present
from session.facts import SessionRow
from session.posts import HandMessage, Posts
from session.service import Sessions
from session.specs import MessageSpec
from session.values import Outcome
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

    async def told_by_dm(self, row: SessionRow, user_id: int | None) -> bool:
        """Whether this player is told of their turn by a new hand DM (then never also by the
        board's mention): a game with hands, and DMs that arrive; a player with closed or
        failing DMs is told by the channel's mention. (A player with reminders off is told
        by neither: the callers check that first.)"""
        return user_id is not None and facts.hidden_information(row.game_id) \
            and self._dm_down.get(user_id, 0.0) <= time.monotonic() \
            and await self.sessions.may_dm(user_id)

    def in_order(self, session_id: int) -> asyncio.Lock:
        """Held while a session's DMs go out (one session's DMs at a time)."""
        return self._dming[session_id]

    async def send_in_order(self, row: SessionRow, seats: list[int],
                            started: list[int] | None = None) -> None:
        """:meth:`send_hands` in the game's channel, after any DMs of the session under way."""
        async with self._dming[row.id]:
            await self.send_hands(row, seats, await self.channels.get(row.channel_id), started)

    async def send_hands(self, row: SessionRow, seats: list[int], channel: Any,
                         started: list[int] | None = None, *, since: bool = False) -> None:
        """DM each seat its private view; closed DMs fall back to the channel's button.

        ``started``: the seats whose turn to act just started: each gets a new DM (their one
        notification for the turn) unless in quiet hours (then the ping timer sends it when
        they end) or with reminders off (their card is edited; only a player with no card
        yet gets one DM); others' cards are edited in place (no notification). ``None`` (a
        repair): a new DM for a player who must act and has not had one for this turn.
        ``since``: the new DM says what the others did since the player's last move.

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
            try:
                await self._hand(row, state, seat, user_id, acting=seat in to_act,
                                 notify=None if started is None else seat in started,
                                 since=since)
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

    async def _hand(self, row: SessionRow, state: dict[str, Any], seat: int, user_id: int, *,
                    acting: bool, notify: bool | None, since: bool) -> None:
        """One seat's card, in the player's language; a notification due in their quiet
        hours is held (the ping timer sends it when they end)."""
        lang = await self.posts.user_lang(user_id) or row.lang
        first_only = False
        if not acting:
            notify = False  # (the game moved on since: the player has acted already)
        else:
            reach = await self.posts.reach(user_id)  # quiet hours and pings: one read
            if reach.quiet.is_quiet(self.sessions.clock()):
                notify = False
            # reminders off: quiet hours that never end, with no ping timer to catch up later
            first_only = notify is not False and not reach.pings
        news = ""
        if since and notify is not False and not first_only:
            news = present.since_line(row, await history.news_since_move(self.sessions, row, seat), lang)
        spec = await present.hand_message(row, state, seat, lang, since=news)
        await self._living_hand(row.id, user_id, spec, lang, acting=acting, notify=notify,
                                first_only=first_only)

    async def _living_hand(self, session_id: int, user_id: int, spec: MessageSpec, lang: str,
                           *, acting: bool, notify: bool | None, first_only: bool = False
                           ) -> None:
        """One living private message per player and game, edited in place when the view
        changes (an edit does not notify). A new DM (a notification) only when ``notify``
        (``None``: when the player must act and has not had one for this turn; ``False``
        also while quiet hours hold it); the card it replaces then says the game moved on
        and loses its buttons, so a player's DMs never pile up live-looking old hands. With
        no card and nothing to tell, nothing is sent (the first DM comes with the player's
        turn; the "My hand" button serves meanwhile); a card that is gone (deleted, DMs
        reset) is forgotten, and the next notification brings a new one. ``first_only``
        (reminders off): a new DM only when the player has no card, else an edit."""
        stored = await self.posts.hand_message(session_id, user_id)
        if notify is None:
            notify = acting and (stored is None or not stored.acting)
        if first_only and stored is not None:
            # an edit keeps the card current without buzzing the phone; with no card yet
            # the one DM still goes, else the player would have no hand by DM all game
            notify = False
        if stored is not None and not notify:
            try:
                async with self.pace:
                    await self._message(stored).edit(**edit_kwargs(spec))
            except discord.NotFound:
                await self.posts.drop_hand_message(session_id, user_id)
                return
            if stored.acting and not acting:  # the turn is over: next time, a new DM
                await self.posts.save_hand_message(
                    session_id, user_id, HandMessage(stored.channel_id, stored.message_id,
                                                     False))
            return
        if not notify:
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
        if stored is not None:
            await self._retire(stored, t(lang, "ui.hand_moved_on"))

    def _message(self, stored: HandMessage) -> Any:
        return self.client.get_partial_messageable(stored.channel_id) \
            .get_partial_message(stored.message_id)

    async def _retire(self, stored: HandMessage, content: str, *,
                      keep_image: bool = False) -> None:
        """An old card: a short line and no buttons (a deleted one is left as it is)."""
        kwargs: dict[str, Any] = {"content": content, "view": None}
        if not keep_image:
            kwargs["attachments"] = []
        try:
            async with self.pace:
                await self._message(stored).edit(**kwargs)
        except discord.HTTPException as exc:
            log.info("hand message %s not retired: %s", stored.message_id, exc)

    async def board_pings(self, row: SessionRow,
                          starting: list[int]) -> discord.AllowedMentions:
        """Who a new board may ping: the players whose turn to act just started (one still
        acting was told already, or is at the screen), in every pace; never someone told by
        their hand's new DM instead (one notification per turn), who turned pings off, or is
        in quiet hours (their ping is a timer then, due when the quiet hours end: see
        session/nudges.py)."""
        if row.status != "active":
            return discord.AllowedMentions.none()
        users = []
        now = self.sessions.clock()
        for seat in starting:
            user_id = row.seats[seat].user_id
            if user_id is None:
                continue
            reach = await self.posts.reach(user_id)  # pings and quiet hours: one read
            if not reach.pings or await self.told_by_dm(row, user_id):
                continue
            if not reach.quiet.is_quiet(now):
                users.append(discord.Object(user_id))
        return discord.AllowedMentions(everyone=False, roles=False, users=users)

    @staticmethod
    def due(outcome: Outcome) -> list[int]:
        """The seats whose hands go out after this publish: those whose private view changed,
        and in a game with hands those whose turn started (their new DM tells them)."""
        if outcome.session.status != "active":
            return []
        seats = list(outcome.private_seats)
        if facts.hidden_information(outcome.session.game_id):
            seats += [s for s in outcome.started or [] if s not in seats]
        return seats

    async def _retire_leftovers(self, row: SessionRow) -> None:
        """The game is over: its other messages with buttons (a vote on an absent player, an
        end vote) would only refuse a click now; one page of recent history finds them (the
        final board's Rematch stays)."""
        channel = await self.channels.get(row.channel_id)
        prefix, rematch = f"sk:{row.id}:", ids.rematch(row.id)
        try:
            async with self.pace:  # one page of history: one call
                found = [message async for message in channel.history(limit=50)]
            for message in found:
                custom_ids = [getattr(item, "custom_id", None) or ""
                              for component in message.components
                              for item in getattr(component, "children", [])]
                if any(c.startswith(prefix) and c != rematch for c in custom_ids):
                    async with self.pace:
                        await message.edit(view=None)
        except discord.HTTPException as exc:
            # no Read Message History: such a message keeps buttons that refuse politely
            log.warning("session %s: leftover buttons not retired: %s", row.id, exc)

    async def end_in_order(self, row: SessionRow) -> None:
        """The game is over: every player's card keeps its last view but loses its buttons
        and says so (a button there would no longer work), after any DMs under way; so do
        the game's other channel messages with buttons."""
        await self._retire_leftovers(row)
        async with self._dming[row.id]:
            for seat in row.seats:
                if seat.user_id is None:
                    continue
                stored = await self.posts.hand_message(row.id, seat.user_id)
                if stored is None:
                    continue
                lang = await self.posts.user_lang(seat.user_id) or row.lang
                await self._retire(stored, t(lang, "ui.hand_over",
                                             game=t(lang, f"game.{row.game_id}"),
                                             channel=row.channel_id), keep_image=True)
                await self.posts.drop_hand_message(row.id, seat.user_id)

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
