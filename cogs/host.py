"""The one object the cogs get (``interaction.client.host``): the session layer, the live-board
protocol (:mod:`cogs.board`), a click's first answer on the board (:mod:`cogs.firstanswer`), the
board repairs (:mod:`cogs.repairs`), the hands by DM (:mod:`cogs.hands`), and the fired timers'
posts.
bot.py builds the parts and hands them over."""

from __future__ import annotations

import contextlib

import discord

from cogs.adapters import Channels, clip, message_kwargs
from cogs.board import Board, BoardNotPosted
from cogs.firstanswer import FirstAnswer
from cogs.hands import Hands
from cogs.metrics import Metrics
from cogs.pace import GlobalPace
from cogs.repairs import BoardRepairs
from session import history, present
from session.facts import SessionRow
from session.rooms import Rooms
from session.service import Sessions
from session.values import TimerEvent


class Host:
    """What the cogs share: one per bot."""

    def __init__(self, sessions: Sessions, rooms: Rooms, pace: GlobalPace, channels: Channels,
                 board: Board, first_answer: FirstAnswer, repairs: BoardRepairs, hands: Hands,
                 metrics: Metrics) -> None:
        self.sessions = sessions
        #: the operator's counters and latencies (cogs/metrics.py)
        self.metrics = metrics
        #: undo, absence, ending, timers and profile (session/rooms.py)
        self.rooms = rooms
        #: every call of this process that counts toward Discord's global limit waits here
        self.pace = pace
        self.board = board
        #: a click's first answer on the public board: buttons taken off, given back
        self.first_answer = first_answer
        #: boards posted again after a refusal or a stop, bare boards shown again
        self.repairs = repairs
        self.hands = hands
        #: a channel by id (from the cache, else one paced call)
        self.channel = channels.get
        #: after a change: the lobby or a board in the channel, then private hands
        self.publish = board.publish

    async def publish_timer(self, event: TimerEvent) -> None:
        """A fired timer: a ping, a vote, a warning, or the turn a computer played."""
        if event.outcome is not None:
            with contextlib.suppress(BoardNotPosted):  # logged; the next click re-posts it
                await self.publish(event.outcome)
            return
        if event.kind == "ping":
            seats = [seat for seat, _ in event.params.get("seats", [])] or [event.seat]
            await self._held_ping(event.session, [s for s in seats if s is not None])
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

    async def _held_ping(self, row: SessionRow, seats: list[int]) -> None:
        """The turn notifications quiet hours held back, now they are over: one message per
        player that says what changed since their last move; a new hand DM for a player
        told by DM, else a mention in the channel."""
        channel = await self.channel(row.channel_id)
        for seat in seats:
            user_id = row.seats[seat].user_id
            if await self.hands.told_by_dm(row, user_id):
                async with self.hands.in_order(row.id):
                    await self.hands.send_hands(row, [seat], channel, [seat], since=True)
                continue
            news = present.since_line(row, await history.news_since_move(self.sessions, row, seat),
                                      row.lang)
            spec = present.timer_message(TimerEvent("ping", row, seat), row.lang)
            assert spec is not None  # a ping always has its text
            async with self.pace:
                await channel.send(
                    clip("\n".join(line for line in (spec.content, news) if line)),
                    allowed_mentions=discord.AllowedMentions(
                        users=[discord.Object(user_id or 0)]))
