"""A database outage (issue 27, item 5): a PostgreSQL server of the test's own is stopped at
once (its connections drop, as when the server crashes) and started again. Commands during
the outage get the clear "storage failed" answer, not "something went wrong" and a
traceback; start-up recovery that meets the outage is finished once the server is back."""

from __future__ import annotations

import asyncio
import logging

import pytest

import bot
import engines
from cogs import components
from cogs.game import GameCog
from db import Database
from session import errors
from session.service import Sessions
from tests.host import toy
from tests.host.fakes import FakeClient, FakeInteraction, host_for
from tests.host.test_standings import play_toy
from tests.pg import started_for_test
from text.catalog import t

pytestmark = pytest.mark.postgres

CH = 2700


@pytest.fixture
def server():
    """A server of this test's own: stopping the shared one would fail other tests' games."""
    server = started_for_test()
    yield server
    server.stop()


@pytest.fixture
async def sessions(server, clock, monkeypatch):
    toy.install(monkeypatch)
    db = await Database(server.url()).open()
    yield Sessions(db, clock=clock, seed_source=lambda: 42)
    await db.close()


def tracebacks(caplog) -> list[str]:
    """Our log records that carry a traceback (asyncpg's own pool keeper logs its failed
    reconnections with one: not ours to change)."""
    return [r.getMessage() for r in caplog.records
            if r.exc_info and not r.name.startswith("asyncpg")]


async def test_game_new_during_an_outage_is_told_clearly_without_a_traceback(
        server, sessions, caplog):
    client = FakeClient(sessions)
    cog = GameCog(client)  # type: ignore[arg-type]
    server.pause()
    asked = FakeInteraction(client, client.user(1, "Ala"), CH)
    with caplog.at_level(logging.INFO):
        await components.remember_language(asked)  # the listener every interaction meets
        await GameCog.new.callback(cog, asked, "toy", 2, None)
        # the other commands whose first read was not behind the store-failure wrapper
        for command, args in ((GameCog.replay, (7,)), (GameCog.replay, (None,)),
                              (GameCog.log, ()), (GameCog.mine, ()), (GameCog.stats, (None,)),
                              (GameCog.leaderboard, ("toy",))):
            other = FakeInteraction(client, client.user(1, "Ala"), CH)
            try:
                await command.callback(cog, other, *args)
            except errors.GameError as refusal:  # left to the command tree's error handler
                assert refusal.key == "error.store_failed", command.name
            else:
                assert other.ephemeral_texts() == [t("en", "error.store_failed")], command.name
    assert asked.ephemeral_texts() == [t("en", "error.store_failed")]
    assert tracebacks(caplog) == []
    assert client.channel(CH).messages == []  # no lobby was posted
    server.resume()
    again = FakeInteraction(client, client.user(1, "Ala"), CH)
    await GameCog.new.callback(cog, again, "toy", 2, None)
    assert again.ephemeral_texts() == [t("en", "ui.created")]
    assert (await sessions.in_channel(CH)).status == "lobby"


async def test_a_store_failure_left_to_the_error_handler_is_told_as_such(server, sessions,
                                                                        caplog):
    """Whatever path a storage failure takes, the command tree's last resort names it."""
    from cogs.adapters import on_command_error

    client = FakeClient(sessions)
    server.pause()
    asked = FakeInteraction(client, client.user(1, "Ala"), CH)
    with caplog.at_level(logging.INFO):
        try:
            await client.host.repairs.board_missing(5)  # a read no wrapper guards
        except errors.StoreError as exc:
            await on_command_error(asked, exc)  # type: ignore[arg-type]
        else:
            pytest.fail("the read went through during the outage")
    assert asked.ephemeral_texts() == [t("en", "error.store_failed")]
    assert tracebacks(caplog) == []
    server.resume()


async def stopped_before_the_computer(sessions: Sessions, channel: int):
    """A game whose human moved and whose computer seat did not (a stop in between)."""
    async def no_computers(outcome):
        return outcome

    await sessions.new(guild_id=1, channel_id=channel, game_id="kingdomino", user_id=1,
                       name="Ala", players=2)
    row = (await sessions.join(channel, None, "Bot")).session
    game = engines.get("kingdomino")
    real = sessions.run_computer_players
    sessions.run_computer_players = no_computers  # type: ignore[method-assign]
    try:
        while True:
            state = await sessions.state(row)
            seat = game.to_act(state)[0]
            if row.seats[seat].is_bot:
                return row
            row = (await sessions.act(row.id, 1, game.legal_actions(state, seat)[0])).session
    finally:
        sessions.run_computer_players = real  # type: ignore[method-assign]


async def test_start_up_recovery_during_an_outage_is_done_once_the_database_is_back(
        server, sessions, monkeypatch):
    monkeypatch.setattr(errors, "RETRY_FIRST", 0.05)
    monkeypatch.setattr(errors, "RETRY_MOST", 0.2)
    # what a stop left undone: a computer's move, a board posted but not recorded, a game
    # ended but not counted in the standings
    waiting = await stopped_before_the_computer(sessions, CH)
    client = FakeClient(sessions)
    cog = GameCog(client)  # type: ignore[arg-type]
    await GameCog.new.callback(cog, FakeInteraction(client, client.user(3, "Cy"), CH + 1),
                               "toy", 2, None)
    await GameCog.join.callback(cog, FakeInteraction(client, client.user(4, "Di"), CH + 1))
    running = await sessions.in_channel(CH + 1)
    await sessions.store.board_pending(running.id, running.version, "2026-11-22T12:00:00")

    async def not_counted(session_id, now):
        return False

    with monkeypatch.context() as patch:
        patch.setattr(sessions.standings, "record", not_counted)
        ended = await play_toy(sessions, CH + 2, [1, 2], [2, 1])
    assert ended.status == "finished"

    server.pause()  # the restarted bot meets the outage
    restarted = Sessions(sessions.db, clock=sessions.clock)
    client.host = host_for(client, restarted)
    recovery = asyncio.ensure_future(client.host.rooms.timers.recover())
    reconcile = asyncio.ensure_future(errors.until_stored(client.host.repairs.reconcile, "reconcile"))
    counting = asyncio.ensure_future(bot.catch_up_standings(restarted))
    await asyncio.sleep(1.0)
    assert not (recovery.done() or reconcile.done() or counting.done())  # nothing dropped
    server.resume()
    events, repaired, counted = await asyncio.wait_for(
        asyncio.gather(recovery, reconcile, counting), 30)
    assert [(e.kind, e.session.id) for e in events] == [("computer", waiting.id)]
    assert (await restarted.session(waiting.id)).version > waiting.version
    assert repaired == 1 and await client.host.repairs.board_missing(running.id) is False
    assert counted == 1
    assert (await restarted.standings.stats(1, 1))["global:toy"]["games"] == 1
