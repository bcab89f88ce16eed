"""The durable timers of games that last days, served by one dispatcher task.

A timer is a row naming its kind; :class:`Timers` maps each kind to the handler that owns it
(pings and reminders, a timeout or an absence that opens a vote, the inactivity warning and
archiving). Each due timer is claimed in the database first (one guarded write), so among
several processes, and across a restart, it fires exactly once. At start-up :meth:`recover`
finishes what a stop left half done.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from typing import Any

import engines
from db import timers as timer_sql
from db.database import DamagedRow, StoreError
from db.store import SessionRow
from engines.base import GameError
from session import logs
from session.absence import Absence
from session.clocks import spent
from session.errors import Backoff, StoreFailed, until_stored
from session.service import ARCHIVE_AFTER_WARNING, Sessions
from session.values import Notice, Outcome, TimerEvent

log = logging.getLogger(__name__)

#: processes starting within this time of each other post a timed-out player's vote once
REANNOUNCE_AFTER = timedelta(minutes=1)
#: a timer of another process's shard is fired here when that long overdue (its process is down)
OWNER_GRACE = timedelta(seconds=30)
#: how often to look again while a due timer waits for its own process
OWNER_POLL = 1.0
#: the timers that ping a player whose turn it is
NUDGES = ("remind", "last_call", "ping")

#: what a timer of one kind does: (its session, the timer's row) -> the event to show, or None
Handler = Callable[[SessionRow, Any], Awaitable[TimerEvent | None]]


class Timers:
    """``owns``: whether this process serves a guild's timers and start-up recovery
    (sharding: the process that runs the guild's shard; see bot.py)."""

    def __init__(self, sessions: Sessions, absence: Absence,
                 owns: Callable[[int | None], bool]) -> None:
        self.sessions = sessions
        self.store = sessions.store
        self.absence = absence
        self.owns = owns
        #: a due timer was left to its owner in the last pass (so the loop must not spin on it)
        self.left_to_owner = False
        self.handlers: dict[str, Handler] = {
            "idle_warn": self._warn_idle,
            "archive": self._archive,
            **{kind: self._nudge for kind in NUDGES},
            "timeout": self._timeout,
            "absent": self._absent,
        }

    # --- firing ----------------------------------------------------------------------------
    async def fire_due(self) -> list[TimerEvent]:
        """Fire every timer that is due, each exactly once (claimed in the database first,
        so a restart in between neither loses nor repeats it)."""
        s = self.sessions
        now = s.now()
        events: list[TimerEvent] = []
        self.left_to_owner = False
        due = await self.store.due_timers(now)
        stale = superseded(due)
        for timer in due:
            # each timer is its own piece of work: its lines name its game (session/logs.py)
            with logs.scope(session_id=timer["session_id"]):
                overdue = s.clock() - datetime.fromisoformat(timer["due_at"])
                if overdue < OWNER_GRACE and not self.owns(await self._guild_of(timer["session_id"])):
                    # another process's shard: its dispatcher fires it, unless that process seems
                    # down (the claim keeps a timer from firing twice either way)
                    self.left_to_owner = True
                    continue
                try:
                    event = await self._claim_and_fire(timer, now, stale=timer["id"] in stale)
                except GameError as exc:  # one game's failure (storage, a damaged row) is its own
                    log.error("timer %s of session %s failed: %s", timer["id"], timer["session_id"],
                              exc)
                    continue
                if event is not None:
                    events.append(event)
        return merge_reminders(events)

    async def _claim_and_fire(self, timer: Any, now: str, *, stale: bool = False
                              ) -> TimerEvent | None:
        """Claim the timer with one guarded write (so among several processes exactly one
        fires it), then fire it; a ``stale`` one is only claimed (it never fires later)."""
        s = self.sessions
        async with s.locked(timer["session_id"]):
            claimed = await self.store.run([timer_sql.claim(timer["id"], now)])
            if claimed != 1 or stale:
                return None
            event = await self._fire(timer)
            if event is not None:
                event.timer_id = timer["id"]
        if event is not None and event.kind == "timeout_unattended":
            event = await self._auto_skip(event)
        return event

    async def _fire(self, timer: Any) -> TimerEvent | None:
        row = await self.sessions.session(timer["session_id"])
        kind = timer["kind"]
        if row.status == "lobby" and kind in ("idle_warn", "archive"):
            pass  # a forgotten lobby must not block its channel for ever
        elif row.status != "active":
            return None
        handler = self.handlers.get(kind)
        return None if handler is None else await handler(row, timer)

    async def _warn_idle(self, row: SessionRow, timer: Any) -> TimerEvent:
        s = self.sessions
        await self.store.run([timer_sql.archive(
            row.id, (s.clock() + ARCHIVE_AFTER_WARNING).isoformat())])
        return TimerEvent("idle_warn", row,
                          params={"days": round(s.idle_after.total_seconds() / 86400)})

    async def _archive(self, row: SessionRow, timer: Any) -> TimerEvent:
        s = self.sessions
        result = (s.result(engines.get(row.game_id), await s.state(row))
                  if row.status == "active" else None)
        await self.store.end(row.id, "abandoned", result, s.now())
        ended = await s.session(row.id)
        # the final board (or the closed lobby) goes up like any end's, through the publisher:
        # the running board and hands lose their buttons, nothing stale stays clickable
        outcome = await s.settle(Outcome(
            ended, [Notice("ui.archived", {"game": row.game_id, "id": row.id})],
            board_changed=True))
        return TimerEvent("archived", ended, outcome=outcome)

    async def _still_to_act(self, row: SessionRow, seat: int) -> bool:
        """The seat's player has not acted since the timer was set (else it is stale and
        does nothing)."""
        return row.seats[seat].user_id is not None and seat in engines.get(row.game_id).to_act(
            await self.sessions.state(row))

    async def _nudge(self, row: SessionRow, timer: Any) -> TimerEvent | None:
        """A ping or reminder, unless the player turned pings off."""
        seat = timer["seat"]
        if not await self._still_to_act(row, seat):
            return None
        target = row.seats[seat]
        assert target.user_id is not None  # checked by _still_to_act
        settings = await self.store.settings(target.user_id)
        if settings is not None and not settings["pings"]:
            return None
        left = None  # untimed games: no time left to tell
        if target.running_since is not None and target.bank is not None:
            left = spent(target.bank, datetime.fromisoformat(target.running_since),
                         self.sessions.clock())
            if left <= 0:
                return None  # the deadline passed: the timeout's vote asks instead
        return TimerEvent(timer["kind"], row, seat, params={"left": left})

    async def _timeout(self, row: SessionRow, timer: Any) -> TimerEvent | None:
        """The seat's clock ran out (timed games)."""
        seat = timer["seat"]
        if not await self._still_to_act(row, seat) or row.seats[seat].running_since is None:
            return None
        return self._put_to_vote("timeout", row, seat)

    async def _absent(self, row: SessionRow, timer: Any) -> TimerEvent | None:
        """The seat stayed silent too long (untimed games)."""
        if not await self._still_to_act(row, timer["seat"]):
            return None
        return self._put_to_vote("absent", row, timer["seat"])

    @staticmethod
    def _put_to_vote(kind: str, row: SessionRow, seat: int) -> TimerEvent:
        """The other players vote on the seat; with none left (all computers) the turn is
        played for it (``timeout_unattended``)."""
        others = [x for x in row.seats if x.user_id is not None and x.seat != seat]
        return TimerEvent(kind if others else "timeout_unattended", row, seat)

    async def _auto_skip(self, event: TimerEvent) -> TimerEvent:
        """Nobody else can vote (all others are computers): the computer plays the turn."""
        s = self.sessions
        async with s.locked(event.session.id):
            row = await s.session(event.session.id)
            assert event.seat is not None  # a timeout timer belongs to a seat
            outcome = await self.absence.skip_turn(row, event.seat, Outcome(row))
        return TimerEvent("skipped", outcome.session, event.seat, outcome)

    async def _guild_of(self, session_id: int) -> int | None:
        return (await self.sessions.session(session_id)).guild_id

    # --- start-up ----------------------------------------------------------------------------
    async def recover(self) -> list[TimerEvent]:
        """At start-up: what a stop may have left half done. Computer seats whose turn came
        just before the stop move now; a player whose time ran out is put to the vote again
        (the first announcement may not have reached Discord). A game the database failed
        (away, or busy with players' clicks) is tried again, with a bounded backoff, until it
        is done: an outage at start-up delays its recovery, never drops it."""
        events: list[TimerEvent] = []
        left = await until_stored(self.store.open_session_ids, "start-up recovery")
        backoff = Backoff()
        while True:
            failed: list[int] = []
            for session_id in left:
                try:
                    events += await self._recover_one(session_id)
                except DamagedRow:
                    log.exception("start-up recovery of session %s failed", session_id)
                except (StoreError, StoreFailed) as exc:
                    # the database is away, or players are already clicking in it (another
                    # process, or this one's first clicks): again once the others are done
                    log.warning("start-up recovery of session %s: %s", session_id, exc)
                    failed.append(session_id)
                except (GameError, LookupError, ValueError, TypeError):
                    # one damaged game (unreadable row, a log that no longer replays) must
                    # not stop the recovery of every other game
                    log.exception("start-up recovery of session %s failed", session_id)
            if not failed:
                return events
            left = failed
            await backoff.wait()

    async def _recover_one(self, session_id: int) -> list[TimerEvent]:
        with logs.scope(session_id=session_id):
            return await self._recover(session_id)

    async def _recover(self, session_id: int) -> list[TimerEvent]:
        s = self.sessions
        events: list[TimerEvent] = []
        async with s.locked(session_id):
            # read under the lock: another process starting at the same time may have moved
            # the computer seats already (then there is nothing left to do)
            row = await s.session(session_id)
            if row.status != "active" or not self.owns(row.guild_id):
                return []
            outcome = await s.run_computer_players(Outcome(row))
            if outcome.session.version != row.version:
                await s.settle(outcome)
        if outcome.session.version != row.version:
            events.append(TimerEvent("computer", outcome.session, outcome=outcome))
            row = outcome.session
        waiting = {t["seat"] for t in await self.store.pending_timers(row.id)
                   if t["kind"] == "timeout"}  # those are announced when they fire
        for seat in row.seats:
            if (seat.user_id is not None and seat.seat not in waiting
                    and self.absence.timed_out(row, seat.seat)
                    and await self._reclaim_timeout(row.id, seat.seat)):
                events.append(TimerEvent("timeout", row, seat.seat))
        return events

    async def _reclaim_timeout(self, session_id: int, seat: int) -> bool:
        """Claim the re-announcement of a vote that fired before a stop: one guarded write
        of the fired timer, so of several processes starting at once only one posts the vote
        again (a restart later than :data:`REANNOUNCE_AFTER` posts it once more)."""
        fired = await self.store.last_fired_timer(session_id, seat, "timeout")
        if fired is None:
            return True  # the clock ran out without a timer (none to claim): announce
        now = self.sessions.clock()
        return await self.store.run([timer_sql.reannounce(
            fired["id"], now.isoformat(), (now - REANNOUNCE_AFTER).isoformat())]) == 1

    # --- the dispatcher ------------------------------------------------------------------------
    async def run_dispatcher(self, publish: Callable[[TimerEvent], Awaitable[None]],
                             *, poll: float = 30.0, stop: asyncio.Event | None = None) -> None:
        """The one task that serves all timers: fire what is due, then sleep until the next
        due time (at most ``poll`` seconds, so timers added meanwhile are seen)."""
        stop = stop or asyncio.Event()
        try:
            pending = await self.recover()
        except Exception:
            log.exception("recovery at start-up failed")
            pending = []
        while not stop.is_set():
            try:
                for event in pending + await self.fire_due():
                    await self._publish(publish, event)
                pending = []
            except StoreError as exc:  # the database is away: the next poll tries again
                log.error("timer dispatch: %s", exc)
            except Exception:
                log.exception("timer dispatch failed")
            wait = await self._wait(poll)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), timeout=wait or 0.05)

    async def _publish(self, publish: Callable[[TimerEvent], Awaitable[None]],
                       event: TimerEvent) -> None:
        row = event.session
        with logs.scope(session_id=row.id, game_id=row.game_id, guild_id=row.guild_id):
            try:
                await publish(event)
            except Exception:  # a failed message must not stop the clock
                log.exception("publishing timer event %s failed", event.kind)
                await self._retry_later(event)

    async def _wait(self, poll: float) -> float:
        """Seconds until the next timer is due, at most ``poll``."""
        try:
            nxt = await self.store.next_timer_due()
        except StoreError as exc:  # the database is away: try again at the next poll
            log.error("timer dispatch: %s", exc)
            nxt = None
        wait = poll
        if nxt:
            wait = max(0.0, min(poll, (datetime.fromisoformat(nxt) - self.sessions.clock())
                                .total_seconds()))
        if self.left_to_owner:
            wait = max(wait, OWNER_POLL)
        return wait

    async def _retry_later(self, event: TimerEvent) -> None:
        """A timeout whose vote could not be posted fires again at the next poll."""
        if event.kind in ("timeout", "absent") and event.timer_id is not None:
            await self.store.run([timer_sql.unclaim(event.timer_id)])


def superseded(due: list[Any]) -> set[int]:
    """The ids of the pings among ``due`` (ordered by due time) that a later due timer of the
    same seat replaces: after a clock jump or a long stop only the newest one is posted, and
    none beside the vote of a timeout or an absence (that vote pings the player itself)."""
    newest: dict[tuple[int, int], Any] = {}
    for timer in due:
        if timer["seat"] is not None:
            newest[(timer["session_id"], timer["seat"])] = timer
    return {timer["id"] for timer in due
            if timer["kind"] in NUDGES
            and newest[(timer["session_id"], timer["seat"])]["id"] != timer["id"]}


def merge_reminders(events: list[TimerEvent]) -> list[TimerEvent]:
    """Reminders of one game that fire together (a simultaneous phase) become one message."""
    out: list[TimerEvent] = []
    merged: dict[tuple[int, str], TimerEvent] = {}
    for event in events:
        if event.kind not in NUDGES:
            out.append(event)
            continue
        key = (event.session.id, event.kind)
        if key not in merged:
            merged[key] = event
            event.params["seats"] = []
            out.append(event)
        if event.seat not in [seat for seat, _ in merged[key].params["seats"]]:
            # one ping per player, even when several came due at once (a long stop)
            merged[key].params["seats"].append((event.seat, event.params.get("left")))
    return out
