"""The real command callbacks and button handlers, driven with constructed interactions."""

from __future__ import annotations

import random

import discord
import pytest

from cogs.components import route
from cogs.game import GameCog
from db import Database
from session import facts, ids
from session.service import Sessions
from tests.host.driver import click, make_move
from tests.host.fakes import FakeClient, FakeInteraction, FakeMessage
from text.catalog import t

CH = 500


@pytest.fixture
def client(sessions) -> FakeClient:
    return FakeClient(sessions)


def interaction(client: FakeClient, user_id: int, **kwargs) -> FakeInteraction:
    return FakeInteraction(client, client.user(user_id, f"Player{user_id}"), CH, **kwargs)


async def new_game(client: FakeClient, game: str = "toy", players: int = 2, variants=None):
    cog = GameCog(client)  # type: ignore[arg-type]
    inter = interaction(client, 1)
    await GameCog.new.callback(cog, inter, game, players, variants)
    return cog, inter


async def test_new_game_posts_a_lobby_and_refuses_a_second(client):
    cog, inter = await new_game(client)
    assert inter.ephemeral_texts() == [t("en", "ui.created")]
    lobby = client.channel(CH).last.sent
    assert "Player1" in lobby.content
    assert [ids.parse(c).payload for c in lobby.custom_ids] == ["join", "start", "leave"]
    second = interaction(client, 2)
    await GameCog.new.callback(cog, second, "toy", 2, None)
    assert second.ephemeral_texts() == [t("en", "error.channel_busy", game="toy",
                                          id=1)]


async def test_join_button_starts_and_hands_go_by_dm(client):
    await new_game(client)
    lobby = client.channel(CH).last.sent
    await click(client, 2, CH, lobby, lobby.custom_ids[0])
    turn = client.channel(CH).last.sent
    assert turn.image() is not None and turn.image().startswith(b"\x89PNG board")
    assert t("en", "ui.my_move") in [i.label for i in turn.view.children]
    for user_id in (1, 2):
        dm = client.users[user_id].dms[-1]
        assert dm.image().startswith(b"\x89PNG hand")


async def test_closed_dms_fall_back_to_the_channel_button_without_blind_retries(client):
    client.closed_dms.add(2)
    await new_game(client)
    lobby = client.channel(CH).last.sent
    await click(client, 2, CH, lobby, lobby.custom_ids[0])
    channel = client.channel(CH)
    assert "<@2>" in channel.last.sent.content  # told to use the button
    assert client.users[2].dm_attempts == 1
    assert not await client.host.sessions.may_dm(2)
    # the next private update does not hit Discord again for this user
    turn = channel.messages[-2].sent
    await make_move(client, 2, CH, turn, random.Random(1), channel.messages[-2])
    assert client.users[2].dm_attempts == 1
    # nor when a turn of theirs starts again: the refusal is remembered, no blind retry
    board = next(m for m in reversed(channel.messages) if m.sent.view)
    await make_move(client, 1, CH, board.sent, random.Random(2), board)
    row = await client.host.sessions.in_channel(CH)
    assert row.seat_of(2) in facts.to_act(row, await client.host.sessions.state(row))
    assert client.users[2].dm_attempts == 1
    # the "My hand" button answers fresh, ephemerally, to that user only
    notices = [m for m in channel.messages if "<@2>:" in (m.sent.content or "")]
    assert len(notices) == 1  # told once: the channel is not spammed
    turn = next(m.sent for m in reversed(channel.messages) if m.sent.view)
    hand_button = next(c for c in turn.custom_ids if ids.parse(c).kind == "hand")
    inter = await click(client, 2, CH, turn, hand_button)
    reply = inter.replies[-1]
    assert reply.ephemeral and reply.image().startswith(b"\x89PNG hand")
    assert b"'pick': " in reply.image()


async def test_secret_picks_never_reach_the_channel(client):
    await new_game(client)
    lobby = client.channel(CH).last.sent
    await click(client, 2, CH, lobby, lobby.custom_ids[0])
    turn_message = client.channel(CH).last
    inter = await click(client, 1, CH, turn_message.sent, turn_message.sent.custom_ids[0])
    picker = inter.replies[-1]
    assert picker.ephemeral
    pick3 = next(c for c in picker.custom_ids if c.endswith("pick 3"))
    await click(client, 1, CH, picker, pick3)
    public = client.channel(CH).last.sent
    assert b"'points': [0, 0]" in public.image() and b"3" not in public.image().split(b"round")[0]
    row = await client.host.sessions.in_channel(CH)
    assert (await client.host.sessions.state(row))["picks"] == [3, None]
    for message in client.channel(CH).messages:
        assert "pick 3" not in (message.sent.content or "")


async def test_stale_and_wrong_player_clicks_get_an_ephemeral_answer_and_change_nothing(client):
    await new_game(client)
    lobby = client.channel(CH).last.sent
    await click(client, 2, CH, lobby, lobby.custom_ids[0])
    turn = client.channel(CH).last.sent
    stale_act = ids.act(1, 0, "pick 1")
    await make_move(client, 1, CH, turn, random.Random(2), client.channel(CH).last)
    inter = await click(client, 1, CH, turn, stale_act)  # player 1 has moved since
    assert inter.ephemeral_texts() == [t("en", "error.stale")]
    inter = await click(client, 77, CH, turn, ids.act(1, 1, "pick 1"))
    assert inter.ephemeral_texts() == [t("en", "error.not_a_player")]
    inter = await click(client, 2, CH, turn, "sk:1:1:zz:whatever")
    assert inter.ephemeral_texts() == [t("en", "error.bad_component")]
    row = await client.host.sessions.in_channel(CH)
    assert row.version == 1


async def test_whole_game_through_the_cogs_and_the_commands_around_it(client):
    cog, _ = await new_game(client)
    lobby = client.channel(CH).last.sent
    await click(client, 2, CH, lobby, lobby.custom_ids[0])
    rng = random.Random(5)
    while True:
        row = await client.host.sessions.in_channel(CH)
        if row.status != "active":
            break
        state = await client.host.sessions.state(row)
        seat = [s for s, p in enumerate(state["picks"]) if p is None][0]
        last = client.channel(CH).last
        await make_move(client, row.seats[seat].user_id, CH, last.sent, rng, last)
        if (await client.host.sessions.store.get(row.id)).status == "finished":
            break
    final = client.channel(CH).last.sent
    assert t("en", "ui.final_results") in final.content
    # the final results carry one button: Rematch
    assert [ids.parse(c).kind for c in final.custom_ids] == ["rematch"]
    # earlier turn messages lost their buttons: only the newest is live
    assert all(m.sent.view is None for m in client.channel(CH).messages[1:-1])
    inter = interaction(client, 1)
    await GameCog.history.callback(cog, inter)
    assert "Toy" in inter.replies[-1].content or "toy" in inter.replies[-1].content
    # right after the end, /game status and /game log answer about the game that ended
    inter = interaction(client, 2)
    await GameCog.status.callback(cog, inter)
    assert inter.replies[-1].content.startswith(t(
        "en", "ui.status_over", game=t("en", "game.toy"), id=row.id,
        status=t("en", "ui.status_finished"), moves=row.version + 1)[:20])
    assert t("en", "ui.final_results") in inter.replies[-1].content
    inter = interaction(client, 2)
    await GameCog.log.callback(cog, inter)
    assert inter.replies[-1].content not in (t("en", "ui.log_empty"),
                                             t("en", "error.no_game_here"))
    outsider = await click(client, 9, CH, final, final.custom_ids[0])
    assert outsider.ephemeral_texts() == [t("en", "error.not_a_player")]
    rematch = await click(client, 2, CH, final, final.custom_ids[0])
    assert rematch.ephemeral_texts() == [t("en", "ui.created")]
    lobby = await client.host.sessions.in_channel(CH)
    assert lobby.status == "lobby" and [s.user_id for s in lobby.seats] == [2]
    assert lobby.players == row.players and lobby.options == row.options
    # the old players are mentioned, and pinged, once: in the new lobby's first message
    invite = client.channel(CH).last.sent
    assert t("en", "notice.rematch", players="<@1>") in invite.content
    assert invite.pinged() == [1]
    again = await click(client, 1, CH, final, final.custom_ids[0])  # the channel is busy now
    assert again.ephemeral_texts()[0].startswith(t("en", "error.channel_busy", game="toy",
                                                   id=lobby.id)[:20])


async def test_status_board_rules_and_abandon(client):
    cog, _ = await new_game(client)
    inter = interaction(client, 3)
    await GameCog.status.callback(cog, inter)
    assert "1/2" in inter.replies[-1].content
    lobby = client.channel(CH).last.sent
    await click(client, 2, CH, lobby, lobby.custom_ids[0])
    inter = interaction(client, 3)
    await GameCog.board.callback(cog, inter)
    assert inter.replies[-1].image() is not None and not inter.replies[-1].ephemeral
    inter = interaction(client, 3)
    await GameCog.abandon.callback(cog, inter)
    assert inter.ephemeral_texts() == [t("en", "error.abandon_rights")]
    manager = interaction(client, 3, permissions=discord.Permissions(manage_channels=True))
    await GameCog.abandon.callback(cog, manager)
    question = manager.replies[-1]
    assert question.ephemeral and question.content == t("en", "ui.abandon_ask", game="game.toy", id=1)
    assert (await client.host.sessions.in_channel(CH)).status == "active"  # nothing yet
    player = await click(client, 2, CH, question, question.custom_ids[0],
                         message=FakeMessage(client.channel(CH), question))
    assert player.ephemeral_texts() == [t("en", "error.abandon_rights")]  # a button is no right
    yes = interaction(client, 3, permissions=discord.Permissions(manage_channels=True),
                      message=FakeMessage(client.channel(CH), question))
    await route(yes, question.custom_ids[0], None)
    final = client.channel(CH).last.sent.content
    assert t("en", "ui.abandoned_results") in final
    assert t("en", "ui.final_results") not in final and "1." not in final  # no places
    assert t("en", "ui.forfeit", player="Player3") not in final  # a manager, not a player
    inter = interaction(client, 3)
    await GameCog.help.callback(cog, inter, "toy")
    assert inter.replies[-1].ephemeral


async def test_polish_user_gets_polish_errors(client):
    cog, _ = await new_game(client)
    inter = interaction(client, 9, locale=discord.Locale.polish)
    await GameCog.start.callback(cog, inter)
    assert inter.ephemeral_texts() == [t("pl", "error.only_creator_starts")]
    assert t("pl", "error.only_creator_starts") != t("en", "error.only_creator_starts")


async def test_old_buttons_work_after_a_restart(client, db_path, clock):
    await new_game(client)
    lobby = client.channel(CH).last.sent
    await click(client, 2, CH, lobby, lobby.custom_ids[0])
    turn = client.channel(CH).last
    await client.host.sessions.db.close()
    db = await Database(db_path).open()
    restarted = FakeClient(Sessions(db, clock=clock, strict_bots=True))
    restarted.channels[CH] = client.channel(CH)  # Discord still has the old messages
    clicks = await make_move(restarted, 1, CH, turn.sent, random.Random(3), turn)
    assert clicks >= 1
    row = await restarted.host.sessions.in_channel(CH)
    assert row.version == 1
    await db.close()


async def test_a_secret_pick_edits_the_board_and_the_reveal_posts_a_new_one(client):
    await new_game(client)
    lobby = client.channel(CH).last.sent
    await click(client, 2, CH, lobby, lobby.custom_ids[0])
    channel = client.channel(CH)
    turn = next(m for m in reversed(channel.messages) if m.sent.view)
    posted = len(channel.messages)
    await make_move(client, 1, CH, turn.sent, random.Random(4), turn)
    assert len(channel.messages) == posted and turn.edits == 1  # same table, edited in place
    assert turn.sent.view is not None and turn.sent.image() is not None
    await make_move(client, 2, CH, turn.sent, random.Random(4), turn)
    assert len(channel.messages) == posted + 1  # the reveal is news: a new board
    assert turn.sent.view is None  # and the old one is retired


async def test_an_old_lobby_message_never_acts_on_a_newer_game(client):
    cog, _ = await new_game(client)
    first_lobby = client.channel(CH).last
    creator = interaction(client, 1)
    await GameCog.leave.callback(cog, creator)  # the creator closes the lobby
    assert first_lobby.sent.view is None  # its buttons are gone
    await new_game(client)  # a new lobby in the same channel
    join_old = ids.lobby(1, "join")
    inter = await click(client, 2, CH, first_lobby.sent, join_old)
    assert inter.ephemeral_texts() == [t("en", "error.stale")]
    row = await client.host.sessions.in_channel(CH)
    assert [s.user_id for s in row.seats] == [1]


async def test_addbot_with_a_level_seats_a_computer_of_that_level(client):
    cog, _ = await new_game(client, players=3)
    polish = interaction(client, 1, locale=discord.Locale.polish)
    await GameCog.addbot.callback(cog, polish, "easy")
    row = await client.host.sessions.in_channel(CH)
    assert row.seats[1].level == "easy" and t("en", "bots.level.easy") in row.seats[1].name
    await GameCog.addbot.callback(cog, interaction(client, 1), None)
    row = await client.host.sessions.in_channel(CH)
    assert row.seats[2].level is None and row.status == "active"
    assert row.version >= 2  # both computers picked

async def test_help_and_admin_end(client):
    cog, _ = await new_game(client)
    inter = interaction(client, 3)
    await GameCog.help.callback(cog, inter, None)
    assert inter.ephemeral_texts() == [t("en", "help.stolik")]
    polish = interaction(client, 3, locale=discord.Locale.polish)
    await GameCog.help.callback(cog, polish, None)
    assert polish.ephemeral_texts() == [t("pl", "help.stolik")] != inter.ephemeral_texts()
    refused = interaction(client, 1)  # the creator is no channel manager
    await GameCog.admin_end.callback(cog, refused)
    assert refused.ephemeral_texts() == [t("en", "error.admin_only")]
    assert (await client.host.sessions.in_channel(CH)).status == "lobby"  # nothing changed
    manager = interaction(client, 3, permissions=discord.Permissions(manage_channels=True))
    await GameCog.admin_end.callback(cog, manager)
    assert manager.ephemeral_texts() == [t("en", "ui.done")]
    assert await client.host.sessions.store.open_in_channel(CH) is None


async def test_a_creator_who_abandons_a_running_game_confirms_and_takes_a_loss(client):
    cog, _ = await new_game(client)
    lobby = client.channel(CH).last.sent
    await click(client, 2, CH, lobby, lobby.custom_ids[0])
    ask = interaction(client, 1)
    await GameCog.abandon.callback(cog, ask)
    question = ask.replies[-1]
    assert question.content == t("en", "ui.abandon_ask_loss", game="game.toy", id=1)
    row = await client.host.sessions.in_channel(CH)
    await client.host.sessions.act(row.id, 2, "pick 1")  # the game moves on meanwhile
    stale = await click(client, 1, CH, question, question.custom_ids[0],
                        message=FakeMessage(client.channel(CH), question))
    assert stale.ephemeral_texts() == [t("en", "error.stale")]
    assert (await client.host.sessions.in_channel(CH)).status == "active"
    ask = interaction(client, 1)
    await GameCog.abandon.callback(cog, ask)
    done = await click(client, 1, CH, ask.replies[-1], ask.replies[-1].custom_ids[0],
                       message=FakeMessage(client.channel(CH), ask.replies[-1]))
    assert [r.content for r in done.replies if r.where == "edit_original"] == [t("en", "ui.done")]
    assert t("en", "ui.forfeit", player="Player1") in client.channel(CH).last.sent.content
    history = interaction(client, 2)
    await GameCog.history.callback(cog, history)
    line = history.replies[-1].content
    assert "no winner" in line and "winner Player" not in line
    stats = (await client.host.rooms.profile.stats(1, 1))["global:toy"]
    assert (stats["games"], stats["wins"], stats["abandoned"]) == (1, 0, 1)
    stayed = (await client.host.rooms.profile.stats(2, 1))["global:toy"]
    assert stayed["games"] == stayed["wins"] == 1  # no loss for the one who stayed
