"""Games that last days: undo, substitutes, votes on a timed-out player, ending early, the
durable timer dispatcher, and the player's views across games (mine, stats, ratings, log).

Every move made here (a skipped turn, a computer replacing a player) goes through the same
``Sessions.apply_move`` path as a human move: same checks, same log, same replay.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import engines
from db.database import StaleVersion, StoreBusy, StoreError
from db.store import SessionRow
from engines.base import GameError
from session import computer
from session.clocks import DAY, Pace, check_zone, deadline, spent, turn_starts
from session.errors import SessionError
from session.service import (
    ARCHIVE_AFTER_WARNING,
    Notice,
    Outcome,
    Sessions,
    says_the_move,
    tells_store_failures,
)

log = logging.getLogger(__name__)

#: choices on a timed-out player's vote
TIMEOUT_CHOICES = ("skip", "computer", "wait")
#: processes starting within this time of each other post a timed-out player's vote once
REANNOUNCE_AFTER = timedelta(minutes=1)


@dataclass
class TimerEvent:
    """Something a timer did, for the host to show: ``kind`` plus the session after it."""

    kind: str  # ping | remind | last_call | timeout | absent | skipped | idle_warn | archived | computer
    session: SessionRow
    seat: int | None = None
    outcome: Outcome | None = None
    params: dict[str, Any] = field(default_factory=dict)
    timer_id: int | None = None  # the timer that fired (None: found at start-up)


#: a timer of another process's shard is fired here when that long overdue (its process is down)
OWNER_GRACE = timedelta(seconds=30)
#: how often to look again while a due timer waits for its own process
OWNER_POLL = 1.0


class AsyncPlay:
    def __init__(self, sessions: Sessions) -> None:
        self.sessions = sessions
        self.store = sessions.store
        #: whether this process serves a guild's timers and start-up recovery (sharding: the
        #: process that runs the guild's shard; see bot.py)
        self.owns: Callable[[int | None], bool] = lambda guild_id: True
        #: a due timer was left to its owner in the last pass (so the loop must not spin on it)
        self.left_to_owner = False

    # --- undo --------------------------------------------------------------------------
    @tells_store_failures
    async def undo(self, session_id: int, user_id: int) -> Outcome:
        """Take back the user's own last action, until someone else acts; never across a
        reveal (a drawn tile or card, a shuffle, revealed simultaneous picks)."""
        s = self.sessions
        async with s.locked(session_id):
            row = await s.session(session_id)
            seat = s.playing_seat(row, user_id)
            log_ = await self.store.actions(row.id)
            if not log_ or log_[-1].seat != seat or log_[-1].kind != "move":
                raise SessionError("error.undo_nothing", "you have no move to take back")
            last = log_[-1]
            if last.reveals:
                raise SessionError("error.undo_reveal",
                                   "that move revealed something and cannot be taken back")
            game = engines.get(row.game_id)
            before = await s.state(row)
            previous = await s.replay(row, at_version=last.version - 1)
            if last.clocks_before is not None:
                # the clocks go back exactly: the next player's top-up goes with the move
                extra = await s.restore_clocks(row, last.clocks_before)
            else:  # an action logged before clock snapshots existed
                extra = await s.clock_statements(row, set(game.to_act(before)),
                                                 game.to_act(previous), over=False,
                                                 fresh_turn=False)
            try:
                await self.store.undo(session_id=row.id, n=last.n, version=row.version,
                                      state_json=json.dumps(previous), now=s.now(), extra=extra)
            except StaleVersion:  # another process moved the game on meanwhile
                raise SessionError("error.stale", "this move is no longer available") from None
            outcome = Outcome(await s.session(row.id), [Notice("notice.undone", {"seat": seat})],
                              board_changed=True)
            s.remember_state(row.id, outcome.session.version, previous)
            s.note_private_changes(outcome, game, before, previous)
            return outcome

    # --- abandoning ------------------------------------------------------------------------
    @tells_store_failures
    async def abandon(self, session_id: int, user_id: int, *, can_manage: bool,
                      version: int | None = None) -> Outcome:
        """End a game now (the creator, or someone who manages the channel), once confirmed on
        the board it was asked at (``version``). Recorded as abandoned, with no winner; a
        player who abandons a running game takes a loss (``result["forfeit"]``)."""
        s = self.sessions
        async with s.locked(session_id):
            row = await s.session(session_id)
            if row.status not in ("lobby", "active"):
                raise SessionError("error.not_active", "this game is not running")
            if user_id != row.creator_id and not can_manage:
                raise SessionError("error.abandon_rights",
                                   "only the creator or a channel manager can end the game")
            if version is not None and version != row.version:
                raise SessionError("error.stale", "the game moved on: ask again")
            result = None
            seat = row.seat_of(user_id)
            if row.status == "active":
                result = s.result(engines.get(row.game_id), await s.state(row))
                if seat is not None:
                    result["forfeit"] = seat
            await self.store.end(row.id, "abandoned", result, s.now(), ended_by=user_id)
            await self.store.run([("DELETE FROM timers WHERE session_id = ? AND fired_at IS NULL",
                                   (row.id,))])
            s.forget_state(row.id)
            await s.standings.record(row.id, s.now())  # a player's abandon is their loss
            by = row.seats[seat].name if seat is not None else str(user_id)
            return Outcome(await s.session(row.id),
                           [Notice("notice.abandoned", {"game": row.game_id, "player": by})])

    @tells_store_failures
    async def rematch(self, session_id: int, user_id: int, name: str) -> Outcome:
        """A new lobby in the same channel with the same game, options, pace and seat count,
        opened by a player of the ended game; its computer players sit down again, the
        others are named so they can join."""
        s = self.sessions
        old = await s.session(session_id)
        if old.status not in ("finished", "abandoned") or old.state_json is None:
            raise SessionError("error.rematch_not_over", "that game is not over")
        if old.seat_of(user_id) is None:
            raise SessionError("error.not_a_player", "you did not play in that game")
        outcome = await s.new(
            guild_id=old.guild_id, channel_id=old.channel_id, game_id=old.game_id,
            user_id=user_id, name=name, players=len(old.seats),
            variants=", ".join(old.options.get("variants", [])), lang=old.lang,
            pace=pace_text(Pace.from_json(old.pace_json)))
        for seat in old.seats:
            if seat.user_id is None and outcome.session.status == "lobby":
                joined = await s.join(old.channel_id, None, seat.name.removesuffix(" (🤖)"))
                outcome = Outcome(joined.session, outcome.notices + joined.notices,
                                  joined.board_changed, joined.private_seats)
        invited = [x.name for x in old.seats if x.user_id not in (None, user_id)]
        if invited:
            outcome.notices.append(Notice("notice.rematch", {"players": ", ".join(invited)}))
        return outcome

    # --- substitutes and computer replacements ----------------------------------------
    @tells_store_failures
    async def substitute(self, channel_id: int, user_id: int, name: str, seat: int) -> Outcome:
        """A newcomer takes over a seat whose time ran out, or one a computer took over."""
        s = self.sessions
        row = await s.in_channel(channel_id)
        async with s.locked(row.id):
            row = await s.session(row.id)
            if row.status != "active":
                raise SessionError("error.not_active", "this game is not running")
            if row.seat_of(user_id) is not None:
                raise SessionError("error.already_joined", "you are already in this game")
            if not 0 <= seat < len(row.seats):
                raise SessionError("error.no_such_seat", "no such seat", seat=seat + 1)
            target = row.seats[seat]
            replaced = target.user_id is None and any(
                h["seat"] == seat for h in await self.store.seat_history(row.id))
            if not (replaced or await self.absent(row, seat)):
                raise SessionError("error.seat_not_free", "that player is still in the game",
                                   player=target.name)
            statements = [
                ("UPDATE seats SET user_id = ?, name = ? WHERE session_id = ? AND seat = ?",
                 (user_id, name, row.id, seat)),
                ("INSERT INTO seat_history (session_id, seat, user_id, name, from_version)"
                 " VALUES (?, ?, ?, ?, ?)", (row.id, seat, user_id, name, row.version)),
                ("DELETE FROM votes WHERE session_id = ? AND topic = ?", (row.id, f"timeout:{seat}")),
            ]
            game = engines.get(row.game_id)
            if seat in game.to_act(await s.state(row)):
                # the newcomer's turn starts now, with a fresh allowance
                statements += s.stop_clock(row.id, seat, target.bank)
                target.running_since, target.user_id = None, user_id
                fresh = turn_starts(Pace.from_json(row.pace_json), 0.0)
                if fresh is not None:
                    statements += await s.start_clock(row.id, target, fresh, s.clock())
            await self.store.run(statements)
            outcome = Outcome(await s.session(row.id),
                              [Notice("notice.substituted", {"player": name, "was": target.name})],
                              private_seats=[seat] if game.meta.hidden_information else [])
            return outcome

    async def absent(self, row: SessionRow, seat: int) -> bool:
        """The seat's player is away: their clock ran out (timed games), or their absence
        timer fired in this turn and they are still to act (untimed games)."""
        if self.timed_out(row, seat):
            return True
        if row.status != "active" or row.seats[seat].user_id is None:
            return False
        if await self.store.absent_since(row.id, seat) is None:
            return False
        return seat in engines.get(row.game_id).to_act(await self.sessions.state(row))

    def timed_out(self, row: SessionRow, seat: int) -> bool:
        target = row.seats[seat]
        if target.running_since is None or target.bank is None:
            return False
        return spent(target.bank, datetime.fromisoformat(target.running_since),
                     self.sessions.clock()) <= 0

    # --- votes ---------------------------------------------------------------------------
    @tells_store_failures
    async def vote(self, session_id: int, user_id: int, topic: str, choice: str) -> Outcome:
        """Cast a ballot. ``timeout:<seat>``: the other human players decide by majority to
        skip the turn (computer move), replace the player by a computer, or wait.
        ``end``: every human player who is present must agree to end the game now (recorded
        as abandoned); an absent player does not block it (one who votes is present)."""
        s = self.sessions
        async with s.locked(session_id):
            row = await s.session(session_id)
            if row.status != "active":
                raise SessionError("error.not_active", "this game is not running")
            humans = [x.user_id for x in row.seats if x.user_id is not None]
            if topic.startswith("timeout:"):
                seat = int(topic.split(":")[1])
                if not 0 <= seat < len(row.seats):  # a forged ballot
                    raise SessionError("error.bad_component", "unknown vote")
                if not await self.absent(row, seat):
                    raise SessionError("error.vote_over", "this vote is over: the player moved")
                voters = [u for u in humans if u != row.seats[seat].user_id]
                allowed: tuple[str, ...] = TIMEOUT_CHOICES
            elif topic == "end":
                voters = [x.user_id for x in row.seats if x.user_id is not None and (
                    x.user_id == user_id or not await self.absent(row, x.seat))]
                allowed = ("yes", "no")
            else:
                raise SessionError("error.bad_component", "unknown vote")
            if user_id not in voters:
                raise SessionError("error.not_a_voter", "you do not vote on this")
            if choice not in allowed:
                raise SessionError("error.bad_component", "unknown vote")
            await self.store.run([(
                "INSERT INTO votes (session_id, topic, user_id, choice) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (session_id, topic, user_id) DO UPDATE SET choice = excluded.choice",
                (row.id, topic, user_id, choice))])
            ballots = await self.store.ballots(row.id, topic)
            counts = {c: sum(1 for v in ballots.values() if v == c) for c in allowed}
            outcome = Outcome(row, [Notice("notice.voted", {
                "player": next(x.name for x in row.seats if x.user_id == user_id),
                "choice": f"vote.{choice}", "count": len(ballots), "voters": len(voters)})])
            if topic == "end":
                if counts["yes"] == len(voters):
                    return await self._end_by_vote(row)
                return outcome
            winner = next((c for c in allowed if counts[c] * 2 > len(voters)), None)
            if winner is None:
                return outcome
            await self.store.run([("DELETE FROM votes WHERE session_id = ? AND topic = ?",
                                   (row.id, topic))])
            if winner == "skip":
                return await self._computer_moves_for(row, seat, outcome)
            if winner == "computer":
                return await self._replace_by_computer(row, seat, outcome)
            outcome.notices.append(Notice("notice.vote_wait", {"seat": seat}))
            return outcome

    async def _computer_moves_for(self, row: SessionRow, seat: int, outcome: Outcome) -> Outcome:
        """The timed-out seat's turn is played by the computer player, as a logged 'skip'."""
        s = self.sessions
        game = engines.get(row.game_id)
        outcome.session = row
        outcome.notices.append(Notice("notice.turn_skipped", {"seat": seat}))
        state = await s.state(row)
        while outcome.session.status == "active" and seat in game.to_act(state):
            # a skipped turn is played at "normal" level, seeded per move
            code = await computer.move(row.game_id, state, seat,
                                       f"{row.seed}/skip/{outcome.session.version}", "normal")
            await s.apply_move(outcome, seat, None, code, kind="skip")
            state = await s.state(outcome.session)
        return await s.run_computer_players(outcome)

    async def _replace_by_computer(self, row: SessionRow, seat: int, outcome: Outcome) -> Outcome:
        s = self.sessions
        name = f"{row.seats[seat].name} (🤖)"
        await self.store.run([
            ("UPDATE seats SET user_id = NULL, name = ?, bot_level = NULL"  # plays "normal"
             " WHERE session_id = ? AND seat = ?",
             (name, row.id, seat)),
            ("INSERT INTO seat_history (session_id, seat, user_id, name, from_version)"
             " VALUES (?, ?, NULL, ?, ?)", (row.id, seat, name, row.version)),
            *s.stop_clock(row.id, seat, None),
        ])
        outcome.session = await s.session(row.id)
        outcome.notices.append(Notice("notice.replaced_by_computer", {"seat": seat}))
        return await s.run_computer_players(outcome)

    async def _end_by_vote(self, row: SessionRow) -> Outcome:
        s = self.sessions
        result = s.result(engines.get(row.game_id), await s.state(row))
        await self.store.end(row.id, "abandoned", result, s.now())
        await self.store.run([("DELETE FROM timers WHERE session_id = ? AND fired_at IS NULL",
                               (row.id,))])
        return Outcome(await s.session(row.id), [Notice("notice.ended_by_vote", {})])

    # --- timers ------------------------------------------------------------------------
    async def fire_due(self) -> list[TimerEvent]:
        """Fire every timer that is due, each exactly once (claimed in the database first,
        so a restart in between neither loses nor repeats it)."""
        s = self.sessions
        now = s.now()
        events: list[TimerEvent] = []
        self.left_to_owner = False
        for timer in await self.store.due_timers(now):
            overdue = s.clock() - datetime.fromisoformat(timer["due_at"])
            if overdue < OWNER_GRACE and not self.owns(await self._guild_of(timer["session_id"])):
                # another process's shard: its dispatcher fires it, unless that process seems
                # down (the claim keeps a timer from firing twice either way)
                self.left_to_owner = True
                continue
            try:
                event = await self._claim_and_fire(timer, now)
            except GameError as exc:  # one game's failure (storage, a damaged row) is its own
                log.error("timer %s of session %s failed: %s", timer["id"], timer["session_id"],
                          exc)
                continue
            if event is not None:
                events.append(event)
        return merge_reminders(events)

    async def _claim_and_fire(self, timer: Any, now: str) -> TimerEvent | None:
        """Claim the timer with one guarded UPDATE (so among several processes exactly one
        fires it), then fire it."""
        s = self.sessions
        async with s.locked(timer["session_id"]):
            claimed = await self.store.run([(
                "UPDATE timers SET fired_at = ? WHERE id = ? AND fired_at IS NULL",
                (now, timer["id"]))])
            if claimed != 1:
                return None
            event = await self._fire(timer)
            if event is not None:
                event.timer_id = timer["id"]
        if event is not None and event.kind == "timeout_unattended":
            event = await self._auto_skip(event)
        return event

    async def _fire(self, timer: Any) -> TimerEvent | None:
        s = self.sessions
        row = await s.session(timer["session_id"])
        kind, seat = timer["kind"], timer["seat"]
        if row.status == "lobby" and kind in ("idle_warn", "archive"):
            pass  # a forgotten lobby must not block its channel for ever
        elif row.status != "active":
            return None
        if kind == "idle_warn":
            await self.store.run([(
                "INSERT INTO timers (session_id, kind, due_at) VALUES (?, 'archive', ?)",
                (row.id, (s.clock() + ARCHIVE_AFTER_WARNING).isoformat()))])
            return TimerEvent("idle_warn", row,
                              params={"days": round(s.idle_after.total_seconds() / 86400)})
        if kind == "archive":
            result = (s.result(engines.get(row.game_id), await s.state(row))
                      if row.status == "active" else None)
            await self.store.end(row.id, "abandoned", result, s.now())
            return TimerEvent("archived", await s.session(row.id))
        target = row.seats[seat]
        if target.user_id is None or seat not in engines.get(row.game_id).to_act(
                await s.state(row)):
            return None  # the turn is over; a stale timer does nothing
        if kind in ("remind", "last_call", "ping"):
            settings = await self.store.settings(target.user_id)
            if settings is not None and not settings["pings"]:
                return None
            left = None  # untimed games: no time left to tell
            if target.running_since is not None and target.bank is not None:
                left = spent(target.bank, datetime.fromisoformat(target.running_since),
                             s.clock())
            return TimerEvent(kind, row, seat, params={"left": left})
        if kind == "timeout" and target.running_since is None:
            return None
        if kind in ("timeout", "absent"):
            others = [x for x in row.seats if x.user_id is not None and x.seat != seat]
            return TimerEvent(kind if others else "timeout_unattended", row, seat)
        return None

    async def _auto_skip(self, event: TimerEvent) -> TimerEvent:
        """Nobody else can vote (all others are computers): the computer plays the turn."""
        s = self.sessions
        async with s.locked(event.session.id):
            row = await s.session(event.session.id)
            assert event.seat is not None  # a timeout timer belongs to a seat
            outcome = await self._computer_moves_for(row, event.seat, Outcome(row))
        return TimerEvent("skipped", outcome.session, event.seat, outcome)

    async def _guild_of(self, session_id: int) -> int | None:
        return (await self.sessions.session(session_id)).guild_id

    async def recover(self) -> list[TimerEvent]:
        """At start-up: what a stop may have left half done. Computer seats whose turn came
        just before the stop move now; a player whose time ran out is put to the vote again
        (the first announcement may not have reached Discord)."""
        events: list[TimerEvent] = []
        busy: list[int] = []
        for session_id in await self.store.open_session_ids():
            try:
                events += await self._recover_one(session_id)
            except StoreBusy:
                # players are already clicking in it (another process, or this one's first
                # clicks): try again once the others are done
                busy.append(session_id)
            except (GameError, LookupError, ValueError, TypeError):
                # one damaged game (unreadable row, a log that no longer replays) must not
                # stop the recovery of every other game
                log.exception("start-up recovery of session %s failed", session_id)
        for session_id in busy:
            try:
                events += await self._recover_one(session_id)
            except StoreBusy as exc:
                log.warning("start-up recovery of session %s skipped: %s", session_id, exc)
        return events

    async def _recover_one(self, session_id: int) -> list[TimerEvent]:
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
            events.append(TimerEvent("computer", outcome.session, outcome=outcome))
            row = outcome.session
        waiting = {t["seat"] for t in await self.store.pending_timers(row.id)
                   if t["kind"] == "timeout"}  # those are announced when they fire
        for seat in row.seats:
            if (seat.user_id is not None and seat.seat not in waiting
                    and self.timed_out(row, seat.seat) and await self._reclaim_timeout(row.id, seat.seat)):
                events.append(TimerEvent("timeout", row, seat.seat))
        return events

    async def _reclaim_timeout(self, session_id: int, seat: int) -> bool:
        """Claim the re-announcement of a vote that fired before a stop: one guarded UPDATE
        of the fired timer, so of several processes starting at once only one posts the vote
        again (a restart later than :data:`REANNOUNCE_AFTER` posts it once more)."""
        fired = await self.store.last_fired_timer(session_id, seat, "timeout")
        if fired is None:
            return True  # the clock ran out without a timer (none to claim): announce
        now = self.sessions.clock()
        return await self.store.run([(
            "UPDATE timers SET reannounced_at = ? WHERE id = ?"
            " AND (reannounced_at IS NULL OR reannounced_at < ?)",
            (now.isoformat(), fired["id"], (now - REANNOUNCE_AFTER).isoformat()))]) == 1

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
                    try:
                        await publish(event)
                    except Exception:  # a failed message must not stop the clock
                        log.exception("publishing timer event %s failed", event.kind)
                        await self._retry_later(event)
                pending = []
            except Exception:
                log.exception("timer dispatch failed")
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
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), timeout=wait or 0.05)

    async def _retry_later(self, event: TimerEvent) -> None:
        """A timeout whose vote could not be posted fires again at the next poll."""
        if event.kind in ("timeout", "absent") and event.timer_id is not None:
            await self.store.run([("UPDATE timers SET fired_at = NULL WHERE id = ?",
                                   (event.timer_id,))])

    # --- settings ----------------------------------------------------------------------
    @tells_store_failures
    async def settings(self, user_id: int, *, tz: str | None = None, quiet: str | None = None,
                       pings: bool | None = None) -> dict[str, Any]:
        """Read or change a user's time zone, quiet hours ('22-7', or 'off') and pings."""
        row = await self.store.settings(user_id)
        cur: dict[str, Any] = {
            "tz": row["tz"], "quiet_start": row["quiet_start"], "quiet_end": row["quiet_end"],
            "pings": bool(row["pings"])} if row else {
            "tz": "UTC", "quiet_start": None, "quiet_end": None, "pings": True}
        if tz is not None:
            cur["tz"] = check_zone(tz.strip())
        if quiet is not None:
            cur["quiet_start"], cur["quiet_end"] = parse_quiet(quiet)
        if pings is not None:
            cur["pings"] = pings
        if tz is not None or quiet is not None or pings is not None:
            await self.store.save_settings(user_id, cur["tz"], cur["quiet_start"],
                                           cur["quiet_end"], cur["pings"])
        return cur

    # --- across games ------------------------------------------------------------------
    async def mine(self, user_id: int) -> list[dict[str, Any]]:
        """Every open game the user sits in, with whose move it is and the turn message."""
        out = []
        for row in await self.store.sessions_of_user(user_id):
            to_act: list[int] = []
            if row.status == "active":
                to_act = engines.get(row.game_id).to_act(await self.sessions.state(row))
            out.append({"session": row, "to_act": to_act,
                        "my_turn": row.seat_of(user_id) in to_act,
                        "deadline": seat_deadline(row, row.seat_of(user_id))})
        return out

    async def stats(self, user_id: int, guild_id: int | None) -> dict[str, dict[str, Any]]:
        """Per game type: games, wins and average score, in this server and everywhere (kept
        rows: see session/standings.py)."""
        return await self.sessions.standings.stats(user_id, guild_id)

    async def leaderboard(self, game_id: str, guild_id: int | None = None,
                          limit: int = 10) -> list[tuple[int, float, int]]:
        """(user, rating, rated games) best first, in one server or (None) everywhere."""
        return await self.sessions.standings.leaderboard(game_id, guild_id, limit)

    async def public_log(self, row: SessionRow, limit: int = 30) -> list[Notice]:
        """The move history as public notices only, rebuilt by replaying the log."""
        game = engines.get(row.game_id)
        state = game.setup(row.players, row.options, row.seed)
        notices: list[Notice] = []
        for action in await self.store.actions(row.id):
            before = state
            state, events = game.apply(state, action.seat, action.code)
            if not game.meta.hidden_information and not says_the_move(events, action.seat):
                key, params = game.describe(before, action.code)
                notices.append(Notice("notice.played", {"seat": action.seat,
                                                        "action": (key, params)}))
            notices.extend(Notice(e["key"], {k: v for k, v in e.items()
                                              if k not in ("key", "reveal")})
                           for e in events if "private_to" not in e)
        return notices[-limit:]


def merge_reminders(events: list[TimerEvent]) -> list[TimerEvent]:
    """Reminders of one game that fire together (a simultaneous phase) become one message."""
    out: list[TimerEvent] = []
    merged: dict[tuple[int, str], TimerEvent] = {}
    for event in events:
        if event.kind not in ("remind", "last_call", "ping"):
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


def pace_text(pace: Pace) -> str:
    """A pace as /game new takes it ('none', 'realtime:5', 'daily:1:3')."""
    if pace.kind == "realtime":
        return f"realtime:{pace.per_move / 60:g}"
    if pace.kind == "daily":
        return f"daily:{pace.increment / DAY:g}:{pace.cap / DAY:g}"
    return "none"


def seat_deadline(row: SessionRow, seat: int | None) -> datetime | None:
    if seat is None:
        return None
    target = row.seats[seat]
    if target.running_since is None or target.bank is None:
        return None
    return deadline(target.bank, datetime.fromisoformat(target.running_since))


def parse_quiet(text: str) -> tuple[int | None, int | None]:
    """'22-7' -> (22, 7); 'off' -> (None, None)."""
    text = text.strip().lower()
    if text in ("off", "none", "-", ""):
        return None, None
    try:
        start, end = (int(part) for part in text.split("-"))
    except ValueError:
        raise SessionError("error.bad_quiet", f"bad quiet hours {text!r}", quiet=text) from None
    if not (0 <= start <= 23 and 0 <= end <= 23) or start == end:
        raise SessionError("error.bad_quiet", f"bad quiet hours {text!r}", quiet=text)
    return start, end
