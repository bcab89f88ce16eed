"""Async play on a phone (issue 24), through the stand-in with the real bot: the end is never
lost, one notification per turn, one living card per player, quiet hours hold everything."""

from __future__ import annotations

import asyncio
import random

from session import ids
from tests.e2e.helpers import assert_no_violations, open_game, play_to_end, read_session
from tests.e2e.notifications import live_buttons, notifications, turns_started
from tests.e2e.test_weeks import seconds_until
from tests.standin.users import Player, Table, answer
from text.catalog import t


async def test_an_abandon_right_after_a_board_posted_by_the_channel_is_shown(discord, bot):
    """The move's follow-up fails, so its board goes by the channel with a nonce; the
    creator's abandon at that same version must still post the game's end (Discord answers a
    repeated nonce with the old message) and leave no live buttons."""
    channel = discord.text_channels[0]
    ala, bartek = Player(discord, "Ala"), Player(discord, "Bartek")
    table = Table(discord, channel, [ala, bartek], random.Random(5))
    await open_game(table, "kingdomino")
    discord.faults.server_error("POST /webhooks/*", status=404, count=1)  # by the channel
    await table.make_move(table.movers()[0], False)
    assert any(c.body.get("nonce") for c in discord.calls_to("POST /channels/*/messages")
               if isinstance(c.body, dict) and c.major == str(channel))
    asked = await ala.command(channel, "game abandon")
    await answer(discord, asked)
    question = discord.messages[asked.original_id or 0]
    [yes] = [c for c in question.custom_ids() if ids.parse(c).kind == "abandon"]
    await answer(discord, await ala.click(question, yes))
    await discord.wait_for(table.finished, 30, "the game's end in the channel")
    # (the board before it loses its buttons right after the final board is up)
    await discord.wait_for(lambda: live_buttons(discord, channel, [ala.id, bartek.id]) == [],
                           10, "no live buttons left")
    assert_no_violations(discord)



async def test_one_notification_per_turn_and_one_living_card(discord, bot):
    """Gheos for three (a turn is several steps): each player is told once per turn they must
    act, by a new DM whose first line says so in their language, or (DMs closed) by the
    board's mention, never both; older cards say the game moved on, and at the end no DM or
    board offers a button that no longer works."""
    channel = discord.text_channels[1]
    ala, ola, cyryl = (Player(discord, "Ala"), Player(discord, "Ola", "pl"),
                       Player(discord, "Cyryl"))
    discord.faults.refuse_dms(cyryl.id)
    table = Table(discord, channel, [ala, ola, cyryl], random.Random(4), dms_closed={cyryl.id})
    start = len(discord.calls)
    await open_game(table, "gheos")
    # Ola's language reaches the bot with her first interaction
    await answer(discord, await ola.command(channel, "game status"))
    await play_to_end(table, "gheos")
    users = [ala.id, ola.id, cyryl.id]
    await discord.wait_for(lambda: live_buttons(discord, channel, users) == [], 20,
                           "every card and board without live buttons")
    told = notifications(discord, discord.calls[start:])
    turns = turns_started(read_session(bot.db_path, channel))
    for player in (ala, ola, cyryl):
        mine = [n for n in told if n.user_id == player.id]
        assert 1 <= len(mine) <= turns[player.id], (player.name, len(mine), turns[player.id])
    assert {n.via for n in told if n.user_id == cyryl.id} == {"mention"}
    # (Ola's first card may have come before her language did)
    for player, lang in ((ala, "en"), (ola, "pl")):
        assert {n.via for n in told if n.user_id == player.id} == {"dm"}
        cards = discord.dms(player.id)
        first_lines = {m.history[0].content.splitlines()[0] for m in cards[1:]}
        assert first_lines == {t(lang, "ui.hand_your_move", game=t(lang, "game.gheos"),
                                 channel=channel)}, first_lines
        assert {m.content for m in cards[:-1]} == {t(lang, "ui.hand_moved_on")}
        assert cards[-1].content == t(lang, "ui.hand_over", game=t(lang, "game.gheos"),
                                      channel=channel)
    assert_no_violations(discord)


async def test_quiet_hours_hold_the_dm_and_deliver_one_digest(discord, clocked_bot):
    """Gheos for two, Ala in quiet hours (6-7, the bot's clock at 06:30): her turns bring no
    DM and no mention; when the hours end one new DM tells her it is her move and what Bo
    did since her last move."""
    clocked_bot.move_clock(seconds_until(6, 30))
    channel = discord.text_channels[2]
    ala, bo = Player(discord, "Ala"), Player(discord, "Bo")
    await answer(discord, await ala.command(channel, "game settings me", timezone="UTC",
                                            quiet="6-7"))
    table = Table(discord, channel, [ala, bo], random.Random(8))
    start = len(discord.calls)
    await open_game(table, "gheos")
    # play until Ala has moved, then Bo, and her turn has come again
    ala_moved = bo_after = False
    while not (bo_after and ala in table.movers()):
        mover = table.movers()[0]
        await table.make_move(mover, True)
        ala_moved |= mover is ala
        bo_after |= ala_moved and mover is bo
    await asyncio.sleep(1)
    assert [n for n in notifications(discord, discord.calls[start:]) if n.user_id == ala.id] == []
    dms = len(discord.dms(ala.id))
    clocked_bot.move_clock(31 * 60)  # 07:01: the quiet hours are over
    await discord.wait_for(lambda: len(discord.dms(ala.id)) > dms, 60, "the held notification")
    await asyncio.sleep(2)  # (nothing else comes)
    held = [n for n in notifications(discord, discord.calls[start:]) if n.user_id == ala.id]
    assert [n.via for n in held] == ["dm"]
    lines = held[0].content.splitlines()
    assert lines[0] == t("en", "ui.hand_your_move", game=t("en", "game.gheos"), channel=channel)
    assert lines[1].startswith(t("en", "ui.since_your_move", events="")) and "Bo" in lines[1]
    assert_no_violations(discord)


async def test_with_reminders_off_the_hand_is_one_dm_kept_up_to_date(discord, bot):
    """Gheos for two, Ala with reminders off: her first hand comes by DM, and every later
    turn of hers edits that one card (no new DM, no mention), while Bo is still told of
    each turn by a new DM."""
    channel = discord.text_channels[0]
    ala, bo = Player(discord, "Ala"), Player(discord, "Bo")
    await answer(discord, await ala.command(channel, "game settings me", pings=False))
    table = Table(discord, channel, [ala, bo], random.Random(6))
    start = len(discord.calls)
    await open_game(table, "gheos")
    await play_to_end(table, "gheos")
    await discord.wait_for(lambda: live_buttons(discord, channel, [ala.id, bo.id]) == [], 20,
                           "every card and board without live buttons")
    told = notifications(discord, discord.calls[start:])
    turns = turns_started(read_session(bot.db_path, channel))
    assert turns[ala.id] > 1  # (else nothing shows the edits replacing new DMs)
    assert [n.via for n in told if n.user_id == ala.id] == ["dm"]  # the first hand only
    [card] = discord.dms(ala.id)
    assert len(card.history) > turns[ala.id]  # the one card followed the game by edits
    assert card.content == t("en", "ui.hand_over", game=t("en", "game.gheos"), channel=channel)
    bo_told = [n.via for n in told if n.user_id == bo.id]
    assert set(bo_told) == {"dm"} and 1 < len(bo_told) <= turns[bo.id]
    assert_no_violations(discord)


async def test_two_friends_start_with_new_and_one_join(discord, bot):
    """/game new without ``players`` and one Join start a game for two (no Start); the lobby
    says how many it waits for; texts name commands as clickable mentions; right after the
    end /game status answers about that game (issue 24, items 4 and 6)."""
    channel = discord.text_channels[3]
    ala, bo = Player(discord, "Ala"), Player(discord, "Bo")
    table = Table(discord, channel, [ala, bo], random.Random(2))
    created = await ala.command(channel, "game new", game="kingdomino")
    await answer(discord, created)
    await discord.wait_for(lambda: table.lobby_message(), 30, "the lobby")
    [game_command] = [c for c in discord.commands[discord.guild_id] if c["name"] == "game"]
    confirm = discord.messages[created.original_id or 0].content
    assert f"</game join:{game_command['id']}>" in confirm, confirm
    lobby = table.lobby_message()
    assert lobby is not None and t("en", "ui.lobby_waiting", count=1) in lobby.content
    join = next(c for c in lobby.custom_ids() if c.endswith(":l:join"))
    await answer(discord, await bo.click(lobby, join))
    await discord.wait_for(lambda: table.turn_message(), 30, "the game, started by the join")
    await play_to_end(table, "kingdomino")
    status = await bo.command(channel, "game status")
    await answer(discord, status)
    said = discord.messages[status.original_id or 0].content
    assert said.startswith(t("en", "ui.status_over", game="Kingdomino",
                             id=read_session(bot.db_path, channel).id,
                             status=t("en", "ui.status_finished"),
                             moves=read_session(bot.db_path, channel).version)), said
    assert_no_violations(discord)
