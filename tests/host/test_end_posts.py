"""The end of a game is never lost (issue 24, item 5): a board posted through the channel
carries a nonce, and Discord answers a repeated nonce with the message it already made. Every
path that ends a game right after such a board must post its final board all the same, and
leave nothing clickable but Rematch. The fakes answer nonces as Discord does."""

from __future__ import annotations

import discord
import pytest

import cogs.board as board_module
import engines
from cogs.board import board_nonce
from cogs.game import GameCog
from session import ids, specs
from session.values import Outcome
from tests.host.fakes import FakeClient, FakeInteraction

CH = 960


@pytest.fixture
def client(sessions, monkeypatch) -> FakeClient:
    monkeypatch.setattr(board_module, "BOARD_RETRY_WAITS", (0.0, 0.0, 0.0))
    return FakeClient(sessions)


def inter(client: FakeClient, user_id: int, **kwargs) -> FakeInteraction:
    return FakeInteraction(client, client.user(user_id, f"P{user_id}"), CH, **kwargs)


async def board_by_the_channel(client: FakeClient):
    """A toy game for two whose newest board went out through the channel (as a timer's or a
    vote's outcome does: no interaction to carry it), with its nonce."""
    cog = GameCog(client)  # type: ignore[arg-type]
    await GameCog.new.callback(cog, inter(client, 1), "toy", 2, None)
    await GameCog.join.callback(cog, inter(client, 2))
    row = await client.host.sessions.in_channel(CH)
    await client.host.publish(Outcome(row, board_changed=True))
    assert client.channel(CH).nonces, "the board went by the channel, with a nonce"
    return cog, await client.host.sessions.in_channel(CH)


def assert_final_board_is_up(client: FakeClient, before: int) -> None:
    messages = client.channel(CH).messages
    assert len(messages) > before, "no post for the end"
    final = [m for m in messages[before:] if m.sent.image() is not None]
    assert final, "the final board was not posted"
    # nothing anywhere offers a button that no longer works (votes included)
    live = [ids.parse(c).kind for m in messages  # type: ignore[union-attr]
            for c in m.sent.custom_ids]
    assert live == ["rematch"], live


async def test_an_abandon_at_the_same_version_posts_its_final_board(client, sessions):
    _, row = await board_by_the_channel(client)
    before = len(client.channel(CH).messages)
    await client.host.publish(await client.host.rooms.ending.abandon(row.id, 1, can_manage=False,
                                                                     version=row.version))
    assert_final_board_is_up(client, before)


async def test_an_end_vote_at_the_same_version_posts_its_final_board(client, sessions):
    _, row = await board_by_the_channel(client)
    before = len(client.channel(CH).messages)
    await client.host.rooms.absence.vote(row.id, 1, "end", "yes")
    outcome = await client.host.rooms.absence.vote(row.id, 2, "end", "yes")
    assert outcome.finished
    await client.host.publish(outcome)
    assert_final_board_is_up(client, before)


async def test_admin_end_at_the_same_version_posts_its_final_board(client, sessions):
    cog, _ = await board_by_the_channel(client)
    before = len(client.channel(CH).messages)
    manager = inter(client, 9, permissions=discord.Permissions(manage_channels=True,
                                                               manage_messages=True))
    await GameCog.admin_end.callback(cog, manager)
    assert [h.status for h in await sessions.history(CH)] == ["abandoned"]
    assert_final_board_is_up(client, before)


async def test_an_archive_for_inactivity_posts_the_final_board(client, sessions, clock):
    _, row = await board_by_the_channel(client)
    before = len(client.channel(CH).messages)
    timers = client.host.rooms.timers
    fired = []
    for _ in range(3):  # the inactivity warning, then the archive
        clock.advance(days=40)
        for event in await timers.fire_due():
            fired.append(event.kind)
            await client.host.publish_timer(event)
    assert "archived" in fired, fired
    assert_final_board_is_up(client, before)


async def test_the_last_move_after_a_board_by_the_channel_posts_the_final_board(client,
                                                                                sessions):
    _, row = await board_by_the_channel(client)
    s = client.host.sessions
    while True:
        row = await s.session(row.id)
        if row.status != "active":
            break
        state = await s.state(row)
        seat = engines.get(row.game_id).to_act(state)[0]
        code = engines.get(row.game_id).legal_actions(state, seat)[0]
        outcome = await s.act(row.id, row.seats[seat].user_id, code)
        await client.host.publish(outcome)  # by the channel, as a computer's or timer's move
    assert row.status == "finished"
    assert_final_board_is_up(client, 0)


def test_two_different_posts_at_one_version_never_share_a_nonce():
    row = type("Row", (), {"id": 7, "version": 3, "status": "active"})()
    ended = type("Row", (), {"id": 7, "version": 3, "status": "abandoned"})()
    board = specs.MessageSpec("Your move", rows=[[specs.ButtonSpec("sk:7:3:a", "Go")]])
    final = specs.MessageSpec("Game over", rows=[[specs.ButtonSpec("sk:7:r", "Rematch")]])
    assert board_nonce(row, board) == board_nonce(row, board)  # a retry finds its post
    assert board_nonce(row, board) != board_nonce(ended, final)
    assert board_nonce(row, board) != board_nonce(ended, board)
    assert len(board_nonce(type("Row", (), {"id": 10**12, "version": 10**6,
                                            "status": "active"})(), board)) <= 25
