"""Issue 12 with the fake clock: turn pings in every pace (held back by quiet hours; stale
once the turn's deadline has passed, issue 27), reminders in untimed games, absent players
voted out, end votes among those present, and a server's defaults."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import discord
import pytest

import engines
from cogs.game import GameCog
from session import ids, nudges
from session.clocks import Quiet
from tests.host.driver import click
from tests.host.fakes import FakeClient, FakeInteraction
from text.catalog import t

CH = 900
GAME = engines.get("kingdomino")


@pytest.fixture
def client(sessions) -> FakeClient:
    return FakeClient(sessions)


def inter(client, user_id, **kw) -> FakeInteraction:
    return FakeInteraction(client, client.user(user_id, f"P{user_id}"), CH, **kw)


async def start(client, players=2, pace=None):
    cog = GameCog(client)  # type: ignore[arg-type]
    await GameCog.new.callback(cog, inter(client, 1, channel=client.channel(CH)), "kingdomino",
                               players, None, pace, False)
    for user in range(2, players + 1):
        await GameCog.join.callback(cog, inter(client, user))
    return cog, await client.host.sessions.in_channel(CH)


async def mover(client) -> tuple[Any, int, int]:
    row = await client.host.sessions.in_channel(CH)
    seat = GAME.to_act(await client.host.sessions.state(row))[0]
    return row, seat, row.seats[seat].user_id


async def tick(client, clock, **advance) -> list[str]:
    """Move the fake clock, fire what is due, publish it; the kinds that fired."""
    clock.advance(**advance)
    events = await client.host.rooms.timers.fire_due()
    for event in events:
        await client.host.publish_timer(event)
    return [e.kind for e in events]


async def play_one(client) -> None:
    row, seat, user = await mover(client)
    state = await client.host.sessions.state(row)
    outcome = await client.host.sessions.act(row.id, user, GAME.legal_actions(state, seat)[0])
    await client.host.publish(outcome)


def test_untimed_reminders_every_day_then_absent():
    start = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)
    times = nudges.untimed_times(start, Quiet(), nudges.ServerDefaults())
    assert [(k, (w - start).total_seconds() / 3600) for k, w in times] == [
        ("remind", 24), ("remind", 48), ("absent", 72)]
    # a reminder in the night waits for the morning; the absence is not moved
    night = Quiet("UTC", 11, 14)
    times = nudges.untimed_times(start, night, nudges.ServerDefaults())
    assert [w.hour for _, w in times] == [14, 14, 12]


@pytest.mark.parametrize("pace", [None, "daily:1"])
async def test_a_turn_that_starts_in_quiet_hours_pings_when_they_end(client, clock, pace):
    for user in (1, 2):  # it is 12:00 UTC: quiet until 14:00 for both
        await client.host.rooms.profile.settings(user, tz="UTC", quiet="11-14")
    await start(client, pace=pace)
    _, _, user = await mover(client)
    assert client.channel(CH).last.sent.pinged() == []  # the board is quiet...
    kinds = await tick(client, clock, hours=1, minutes=59)
    assert "ping" not in kinds
    kinds = await tick(client, clock, minutes=1)  # ...and the ping comes at 14:00
    assert kinds.count("ping") == 1
    ping = client.channel(CH).last.sent
    assert ping.pinged() == [user] and f"<@{user}>" in ping.content
    assert ping.content.startswith("🔔")


async def test_a_held_back_ping_past_the_turns_deadline_is_not_sent(client, clock):
    """realtime:5 in quiet hours until 14:00: the clock runs out at 12:05 and its vote is
    posted (it mentions the player); the ping held back until 14:00 is stale by then."""
    for user in (1, 2):
        await client.host.rooms.profile.settings(user, tz="UTC", quiet="11-14")
    await start(client, players=3, pace="realtime:5")
    assert await tick(client, clock, minutes=6) == ["timeout"]
    posted = len(client.channel(CH).messages)
    assert await tick(client, clock, hours=2) == []
    assert len(client.channel(CH).messages) == posted


async def test_a_held_back_ping_of_a_turn_already_played_is_not_sent(client, clock):
    for user in (1, 2):
        await client.host.rooms.profile.settings(user, tz="UTC", quiet="11-14")
    await start(client)
    await play_one(client)  # the player moved during their quiet hours
    posted = len(client.channel(CH).messages)
    clock.advance(hours=2)
    kinds = [e.kind for e in await client.host.rooms.timers.fire_due()]
    _, _, now_to_move = await mover(client)
    assert kinds.count("ping") <= 1  # only the next player's ping, if their turn began
    assert len(client.channel(CH).messages) == posted


async def test_untimed_game_reminds_then_the_table_replaces_a_silent_player_and_finishes(
        client, clock):
    cog, _ = await start(client, players=3)
    row, seat, silent = await mover(client)
    assert client.channel(CH).last.sent.pinged() == [silent]
    assert await tick(client, clock, hours=24) == ["remind"]
    reminder = client.channel(CH).last.sent
    assert reminder.pinged() == [silent] and reminder.content.startswith("⏰")
    assert await tick(client, clock, hours=24) == ["remind"]
    # before the absence, nobody can take the seat or vote
    sub = inter(client, 7)
    await GameCog.substitute.callback(cog, sub, seat + 1)
    assert sub.ephemeral_texts() == [t("en", "error.seat_not_free", player=f"P{silent}")]
    assert await tick(client, clock, hours=24) == ["absent"]
    vote = client.channel(CH).last.sent
    assert vote.pinged() == [silent]  # the absent player is pinged once, with the vote
    assert t("en", "ui.absent", mention=f"<@{silent}>", game="Kingdomino") in vote.content
    computer = next(c for c in vote.custom_ids if ":v:computer:" in c)
    refused = await click(client, silent, CH, vote, computer)
    assert refused.ephemeral_texts() == [t("en", "error.not_a_voter")]
    others = [s.user_id for s in row.seats if s.user_id != silent]
    for user in others:
        await click(client, user, CH, vote, computer)
    row = await client.host.sessions.in_channel(CH)
    assert row.seats[seat].user_id is None  # a computer sits there now
    announced = [m.sent.content or "" for m in client.channel(CH).messages[-3:]]
    assert any(t("en", "notice.replaced_by_computer", player=f"P{silent} (🤖)") in c
               or "🤖" in c for c in announced)
    for _ in range(500):  # the others play on to the end
        row = await client.host.sessions.session(row.id)
        if row.status != "active":
            break
        await play_one(client)
    assert row.status == "finished"


async def test_a_player_who_comes_back_ends_the_vote(client, clock):
    await start(client, players=3)
    row, seat, silent = await mover(client)
    await tick(client, clock, hours=72)
    vote = client.channel(CH).last.sent
    await play_one(client)  # the absent player moves after all
    voter = next(s.user_id for s in row.seats if s.user_id != silent)
    skip = next(c for c in vote.custom_ids if ":v:skip:" in c)
    late = await click(client, voter, CH, vote, skip)
    assert late.ephemeral_texts() == [t("en", "error.vote_over")]
    assert not await client.host.rooms.absence.absent(
        await client.host.sessions.session(row.id), seat)


async def test_end_vote_counts_only_players_who_are_present(client, clock):
    cog, _ = await start(client, players=3)
    row, seat, silent = await mover(client)
    present = [s.user_id for s in row.seats if s.user_id != silent]
    # before the absence, everyone must agree
    first = inter(client, present[0])
    await GameCog.endvote.callback(cog, first)
    assert (await client.host.sessions.session(row.id)).status == "active"
    await tick(client, clock, hours=72)
    second = inter(client, present[1])
    await GameCog.endvote.callback(cog, second)
    row = await client.host.sessions.session(row.id)
    assert row.status == "abandoned"


async def test_server_defaults_set_reminders_absence_pace_and_language(client, clock):
    cog = GameCog(client)  # type: ignore[arg-type]
    player = inter(client, 1)
    await GameCog.settings_server.callback(cog, player, None, 2.0, 5.0, None)
    assert player.ephemeral_texts() == [t("en", "error.server_managers_only")]
    bad = inter(client, 1, permissions=discord.Permissions(manage_guild=True))
    await GameCog.settings_server.callback(cog, bad, None, 0.0, None, None)
    assert bad.ephemeral_texts() == [t("en", "error.bad_hours", low=1, high=720)]
    manager = inter(client, 1, permissions=discord.Permissions(manage_guild=True))
    await GameCog.settings_server.callback(cog, manager, None, 2.0, 5.0, "pl")
    assert manager.ephemeral_texts() == [t("en", "ui.server_settings", pace="none", remind="2",
                                           absent="5", language="pl")]
    _, row = await start(client, players=2)
    assert row.lang == "pl"  # the server's language for the game's posts
    assert await tick(client, clock, hours=2) == ["remind"]
    assert await tick(client, clock, hours=2) == ["remind"]
    assert await tick(client, clock, hours=1) == ["absent"]


async def test_server_default_pace_applies_when_new_names_none(client):
    cog = GameCog(client)  # type: ignore[arg-type]
    manager = inter(client, 1, permissions=discord.Permissions(manage_guild=True))
    await GameCog.settings_server.callback(cog, manager, "Daily:2", None, None, None)
    refused = inter(client, 1, permissions=discord.Permissions(manage_guild=True))
    await GameCog.settings_server.callback(cog, refused, "weekly", None, None, None)
    assert refused.ephemeral_texts() == [t("en", "error.bad_pace", pace="weekly")]
    _, row = await start(client, players=2)
    assert '"daily"' in row.pace_json and row.lang == "en"
    await GameCog.admin_end.callback(cog, inter(
        client, 1, permissions=discord.Permissions(manage_channels=True)))
    await GameCog.new.callback(cog, inter(client, 1), "kingdomino", 2, None, "none", False)
    assert '"none"' in (await client.host.sessions.in_channel(CH)).pace_json


async def test_a_vote_id_for_an_untimed_absence_fits_discord(client, clock):
    await start(client, players=2)
    await tick(client, clock, hours=72)
    for custom_id in client.channel(CH).last.sent.custom_ids:
        assert len(custom_id) <= 100 and ids.parse(custom_id).kind == "vote"
