"""A real-time game through the stand-in in which a player lets their time run out: the bot
pings them, asks the others, a computer takes the seat by majority, and a newcomer takes it
over with ``/game substitute``; the game then goes on to the end (issue: asynchronous play)."""

from __future__ import annotations

import random
import sqlite3

from tests.e2e.helpers import play_to_end
from tests.standin.users import Player, Table, answer

GAME = "kingdomino"
PACE = "realtime:0.2"  # 12 seconds a move: the test waits that long once


def stored(db_path) -> sqlite3.Connection:
    conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    conn.row_factory = sqlite3.Row
    return conn


async def test_a_player_times_out_is_replaced_by_a_computer_then_by_a_substitute(
        discord, bot, tmp_path):
    channel = discord.text_channels[1]
    ala, bo, cy, newcomer = (Player(discord, name) for name in ("Ala", "Bo", "Cy", "Dee"))
    table = Table(discord, channel, [ala, bo, cy, newcomer], random.Random(7))
    inter = await ala.command(channel, "game new", game=GAME, players=3, pace=PACE)
    await answer(discord, inter)
    # a player joins once the lobby is up (the answer above is only the deferral of /game new)
    await discord.wait_for(lambda: table.lobby_message(), 30, "the lobby")
    for player in (bo, cy):
        count = len(table.public())
        await answer(discord, await player.command(channel, "game join"))
        await discord.wait_for(lambda c=count: len(table.public()) > c, 30, "the join")
    await discord.wait_for(lambda: table.turn_message(), 30, "the first board")
    assert "⏱" in table.turn_message().content  # the clocks are shown

    late = table.movers()[0]
    others = [p for p in (ala, bo, cy) if p is not late]

    def vote_message():
        return next((m for m in table.public()
                     if any(":v:computer:timeout:" in c for c in m.custom_ids())), None)

    # the late player is reminded (pinged), then the table is asked
    await discord.wait_for(lambda: any(f"<@{late.id}>" in (m.content or "") and "⏰" in m.content
                                       for m in table.public()), 30, "the reminder")
    message = await discord.wait_for(vote_message, 40, "the vote on the late player")
    computer = next(c for c in message.custom_ids() if ":v:computer:" in c)
    board_before = table.turn_message()
    for voter in others:
        await answer(discord, await voter.click(message, computer))
    await discord.wait_for(lambda: table.turn_message() is not board_before, 30,
                           "the board after the computer's move")

    db_path = tmp_path / "stolik.sqlite3"
    with stored(db_path) as db:
        (session_id, seat) = db.execute(
            "SELECT session_id, seat FROM seat_history WHERE user_id IS NULL").fetchone()
        computer_moves = db.execute(
            "SELECT COUNT(*) FROM actions WHERE session_id = ? AND seat = ? AND user_id IS NULL",
            (session_id, seat)).fetchone()[0]
    assert computer_moves >= 1

    # a newcomer takes the seat over
    sub = await newcomer.command(channel, "game substitute", seat=seat + 1)
    await answer(discord, sub)
    await discord.wait_for(lambda: sub.followups, 30, "the answer to /game substitute")
    with stored(db_path) as db:
        seated = db.execute("SELECT user_id FROM seats WHERE session_id = ? AND seat = ?",
                            (session_id, seat)).fetchone()[0]
    assert seated == newcomer.id

    await play_to_end(table, GAME)
    with stored(db_path) as db:
        status = db.execute("SELECT status FROM sessions WHERE id = ?", (session_id,)).fetchone()[0]
        history = db.execute("SELECT user_id FROM seat_history WHERE session_id = ? AND seat = ?"
                             " ORDER BY from_version", (session_id, seat)).fetchall()
        kinds = {r[0] for r in db.execute(
            "SELECT kind FROM actions WHERE session_id = ? AND seat = ?", (session_id, seat))}
        by_newcomer = db.execute(
            "SELECT COUNT(*) FROM actions WHERE session_id = ? AND seat = ? AND user_id = ?",
            (session_id, seat, newcomer.id)).fetchone()[0]
    assert status == "finished"
    assert [h[0] for h in history] == [None, newcomer.id]  # who sat there, in order
    assert "computer" in kinds and by_newcomer >= 1
