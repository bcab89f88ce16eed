"""Learn by playing (issue 12): /game help, a how-to-play per game (buttons first, typed codes
second, an example board), a lobby that shows game, variants, pace and seats, and a first
board that says in one line how to make a move."""

from __future__ import annotations

import discord
import pytest

import engines
from cogs.game import GameCog
from session.service import playable
from tests.host.fakes import FakeClient, FakeInteraction
from text.catalog import LANGUAGES, catalog, t

CH = 700
PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture
def client(sessions) -> FakeClient:
    return FakeClient(sessions)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_game_has_a_how_to_play_that_teaches_buttons_before_codes(lang):
    for game_id in [g for g in playable() if g != "toy"]:
        text = catalog(lang)[f"howto.{game_id}"]  # in the language's own file, no fallback
        assert len(text) <= 1900
        assert text.index("1.") < text.index("/game play")  # clicking first, typing later


async def test_help_for_one_game_sends_the_how_to_with_an_example_board(client):
    cog = GameCog(client)  # type: ignore[arg-type]
    asked = FakeInteraction(client, client.user(1), CH, locale=discord.Locale.polish)
    await GameCog.help.callback(cog, asked, "kingdomino")
    howto, rules = asked.replies[-2:]
    assert howto.ephemeral and rules.ephemeral
    assert howto.content.startswith(t("pl", "howto.kingdomino"))
    assert howto.image().startswith(PNG)
    assert rules.content == t("pl", "kingdomino.rules")[:2000]


async def test_lobby_shows_game_variants_pace_and_seats_and_the_first_board_how_to_move(
        client):
    cog = GameCog(client)  # type: ignore[arg-type]
    await GameCog.new.callback(cog, FakeInteraction(client, client.user(1, "Ala"), CH),
                               "kingdomino", 2, "harmony", "daily:1", False)
    lobby = client.channel(CH).last.sent.content
    assert "Kingdomino" in lobby and "1/2" in lobby and "Ala" in lobby
    assert t("en", "kingdomino.variant.harmony") in lobby
    assert t("en", "ui.lobby_pace", pace=t("en", "ui.pace_daily", days="1", cap="3")) in lobby
    await GameCog.join.callback(cog, FakeInteraction(client, client.user(2, "Bo"), CH))
    first = client.channel(CH).last.sent.content
    assert t("en", "ui.first_move_hint") in first
    row = await client.host.sessions.in_channel(CH)
    state = await client.host.sessions.state(row)
    game = engines.get("kingdomino")
    seat = game.to_act(state)[0]
    out = await client.host.sessions.act(row.id, row.seats[seat].user_id,
                                         game.legal_actions(state, seat)[0])
    await client.host.publish(out)
    assert t("en", "ui.first_move_hint") not in client.channel(CH).last.sent.content
