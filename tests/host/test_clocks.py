"""Turn clocks and paces: the pure rules of session/clocks.py."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from session.clocks import DAY, Pace, Quiet, parse_pace, reminder_times, turn_starts
from session.errors import SessionError


def test_paces_parse_and_bad_ones_are_refused():
    assert parse_pace(None) == Pace()
    assert parse_pace("realtime").per_move == 300 and parse_pace("realtime:10").per_move == 600
    daily = parse_pace("daily:2")
    assert (daily.increment, daily.cap) == (2 * DAY, 6 * DAY)
    for bad in ("weekly", "daily:0", "realtime:x", "daily:3:1", "none:5"):
        with pytest.raises(SessionError) as err:
            parse_pace(bad)
        assert err.value.key == "error.bad_pace"


def test_time_bank_tops_up_each_turn_and_is_capped():
    pace = parse_pace("daily:1:2")
    bank = turn_starts(pace, None)
    assert bank == DAY
    assert turn_starts(pace, bank - 0.5 * DAY) == 1.5 * DAY  # half a day used
    assert turn_starts(pace, 1.5 * DAY) == 2 * DAY  # capped at two days
    assert turn_starts(parse_pace("realtime:5"), 12345.0) == 300  # a fresh allowance each move


def test_reminders_wait_for_quiet_hours_to_end_in_the_players_zone():
    start = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)
    end = start + timedelta(days=1)
    assert reminder_times(start, end, Quiet()) == [
        ("remind", start + timedelta(hours=12)), ("last_call", start + timedelta(hours=21.6))]
    warsaw = Quiet("Europe/Warsaw", 22, 7)  # UTC+1 in November
    (first, when), (second, _) = reminder_times(start, end, warsaw)
    # half time is 00:00 UTC = 01:00 in Warsaw, quiet: the ping waits until 07:00 Warsaw
    assert first == "remind" and when == datetime(2026, 11, 23, 6, 0, tzinfo=UTC)
    assert second == "last_call"
    # a ping pushed past the deadline is scheduled when the quiet hours end (both fall in the
    # same night: one ping, at 08:00 Warsaw); it is stale by then and not posted (test_timers)
    short_end = start + timedelta(hours=14)  # ends 03:00 Warsaw
    night = Quiet("Europe/Warsaw", 20, 8)
    assert reminder_times(start + timedelta(hours=7), short_end, night) == [
        ("remind", datetime(2026, 11, 23, 7, 0, tzinfo=UTC))]
