"""Play games through the real cogs by clicking what the bot sent, like a person would."""

from __future__ import annotations

import random

import discord

from cogs.components import route
from session import ids
from tests.host.fakes import FakeClient, FakeInteraction, FakeMessage, Sent


async def click(client: FakeClient, user_id: int, channel_id: int, sent: Sent, custom_id: str,
                value: str | None = None, message: FakeMessage | None = None) -> FakeInteraction:
    """Click a button (or choose ``value`` in a menu) of a message the bot sent."""
    if message is None:
        message = FakeMessage(client.channel(channel_id), sent)
    interaction = FakeInteraction(client, client.user(user_id), channel_id, message=message)
    if value is not None:
        interaction.data = {"values": [value]}
    await route(interaction, custom_id, value)
    assert interaction.answered, f"{custom_id} was not answered"
    return interaction


def choices(sent: Sent) -> list[tuple[str, str | None]]:
    """(custom_id, value) for every move-making choice on a message (tools left out)."""
    out: list[tuple[str, str | None]] = []
    for item in sent.items():
        parsed = ids.parse(item.custom_id)
        if parsed is None or parsed.kind in ("hand", "lobby", "undo", "vote"):
            continue
        if isinstance(item, discord.ui.Select):
            out.extend((item.custom_id, option.value) for option in item.options)
        else:
            out.append((item.custom_id, None))
    # "Back" restarts the picker; with something else to click, a person would go forward
    forward = [c for c in out if not c[0].endswith(":p:")]
    return forward or out


def plays(custom_id: str, value: str | None) -> bool:
    """Whether clicking this (choosing ``value`` in a menu) plays a move."""
    parsed = ids.parse(custom_id)
    if parsed is not None and parsed.kind == "select":
        return (value or "").startswith("a:")
    return parsed is not None and parsed.kind == "act"


async def make_move(client: FakeClient, user_id: int, channel_id: int, start: Sent,
                    rng: random.Random, start_message: FakeMessage | None = None) -> int:
    """Click through the picker from ``start`` until a move is played; returns the clicks."""
    sent, message, clicks = start, start_message, 0
    while True:
        options = choices(sent)
        assert options, f"nothing to click on {sent.content!r}"
        custom_id, value = rng.choice(options)
        interaction = await click(client, user_id, channel_id, sent, custom_id, value, message)
        clicks += 1
        errors = [r.content for r in interaction.replies if r.where == "followup" and r.ephemeral
                  and not r.view]  # (a slow picker step comes as a follow-up, with buttons)
        assert not errors, errors
        if plays(custom_id, value):  # the move: the picker (if any) was closed in the answer
            refused = [r.content for r in interaction.replies if r.where == "edit_original"
                       and r.ephemeral]
            assert not refused, refused
            return clicks
        sent = interaction.replies[-1]
        message = FakeMessage(client.channel(channel_id), sent)
        assert clicks < 10, "the picker does not end"
