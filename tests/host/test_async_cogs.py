"""The async-play commands and buttons through the cogs, with a fake clock."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

import engines
from cogs.game import GameCog
from session import ids
from tests.host.driver import click
from tests.host.fakes import FakeClient, FakeInteraction
from text.catalog import t

CH = 800


@pytest.fixture
def client(sessions) -> FakeClient:
    return FakeClient(sessions)


def inter(client, user_id, **kw) -> FakeInteraction:
    return FakeInteraction(client, client.user(user_id, f"P{user_id}"), CH, **kw)


async def start(client, players=3, pace="daily:1", thread=False):
    cog = GameCog(client)  # type: ignore[arg-type]
    first = inter(client, 1, channel=client.channel(CH))
    await GameCog.new.callback(cog, first, "kingdomino", players, None, pace, thread)
    channel_id = client.channel(CH).threads[-1].id if thread else CH
    for user in range(2, players + 1):
        await GameCog.join.callback(cog, FakeInteraction(client, client.user(user), channel_id))
    return cog, await client.host.sessions.in_channel(channel_id)


async def test_a_game_in_its_own_thread(client):
    cog, row = await start(client, players=2, pace=None, thread=True)
    thread = client.channel(CH).threads[0]
    assert row.channel_id == thread.id and "Kingdomino" in thread.name
    assert client.channel(thread.id).last.sent.image() is not None  # the board is in the thread
    assert client.channel(CH).messages == []  # the parent channel stays quiet
    # a second game can start in the parent channel meanwhile
    second = inter(client, 5, channel=client.channel(CH))
    await GameCog.new.callback(cog, second, "kingdomino", 2, None, None, False)
    assert second.ephemeral_texts() == [t("en", "ui.created")]


async def test_bad_pace_deletes_the_new_thread_and_says_why(client):
    cog = GameCog(client)  # type: ignore[arg-type]
    first = inter(client, 1, channel=client.channel(CH))
    await GameCog.new.callback(cog, first, "kingdomino", 2, None, "weekly", True)
    assert first.ephemeral_texts() == [t("en", "error.bad_pace", pace="weekly")]
    assert client.channel(CH).threads[0].deleted


async def test_turn_message_shows_the_clocks(client):
    _, row = await start(client)
    content = client.channel(CH).last.sent.content
    # the running clock as the moment it runs out (a Discord timestamp, never stale)
    row = await client.host.sessions.session(row.id)
    mover = next(s for s in row.seats if s.running_since is not None)
    runs_out = datetime.fromisoformat(mover.running_since) + timedelta(seconds=mover.bank)
    assert "⏱" in content and f"{mover.name} ⏳ <t:{int(runs_out.timestamp())}:R>" in content


async def test_reminder_timeout_vote_buttons_and_skip(client, clock):
    _, row = await start(client)
    rooms = client.host.rooms
    game = engines.get("kingdomino")
    seat = game.to_act(await client.host.sessions.state(row))[0]
    late = row.seats[seat].user_id
    clock.advance(hours=13)
    for event in await rooms.timers.fire_due():
        await client.host.publish_timer(event)
    reminder = client.channel(CH).last.sent.content
    assert f"<@{late}>" in reminder and "⏰" in reminder
    clock.advance(hours=12)
    for event in await rooms.timers.fire_due():
        await client.host.publish_timer(event)
    vote_message = client.channel(CH).last.sent
    assert [ids.parse(c).kind for c in vote_message.custom_ids] == ["vote"] * 3
    skip = next(c for c in vote_message.custom_ids if ":v:skip:" in c)
    refused = await click(client, late, CH, vote_message, skip)
    assert refused.ephemeral_texts() == [t("en", "error.not_a_voter")]
    voters = [s.user_id for s in row.seats if s.user_id != late]
    vote_post = next(m for m in client.channel(CH).messages if m.sent is vote_message)
    posted = len(client.channel(CH).messages)
    for n, user in enumerate(voters, 1):
        done = await click(client, user, CH, vote_message, skip, message=vote_post)
        assert done.ephemeral_texts() == [t("en", "ui.voted")]
        if n == 1:  # the tally is on the vote message itself, not a new line in the channel
            assert "(1/2)" in vote_post.content and len(client.channel(CH).messages) == posted
    assert vote_post.sent.view is None  # decided: no more buttons
    board = client.channel(CH).last.sent
    assert board.image() is not None
    log = await client.host.sessions.store.actions(row.id)
    assert log[0].kind == "skip"


async def test_undo_button_and_command(client):
    cog, row = await start(client, players=2, pace=None)
    sessions = client.host.sessions
    game = engines.get("kingdomino")
    # reach a placement (opening picks reveal and cannot be undone)
    while True:
        row = await sessions.in_channel(CH)
        state = await sessions.state(row)
        seat = game.to_act(state)[0]
        codes = game.legal_actions(state, seat)
        user = row.seats[seat].user_id
        if codes[0].startswith("place"):
            break
        await sessions.act(row.id, user, codes[0])
    other = next(s.user_id for s in row.seats if s.user_id != user)
    outcome = await sessions.act(row.id, user, codes[0])
    await client.host.publish(outcome)
    refused = inter(client, other)
    await GameCog.undo.callback(cog, refused)
    assert refused.ephemeral_texts() == [t("en", "error.undo_nothing")]
    turn = client.channel(CH).last.sent
    undo_button = ids.undo(row.id)
    ok = await click(client, user, CH, turn, undo_button)
    assert ok.ephemeral_texts() == [t("en", "ui.undone")]
    assert "↩" in client.channel(CH).last.sent.content


async def test_settings_mine_stats_leaderboard_and_log(client):
    cog, row = await start(client, players=2, pace=None)
    me = inter(client, 1)
    await GameCog.settings_me.callback(cog, me, "Europe/Warsaw", "22-7", False)
    assert me.replies[-1].content == t("en", "ui.settings", tz="Europe/Warsaw", quiet="22-7",
                                       pings=t("en", "ui.off")) \
        + "\n" + t("en", "ui.settings_reminders_off")  # what "off" means
    on = inter(client, 1)
    await GameCog.settings_me.callback(cog, on, None, None, True)
    assert on.replies[-1].content == t("en", "ui.settings", tz="Europe/Warsaw", quiet="22-7",
                                       pings=t("en", "ui.on"))
    bad = inter(client, 1)
    await GameCog.settings_me.callback(cog, bad, "Nowhere/Atlantis", None, None)
    assert bad.ephemeral_texts() == [t("en", "error.bad_timezone", tz="Nowhere/Atlantis")]
    mine = inter(client, 1)
    await GameCog.mine.callback(cog, mine)
    listed = mine.replies[-1].content
    assert f"#{row.id}" in listed and "discord.com/channels/1/800" in listed
    stats = inter(client, 1)
    await GameCog.stats.callback(cog, stats, None)
    assert stats.replies[-1].content == t("en", "ui.stats_empty", player="P1")
    board = inter(client, 1)
    await GameCog.leaderboard.callback(cog, board, "kingdomino")
    assert board.replies[-1].content == t("en", "ui.standings_empty_server", game="Kingdomino")
    game = engines.get("kingdomino")
    state = await client.host.sessions.state(row)
    seat = game.to_act(state)[0]
    await client.host.sessions.act(row.id, row.seats[seat].user_id, game.legal_actions(state, seat)[0])
    log = inter(client, 2)
    await GameCog.log.callback(cog, log)
    # every move is said once: the engine's "P1 picks domino 12", no second "▶ P1: …" line
    said = log.replies[-1].content
    assert log.replies[-1].ephemeral and "▶" not in said and said.count("picks domino") == 1


async def test_end_vote_needs_everyone(client):
    cog, row = await start(client, players=2, pace=None)
    first = inter(client, 1)
    await GameCog.endvote.callback(cog, first)
    vote_message = client.channel(CH).last.sent
    yes = next(c for c in vote_message.custom_ids if c.startswith(f"sk:{row.id}:v:yes:"))
    await click(client, 2, CH, vote_message, yes)
    assert t("en", "ui.abandoned_results") in client.channel(CH).last.sent.content
    assert (await client.host.sessions.history(CH))[0].status == "abandoned"
    outsider = await click(client, 3, CH, vote_message, yes)
    assert outsider.ephemeral_texts()  # the game is over: nothing changes


async def test_a_new_board_pings_only_the_player_to_move_and_only_if_they_want(client):
    _, row = await start(client, players=2, pace=None)
    sessions = client.host.sessions
    game = engines.get("kingdomino")
    state = await sessions.state(row)
    first = row.seats[game.to_act(state)[0]].user_id
    assert client.channel(CH).last.sent.pinged() == [first]
    await client.host.rooms.profile.settings(first, pings=False)
    for _ in range(6):  # play on until that player is to move on a new board again
        row = await sessions.in_channel(CH)
        state = await sessions.state(row)
        seat = game.to_act(state)[0]
        out = await sessions.act(row.id, row.seats[seat].user_id, game.legal_actions(state, seat)[0])
        await client.host.publish(out)
        now_to_move = row.seats[game.to_act(await sessions.state(out.session))[0]].user_id
        assert first not in client.channel(CH).last.sent.pinged()
        if now_to_move != first:
            break


async def test_timed_games_ping_on_the_new_board_and_by_reminder(client, clock):
    _, row = await start(client, players=2, pace="daily:1")
    late = row.seats[engines.get("kingdomino").to_act(await client.host.sessions.state(row))[0]]
    assert client.channel(CH).last.sent.pinged() == [late.user_id]
    clock.advance(hours=13)
    for event in await client.host.rooms.timers.fire_due():
        await client.host.publish_timer(event)
    assert client.channel(CH).last.sent.pinged() == [late.user_id]


async def test_no_permission_for_threads_gets_a_clear_answer(client):
    import types

    import discord

    async def refuse(**_):
        raise discord.Forbidden(types.SimpleNamespace(status=403, reason="Forbidden"),
                                {"code": 50013, "message": "Missing Permissions"})

    client.channel(CH).create_thread = refuse
    cog = GameCog(client)  # type: ignore[arg-type]
    first = inter(client, 1, channel=client.channel(CH))
    await GameCog.new.callback(cog, first, "kingdomino", 2, None, None, True)
    assert first.ephemeral_texts() == [t("en", "error.no_threads_here")]
    assert await client.host.sessions.store.open_in_channel(CH) is None
