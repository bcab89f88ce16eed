"""Kingdomino end to end through the cogs: buttons, menus, slash commands and autocomplete."""

from __future__ import annotations

import json
import random

import pytest

import engines
from cogs.game import GameCog
from cogs.kingdomino import KingdominoCog
from tests.host.driver import click, make_move
from tests.host.fakes import FakeClient, FakeInteraction
from text.catalog import t

CH = 700
PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture
def client(sessions) -> FakeClient:
    return FakeClient(sessions)


async def start_game(client: FakeClient, players: int, variants: str | None = None):
    cog = GameCog(client)  # type: ignore[arg-type]
    inter = FakeInteraction(client, client.user(1, "Ala"), CH)
    await GameCog.new.callback(cog, inter, "kingdomino", players, variants)
    for user_id in range(2, players + 1):
        join = FakeInteraction(client, client.user(user_id, f"P{user_id}"), CH)
        await GameCog.join.callback(cog, join)
        assert join.ephemeral_texts() == [t("en", "ui.done")]
    row = await client.host.sessions.in_channel(CH)
    assert row.status == "active"
    return cog, row


async def test_whole_four_player_game_by_clicks_in_at_most_three_clicks(client):
    _, row = await start_game(client, 4)
    rng = random.Random(11)
    game = engines.get("kingdomino")
    most_clicks = 0
    while True:
        row = await client.host.sessions.store.get(row.id)
        if row.status != "active":
            break
        state = await client.host.sessions.state(row)
        seat = game.to_act(state)[0]
        turn = client.channel(CH).last
        assert turn.sent.image().startswith(PNG)
        clicks = await make_move(client, row.seats[seat].user_id, CH, turn.sent, rng, turn)
        most_clicks = max(most_clicks, clicks)
    assert most_clicks <= 3
    final = client.channel(CH).last.sent
    assert t("en", "ui.final_results") in final.content
    assert final.image().startswith(PNG)
    # the result is the engine's own scoring of the stored state, and the log replays to it
    sessions = client.host.sessions
    state = await sessions.state(row)
    assert row.result["totals"] == game.totals(state)
    assert json.dumps(await sessions.replay(row), sort_keys=True) == json.dumps(state, sort_keys=True)


async def test_slash_commands_autocomplete_only_legal_moves_and_errors_are_ephemeral(client):
    _, row = await start_game(client, 2)
    cog = KingdominoCog(client)  # type: ignore[arg-type]
    game = engines.get("kingdomino")
    state = await client.host.sessions.state(row)
    seat = game.to_act(state)[0]
    mover = row.seats[seat].user_id
    other = next(s.user_id for s in row.seats if s.user_id != mover)
    inter = FakeInteraction(client, client.user(mover), CH)
    offered = await KingdominoCog.pick_autocomplete(cog, inter, "")
    assert sorted(c.value for c in offered) == sorted(game.legal_actions(state, seat))
    # the other player is refused, ephemerally, and nothing changes
    wrong = FakeInteraction(client, client.user(other), CH)
    await KingdominoCog.pick.callback(cog, wrong, offered[0].value)
    assert wrong.replies[-1].ephemeral and row.version == (await client.host.sessions.in_channel(CH)).version
    # the mover picks by slash command
    ok = FakeInteraction(client, client.user(mover), CH)
    await KingdominoCog.pick.callback(cog, ok, offered[0].value.split()[-1])
    assert ok.replies[-1].ephemeral and ok.replies[-1].content.startswith(t("en", "ui.played", action="")[:6])
    assert (await client.host.sessions.in_channel(CH)).version == 1


async def test_illegal_placement_names_the_rule(client):
    _, row = await start_game(client, 2)
    sessions = client.host.sessions
    game = engines.get("kingdomino")
    rng = random.Random(3)
    # play the first picks so that someone must place
    while True:
        row = await sessions.in_channel(CH)
        state = await sessions.state(row)
        seat = game.to_act(state)[0]
        if any(code.startswith("place") for code in game.legal_actions(state, seat)):
            break
        await sessions.act(row.id, row.seats[seat].user_id, game.bot_action(state, seat, rng))
    cog = KingdominoCog(client)  # type: ignore[arg-type]
    inter = FakeInteraction(client, client.user(row.seats[seat].user_id), CH)
    await KingdominoCog.place.callback(cog, inter, "A1 A2")  # far from the castle
    reply = inter.replies[-1]
    assert reply.ephemeral and "kingdomino." not in reply.content  # translated, not a raw key
    assert (await sessions.in_channel(CH)).version == row.version
    offered = await KingdominoCog.place_autocomplete(cog, inter, "")
    assert offered and all(c.value in game.legal_actions(state, seat) for c in offered)


async def test_stale_pick_button_is_refused(client):
    _, row = await start_game(client, 3)
    turn = client.channel(CH).last
    sessions = client.host.sessions
    game = engines.get("kingdomino")
    state = await sessions.state(row)
    seat = game.to_act(state)[0]
    await make_move(client, row.seats[seat].user_id, CH, turn.sent, random.Random(1), turn)
    old_button = f"sk:{row.id}:0:a:{game.legal_actions(state, seat)[-1]}"
    inter = await click(client, row.seats[seat].user_id, CH, turn.sent, old_button)
    assert inter.ephemeral_texts() == [t("en", "error.stale")]
    assert (await sessions.in_channel(CH)).version == 1
