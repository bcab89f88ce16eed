"""Turn clocks: paces, time banks, reminder times with quiet hours. Pure functions of stored
UTC timestamps, so tests move time with a fake clock and nothing sleeps.

Paces (``/game new pace:``):
- ``none``: no clock (games may still be archived after a long silence);
- ``realtime:N``: N minutes for each move (a turn of several actions is one move);
- ``daily:N`` or ``daily:N:C``: a time bank, N days added when a turn starts, capped at C days
  (default 3·N), spent while it is your turn; unused time carries over.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import asdict, dataclass
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from session.errors import SessionError

MINUTE = 60.0
DAY = 86400.0
#: first reminder after this share of the time, last call after this share
REMIND_SHARE = 0.5
LAST_CALL_SHARE = 0.9
#: the longest clocks a pace may ask for: beyond them a game is effectively untimed, and
#: absurd values (1e308, inf, nan) would overflow the date arithmetic of every deadline
MAX_REALTIME_MINUTES = 7 * 24 * 60
MAX_DAILY_DAYS = 30


@dataclass(frozen=True)
class Pace:
    kind: str = "none"  # none | realtime | daily
    per_move: float = 0.0  # realtime: seconds for each move
    increment: float = 0.0  # daily: seconds added when a turn starts
    cap: float = 0.0  # daily: the most a bank can hold

    @property
    def timed(self) -> bool:
        return self.kind != "none"

    def capped(self, bank: float | None) -> float | None:
        """``bank`` cut down to the most this pace allows (a realtime move's allowance, a
        daily bank's cap): a clock never credits time the player did not have."""
        most = {"realtime": self.per_move, "daily": self.cap}.get(self.kind)
        if bank is None or most is None:
            return bank
        return min(bank, most)

    def to_json(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str | None) -> Pace:
        return cls(**json.loads(text)) if text else cls()


def _realtime(values: list[float]) -> Pace | None:
    if len(values) > 1 or (values and values[0] > MAX_REALTIME_MINUTES):
        return None
    return Pace("realtime", per_move=(values[0] if values else 5) * MINUTE)


def _daily(values: list[float]) -> Pace | None:
    if len(values) > 2:
        return None
    days = values[0] if values else 1
    cap = values[1] if len(values) > 1 else 3 * days
    if days > MAX_DAILY_DAYS or cap < days or cap > MAX_DAILY_DAYS * 3:
        return None
    return Pace("daily", increment=days * DAY, cap=cap * DAY)


def _untimed(values: list[float]) -> Pace | None:
    return None if values else Pace()


#: pace kind -> its numbers (minutes or days) to a Pace, or None when they are out of bounds
PACE_KINDS: dict[str, Callable[[list[float]], Pace | None]] = {
    "none": _untimed, "realtime": _realtime, "daily": _daily}


def parse_pace(text: str | None) -> Pace:
    """'none' | 'realtime[:minutes]' | 'daily[:days[:cap days]]' -> Pace."""
    parts = (text or "none").strip().lower().replace(" ", "").split(":")
    kind, numbers = parts[0], parts[1:]
    try:
        values = [float(n) for n in numbers if n]
    except ValueError:
        values = [-1.0]
    pace = None
    if kind in PACE_KINDS and all(math.isfinite(v) and v > 0 for v in values):
        pace = PACE_KINDS[kind](values)
    if pace is None:
        raise SessionError("error.bad_pace", f"unknown pace {text!r}", pace=text or "")
    return pace


def turn_starts(pace: Pace, bank: float | None) -> float | None:
    """The bank when a turn starts: a fresh allowance (realtime) or a capped top-up (daily)."""
    if pace.kind == "realtime":
        return pace.per_move
    if pace.kind == "daily":
        return min((bank or 0.0) + pace.increment, pace.cap)
    return None


def spent(bank: float, running_since: datetime, now: datetime) -> float:
    """What is left of ``bank`` after running from ``running_since`` to ``now`` (may go < 0).
    A clock set back (``now`` before ``running_since``) spends nothing: never more than
    ``bank`` is left."""
    return bank - max(0.0, (now - running_since).total_seconds())


def deadline(bank: float, running_since: datetime) -> datetime:
    return running_since + timedelta(seconds=bank)


@dataclass(frozen=True)
class Quiet:
    """A user's time zone and quiet hours (local hours; start > end wraps past midnight)."""

    tz: str = "UTC"
    start: int | None = None
    end: int | None = None

    @classmethod
    def from_row(cls, row: Any) -> Quiet:
        """From a user's settings row (none, or a joined side with no row: never quiet)."""
        if row is None or row["tz"] is None:
            return cls()
        return cls(row["tz"], row["quiet_start"], row["quiet_end"])

    def zone(self) -> ZoneInfo:
        return ZoneInfo(self.tz)

    def is_quiet(self, when: datetime) -> bool:
        if self.start is None or self.end is None or self.start == self.end:
            return False
        hour = when.astimezone(self.zone()).hour
        if self.start < self.end:
            return self.start <= hour < self.end
        return hour >= self.start or hour < self.end

    def quiet_ends_after(self, when: datetime) -> datetime:
        """The first whole hour at or after ``when`` outside quiet hours."""
        local = when.astimezone(self.zone())
        probe = local.replace(minute=0, second=0, microsecond=0)
        if probe < local:
            probe += timedelta(hours=1)
        for _ in range(25):
            if not self.is_quiet(probe):
                return probe.astimezone(when.tzinfo)
            probe += timedelta(hours=1)
        return when


def check_zone(tz: str) -> str:
    try:
        ZoneInfo(tz)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        # OSError: a folder of the zone database ("Europe": IsADirectoryError) or a name too
        # long for a file name
        raise SessionError("error.bad_timezone", f"unknown time zone {tz!r}", tz=tz) from None
    return tz


def reminder_times(start: datetime, end: datetime, quiet: Quiet) -> list[tuple[str, datetime]]:
    """When to ping a player whose turn runs from ``start`` to ``end``: once after half the
    time, once more near the end. A ping that falls in quiet hours waits for them to end, even
    past the deadline (then it is stale when it comes due and is not posted: the timeout's
    vote already asks; see session/timers.py); two pings never fall at the same time."""
    total = end - start
    out: list[tuple[str, datetime]] = []
    for kind, share in (("remind", REMIND_SHARE), ("last_call", LAST_CALL_SHARE)):
        when = start + total * share
        if quiet.is_quiet(when):
            when = quiet.quiet_ends_after(when)
        if out and when <= out[-1][1]:
            continue
        out.append((kind, when))
    return out


def left_text(seconds: float) -> str:
    """'2d 3h', '4h 05m', '12m', '0m' — compact, language-free."""
    seconds = max(0, int(seconds))
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    if days:
        return f"{days}d {hours}h"
    if hours:
        return f"{hours}h {minutes:02d}m"
    return f"{minutes}m"
