"""One live board per game, whatever Discord or a crash does (issue 14, items 2 and 4)."""

from __future__ import annotations

import asyncio
import datetime
import random
import sqlite3
import time

import discord
import pytest

import cogs.board as board_module
import cogs.firstanswer as firstanswer
import engines
from cogs.adapters import message_kwargs, on_command_error
from cogs.components import route
from cogs.game import GameCog
from engines.base import GameError
from session import ids, present
from tests.host.driver import click
from tests.host.fakes import FakeClient, FakeInteraction, host_for
from text.catalog import t

CH = 950


@pytest.fixture
def client(sessions, monkeypatch) -> FakeClient:
    monkeypatch.setattr(board_module, "BOARD_RETRY_WAITS", (0.0, 0.0, 0.0))
    return FakeClient(sessions)


def inter(client: FakeClient, user_id: int, **kwargs) -> FakeInteraction:
    return FakeInteraction(client, client.user(user_id, f"P{user_id}"), CH, **kwargs)


async def start(client: FakeClient, game: str = "toy", players: int = 2) -> GameCog:
    cog = GameCog(client)  # type: ignore[arg-type]
    await GameCog.new.callback(cog, inter(client, 1), game, players, None)
    for user in range(2, players + 1):
        await GameCog.join.callback(cog, inter(client, user))
    return cog


async def play(cog: GameCog, client: FakeClient, user: int, code: str) -> FakeInteraction:
    """``/game play`` as the command tree runs it: an error the command left is answered by
    the tree's error handler."""
    done = inter(client, user)
    try:
        await GameCog.play_cmd.callback(cog, done, code)
    except GameError as error:
        await on_command_error(done, error)  # type: ignore[arg-type]
    return done


def live(client: FakeClient) -> list:
    """Messages of the channel that still carry components."""
    return [m for m in client.channel(CH).messages if m.sent.view and m.sent.view.children]


async def assert_one_live_board(client: FakeClient) -> None:
    row = await client.host.sessions.in_channel(CH)
    [board] = live(client)
    assert board.id == row.turn_message_id and board.sent.image() is not None
    assert not await client.host.repairs.board_missing(row.id)


async def test_a_board_refused_once_with_503_is_posted_on_the_retry(client):
    cog = await start(client)
    await play(cog, client, 1, "pick 1")
    client.channel(CH).failures = [503]
    answered = await play(cog, client, 2, "pick 2")  # the round ends: a new board
    assert answered.ephemeral_texts()[0].startswith(t("en", "ui.played", action="")[:4])
    assert t("en", "error.board_failed") not in answered.ephemeral_texts()
    await assert_one_live_board(client)


async def test_a_board_discord_keeps_refusing_is_told_and_reposted_at_the_next_click(client):
    cog = await start(client)
    await play(cog, client, 1, "pick 1")
    old = client.channel(CH).last
    # the follow-up on the command's interaction, then the channel post and its three retries
    client.channel(CH).failures = [500] * 5
    answered = await play(cog, client, 2, "pick 2")
    assert answered.ephemeral_texts()[-1] == t("en", "error.board_failed")
    row = await client.host.sessions.in_channel(CH)
    assert row.version == 2  # the move is recorded
    assert await client.host.repairs.board_missing(row.id)
    assert live(client) == [old]  # the old board is still the one with buttons
    # the next click on it (a "My move" here) brings the board back, and the old one retires
    my_move = next(c for c in old.sent.custom_ids if ids.parse(c).kind == "pick")
    await click(client, 1, CH, old.sent, my_move, message=old)
    await assert_one_live_board(client)
    assert client.channel(CH).last is not old


async def test_game_board_reposts_a_missing_board_with_its_buttons(client):
    cog = await start(client)
    await play(cog, client, 1, "pick 1")
    client.channel(CH).failures = [502] * 5  # the follow-up, then every channel try
    await play(cog, client, 2, "pick 2")
    asked = inter(client, 1)
    await GameCog.board.callback(cog, asked)
    assert [r.content for r in asked.replies] == [t("en", "ui.board_reposted")]
    await assert_one_live_board(client)


async def test_a_board_posted_but_never_recorded_is_reconciled_at_start_up(client, sessions):
    """kill -9 between the post and the record: the channel holds a board the database does
    not know. After the restart the newest board is the live one, and in-place edits go to it."""
    cog = await start(client, "kingdomino", 2)
    row = await sessions.in_channel(CH)
    recorded = client.channel(CH).last
    game = engines.get("kingdomino")
    seat = game.to_act(await sessions.state(row))[0]
    code = game.legal_actions(await sessions.state(row), seat)[0]
    outcome = await sessions.act(row.id, row.seats[seat].user_id, code)
    await sessions.store.board_pending(row.id, outcome.session.version, "2026-11-22T12:00:00")
    spec = await present.turn_message(outcome.session, await sessions.state(outcome.session), [],
                                      "en")
    orphan = await client.channel(CH).send(**message_kwargs(spec))  # ...and the bot dies here
    assert len(live(client)) == 2

    client.host = host_for(client, sessions)  # the restarted bot
    assert await client.host.repairs.reconcile() == 1
    await assert_one_live_board(client)
    assert not recorded.sent.view and not orphan.sent.view
    # the next move of the same turn is edited into the live board, not an older one
    row = await sessions.in_channel(CH)
    board = client.channel(CH).last
    seat = game.to_act(await sessions.state(row))[0]
    await play(cog, client, row.seats[seat].user_id,
               game.legal_actions(await sessions.state(row), seat)[0])
    await assert_one_live_board(client)
    assert (await sessions.in_channel(CH)).turn_message_id in (board.id, client.channel(CH).last.id)


async def test_no_board_of_a_running_game_after_the_game_ended(client, sessions):
    await start(client)
    row = await sessions.in_channel(CH)
    outcome = await sessions.act(row.id, 1, "pick 1")
    # the game ends (as the confirmed /game abandon does: record, then publish the ending)
    await client.host.publish(await client.host.rooms.ending.abandon(row.id, 1,
                                                                   can_manage=False))
    posted = len(client.channel(CH).messages)
    await client.host.publish(outcome)  # a publish that was still on its way
    assert len(client.channel(CH).messages) == posted
    # nothing clickable is left but the final results' Rematch button
    assert [ids.parse(c.custom_id).kind for m in live(client)  # type: ignore[union-attr]
            for c in m.sent.view.children] == ["rematch"]


async def test_dms_discord_fails_are_told_once_and_never_hold_up_the_board(client):
    client.failing_dms.add(2)
    cog = await start(client)
    rng = random.Random(3)
    for _ in range(3):
        row = await client.host.sessions.in_channel(CH)
        if row.status != "active":
            break
        boards = len(client.channel(CH).messages)
        for user in (1, 2):
            await play(cog, client, user, f"pick {rng.randint(1, 2)}")
        assert len(client.channel(CH).messages) > boards  # a board each round
    told = [m for m in client.channel(CH).messages
            if m.sent.content == t("en", "ui.dm_closed", players="<@2>")]
    assert len(told) == 1
    assert client.users[2].dm_attempts == 1  # paused after the failure, not retried per move
    assert client.users[1].dms  # the other player's DMs still go


async def test_a_picker_step_from_an_older_board_is_stale(client, sessions):
    """The freshness check of a picker step: without it the step would show today's choices
    under an old board's ids and the move would go through."""
    await start(client, "kingdomino", 2)
    row = await sessions.in_channel(CH)
    game = engines.get("kingdomino")
    state = await sessions.state(row)
    seat = game.to_act(state)[0]
    user = row.seats[seat].user_id
    await sessions.act(row.id, user, game.legal_actions(state, seat)[0], row.version)
    step = ids.pick(row.id, row.version, "pick")  # from the board this seat just moved on
    board = client.channel(CH).last
    clicked = await click(client, user, CH, board.sent, step, message=board)
    assert clicked.ephemeral_texts() == [t("en", "error.stale")]


async def test_a_typed_move_posts_its_board_as_a_follow_up_unless_the_token_is_expiring(client):
    """The board of a move goes out on its interaction (exempt from Discord's global limit);
    an interaction within seconds of its 15 minutes is not used: the channel serves."""
    cog = await start(client)
    await play(cog, client, 1, "pick 1")
    first = client.channel(CH).last
    answered = await play(cog, client, 2, "pick 2")  # the round ends: a new board
    board = client.channel(CH).last
    assert board is not first and board.sent.where == "followup" and board.sent.image()
    assert answered.ephemeral_texts()[0].startswith(t("en", "ui.played", action="")[:4])
    await assert_one_live_board(client)

    await play(cog, client, 1, "pick 1")  # the next round's first pick: edited in place
    late = inter(client, 2, expires_at=discord.utils.utcnow() + datetime.timedelta(seconds=10))
    await GameCog.play_cmd.callback(cog, late, "pick 2")
    newest = client.channel(CH).last
    assert newest is not board and newest.sent.where == f"channel {CH}"
    await assert_one_live_board(client)


async def test_a_board_left_bare_by_a_stop_after_the_first_answer_gets_its_buttons_back(
        client, sessions):
    """A click's first answer takes the board's buttons off (its player alone is to move),
    having marked the board bare in the store first, and the bot stops before the move is
    recorded. At start-up the marked board is shown again, with the buttons of the current
    state, and its mark goes."""
    await start(client, "kingdomino", 2)
    row = await sessions.in_channel(CH)
    board = client.channel(CH).last
    [mover] = engines.get("kingdomino").to_act(await sessions.state(row))
    act = next(c for c in board.sent.custom_ids if ids.parse(c).kind == "act")
    assert client.host.first_answer.acts_alone(row.id, row.version, row.seats[mover].user_id)
    assert await client.host.first_answer.mark_bare(row.id, board.id, row.version)
    await board.edit(view=None)  # the answer's update ... and the bot dies here
    assert live(client) == []

    client.host = host_for(client, sessions)  # the restarted bot
    assert await client.host.repairs.reconcile() == 1
    await assert_one_live_board(client)
    assert client.channel(CH).last is board and act in board.sent.custom_ids
    assert await client.host.board.posts.bare_boards() == []
    assert await client.host.repairs.reconcile() == 0  # a board with buttons is left alone
    # the game goes on from it
    clicked = await click(client, row.seats[mover].user_id, CH, board.sent, act, message=board)
    assert not [r for r in clicked.replies if r.ephemeral]
    assert (await sessions.in_channel(CH)).version == row.version + 1
    await assert_one_live_board(client)


async def test_a_restart_reads_no_board_of_a_game_nothing_marked_bare(client, sessions,
                                                                        monkeypatch):
    """What a start-up repairs is known from the store (issue 26.4): boards with their buttons
    cost no call, however many games run; a board marked bare by a first answer costs one
    edit (no read)."""
    await start(client, "kingdomino", 2)
    row = await sessions.in_channel(CH)
    board = client.channel(CH).last
    edits = board.edits

    async def no_reads(message_id: int):
        raise AssertionError(f"start-up read message {message_id}")

    monkeypatch.setattr(client.channel(CH), "fetch_message", no_reads)
    client.host = host_for(client, sessions)  # the restarted bot
    assert await client.host.repairs.reconcile() == 0
    assert board.edits == edits and client.channel(CH).last is board

    await client.host.board.posts.mark_bare(row.id, board.id, row.version)  # left by a stop
    client.host = host_for(client, sessions)
    assert await client.host.repairs.reconcile() == 1
    assert board.edits == edits + 1 and client.channel(CH).last is board
    assert await client.host.board.posts.bare_boards() == []


async def test_a_board_marked_bare_that_is_no_longer_live_costs_no_call(client, sessions):
    """A mark whose board was retired since (a newer board recorded) is only dropped."""
    await start(client, "kingdomino", 2)
    row = await sessions.in_channel(CH)
    old = client.channel(CH).last
    await client.host.board.posts.mark_bare(row.id, old.id, row.version)
    await sessions.set_turn_message(row.id, old.id + 10_000)  # as if a newer board is up
    edits = old.edits
    client.host = host_for(client, sessions)
    assert await client.host.repairs.reconcile() == 0
    assert old.edits == edits and await client.host.board.posts.bare_boards() == []


async def test_a_store_too_slow_to_mark_the_board_gets_a_plain_defer_at_once(client, sessions,
                                                                           db_path):
    """The bare mark is written before the first answer takes the buttons off, within
    BARE_MARK_BUDGET: with the store's write lock held elsewhere the click is answered at
    once with a deferred update and the board keeps its buttons; the move goes through once
    the lock is free, after the late mark (its record drops the mark)."""
    await start(client, "kingdomino", 2)
    row = await sessions.in_channel(CH)
    board = client.channel(CH).last
    [mover] = engines.get("kingdomino").to_act(await sessions.state(row))
    act = next(c for c in board.sent.custom_ids if ids.parse(c).kind == "act")
    blocker = sqlite3.connect(str(db_path), isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")
    clicked = FakeInteraction(client, client.user(row.seats[mover].user_id), CH, message=board)
    started = time.monotonic()
    handled = asyncio.create_task(route(clicked, act, None))
    while not clicked.answered and time.monotonic() - started < 2:
        await asyncio.sleep(0.005)
    answered_in = time.monotonic() - started
    assert clicked.response.type == discord.InteractionResponseType.deferred_message_update
    assert answered_in < firstanswer.BARE_MARK_BUDGET + 0.2
    assert board.sent.view and board.sent.view.children  # the buttons stayed
    blocker.execute("ROLLBACK")
    blocker.close()
    await handled
    assert (await sessions.in_channel(CH)).version == row.version + 1
    assert await client.host.board.posts.bare_boards() == []
    await assert_one_live_board(client)


async def test_a_move_before_start_up_reconciliation_retires_the_unrecorded_board(client,
                                                                                 sessions):
    """kill -9 between a board's post and its record, and the first thing after the restart
    is a move (before reconcile runs): its publish finds the intent left behind and retires
    the unrecorded board too, so one board offers buttons; a ballot posted meanwhile keeps
    its buttons (it is no board)."""
    cog = await start(client, "kingdomino", 2)
    row = await sessions.in_channel(CH)
    game = engines.get("kingdomino")
    seat = game.to_act(await sessions.state(row))[0]
    outcome = await sessions.act(row.id, row.seats[seat].user_id,
                                 game.legal_actions(await sessions.state(row), seat)[0])
    await sessions.store.board_pending(row.id, outcome.session.version, "2026-11-22T12:00:00")
    spec = await present.turn_message(outcome.session, await sessions.state(outcome.session), [],
                                      "en")
    orphan = await client.channel(CH).send(**message_kwargs(spec))  # ...and the bot dies here
    ballot = discord.ui.View()
    ballot.add_item(discord.ui.Button(label="skip", custom_id=ids.vote(row.id, "timeout:1", "skip")))
    vote = await client.channel(CH).send("vote", view=ballot)

    client.host = host_for(client, sessions)  # the restarted bot: a move comes first
    row = await sessions.in_channel(CH)
    seat = game.to_act(await sessions.state(row))[0]
    await play(cog, client, row.seats[seat].user_id,
               game.legal_actions(await sessions.state(row), seat)[0])
    assert not orphan.sent.view
    assert [m for m in live(client) if m is not vote] == [client.channel(CH).last]
    assert vote.sent.view and vote.sent.view.children
    assert await client.host.repairs.reconcile() == 0  # nothing was left for it
