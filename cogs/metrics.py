"""The operator's metrics (Prometheus, through prometheus-client): what they are and how each
is recorded. One :class:`Metrics` per bot, with its own registry (never the library's global
one), so tests and several bots in one process do not mix their figures. ``cogs/ops.py``
serves them; the lower layers are handed plain callables (``Database(observer=...)``,
``Sessions(on_move=...)``, ``GlobalPace(on_wait=...)``, ``LoopLag(on_sample=...)``) and
never import this module.

Discord calls are counted from the HTTP client's own session (an aiohttp trace config given to
discord.py as ``http_trace``): every request that went out, each retry after a 429 included,
by bucket (``interaction``: responses and follow-ups, outside the global limit; ``global``:
everything else) and status class. Discord bans a token's IP for a while after 10,000 invalid
requests (401, 403, 429) in ten minutes: those classes are counted apart.
"""

from __future__ import annotations

import re
import time
from bisect import bisect_left
from collections.abc import Callable, Iterator
from typing import Any

import aiohttp
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client.core import HistogramMetricFamily
from prometheus_client.registry import Collector

#: seconds: a first answer is due within 3 s (Discord), aimed at 0.25 s
ANSWER_BUCKETS = (0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0)
DB_BUCKETS = (0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25,
              0.5, 1.0, 2.5)
LAG_BUCKETS = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
PACE_BUCKETS = (0.0, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
#: how long an interaction's arrival is remembered for its board (Discord's tokens last 15
#: minutes; a board later than this is not timed, and memory stays bounded)
REMEMBER = 120.0

_CALLBACK = re.compile(r"/interactions/(\d+)/[^/]+/callback$")


def status_class(status: int) -> str:
    """2xx, 429, 401/403, 4xx (another refusal), 5xx; 1xx/3xx as such."""
    if status in (401, 403):
        return "401/403"
    if status == 429:
        return "429"
    return f"{status // 100}xx"


def api_path(path: str) -> str | None:
    """The route of a Discord REST URL path (``/api/v10/channels/1/messages`` ->
    ``/channels/1/messages``); None for anything else (the gateway's websocket, a CDN)."""
    head, found, rest = path.partition("/api/v")
    if not found:
        return None
    return rest[rest.find("/"):] if "/" in rest else "/"


class LoopHistogram(Collector):
    """A histogram by one label, observed from the event loop's thread only: no lock, one
    bisect and two additions (about a quarter of prometheus-client's own ``observe``, which
    locks for threads; it is called on every database call)."""

    def __init__(self, name: str, documentation: str, label: str, buckets: tuple[float, ...],
                 registry: CollectorRegistry) -> None:
        self.name, self.documentation, self.label = name, documentation, label
        self.bounds = buckets
        self.counts: dict[str, list[int]] = {}  # per label value, one count per bucket + inf
        self.sums: dict[str, float] = {}
        registry.register(self)

    def observe(self, value: str, seconds: float) -> None:
        counts = self.counts.get(value)
        if counts is None:
            counts = self.counts[value] = [0] * (len(self.bounds) + 1)
            self.sums[value] = 0.0
        counts[bisect_left(self.bounds, seconds)] += 1
        self.sums[value] += seconds

    def collect(self) -> Iterator[HistogramMetricFamily]:
        family = HistogramMetricFamily(self.name, self.documentation, labels=[self.label])
        for value, counts in self.counts.items():
            running, buckets = 0, []
            for bound, count in zip([*map(str, self.bounds), "+Inf"], counts, strict=True):
                running += count
                buckets.append((bound, running))
            family.add_metric([value], buckets, self.sums[value])
        yield family

    def describe(self) -> Iterator[HistogramMetricFamily]:
        yield HistogramMetricFamily(self.name, self.documentation, labels=[self.label])


def bucket_of(route: str) -> str:
    """Interaction responses and follow-ups do not count toward the global limit."""
    return "interaction" if route.startswith(("/interactions/", "/webhooks/")) else "global"


class Metrics:
    """Every metric family of one bot, and the calls that record them."""

    def __init__(self, clock: Any = time.monotonic) -> None:
        self.clock = clock
        self.registry = registry = CollectorRegistry(auto_describe=True)
        self.moves = Counter("stolik_moves", "Players' moves by game and outcome "
                             "(accepted, refused, stale, failed)", ["game", "outcome"],
                             registry=registry)
        self.interactions = Counter("stolik_interactions", "Interactions served, by kind (a "
                                    "component's kind or 'command') and outcome",
                                    ["kind", "outcome"], registry=registry)
        self.first_response = Histogram("stolik_first_response_seconds", "From an interaction's "
                                        "arrival to Discord accepting its first answer",
                                        buckets=ANSWER_BUCKETS, registry=registry)
        self.board = Histogram("stolik_board_seconds", "From a move's click to its board "
                               "posted", buckets=ANSWER_BUCKETS, registry=registry)
        self.discord = Counter("stolik_discord_requests", "Requests to Discord's REST API, each "
                               "retry included, by bucket (global, interaction) and status "
                               "class (2xx, 429, 401/403, 4xx, 5xx, error: no answer)",
                               ["bucket", "status"], registry=registry)
        self.pace_wait = Histogram("stolik_pace_wait_seconds", "How long a call that counts "
                                   "toward the global limit waited for its slot",
                                   buckets=PACE_BUCKETS, registry=registry)
        self.loop_lag = Histogram("stolik_event_loop_lag_seconds", "How late a 50 ms timer on "
                                  "the event loop fired", buckets=LAG_BUCKETS, registry=registry)
        self.db = LoopHistogram("stolik_db_statement_seconds", "Database calls by kind "
                                "(fetchone, fetchall, lookup, batch, transaction)", "kind",
                                DB_BUCKETS, registry)
        self.timers_overdue = Gauge("stolik_timers_overdue_seconds", "Age of the oldest due "
                                    "timer not fired yet (0: none due)", registry=registry)
        self.open_games = Gauge("stolik_open_games", "Lobbies and running games",
                                registry=registry)
        self.cached_states = Gauge("stolik_state_cache_states", "Game states held in memory",
                                   registry=registry)
        self._received: dict[int, float] = {}  # interaction id -> arrival (clock), oldest first

    # --- recorders handed to the lower layers ------------------------------------------
    def move(self, game: str, outcome: str) -> None:
        self.moves.labels(game, outcome).inc()

    def interaction(self, kind: str, outcome: str) -> None:
        self.interactions.labels(kind, outcome).inc()

    def db_statement(self, kind: str, seconds: float) -> None:
        self.db.observe(kind, seconds)

    def waited(self, seconds: float) -> None:
        self.pace_wait.observe(seconds)

    def lagged(self, seconds: float) -> None:
        self.loop_lag.observe(seconds)

    # --- latencies of an interaction -----------------------------------------------------
    def received(self, interaction_id: int) -> None:
        """An interaction arrived (the client's dispatch, before any handler ran)."""
        now = self.clock()
        received = self._received
        # the oldest goes once too old (one per arrival: O(1), and the dict holds no more
        # than the arrivals of REMEMBER seconds, plus what came before a quiet spell)
        oldest = next(iter(received), None)
        if oldest is not None and now - received[oldest] > REMEMBER:
            del received[oldest]
        received[interaction_id] = now

    def answered(self, interaction_id: int) -> None:
        """Discord accepted the interaction's first answer (its callback)."""
        at = self._received.get(interaction_id)
        if at is not None:
            self.first_response.observe(self.clock() - at)

    def board_posted(self, interaction_id: int) -> None:
        """The board of the move clicked in this interaction is up."""
        at = self._received.pop(interaction_id, None)
        if at is not None:
            self.board.observe(self.clock() - at)

    # --- Discord's REST calls ------------------------------------------------------------
    def discord_call(self, path: str, status: int | None) -> None:
        """One request that ended with ``status`` (None: no answer, the connection failed)."""
        route = api_path(path)
        if route is None:
            return
        self.discord.labels(bucket_of(route), "error" if status is None
                            else status_class(status)).inc()
        if status is not None and status < 300:
            callback = _CALLBACK.search(route)
            if callback:
                self.answered(int(callback.group(1)))

    def trace_config(self, on_global: Callable[[], None] | None = None) -> aiohttp.TraceConfig:
        """For discord.py's HTTP session (``Client(http_trace=...)``): every request's end;
        ``on_global`` is told as each request that counts toward the global limit starts."""
        trace = aiohttp.TraceConfig()

        async def started(session: Any, context: Any,
                          params: aiohttp.TraceRequestStartParams) -> None:
            route = api_path(params.url.path)
            if on_global is not None and route is not None and bucket_of(route) == "global":
                on_global()

        async def ended(session: Any, context: Any, params: aiohttp.TraceRequestEndParams) -> None:
            self.discord_call(params.url.path, params.response.status)

        async def failed(session: Any, context: Any,
                         params: aiohttp.TraceRequestExceptionParams) -> None:
            self.discord_call(params.url.path, None)

        trace.on_request_start.append(started)
        trace.on_request_end.append(ended)
        trace.on_request_exception.append(failed)
        return trace
