"""Watch the event loop: how late a short, regular timer fires is how long the loop was busy.

Every click, timer and gateway heartbeat of this process waits for the one event loop, so a
stretch of blocking work (a render or a computer move on the loop by mistake, a slow query
driver) or simply too much work shows up here first. The watch wakes every ``interval``
seconds and records how late it woke. Once a minute, if the worst lag passed ``warn_after``,
it logs a warning with the minute's median, 99th percentile and worst lag.

``log_path`` (``STOLIK_LOOP_LAG_LOG``, passed by bot.py) also appends every sample as ``<monotonic seconds>
<lag ms>`` lines, once a second, for benchmarks (bench/bench_load.py reads them; on Linux
``time.monotonic`` is one clock for every process).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import statistics
from collections.abc import Callable
from pathlib import Path

log = logging.getLogger(__name__)


def percentile(sorted_values: list[float], share: float) -> float:
    """Nearest-rank percentile of already sorted values."""
    return sorted_values[min(len(sorted_values) - 1, int(share * len(sorted_values)))]


class LoopLag:
    """A task measuring the event loop's lag; start it on the running loop, stop it at close."""

    def __init__(self, interval: float = 0.05, *, report_every: float = 60.0,
                 warn_after: float = 0.1, log_path: Path | None = None,
                 on_sample: Callable[[float], None] | None = None) -> None:
        """``on_sample``: told every sample's lag, in seconds (the operator's metrics)."""
        self.interval = interval
        self.on_sample = on_sample
        self.report_every = report_every
        self.warn_after = warn_after
        self.log_path = log_path
        self.window: list[float] = []  # lags (seconds) since the last report
        self.worst = 0.0  # since start
        self._unwritten: list[str] = []
        self._task: asyncio.Task | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._watch(), name="loop-lag")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        self._write()

    async def _watch(self) -> None:
        loop = asyncio.get_running_loop()
        last_report = last_write = loop.time()
        while True:
            due = loop.time() + self.interval
            await asyncio.sleep(self.interval)
            now = loop.time()
            self.record(now, now - due)
            if now - last_write >= 1.0:
                self._write()
                last_write = now
            if now - last_report >= self.report_every:
                self.report()
                last_report = now

    def record(self, at: float, lag: float) -> None:
        lag = max(0.0, lag)
        if self.on_sample is not None:
            self.on_sample(lag)
        self.window.append(lag)
        self.worst = max(self.worst, lag)
        if self.log_path is not None:
            self._unwritten.append(f"{at:.4f} {lag * 1000:.2f}\n")

    def report(self) -> None:
        """Log the window's lag if its worst passed ``warn_after``; start a new window."""
        window, self.window = sorted(self.window), []
        if window and window[-1] > self.warn_after:
            log.warning("event loop lag over the last %.0f s: median %.0f ms, p99 %.0f ms, "
                        "worst %.0f ms (%d samples)", self.report_every,
                        statistics.median(window) * 1000, percentile(window, 0.99) * 1000,
                        window[-1] * 1000, len(window))

    def _write(self) -> None:
        if self.log_path is None or not self._unwritten:
            return
        # a few hundred bytes a second: cheaper than handing them to a thread
        with self.log_path.open("a", encoding="ascii") as out:
            out.writelines(self._unwritten)
        self._unwritten = []


def read_samples(path: Path, start: float, end: float) -> list[float]:
    """Lags (seconds) recorded between ``start`` and ``end`` (monotonic) in a sample log."""
    out: list[float] = []
    if not path.exists():
        return out
    for line in path.read_text(encoding="ascii").splitlines():
        at, lag_ms = line.split()
        if start <= float(at) <= end:
            out.append(float(lag_ms) / 1000)
    return out
