"""Async play on a phone (issue 24), through the stand-in with the real bot: the end is never
lost, one notification per turn, one living card per player, quiet hours hold everything."""

from __future__ import annotations

import random

from session import ids
from tests.e2e.helpers import assert_no_violations, open_game
from tests.e2e.notifications import live_buttons
from tests.standin.users import Player, Table, answer


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

