"""The first answer to a click never waits for the store or a drawing (issue 11, item 3): a
picker step that is not ready within its budget is deferred and shown when it is."""

from __future__ import annotations

import random

import discord

import cogs.components as components
import engines
from session import ids
from tests.host.driver import click, make_move
from tests.host.test_kingdomino_cogs import CH, client, start_game  # noqa: F401 (fixture)
from text.catalog import t

DEFERRED = (discord.InteractionResponseType.deferred_channel_message,
            discord.InteractionResponseType.deferred_message_update)


async def test_slow_picker_steps_are_deferred_then_shown(client, monkeypatch):  # noqa: F811
    monkeypatch.setattr(components, "PICK_BUDGET", 0.0)  # every step is "slow"
    _, row = await start_game(client, 2)
    sessions = client.host.sessions
    game = engines.get("kingdomino")
    rng = random.Random(4)
    steps = 0
    for _ in range(12):
        row = await sessions.store.get(row.id)
        state = await sessions.state(row)
        [seat] = game.to_act(state)
        board = client.channel(CH).last
        # the board offers every Kingdomino move whole (issue 25); the picker step of one
        # verb's moves is what a board with more moves would open
        verbs = {code.split()[0] for code in game.legal_actions(state, seat)}
        opener = [ids.pick(row.id, row.version, verb) for verb in sorted(verbs)
                  if verb == "place"]
        if opener:  # a placement: through the private picker, every step deferred
            step = await click(client, row.seats[seat].user_id, CH, board.sent, opener[0],
                               message=board)
            assert step.response.type in DEFERRED and step.thinking
            [picker] = step.replies
            assert picker.ephemeral and picker.view is not None
            steps += 1
        await make_move(client, row.seats[seat].user_id, CH, board.sent, rng, board)
    assert steps >= 2
    assert (await sessions.store.get(row.id)).version == 12


async def test_a_slow_refused_step_is_still_answered(client, monkeypatch):  # noqa: F811
    monkeypatch.setattr(components, "PICK_BUDGET", 0.0)
    _, row = await start_game(client, 2)
    board = client.channel(CH).last
    opener = ids.pick(row.id, row.version, "")
    wrong = [s.user_id for s in row.seats
             if s.seat not in engines.get("kingdomino").to_act(await client.host.sessions.state(row))]
    step = await click(client, wrong[0], CH, board.sent, opener, message=board)
    assert step.response.type in DEFERRED
    assert step.ephemeral_texts() == [t("en", "error.not_your_move")]
