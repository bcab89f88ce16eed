"""Games that last weeks (issue 12), through the stand-in with the real bot, whose clock a
test moves on (``STOLIK_CLOCK_FILE``: real time + an offset in seconds):
- a daily game whose first turn starts in the player's quiet hours: the board does not ping;
  the ping comes when the quiet hours end;
- an untimed game where a silent player is declared absent after 72 hours, replaced by a
  computer by the others' vote, and the game finishes;
- a game with hands: each player's private message is edited in place, with at most one new
  DM per player per turn they must act;
- clock jumps (issue 27): a jump past a deadline posts the vote and no stale reminder; a clock
  set back during a turn credits the player no time."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from datetime import UTC, datetime, timedelta

import pytest

import engines
from tests.e2e.helpers import open_game, play_to_end, read_session
from tests.standin.users import Player, Table, answer


def seconds_until(hour: int, minute: int) -> float:
    """From now to the next UTC time hour:minute (always ahead, at least a minute)."""
    now = datetime.now(UTC)
    target = now.replace(hour=hour, minute=minute, second=0, microsecond=0)
    if target <= now + timedelta(minutes=1):
        target += timedelta(days=1)
    return (target - now).total_seconds()


async def test_a_turn_that_starts_in_quiet_hours_is_pinged_when_they_end(discord, clocked_bot):
    clocked_bot.move_clock(seconds_until(6, 30))  # the bot's clock: 06:30 UTC
    channel = discord.text_channels[1]
    ala, bo = Player(discord, "Ala"), Player(discord, "Bo")
    for player in (ala, bo):
        await answer(discord, await player.command(channel, "game settings me",
                                                   timezone="UTC", quiet="6-7"))
    table = Table(discord, channel, [ala, bo], random.Random(3))
    inter = await ala.command(channel, "game new", game="kingdomino", players=2, pace="daily:1")
    await answer(discord, inter)
    await discord.wait_for(lambda: table.lobby_message(), 30, "the lobby")
    await answer(discord, await bo.command(channel, "game join"))
    await discord.wait_for(lambda: table.turn_message(), 30, "the first board")
    mover = table.movers()[0]

    def pings():
        return [m for m in table.public()
                if (m.content or "").startswith("🔔") and f"<@{mover.id}>" in m.content]

    clocked_bot.move_clock(20 * 60)  # 06:50: still quiet
    await asyncio.sleep(3)  # the dispatcher has looked: nothing due yet
    assert pings() == []
    clocked_bot.move_clock(11 * 60)  # 07:01: the quiet hours are over
    await discord.wait_for(pings, 60, "the ping held back by the quiet hours")
    assert len(pings()) == 1


async def test_an_untimed_game_replaces_a_silent_player_by_vote_and_finishes(
        discord, clocked_bot):
    channel = discord.text_channels[2]
    players = [Player(discord, name) for name in ("Ala", "Bo", "Cy")]
    table = Table(discord, channel, players, random.Random(5))
    await open_game(table, "kingdomino")
    silent = table.movers()[0]
    others = [p for p in players if p is not silent]

    def vote():
        return next((m for m in table.public()
                     if any(":v:computer:timeout:" in c for c in m.custom_ids())), None)

    clocked_bot.move_clock(72 * 3600 + 60)
    message = await discord.wait_for(vote, 60, "the vote on the absent player")
    assert f"<@{silent.id}>" in message.content  # named (and pinged) once, with the vote
    computer = next(c for c in message.custom_ids() if ":v:computer:" in c)
    board_before = table.turn_message()
    for voter in others:
        await answer(discord, await voter.click(message, computer))
    await discord.wait_for(lambda: table.turn_message() is not board_before, 30,
                           "the board after the computer's move")
    await play_to_end(table, "kingdomino")
    stored = read_session(clocked_bot.db_path, channel)
    assert stored.status == "finished"
    seat = stored.user_ids.index(None)
    with sqlite3.connect(f"file:{clocked_bot.db_path}?mode=ro", uri=True) as db:
        history = db.execute("SELECT user_id FROM seat_history WHERE session_id = ? AND seat = ?",
                             (stored.id, seat)).fetchall()
    assert [h[0] for h in history] == [None]


async def test_hand_dms_are_edited_in_place_one_new_dm_per_turn(discord, clocked_bot):
    game_id = "gheos"
    game = engines.get(game_id)
    channel = discord.text_channels[2]
    players = [Player(discord, name) for name in ("Ala", "Bo", "Cy")]
    table = Table(discord, channel, players, random.Random(9))
    await open_game(table, game_id)
    await play_to_end(table, game_id)
    stored = read_session(clocked_bot.db_path, channel)
    assert stored.status == "finished"
    state = game.setup(stored.players, stored.options, stored.seed)
    acting = set(game.to_act(state))
    starts = {seat: int(seat in acting) for seat in range(stored.players)}
    for _, seat, _, code in stored.actions:
        state, _ = game.apply(state, seat, code)
        now = set() if game.is_over(state) else set(game.to_act(state))
        for started in now - acting:
            starts[started] += 1
        acting = now
    edited = 0
    for seat, user_id in enumerate(stored.user_ids):
        dms = discord.dms(user_id)
        assert 1 <= len(dms) <= starts[seat] + 1, (seat, len(dms), starts[seat])
        edited += sum(len(m.history) - 1 for m in dms)
    assert edited > 0


async def start_daily(discord, channel, players: list[Player]) -> Table:
    """A daily:1 Kingdomino game of ``players`` opened by slash commands, first board up."""
    table = Table(discord, channel, players, random.Random(11))
    inter = await players[0].command(channel, "game new", game="kingdomino",
                                     players=len(players), pace="daily:1")
    await answer(discord, inter)
    await discord.wait_for(lambda: table.lobby_message(), 30, "the lobby")
    for player in players[1:]:
        await answer(discord, await player.command(channel, "game join"))
    await discord.wait_for(lambda: table.turn_message(), 30, "the first board")
    return table


async def test_a_clock_jumping_past_a_deadline_posts_the_vote_and_no_stale_reminder(
        discord, clocked_bot):
    """Issue 27, item 7: the bot's clock jumps a day and an hour ahead while both reminders
    of a daily turn are pending: the timeout's vote is posted, the stale reminders are not."""
    channel = discord.text_channels[2]
    table = await start_daily(discord, channel, [Player(discord, n) for n in ("Ala", "Bo", "Cy")])
    late = table.movers()[0]

    def vote():
        return next((m for m in table.public()
                     if any(":v:computer:timeout:" in c for c in m.custom_ids())), None)

    def reminders():
        return [m for m in table.public() if f"<@{late.id}>" in (m.content or "")
                and (m.content or "").startswith(("⏰", "⌛"))]

    clocked_bot.move_clock(25 * 3600)
    await discord.wait_for(vote, 60, "the vote on the late player")
    await asyncio.sleep(2)  # the dispatcher's next passes: nothing else comes due
    assert reminders() == []


async def test_a_clock_set_back_during_a_turn_credits_no_time(discord, clocked_bot):
    """Issue 27, item 7: the bot's clock goes back a day while a daily:1 turn runs; once the
    player has moved, their bank is still one day (not two)."""
    channel = discord.text_channels[1]
    table = await start_daily(discord, channel, [Player(discord, n) for n in ("Ala", "Bo")])
    mover = table.movers()[0]
    clocked_bot.move_clock(-86400)
    while mover in table.movers():  # (a first round may give them two moves in a row)
        await table.make_move(mover, hidden=False)
    stored = read_session(clocked_bot.db_path, channel)
    seat = stored.user_ids.index(mover.id)
    with sqlite3.connect(f"file:{clocked_bot.db_path}?mode=ro", uri=True) as db:
        bank, running = db.execute("SELECT bank, running_since FROM seats WHERE session_id = ?"
                                   " AND seat = ?", (stored.id, seat)).fetchone()
    assert running is None and bank == pytest.approx(86400, abs=5)
