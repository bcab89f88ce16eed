"""Repairs of the live board through the stand-in, against the real bot (issue 27, items 1
and 3): a board posted just before a kill never keeps live buttons beside the next one, and a
click during a database outage never leaves a board without buttons once the database is back."""

from __future__ import annotations

import asyncio
import contextlib
import random
import time

import asyncpg
import pytest

from tests.e2e.helpers import assert_no_violations, open_game
from tests.e2e.test_hardening import live_boards, private_answer
from tests.pg import started_for_test
from tests.standin.botproc import BotProcess
from tests.standin.server import UPDATE
from tests.standin.users import Player, Refused, Table
from text.catalog import t

FOLLOW_UP = "POST /webhooks/{webhook_id}/{token}"
CALLBACK = "POST /interactions/{interaction_id}/{token}/callback"


async def test_a_move_before_start_up_reconciliation_retires_the_unrecorded_board(discord, bot):
    """kill -9 right as Discord answers a move's board (a follow-up, never recorded); after
    the restart a player moves on that board at once, before the start-up reconciliation
    (discord.py signals ready about 2 s after the last guild): the move's publish finds the
    intent left behind and retires the unrecorded board, so one board offers buttons."""
    channel = discord.text_channels[0]
    table = Table(discord, channel, [Player(discord, "Ala"), Player(discord, "Bartek")],
                  random.Random(11))
    await open_game(table, "kingdomino")
    killed: list[float] = []

    def kill_on_board(call) -> None:
        if not killed and call.files and call.status == 200 and call.key == FOLLOW_UP:
            bot.kill()
            killed.append(time.monotonic())

    discord.on_answered = kill_on_board
    recorded = table.turn_message()
    with contextlib.suppress(TimeoutError, AssertionError):  # the bot died mid-move
        await table.make_move(table.movers()[0], False, timeout=10)
    discord.on_answered = None
    assert killed
    await bot.wait_dead()
    unrecorded = table.turn_message()
    assert unrecorded is not recorded and unrecorded.components  # Discord made it

    await bot.start()
    move = await table.make_move(table.rng.choice(table.movers()), False, timeout=30)
    assert move.acknowledged and move.clicks[-1].message_id == unrecorded.id
    await asyncio.sleep(4.0)  # the start-up reconciliation has run by now
    restarted = bot.log_text().rpartition("--- start 2")[2]
    assert "re-posting the board" not in restarted, "the move did not come first"
    assert live_boards(table) == [table.turn_message()], \
        [m.id for m in live_boards(table)]
    move = await table.make_move(table.rng.choice(table.movers()), False, timeout=30)
    assert move.acknowledged and live_boards(table) == [table.turn_message()]
    assert_no_violations(discord)


@pytest.fixture
def own_postgres():
    """A PostgreSQL server of this test's own: the test stops and starts it."""
    server = started_for_test()
    yield server
    server.stop()


async def bare_marks(url: str) -> int:
    conn = await asyncpg.connect(url)
    try:
        return await conn.fetchval("SELECT count(*) FROM bare_boards")
    finally:
        await conn.close()


@pytest.mark.postgres
async def test_a_click_during_a_database_outage_leaves_a_clickable_board(discord, tmp_path,
                                                                       own_postgres):
    """PostgreSQL stops (1) before a click and (2) right after the click's first answer took
    the board's buttons off. Either way the click is answered at once with the store's
    failure, and the board is clickable again within seconds of the database's return (in
    (2) from the bot's memory, before it returns), with no restart and no typed command."""
    url = own_postgres.new_database()
    bot = BotProcess(discord, url, tmp_path)
    await bot.start()
    failed = t("en", "error.store_failed")
    try:
        channel = discord.text_channels[1]
        table = Table(discord, channel, [Player(discord, n) for n in ("Ala", "Bo")],
                      random.Random(3))
        await open_game(table, "kingdomino")
        await table.make_move(table.movers()[0], False)  # this process has shown the board

        # (1) the database is down before the click
        own_postgres.pause()
        board = table.turn_message()
        with pytest.raises(Refused) as refused:
            await table.make_move(table.movers()[0], False, timeout=15)
        assert str(refused.value) == failed
        assert table.moves[-1].clicks[-1].latency < 3.0
        own_postgres.resume()
        await discord.wait_for(lambda: board.components, 10, "a clickable board")
        move = await table.make_move(table.movers()[0], False, timeout=30)
        assert move.acknowledged
        await discord.wait_for(lambda: live_boards(table) == [table.turn_message()], 10,
                               "one live board")

        # (2) the database stops just as the click's first answer takes the buttons off
        stopped: list[int] = []

        def stop_on_update(call) -> None:
            if not stopped and call.key == CALLBACK and (call.body or {}).get("type") == UPDATE:
                own_postgres.pause()
                stopped.append(call.status)

        while not any(":a:" in c for c in table.turn_message().custom_ids()):
            await table.make_move(table.rng.choice(table.movers()), False, timeout=30)
        discord.on_answered = stop_on_update
        board = table.turn_message()
        mover = table.movers()[0]
        click = await mover.click(board, next(c for c in board.custom_ids() if ":a:" in c))
        assert await private_answer(discord, click, 15) == failed
        discord.on_answered = None
        assert stopped, "the first answer did not take the buttons off"
        # the buttons come back from memory while the database is still down
        await discord.wait_for(lambda: board.components, 10, "the buttons back")
        own_postgres.resume()
        # once it answers, the board is checked against it and its bare mark goes
        deadline = time.monotonic() + 15
        while await bare_marks(url) and time.monotonic() < deadline:
            await asyncio.sleep(0.5)
        assert await bare_marks(url) == 0
        move = await table.make_move(table.rng.choice(table.movers()), False, timeout=30)
        assert move.acknowledged
        await discord.wait_for(lambda: live_boards(table) == [table.turn_message()], 10,
                               "one live board")
        assert_no_violations(discord)
    finally:
        discord.on_answered = None
        await bot.stop()
