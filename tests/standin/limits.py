"""Discord's limits as the stand-in applies them: the global rate limit counted per bot token,
the 429s a test injects (:class:`Faults`, with server errors and slow answers), the retry-after a
429 sets and the rate-limit headers of every answer (buckets keyed by the route's top-level
resource), and the documented sizes of what a message may hold (checked by
:mod:`tests.standin.validation`)."""

from __future__ import annotations

import fnmatch
import json
import math
import random
import time
from collections import defaultdict, deque
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from tests.standin.model import Call

#: Discord's global rate limit: requests per bot token per window (seconds)
GLOBAL_LIMIT, GLOBAL_WINDOW = 50, 1.0
#: requests that arrive this soon after a global 429 was answered were on their way before the
#: bot could have read it (concurrent requests, event-loop lag): 429 too, not a violation
GLOBAL_REACTION = 0.25
#: tolerance for "too early" after a 429: clocks of two processes, timer granularity
EARLY_TOLERANCE = 0.02

# Discord's documented sizes (some stricter than its OpenAPI spec)
MAX_CONTENT = 2000
MAX_ROWS = 5
MAX_ROW_ITEMS = 5
MAX_CUSTOM_ID = 100
MAX_LABEL = 80
MAX_OPTIONS = 25
MAX_OPTION_TEXT = 100
MAX_PLACEHOLDER = 150
MAX_FILES = 10
MAX_FILE_BYTES = 10 * 1024 * 1024
MAX_DESCRIPTION = 1024
MAX_NONCE = 25
MAX_CHOICES = 25
MAX_CHOICE_TEXT = 100
MAX_THREAD_NAME = 100
MAX_LIST = 100

#: the route parameters that name a route's top-level resource, in the order Discord picks one
MAJOR_PARAMETERS = ("channel_id", "webhook_id", "interaction_id", "guild_id")


def major_of(params: dict[str, str]) -> str:
    """The route's top-level resource, which keys its rate limits: a webhook's is its id and
    token (each interaction's token has its own limits), as discord.py's webhook buckets
    assume."""
    if "webhook_id" in params and "token" in params:
        return f"{params['webhook_id']}/{params['token']}"
    return next((params[k] for k in MAJOR_PARAMETERS if k in params), "")


def json_response(payload: Any, status: int, headers: dict[str, str]) -> web.Response:
    """Discord's exact content type: discord.py parses JSON only for 'application/json'."""
    return web.Response(body=json.dumps(payload).encode(), status=status,
                        headers={**headers, "Content-Type": "application/json"})


def discord_response(status: int, payload: Any, bucket: str = "") -> web.Response:
    """An answer with Discord's headers; ``bucket`` (the route template) adds its rate-limit
    headers."""
    headers = {"Via": "1.1 google"}
    if bucket:
        headers.update({"X-RateLimit-Limit": "50", "X-RateLimit-Remaining": "49",
                        "X-RateLimit-Reset-After": "1.000", "X-RateLimit-Bucket":
                        f"{abs(hash(bucket)) % 16**12:012x}",
                        "X-RateLimit-Reset": f"{time.time() + 1:.3f}"})
    if status == 204:
        return web.Response(status=204, headers=headers)
    return json_response(payload, status, headers)


# --- faults -------------------------------------------------------------------------------
@dataclass
class Fault:
    """Applied to requests whose ``"METHOD /route"`` matches ``pattern`` (fnmatch)."""

    kind: str  # "429", "500", "slow"
    pattern: str = "*"
    count: int | None = 1  # how many requests it hits; None = until removed
    probability: float = 1.0
    retry_after: float = 0.5
    is_global: bool = False
    status: int = 500
    delay: float = 0.0
    hits: int = 0
    #: a 5xx after Discord did the work (the message exists, the answer is lost)
    after_write: bool = False

    def matches(self, key: str, rng: random.Random) -> bool:
        if self.count is not None and self.hits >= self.count:
            return False
        if not fnmatch.fnmatchcase(key, self.pattern):
            return False
        return rng.random() < self.probability


class Faults:
    """Faults on demand. Every helper returns the :class:`Fault` so a test can read ``hits``."""

    def __init__(self, seed: int = 0) -> None:
        self.active: list[Fault] = []
        self.rng = random.Random(seed)
        #: users whose DMs are closed, and where Discord refuses: "message" (as Discord does:
        #: the DM channel opens, the message is refused) or "create" (opening is refused)
        self.closed_dms: dict[int, str] = {}
        #: users whose DMs Discord fails with a server error (status), every time
        self.failing_dms: dict[int, int] = {}

    def rate_limit(self, pattern: str = "*", *, retry_after: float = 0.5, count: int | None = 1,
                   probability: float = 1.0, is_global: bool = False) -> Fault:
        return self._add(Fault("429", pattern, count, probability, retry_after, is_global))

    def server_error(self, pattern: str = "*", *, status: int = 500, count: int | None = 1,
                     probability: float = 1.0, after_write: bool = False) -> Fault:
        return self._add(Fault("500", pattern, count, probability, status=status,
                               after_write=after_write))

    def slow(self, pattern: str = "*", *, delay: float = 1.0, count: int | None = 1,
             probability: float = 1.0) -> Fault:
        return self._add(Fault("slow", pattern, count, probability, delay=delay))

    def refuse_dms(self, user_id: int, at: str = "message") -> None:
        assert at in ("message", "create")
        self.closed_dms[user_id] = at

    def fail_dms(self, user_id: int, status: int = 503) -> None:
        """Discord answers ``status`` (5xx) to every DM to this user, as in an outage."""
        self.failing_dms[user_id] = status

    def clear(self) -> None:
        self.active.clear()

    def _add(self, fault: Fault) -> Fault:
        self.active.append(fault)
        return fault

    def pick(self, kind: str, key: str) -> Fault | None:
        for fault in self.active:
            if fault.kind == kind and fault.matches(key, self.rng):
                fault.hits += 1
                return fault
        return None


# --- rate limits --------------------------------------------------------------------------
class RateLimits:
    """The global limit Discord counts, the 429s it answers, and the violations of a 429's
    ``retry_after`` (recorded in ``violations``)."""

    def __init__(self, violations: list[str], global_limit: int | None = GLOBAL_LIMIT) -> None:
        self.violations = violations
        #: Discord's global limit, counted per token over every route not exempt (see
        #: :attr:`Call.globally_limited`); ``None`` turns it off (a test may lower it)
        self.global_limit = global_limit
        self.global_window = GLOBAL_WINDOW
        #: (bucket, major) -> time before which a request breaks a 429's retry_after
        self._blocked_until: dict[tuple[str, str], float] = {}
        self._global_blocked_until = 0.0
        #: token -> times of its globally limited requests Discord served in the last window
        self._global_log: defaultdict[str, deque[float]] = defaultdict(deque)
        #: token -> when the current global block began (its first 429)
        self._global_since: dict[str, float] = {}

    def rate_limited(self, call: Call, fault: Fault) -> web.Response:
        """The 429 an injected fault answers, route or global."""
        call.status = 429
        call.fault = f"429 {'global' if fault.is_global else 'route'} {fault.retry_after}s"
        call.answered_at = time.monotonic()
        until = call.answered_at + fault.retry_after
        if fault.is_global:
            self._global_blocked_until = max(self._global_blocked_until, until)
        else:
            self._blocked_until[(call.key, call.major)] = until
        headers = {"Via": "1.1 google", "Retry-After": str(math.ceil(fault.retry_after)),
                   "X-RateLimit-Scope": "global" if fault.is_global else "user"}
        if fault.is_global:
            headers["X-RateLimit-Global"] = "true"
        else:
            headers.update({"X-RateLimit-Limit": "5", "X-RateLimit-Remaining": "0",
                            "X-RateLimit-Reset-After": f"{fault.retry_after:.3f}",
                            "X-RateLimit-Reset": f"{time.time() + fault.retry_after:.3f}",
                            "X-RateLimit-Bucket": f"{abs(hash(call.route)) % 16**12:012x}"})
        body = {"message": "You are being rate limited.", "retry_after": fault.retry_after,
                "global": fault.is_global, "code": 0}
        return json_response(body, 429, headers)

    def over_global_limit(self, call: Call) -> bool:
        """Discord's global limit: at most :attr:`global_limit` globally limited requests per
        token in any :attr:`global_window`; the ones past it are refused (and not counted)."""
        if self.global_limit is None or not call.globally_limited:
            return False
        served = self._global_log[call.auth]
        while served and served[0] <= call.t - self.global_window:
            served.popleft()
        if len(served) >= self.global_limit:
            return True
        served.append(call.t)
        return False

    def globally_limited(self, call: Call) -> web.Response:
        """429 with ``global: true``: retry after the oldest request leaves the window. A
        request sent while a global 429 holds is a violation (:meth:`check_retry_after`)
        unless it was on its way before the bot could have read the first 429."""
        served = self._global_log[call.auth]
        retry_after = max(0.001, served[0] + self.global_window - call.t)
        call.status = 429
        call.fault = f"429 global limit {retry_after:.3f}s"
        call.answered_at = time.monotonic()
        if call.t >= self._global_blocked_until:
            self._global_since[call.auth] = call.t  # a new block begins
        self._global_blocked_until = max(self._global_blocked_until, call.t + retry_after)
        headers = {"Via": "1.1 google", "Retry-After": str(math.ceil(retry_after)),
                   "X-RateLimit-Global": "true", "X-RateLimit-Scope": "global"}
        body = {"message": "You are being rate limited.", "retry_after": round(retry_after, 3),
                "global": True, "code": 0}
        return json_response(body, 429, headers)

    def check_retry_after(self, call: Call) -> None:
        """A request sent before a 429's retry_after ran out is a violation (not the bot's
        webhook/interaction calls for a global limit: Discord exempts interaction endpoints)."""
        until = self._blocked_until.get((call.key, call.major), 0.0)
        if call.t + EARLY_TOLERANCE < until:
            self.violations.append(f"{call.key} ({call.major}) {until - call.t:.3f}s before retry_after")
        since = self._global_since.get(call.auth, -math.inf)
        if call.globally_limited and call.t + EARLY_TOLERANCE < self._global_blocked_until \
                and call.t > since + GLOBAL_REACTION:
            self.violations.append(
                f"{call.key} {self._global_blocked_until - call.t:.3f}s before the global retry_after")
