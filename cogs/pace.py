"""Keep the bot's own REST calls under Discord's global rate limit.

Discord allows 50 requests a second per bot token over every route but the interaction
endpoints; past it each request is refused with a global 429. discord.py only reacts to a 429
(it waits and tries again, five times at most, then raises), so a burst (200 lobbies opened at
once) made thousands of refused requests, which count toward Discord's invalid-request limit,
and some calls failed outright. Calls that count go through one :class:`GlobalPace` per
process first, spaced so that no second holds more than the limit.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable
from contextvars import ContextVar

#: Discord's global limit per bot token (requests per second)
DISCORD_GLOBAL_LIMIT = 50
#: set inside ``async with pace``: the calls made there are already counted
_PACED: ContextVar[bool] = ContextVar("paced", default=False)
#: how often a caller looks again when the limit's worth of calls are all still under way
IN_FLIGHT_POLL = 0.05


class GlobalPace:
    """A token bucket: a burst of a fifth of ``limit`` at once, then four fifths of it a second,
    so that no one-second window holds more than ``limit`` calls. ``limit`` is this process's
    share of Discord's 50 a second (``STOLIK_GLOBAL_LIMIT``: split it between several bot
    processes on one token). No lock: a caller reserves
    its slot before it awaits anything."""

    def __init__(self, limit: int = DISCORD_GLOBAL_LIMIT,
                 clock: Callable[[], float] = time.monotonic, *,
                 on_wait: Callable[[float], None] | None = None) -> None:
        """``on_wait``: told every call's wait for its slot, in seconds (0 when none)."""
        if limit < 1:
            raise ValueError("the limit must be at least one call a second")
        rate = 0.8 * limit
        self.interval = 1.0 / rate
        self.burst = max(1, limit - int(rate))
        self.clock = clock
        self._next = 0.0  # when the next slot is free, once the burst is spent
        self.waited = 0  # calls that had to wait (for logs and benchmarks)
        self.on_wait = on_wait
        self.limit = limit
        self._in_flight = 0  # calls let go and not finished: each may reach Discord any moment
        self._finished: deque[float] = deque()  # when the calls of the last second finished

    def delay(self) -> float:
        """Reserve a slot; how long to wait for it."""
        now = self.clock()
        at = max(self._next, now - (self.burst - 1) * self.interval)
        self._next = at + self.interval
        return max(0.0, at - now)

    def admit(self) -> float:
        """0 when a call may go now (it is then counted in flight), else how long to wait.

        The slots of :meth:`delay` are kept when the event loop runs on time; but a loop that
        stalls after a call was let go sends it late, together with the calls let go after
        the stall. A call reaches Discord between being let go and finishing, so it counts
        from being let go until a second after it finished: no second at Discord then holds
        more than ``limit`` of them."""
        now = self.clock()
        while self._finished and self._finished[0] <= now - 1.0:
            self._finished.popleft()
        if self._in_flight + len(self._finished) < self.limit:
            self._in_flight += 1
            return 0.0
        # the oldest finished call leaves the count first; with none, a call in flight must end
        return self._finished[0] + 1.0 - now if self._finished else IN_FLIGHT_POLL

    def noticed(self) -> None:
        """A request of this process that counts toward the global limit is starting: counted
        now unless this pace let it go (discord.py's own calls: the login, the gateway's
        address, the command sync at start-up, made before any paced call)."""
        if not _PACED.get():
            self._finished.append(self.clock())

    def finished(self) -> None:
        """A call let go by :meth:`admit` is done (answered or failed)."""
        self._in_flight -= 1
        self._finished.append(self.clock())

    async def __aenter__(self) -> None:
        wait, total = self.delay(), 0.0
        while True:
            if wait > 0:
                await asyncio.sleep(wait)
                total += wait
            wait = self.admit()
            if wait == 0:
                break
        _PACED.set(True)  # this task's requests until the block ends are this slot's
        if total > 0:
            self.waited += 1
        if self.on_wait is not None:
            self.on_wait(total)

    async def __aexit__(self, *exc: object) -> None:
        _PACED.set(False)
        self.finished()
