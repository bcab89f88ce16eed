"""The pacer keeps the bot's own calls under Discord's global limit (cogs/pace.py)."""

from __future__ import annotations

import pytest

from cogs.pace import DISCORD_GLOBAL_LIMIT, GlobalPace


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.mark.parametrize("limit", [DISCORD_GLOBAL_LIMIT, 25, 10, 4])
def test_no_one_second_window_holds_more_than_the_limit(limit):
    clock = Clock()
    pace = GlobalPace(limit, clock=clock)
    starts = []
    for _ in range(500):  # 500 calls asked for at the same instant
        starts.append(clock.now + pace.delay())
    starts.sort()
    most = max(sum(1 for s in starts[i:] if s < start + 1.0) for i, start in enumerate(starts))
    assert most <= limit
    assert most >= 0.8 * limit  # and the pace uses most of it
    assert starts[-1] - starts[0] == pytest.approx((500 - pace.burst) / (0.8 * limit), rel=0.01)


def test_a_burst_goes_at_once_and_an_idle_bucket_refills():
    clock = Clock()
    pace = GlobalPace(clock=clock)  # Discord's 50 a second
    assert pace.burst == 10
    assert [pace.delay() for _ in range(10)] == [0.0] * 10
    assert pace.delay() == pytest.approx(1 / 40)
    clock.now += 10.0  # quiet for a while: the whole burst again
    assert [pace.delay() for _ in range(10)] == [0.0] * 10


def test_a_limit_must_allow_a_call():
    with pytest.raises(ValueError):
        GlobalPace(0)


def test_callers_woken_together_by_a_stalled_loop_go_out_within_the_limit():
    """The slots are kept as long as the loop runs on time; a loop stalled past several of them
    wakes their callers at once, and only the limit's worth of them may go in one second."""
    clock = Clock()
    pace = GlobalPace(4, clock=clock)
    for _ in range(12):
        pace.delay()  # twelve callers asleep on their slots
    clock.now += 5.0  # the loop comes back after them all
    admitted = [pace.admit() == 0 for _ in range(12)]
    assert admitted.count(True) == 4
    assert pace.admit() > 0  # the four still under way hold the rest back


def test_a_call_counts_until_a_second_after_it_finished():
    """A call reaches Discord at some moment between being let go and finishing: counting it
    until a second after it finished keeps every second at Discord within the limit, however
    late the stalled loop actually sent it."""
    clock = Clock()
    pace = GlobalPace(2, clock=clock)
    assert pace.admit() == 0 and pace.admit() == 0
    clock.now += 3.0  # sent late, after a stall: their arrival may be any moment until now
    pace.finished()
    pace.finished()
    assert pace.admit() == pytest.approx(1.0)  # the next waits until they are a second old
    clock.now += 1.0
    assert pace.admit() == 0


async def test_calls_made_outside_the_pace_count_too():
    """discord.py's own start-up calls (login, gateway, command sync) never go through the
    pace but count toward Discord's window: the pace counts them as they start, and the calls
    it lets go itself only once."""
    clock = Clock()
    pace = GlobalPace(4, clock=clock)
    for _ in range(4):
        pace.noticed()  # four start-up calls just now
    assert pace.admit() > 0  # the window is full: the first paced call waits
    clock.now += 1.0
    async with pace:
        pace.noticed()  # the paced call's own request, seen by the HTTP trace
    clock.now += 0.5
    admitted = [pace.admit() == 0 for _ in range(4)]
    assert admitted == [True, True, True, False]  # counted once: three more fit
