"""Games that last weeks (issue 12), through the stand-in with the real bot, whose clock a
test moves on (``STOLIK_CLOCK_FILE``: real time + an offset in seconds):
- a daily game whose first turn starts in the player's quiet hours: the board does not ping;
  the ping comes when the quiet hours end;
- an untimed game where a silent player is declared absent after 72 hours, replaced by a
  computer by the others' vote, and the game finishes;
- a game with hands: each player's private message is edited in place, with at most one new
  DM per player per turn they must act."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from datetime import UTC, datetime, timedelta

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
    channel = discord.text_channels[3]
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
