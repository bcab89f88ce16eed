"""What a change of who must act writes: the seats' clocks, their reminders and timeout, the
nudges of untimed games and the inactivity warning, as statements that run inside the
transaction of the move (or start, undo, substitute) that caused the change."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from db import seats as seat_sql
from db import timers as timer_sql
from db import votes as vote_sql
from db.store import SeatRow, SessionRow, Statement, Store
from session import nudges
from session.clocks import Pace, Quiet, deadline, reminder_times, spent, turn_starts
from session.values import timeout_topic


class TurnClocks:
    """Clock and timer statements for a session's turns. ``idle_after``: the silence after
    which a game is warned (then archived)."""

    def __init__(self, store: Store, clock: Callable[[], datetime],
                 idle_after: timedelta) -> None:
        self.store = store
        self.clock = clock
        self.idle_after = idle_after

    async def statements(self, row: SessionRow, before: set[int], after: list[int], *,
                         over: bool, fresh_turn: bool = True) -> list[Statement]:
        """Clock and timer changes when the seats to act go from ``before`` to ``after``.

        A seat whose turn ends pays the time it used; a human seat whose turn starts gets its
        allowance (``fresh_turn``) and its reminders and timeout scheduled; a session with no
        action for long gets an inactivity warning. Runs inside the action's transaction.
        """
        now = self.clock()
        pace = Pace.from_json(row.pace_json)
        out: list[Statement] = [timer_sql.drop_idle(row.id)]
        if over:
            return [timer_sql.drop_pending(row.id)]
        out.append(timer_sql.idle_warning(row.id, (now + self.idle_after).isoformat()))
        for seat in row.seats:
            if seat.seat in after:
                out += await self.to_act(row, seat, pace, before, now, fresh_turn=fresh_turn)
            elif seat.running_since is not None:
                left = spent(seat.bank or 0.0, datetime.fromisoformat(seat.running_since), now)
                # time overrun is forgiven once the turn is over: the next turn starts afresh;
                # a bank above the pace's most (a row from before the clock was clamped) is cut
                out += self.stop_clock(row.id, seat.seat, pace.capped(max(0.0, left)))
            elif not pace.timed and seat.seat in before:
                out += nudges.turn_end_statements(row.id, seat.seat)
        return out

    async def to_act(self, row: SessionRow, seat: SeatRow, pace: Pace, before: set[int],
                     now: datetime, *, fresh_turn: bool) -> list[Statement]:
        """A seat among those to act: a human's clock starts (a timed game, not running yet),
        and a human whose turn just started gets its timers; the player's quiet hours and
        the server's defaults come from one read for both (each round trip counts)."""
        clock_starts = pace.timed and seat.running_since is None and not seat.is_bot
        starts_turn = seat.seat not in before and not seat.is_bot
        if not (clock_starts or starts_turn):
            return []
        settings = await nudges.turn_settings(self.store, seat.user_id, row.guild_id)
        out: list[Statement] = []
        if clock_starts:
            bank = turn_starts(pace, seat.bank) if fresh_turn else seat.bank
            out += await self.start_clock(row.id, seat, bank or 0.0, now,
                                          quiet=settings.quiet)
        if starts_turn:
            # the turn ping held back by quiet hours; untimed reminders and absence
            out += nudges.turn_start_statements(settings, row, seat, now, timed=pace.timed)
        return out

    @staticmethod
    def stop_clock(session_id: int, seat: int, bank: float | None) -> list[Statement]:
        return [seat_sql.stop_clock(session_id, seat, bank),
                timer_sql.drop_seat_pending(session_id, seat),
                vote_sql.clear(session_id, timeout_topic(seat))]

    async def start_clock(self, session_id: int, seat: Any, bank: float, since: datetime,
                          *, quiet: Quiet | None = None) -> list[Statement]:
        """Run a seat's clock from ``since`` with ``bank`` seconds, and schedule its timers
        (those still ahead: a clock restored by an undo may have started long ago).
        ``quiet``: the player's quiet hours when the caller has read them already."""
        end = deadline(bank, since)
        if quiet is None:
            quiet = await self.quiet(seat.user_id)
        out = [seat_sql.start_clock(session_id, seat.seat, bank, since.isoformat())]
        now = self.clock()
        for kind, when in [*reminder_times(since, end, quiet), ("timeout", end)]:
            if when > now or kind == "timeout":
                out.append(timer_sql.seat_timer(session_id, seat.seat, kind, when.isoformat()))
        return out

    async def restore(self, row: SessionRow, snapshot: list[list[Any]]) -> list[Statement]:
        """Put every seat's clock back as it was (an undo), with its timer_sql."""
        out: list[Statement] = []
        for seat_no, bank, since in snapshot:
            out += self.stop_clock(row.id, seat_no, bank)
            seat = row.seats[seat_no]
            if since is not None and not seat.is_bot:
                out += await self.start_clock(row.id, seat, bank or 0.0,
                                              datetime.fromisoformat(since))
        return out

    async def quiet(self, user_id: int | None) -> Quiet:
        """A user's quiet hours (none set: never quiet)."""
        return Quiet.from_row(await self.store.settings(user_id) if user_id is not None
                              else None)
