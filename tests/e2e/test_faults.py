"""Faults Discord really produces, injected by the stand-in: refused DMs (error 50007), a 429
storm (per route and global), 500s, slow responses, and gateway closes that need a resume."""

from __future__ import annotations

import asyncio
import random

import pytest

import engines
from session import ids
from session.service import playable
from tests.e2e.helpers import (
    assert_no_violations,
    board_messages,
    check_png,
    open_game,
    plain,
    play_to_end,
    read_session,
)
from tests.standin.users import Player, Table, answer
from text.catalog import t

HIDDEN = [g for g in playable() if engines.get(g).meta.hidden_information]


def dm_requests(discord, user_id: int) -> list:
    """Every request that tried to reach this user by DM (opening the channel or posting)."""
    dm_channels = {str(c.id) for c in discord.channels.values() if c.type == 1 and c.recipient == user_id}
    opened = [c for c in discord.calls if c.key == "POST /users/@me/channels"
              and str((c.body or {}).get("recipient_id")) == str(user_id)]
    posted = [c for c in discord.calls
              if c.key == "POST /channels/{channel_id}/messages" and c.major in dm_channels]
    return sorted(opened + posted, key=lambda c: c.t)


@pytest.mark.skipif(not HIDDEN, reason="no playable game with hidden hands")
@pytest.mark.parametrize("refused_at", ["message", "create"])
async def test_refused_dms_fall_back_to_the_channel_without_blind_retries(discord, bot, refused_at):
    """Discord answers 50007 when a user's DMs are closed (on the message, or on opening the
    channel). The player is told once in the channel, gets the hand by button and by
    ``/game hand``, and the bot does not try that user's DMs again (failed requests count
    toward Discord's invalid-request ban)."""
    game_id = HIDDEN[0]
    channel = discord.text_channels[0]
    players = [Player(discord, "Ala"), Player(discord, "Bartek")]
    closed = players[1]
    discord.faults.refuse_dms(closed.id, at=refused_at)
    table = Table(discord, channel, players, random.Random(5), dms_closed={closed.id})
    await open_game(table, game_id)
    hidden = engines.get(game_id).meta.hidden_information
    for _ in range(12):
        if table.finished():
            break
        await table.make_move(table.rng.choice(table.movers()), hidden)

    attempts = dm_requests(discord, closed.id)
    refused = [c for c in attempts if c.status == 403]
    assert len(refused) == 1 and len(attempts) == 1 + (refused_at == "message"), \
        [(c.key, c.status) for c in attempts]
    told = [m for m in table.public() if f"<@{closed.id}>" in m.content and not m.images()]
    assert len(told) == 1 and told[0].content == t("en", "ui.dm_closed", players=f"<@{closed.id}>")
    # the open-DM player got hands there, the closed one never
    assert discord.dms(players[0].id) and not discord.dms(closed.id)

    # "My hand" on the newest board, and /game hand: private, fresh, with the hand's image
    board = table.turn_message()
    hand = next(c for c in board.custom_ids() if ids.parse(c).kind == "hand")
    for inter in (await closed.click(board, hand), await closed.command(channel, "game hand")):
        await answer(discord, inter)
        await discord.wait_for(lambda i=inter: i.followups, 15, "the hand")
        reply = discord.messages[inter.followups[0]]
        assert reply.ephemeral and reply.visible_to == closed.id
        check_png(reply.images()[0])
    assert len(dm_requests(discord, closed.id)) == len(attempts)  # still no retry
    assert_no_violations(discord)


async def test_a_429_storm_loses_and_duplicates_nothing_and_retry_after_is_respected(discord, bot):
    """A whole game while many channel calls and follow-ups get 429 (per route and global) and
    a few get 500: every board is shown exactly once per move, in order, and no request is
    sent before the retry_after Discord gave."""
    channel = discord.text_channels[3]
    players = [Player(discord, "Ala"), Player(discord, "Bartek")]
    table = Table(discord, channel, players, random.Random(429))
    await open_game(table, "kingdomino")
    faults = discord.faults
    storm = [
        faults.rate_limit("POST /channels/*/messages", retry_after=0.25, probability=0.3, count=None),
        faults.rate_limit("PATCH /channels/*", retry_after=0.15, probability=0.3, count=None),
        # (a move's click makes about two interaction calls and no channel call: these are
        # the storm's bulk)
        faults.rate_limit("POST /webhooks/*", retry_after=0.2, probability=0.45, count=None),
        faults.rate_limit("PATCH /webhooks/*", retry_after=0.2, probability=0.45, count=None),
        faults.rate_limit("* /channels/*", retry_after=0.3, probability=0.04, count=None,
                          is_global=True),
        faults.server_error("POST /channels/*/messages", probability=0.05, count=2),
    ]
    moves = await play_to_end(table, "kingdomino")
    limited = sum(f.hits for f in storm[:5])
    assert limited >= 15, f"only {limited} 429s: not a storm"

    stored = read_session(bot.db_path, channel)
    assert stored.status == "finished" and stored.version == moves
    shown = [v for v, _ in board_messages(table)]
    assert shown == list(range(moves)) + [-1], "a board was lost, repeated or out of order"
    assert stored.replay()[-1] == stored.state
    # nothing was retried before its retry_after ran out (the stand-in records any that was)
    assert_no_violations(discord)
    retried = [c for c in discord.calls if c.status == 429]
    print(f"\n{moves} moves under {len(retried)} 429s and {storm[-1].hits} 500s")


async def test_the_gateway_resumes_and_replays_what_was_missed(discord, bot):
    """Discord closes the gateway (code 4000) or asks for a reconnect (op 7): the bot resumes
    its session, and a click made while it was away is delivered on resume and answered."""
    channel = discord.text_channels[2]
    players = [Player(discord, "Ala"), Player(discord, "Bartek")]
    table = Table(discord, channel, players, random.Random(3))
    await open_game(table, "kingdomino")
    session = discord.current
    for fault in ("close", "reconnect"):
        mover = table.rng.choice(table.movers())
        if fault == "close":
            await discord.close_gateway(4000)
        else:
            await discord.send_reconnect()
            await discord.wait_for(lambda: session.conn is None, 10, "the bot to hang up")
        # the click goes out while the bot is disconnected: Discord keeps it for the resume
        move = await table.make_move(mover, False)
        assert move.acknowledged
        assert discord.current is session  # the same session, resumed, not a new identify
    assert session.resumes == 2
    assert any("replaying 1" in line for _, line in discord.gateway_log)
    # a slow Discord (2 s for a message) delays the board but the click is answered at once
    discord.faults.slow("POST /channels/*/messages", delay=2.0)
    discord.faults.slow("POST /webhooks/*", delay=2.0)  # where a clicked move's board goes
    move = await table.make_move(table.rng.choice(table.movers()), False)
    assert move.acknowledged and move.clicks[-1].latency < 1.0
    await asyncio.sleep(0)
    assert_no_violations(discord)


async def test_game_board_refusals_stay_private_and_the_board_is_public(discord, bot):
    """``/game board`` posts in public, so it defers in public; a refusal must still reach
    only the user (Discord shows the first follow-up of a public defer to everyone)."""
    channel = discord.text_channels[1]
    players = [Player(discord, "Ala"), Player(discord, "Bartek")]
    nobody_here = await players[0].command(channel, "game board")
    await answer(discord, nobody_here)
    await discord.wait_for(lambda: nobody_here.followups or discord.messages[
        nobody_here.original_id or 0].content, 15, "the refusal")
    refusal = discord.messages[nobody_here.original_id or 0]
    # (the command it names is a clickable mention: written plain to compare)
    assert refusal.ephemeral and plain(refusal.content) == t("en", "error.no_game_here")
    table = Table(discord, channel, players, random.Random(1))
    await open_game(table, "kingdomino")
    shown = await players[1].command(channel, "game board")
    await answer(discord, shown)
    await discord.wait_for(lambda: shown.followups, 15, "the board")
    board = discord.messages[shown.followups[0]]
    assert board.public and check_png(board.images()[0]) and board.components == []
    assert_no_violations(discord)


async def test_a_wrong_token_stops_with_discords_answer_and_nothing_else(discord, tmp_path):
    """Discord answers 401 to a bad token: the bot says so and exits, without a second error
    from closing what it never opened."""
    from tests.standin.botproc import BotProcess

    bot = BotProcess(discord, tmp_path / "s.sqlite3", tmp_path, extra_env={"DISCORD_TOKEN": "wrong"})
    with pytest.raises(RuntimeError, match="exited"):
        await bot.start(timeout=30)
    log = bot.log_text()
    assert "LoginFailure" in log and "AttributeError" not in log, bot.log_tail()
