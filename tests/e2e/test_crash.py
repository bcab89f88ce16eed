"""Crash safety: ``kill -9`` the bot at 20 random points of a game, restart it each time, go on
by clicking the buttons that are still on the old messages, and finish. The final state equals
an uninterrupted replay of the logged actions, and every move acknowledged to a player (the next
board appeared) is in the log, in order."""

from __future__ import annotations

import asyncio
import contextlib
import random
import time

import engines
from tests.e2e.helpers import assert_no_violations, open_game, read_session
from tests.standin.users import Player, Refused, Table, error_text
from text.catalog import t

GAME = "kingdomino"
KILLS = 20
STALE = t("en", "error.stale")
#: generous waits: 21 bot starts on a 2-core machine that may be busy with other work
SLOW = 60.0


async def move_or_retry(table: Table, mover: Player):
    """Click the newest board; if the bot says it is stale (it stopped before posting the
    next board) it posts the current board, and the player clicks that one, as a person would."""
    board = table.turn_message()
    try:
        return await table.make_move(mover, False, timeout=SLOW)
    except Refused as refused:
        assert str(refused) == STALE, refused
    await table.discord.wait_for(lambda: table.turn_message() is not board, SLOW, "the board re-posted")
    table.repaired += 1
    return await table.make_move(table.rng.choice(table.movers()), False, timeout=SLOW)


async def test_kill_minus_nine_at_twenty_random_points(discord, bot):
    rng = random.Random(20)
    channel = discord.text_channels[0]
    players = [Player(discord, "Ala"), Player(discord, "Bartek")]
    table = Table(discord, channel, players, random.Random(21))
    table.repaired = 0
    await open_game(table, GAME)
    game = engines.get(GAME)
    total_moves = 48  # two players: 12 rounds, a pick each and then a placement each
    kill_at = set(rng.sample(range(1, total_moves - 1), KILLS))
    acknowledged: list[tuple[int, str]] = []  # (user id, code) of every move the bot confirmed
    kills = 0
    bare = 0  # restarts after which the board had no buttons yet
    trace = []
    n = 0
    while not table.finished():
        n += 1
        assert n < 200, "the game does not end"
        mover = table.rng.choice(table.movers())
        board = table.turn_message()
        if n not in kill_at:
            move = await move_or_retry(table, mover)
            trace.append((n, "move", [i.data.get("custom_id") for i in move.clicks], move.code))
            acknowledged.append((move.player.id, move.code))
            continue
        # a kill somewhere in this move: before the click lands, while the bot writes, renders,
        # takes the old buttons away or posts the new board
        kills += 1
        task = asyncio.ensure_future(table.make_move(mover, False, timeout=SLOW))
        await asyncio.sleep(rng.uniform(0.0, 0.35))
        bot.kill()
        killed_at = time.monotonic()
        await bot.wait_dead()
        with contextlib.suppress(Refused, TimeoutError, AssertionError):
            await asyncio.wait_for(task, 0.3)  # whatever reached the stand-in before the kill
        task.cancel()
        move = table.moves[-1]
        last = move.clicks[-1] if move.clicks else None
        boards_after = [m for m in table.public() if m.images() and m.id > board.id
                        and last is not None and last.sent_at <= m.created <= killed_at]
        acked = bool(last and last.acked_at and boards_after and not error_text(discord, last))
        trace.append((n, "kill", [i.data.get("custom_id") for i in move.clicks], move.code, acked))
        if acked:
            acknowledged.append((mover.id, move.code))
        await bot.start()
        # a board left without buttons by the kill is shown again once the bot is up, a
        # moment after its gateway session: until then nobody can move, nor is it over
        bare += not (table.movers() or table.finished())
        await discord.wait_for(lambda: table.movers() or table.finished(), SLOW,
                               "a board to play on after the restart")

    assert kills == KILLS
    stored = read_session(bot.db_path, channel)
    assert stored.status == "finished"
    # every acknowledged move is in the log, in order (an unacknowledged one may be too)
    logged = [(user_id, code) for _, _, user_id, code in stored.actions]
    it = iter(logged)
    missing = [m for m in acknowledged if m not in it]
    assert not missing, f"acknowledged moves lost from {missing[0]}: {trace[:14]} {logged[:12]}"
    # the stored final state is exactly an uninterrupted replay of the logged actions
    states = stored.replay()
    assert states[-1] == stored.state
    assert stored.result["totals"] == game.totals(states[-1])
    final = table.turn_message()
    assert t("en", "ui.final_results") in final.content
    for name, total in zip(stored.names, game.totals(states[-1]), strict=True):
        assert f"{name}: {total}" in final.content
    assert bot.starts == KILLS + 1
    print(f"\n{kills} kills, {table.repaired} stale boards re-posted after a restart, "
          f"{bare} boards still bare when the bot was up, {len(stored.actions)} moves")
    assert_no_violations(discord)
