"""Issue 14 through the stand-in: hostile input and a failing Discord, against the real bot.
Every interaction is answered within Discord's limits, and a game always has one live board."""

from __future__ import annotations

import contextlib
import random
import sqlite3
import time

import engines
from session import ids
from session.service import playable
from tests.e2e.helpers import assert_no_violations, open_game, plain, read_session
from tests.standin.server import Discord, Message
from tests.standin.users import Player, Refused, Table, answer, error_text
from text.catalog import t

HIDDEN = [g for g in playable() if engines.get(g).meta.hidden_information]


def db_value(db_path, sql: str, *params):
    conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    try:
        row = conn.execute(sql, params).fetchone()
    finally:
        conn.close()
    return row[0] if row else None


def turn_message_id(db_path, channel: int) -> int | None:
    return db_value(db_path, "SELECT turn_message_id FROM sessions WHERE channel_id = ?"
                    " ORDER BY id DESC LIMIT 1", channel)


async def one_live_board(table: Table) -> None:
    """The newest board is the only message with buttons (the old one's buttons go just after
    the new board is up)."""
    await table.discord.wait_for(lambda: live_boards(table) == [table.turn_message()], 30,
                                 "exactly one live board")


def live_boards(table: Table) -> list[Message]:
    """Public messages of the table that still carry move components."""
    return [m for m in table.public() if m.images() and m.components]


async def private_answer(discord: Discord, inter, timeout: float = 15.0) -> str:
    await answer(discord, inter, timeout)
    await discord.wait_for(lambda: error_text(discord, inter), timeout, "a private answer")
    return error_text(discord, inter) or ""


async def test_hostile_input_is_answered_privately_within_limits(discord, bot):
    channel = discord.text_channels[0]
    ala = Player(discord, "Ala")
    for options, key in [({"pace": "daily:nan"}, "error.bad_pace"),
                         ({"pace": "realtime:inf"}, "error.bad_pace"),
                         ({"pace": "daily:1e308"}, "error.bad_pace"),
                         ({"variants": "v" * 100}, "error.unknown_variant")]:
        inter = await ala.command(channel, "game new", game="kingdomino", **options)
        text = await private_answer(discord, inter)
        assert inter.latency is not None and inter.latency < 3.0
        assert text.split("“")[0] == t("en", key, pace="", variant="", known="").split("“")[0]
    for zone in ("Europe", "Z" * 64):
        inter = await ala.command(channel, "game settings me", timezone=zone)
        assert (await private_answer(discord, inter)).startswith("“")
    assert db_value(bot.db_path, "SELECT count(*) FROM sessions") == 0  # nothing was saved
    assert db_value(bot.db_path, "SELECT count(*) FROM user_settings") in (0, None)

    table = Table(discord, channel, [ala, Player(discord, "Bartek")], random.Random(2))
    await open_game(table, "kingdomino")
    mover = table.movers()[0]
    inter = await mover.command(channel, "kingdomino pick", domino="²")
    assert (await private_answer(discord, inter)) == t("en", "error.bad_action", action="pick ²")
    # (forged component ids: Discord delivers only clicks of components on the message, and
    # discord.py routes only those; tests/host/test_inputs.py feeds forged ids to the router)
    # /game stats with a user option: Discord sends the user in ``resolved``
    inter = await ala.command(channel, "game stats", player=mover.id)
    await answer(discord, inter)
    await discord.wait_for(lambda: inter.followups, 15, "the stats")
    assert read_session(bot.db_path, channel).version == 0
    assert_no_violations(discord)


async def test_a_board_refused_by_a_503_is_posted_again_and_stays_the_only_live_one(discord, bot):
    channel = discord.text_channels[1]
    table = Table(discord, channel, [Player(discord, "Ala"), Player(discord, "Bartek")],
                  random.Random(7))
    await open_game(table, "kingdomino")
    # the click's follow-up is refused (an unknown webhook): the board goes by the channel,
    # where a single 503 (discord.py does not retry it) is met by the bot's own retry
    discord.faults.server_error("POST /webhooks/*", status=404, count=1)
    fault = discord.faults.server_error("POST /channels/*/messages", status=503, count=1)
    move = await table.make_move(table.movers()[0], False, timeout=30)
    assert move.acknowledged and fault.hits == 1
    await one_live_board(table)

    # Discord refuses every try: the mover is told, the next click on the board posts it
    discord.faults.server_error("POST /webhooks/*", status=404, count=1)
    fault = discord.faults.server_error("POST /channels/*/messages", status=503, count=4)
    board = table.turn_message()
    with contextlib.suppress(Refused):
        await table.make_move(table.movers()[0], False, timeout=30)
    assert fault.hits == 4
    last = table.moves[-1].clicks[-1]
    # (the command it names is a clickable mention: written plain to compare)
    assert plain(await private_answer(discord, last, 30) or "") == t("en", "error.board_failed")
    # the click's answer may have taken the board's buttons off: they come back (or the
    # start-up reconciliation, if it is still running, already posted the board again)
    await discord.wait_for(lambda: board.components or table.turn_message() is not board, 10,
                           "the board's buttons back")
    if table.turn_message() is board:
        clicker = table.movers()[0]
        again = await clicker.click(board, next(c for c in board.custom_ids()
                                                if ids.parse(c).kind in ("act", "pick")))
        await answer(discord, again, 30)
        await discord.wait_for(lambda: table.turn_message() is not board, 30,
                               "the board re-posted")
    await one_live_board(table)
    await discord.wait_for(lambda: turn_message_id(bot.db_path, channel)
                           == table.turn_message().id, 10, "the new board recorded")
    assert_no_violations(discord)


async def test_a_500_after_discord_posted_the_board_leaves_no_duplicate(discord, bot):
    """Discord made the message but its answer was lost: the repeat carries the same nonce,
    so Discord answers with the message it made instead of a second board."""
    channel = discord.text_channels[2]
    table = Table(discord, channel, [Player(discord, "Ala"), Player(discord, "Bartek")],
                  random.Random(9))
    await open_game(table, "kingdomino")
    boards = len([m for m in table.public() if m.images()])
    discord.faults.server_error("POST /webhooks/*", status=404, count=1)  # by the channel
    discord.faults.server_error("POST /channels/*/messages", status=503, count=1, after_write=True)
    move = await table.make_move(table.movers()[0], False, timeout=30)
    assert move.acknowledged
    await one_live_board(table)
    assert len([m for m in table.public() if m.images()]) <= boards + 1
    assert_no_violations(discord)


async def test_a_kill_between_posting_a_board_and_recording_it(discord, bot):
    """kill -9 right as Discord answers the board's post (a follow-up of the click, which has
    no nonce): after the restart the newest board is the live one, older ones have no buttons
    (the unrecorded follow-up is retired through the channel), and the game goes on from it."""
    channel = discord.text_channels[3]
    table = Table(discord, channel, [Player(discord, "Ala"), Player(discord, "Bartek")],
                  random.Random(11))
    await open_game(table, "kingdomino")
    killed: list[float] = []

    def kill_on_board(call) -> None:
        if not killed and call.files and call.status == 200 and (
                call.key == "POST /webhooks/{webhook_id}/{token}"
                or call.key == "POST /channels/{channel_id}/messages" and call.major == str(channel)):
            bot.kill()
            killed.append(time.monotonic())

    discord.on_answered = kill_on_board
    mover = table.movers()[0]
    board = table.turn_message()
    with contextlib.suppress(TimeoutError, AssertionError):  # the bot died mid-move
        await table.make_move(mover, False, timeout=10)
    discord.on_answered = None
    assert killed
    await bot.wait_dead()
    await bot.start()
    await discord.wait_for(lambda: len(live_boards(table)) == 1
                           and live_boards(table)[0] is table.turn_message()
                           and table.turn_message() is not board
                           # (the click's answer took the old board's buttons off: the
                           # unrecorded follow-up is the only live board until the repair)
                           and turn_message_id(bot.db_path, channel) == table.turn_message().id,
                           60, "one live board, recorded")
    for _ in range(3):
        move = await table.make_move(table.rng.choice(table.movers()), False, timeout=30)
        assert move.acknowledged
        await one_live_board(table)
    assert_no_violations(discord)


async def test_dms_failing_with_5xx_never_delay_the_board_and_are_told_once(discord, bot):
    if not HIDDEN:
        return
    game_id = HIDDEN[0]
    channel = discord.text_channels[0]
    players = [Player(discord, "Ala"), Player(discord, "Bartek")]
    failing = players[1]
    discord.faults.fail_dms(failing.id, status=500)  # discord.py retries a 500 for ~16 s
    table = Table(discord, channel, players, random.Random(5), dms_closed={failing.id})
    await open_game(table, game_id, timeout=60)
    for _ in range(6):
        if table.finished():
            break
        move = await table.make_move(table.rng.choice(table.movers()), True, timeout=60)
        started = move.clicks[-1].sent_at
        # the board follows the click well before discord.py's retries of the DM are over
        assert move.turn_message is not None and move.turn_message.created - started < 10.0
    def told() -> list[Message]:
        return [m for m in table.public() if f"<@{failing.id}>" in m.content and not m.images()]

    # told once discord.py's retries of the first DM are over (about 16 s), and only once
    await discord.wait_for(told, 60, "the player told their DMs fail")
    for _ in range(2):
        if not table.finished():
            await table.make_move(table.rng.choice(table.movers()), True, timeout=60)
    assert len(told()) == 1, [m.content for m in told()]
    assert discord.dms(players[0].id)
    assert_no_violations(discord)
