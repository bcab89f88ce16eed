"""The one worker pool: image renders and computer moves run here, away from the event loop.

The bot starts worker processes with :func:`use_render_processes` (``STOLIK_RENDER_WORKERS``,
read in ``bot.py``); without them (0 workers, the tests) :func:`off_loop` runs the work in a
thread. Imports nothing from the rest of ``session/``, so any module may use it.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import multiprocessing
import os
import threading
import time
from typing import Any

#: worker processes for rendering, set up by the bot (None: a worker thread, as in tests)
_render_pool: concurrent.futures.Executor | None = None


def use_render_processes(workers: int) -> None:
    """Render in ``workers`` processes. Pillow drawing is mostly Python holding the GIL, so in
    a thread it still takes turns with the event loop: under load, heartbeats and the first
    answers to clicks waited behind it (measured with bench/bench_load.py)."""
    global _render_pool
    if workers > 0 and _render_pool is None:
        context = multiprocessing.get_context("forkserver")
        _render_pool = concurrent.futures.ProcessPoolExecutor(
            workers, mp_context=context, initializer=_exit_with, initargs=(os.getpid(),))


def _exit_with(bot_pid: int) -> None:
    """In each render process: exit when the bot is gone. A bot killed outright (kill -9, a
    crash) stops no pool, and its workers would otherwise wait for work forever."""
    def watch() -> None:
        while True:
            time.sleep(1.0)
            try:
                os.kill(bot_pid, 0)
            except ProcessLookupError:
                os._exit(0)
            except PermissionError:
                pass
    threading.Thread(target=watch, name="exit-with-bot", daemon=True).start()


def stop_render_processes() -> None:
    global _render_pool
    if _render_pool is not None:
        _render_pool.shutdown(wait=False, cancel_futures=True)
        _render_pool = None


async def off_loop(draw: Any, *args: Any, **kwargs: Any) -> Any:
    """Run a renderer away from the event loop: in the render processes, else in a thread."""
    if _render_pool is None:
        return await asyncio.to_thread(draw, *args, **kwargs)
    return await asyncio.get_running_loop().run_in_executor(
        _render_pool, functools.partial(draw, *args, **kwargs))
