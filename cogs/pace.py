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

#: Discord's global limit per bot token (requests per second)
DISCORD_GLOBAL_LIMIT = 50


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
        self._granted: deque[float] = deque()  # when the calls of the last second went out

    def delay(self) -> float:
        """Reserve a slot; how long to wait for it."""
        now = self.clock()
        at = max(self._next, now - (self.burst - 1) * self.interval)
        self._next = at + self.interval
        return max(0.0, at - now)

    def admit(self) -> float:
        """0 when a call may go now (and it is counted), else how long until the last second's
        calls leave room for it. The slots of :meth:`delay` are kept when the event loop runs
        on time; a loop stalled past several slots wakes their callers together, and this
        holds the extra ones back, so what leaves the process stays under the limit."""
        now = self.clock()
        while self._granted and self._granted[0] <= now - 1.0:
            self._granted.popleft()
        if len(self._granted) >= self.limit:
            return self._granted[0] + 1.0 - now
        self._granted.append(now)
        return 0.0

    async def __aenter__(self) -> None:
        wait, total = self.delay(), 0.0
        while True:
            if wait > 0:
                await asyncio.sleep(wait)
                total += wait
            wait = self.admit()
            if wait == 0:
                break
        if total > 0:
            self.waited += 1
        if self.on_wait is not None:
            self.on_wait(total)

    async def __aexit__(self, *exc: object) -> None:
        return None
