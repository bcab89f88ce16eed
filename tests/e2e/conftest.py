"""Fixtures: the stand-in Discord in the test's event loop, the real bot as a child process."""

from __future__ import annotations

import aiohttp
import pytest

from tests.standin.botproc import BotProcess
from tests.standin.server import Discord


@pytest.fixture
async def discord():
    server = await Discord(channels=4).start()
    yield server
    await server.stop()


@pytest.fixture
async def bot(discord, tmp_path, request):
    process = BotProcess(discord, tmp_path / "stolik.sqlite3", tmp_path)
    await process.start()
    yield process
    await process.stop()
    log = process.log_text()
    # the bot must never have logged an unhandled error while the test ran
    if "Traceback" in log and not getattr(request.node, "allow_tracebacks", False):
        pytest.fail(f"the bot logged a traceback:\n{process.log_tail(60)}")


@pytest.fixture
async def api():
    """A bare stand-in and an HTTP session with the bot's token: the stand-in's own tests."""
    server = await Discord(channels=1).start()
    async with aiohttp.ClientSession(headers={"Authorization": f"Bot {server.token}"}) as http:
        yield server, http
    await server.stop()


@pytest.fixture
async def clocked_bot(discord, tmp_path):
    """The bot with a clock the test moves: ``bot.move_clock(seconds)``."""
    clock_file = tmp_path / "clock-offset"
    clock_file.write_text("0")
    process = BotProcess(discord, tmp_path / "stolik.sqlite3", tmp_path,
                         extra_env={"STOLIK_CLOCK_FILE": str(clock_file)})

    def move_clock(seconds: float) -> None:
        clock_file.write_text(str(float(clock_file.read_text()) + seconds))

    process.move_clock = move_clock
    await process.start()
    yield process
    await process.stop()
    log = process.log_text()
    if "Traceback" in log:
        pytest.fail(f"the bot logged a traceback:\n{process.log_tail(60)}")
