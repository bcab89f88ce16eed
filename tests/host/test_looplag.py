"""The loop-lag watch sees a blocked event loop and reports it (cogs/looplag.py)."""

from __future__ import annotations

import asyncio
import logging
import time

from cogs.looplag import LoopLag, read_samples


async def test_a_blocked_loop_is_measured_and_written_out(tmp_path):
    path = tmp_path / "lag.txt"
    watch = LoopLag(interval=0.01, log_path=path)
    watch.start()
    await asyncio.sleep(0.05)
    started = time.monotonic()
    time.sleep(0.3)  # blocks the loop: the watch cannot wake before this returns
    await asyncio.sleep(0.05)
    await watch.stop()
    assert watch.worst >= 0.25
    samples = read_samples(path, started, time.monotonic())
    assert max(samples) >= 0.25
    assert read_samples(path, 0, started - 1) == []  # nothing recorded before the watch began


async def test_a_window_with_a_long_lag_is_logged_a_quiet_one_is_not(caplog):
    watch = LoopLag(interval=0.01, warn_after=0.1)
    caplog.set_level(logging.WARNING, logger="cogs.looplag")
    for lag in (0.001, 0.002, 0.05):
        watch.record(0.0, lag)
    watch.report()
    assert caplog.records == []
    for lag in (0.001, 0.25):
        watch.record(0.0, lag)
    watch.report()
    assert len(caplog.records) == 1
    assert "worst 250 ms" in caplog.records[0].getMessage()
    assert watch.window == []  # each report starts a new window

