"""Turn pings, reminders in untimed games, absent players, and a server's defaults.

A turn starts -> timers in the same transaction as the move that started it:
- ``ping``: the board pings the player at once, unless they are in quiet hours: then this
  timer pings them when the hours end (held back; stale, and not posted, if the turn's
  deadline has passed or a later timer of the seat is due with it: see session/timers.py);
- untimed games (``pace:none``): ``remind`` every ``remind_hours`` of silence, and ``absent``
  after ``absent_hours``: the others may then vote to skip the turn, replace the player by a
  computer, or seat a substitute (timed games do the same when the clock runs out).
A turn that ends deletes its seat's timers (``turn_end_statements``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from db import timers, votes
from db.store import SeatRow, SessionRow, Statement, Store
from session.clocks import Quiet, parse_pace
from session.errors import SessionError
from session.values import timeout_topic
from text.catalog import LANGUAGES

#: Stolik's defaults when a server has set none
REMIND_HOURS = 24.0
ABSENT_HOURS = 72.0
#: the bounds a server may choose (hours)
MIN_HOURS, MAX_HOURS = 1.0, 24.0 * 30


@dataclass(frozen=True)
class ServerDefaults:
    pace: str | None = None
    remind_hours: float = REMIND_HOURS
    absent_hours: float = ABSENT_HOURS
    lang: str | None = None

    @classmethod
    def from_row(cls, row: Any) -> ServerDefaults:
        if row is None:
            return cls()
        return cls(row["pace"], row["remind_hours"] or REMIND_HOURS,
                   row["absent_hours"] or ABSENT_HOURS, row["lang"])


async def server_defaults(store: Store, guild_id: int | None) -> ServerDefaults:
    return ServerDefaults.from_row(await store.guild_settings(guild_id))


@dataclass(frozen=True)
class TurnSettings:
    """What a turn start needs to know: its player's quiet hours and the server's defaults."""

    quiet: Quiet
    defaults: ServerDefaults


async def turn_settings(store: Store, user_id: int | None,
                        guild_id: int | None) -> TurnSettings:
    """Both in one read (each round trip of a move counts: on PostgreSQL ~0.1 ms of CPU)."""
    row = await store.turn_settings(user_id, guild_id)
    return TurnSettings(Quiet.from_row(row), ServerDefaults.from_row(row))


async def save_server_defaults(store: Store, guild_id: int, *, pace: str | None = None,
                               remind_hours: float | None = None,
                               absent_hours: float | None = None,
                               lang: str | None = None) -> ServerDefaults:
    """Change some of a server's defaults (None keeps a value); checked before saving."""
    cur = await server_defaults(store, guild_id)
    if pace is not None:
        parse_pace(pace)  # refuses a bad pace with error.bad_pace
    for hours in (remind_hours, absent_hours):
        if hours is not None and not MIN_HOURS <= hours <= MAX_HOURS:
            raise SessionError("error.bad_hours", f"hours out of range: {hours}", hours=hours,
                               low=round(MIN_HOURS), high=round(MAX_HOURS))
    if lang is not None and lang not in LANGUAGES:
        raise SessionError("error.bad_language", f"unknown language {lang!r}", lang=lang,
                           known=", ".join(LANGUAGES))
    new = ServerDefaults(
        pace.strip().lower() if pace is not None else cur.pace,
        remind_hours if remind_hours is not None else cur.remind_hours,
        absent_hours if absent_hours is not None else cur.absent_hours,
        lang if lang is not None else cur.lang)
    await store.save_guild_settings(guild_id, new.pace, new.remind_hours, new.absent_hours,
                                    new.lang)
    return new


def untimed_times(start: datetime, quiet: Quiet, defaults: ServerDefaults
                  ) -> list[tuple[str, datetime]]:
    """Reminders every ``remind_hours`` until the player counts as absent, then ``absent``.
    A reminder in quiet hours waits for them to end; the absence is not shifted (it pings
    nobody by itself: the vote it opens pings the player once)."""
    absent_at = start + timedelta(hours=defaults.absent_hours)
    out: list[tuple[str, datetime]] = []
    when = start + timedelta(hours=defaults.remind_hours)
    while when < absent_at:
        shifted = quiet.quiet_ends_after(when) if quiet.is_quiet(when) else when
        if not out or shifted > out[-1][1]:
            out.append(("remind", shifted))
        when += timedelta(hours=defaults.remind_hours)
    out.append(("absent", absent_at))
    return out


def turn_start_statements(settings: TurnSettings, row: SessionRow, seat: SeatRow,
                          now: datetime, *, timed: bool) -> list[Statement]:
    """The timers of a human seat whose turn starts now (see the module's docstring), for
    a player with these quiet hours, on a server with these defaults."""
    quiet = settings.quiet
    times: list[tuple[str, datetime]] = []
    if quiet.is_quiet(now):
        times.append(("ping", quiet.quiet_ends_after(now)))
    if not timed:
        times += untimed_times(now, quiet, settings.defaults)
    return [timers.seat_timer(row.id, seat.seat, kind, when.isoformat()) for kind, when in times]


def turn_end_statements(session_id: int, seat: int) -> list[Statement]:
    """A seat's turn ended (untimed games): its reminders go, and so does its absence."""
    return [timers.drop_seat_turn(session_id, seat),
            votes.clear(session_id, timeout_topic(seat))]
