"""Every installed game, played to the end by clicking what the bot sends.

Players whose DMs are open move from the hand the bot DMed them; one player has closed DMs
and moves from the channel's "Make my move" button. Halfway through, the bot "restarts"
(new objects over the same SQLite file) and the game goes on from the old messages.
"""

from __future__ import annotations

import json
import random

import pytest

import engines
import render
from cogs.game import GameCog
from db import Database
from session import ids, results
from session.service import Sessions, playable
from tests.host.driver import make_move
from tests.host.fakes import FakeClient, FakeInteraction, FakeMessage

CH = 900
MAX_MOVES = 5000


def live_message(client: FakeClient, user_id: int, hidden: bool) -> FakeMessage:
    """Where this player would click: their newest DM with a move button, else the channel."""
    if hidden and user_id not in client.closed_dms:
        user = client.users[user_id]
        for sent in reversed(user.dms):
            if sent.view:
                return FakeMessage(client.channel(-user_id), sent)
    return next(m for m in reversed(client.channel(CH).messages) if m.sent.view)


async def play_game(client: FakeClient, game_id: str, players: int, db_path, clock,
                    seed: int) -> FakeClient:
    cog = GameCog(client)  # type: ignore[arg-type]
    await GameCog.new.callback(cog, FakeInteraction(client, client.user(1, "P1"), CH), game_id,
                               players, None)
    for user_id in range(2, players + 1):
        await GameCog.join.callback(cog, FakeInteraction(client, client.user(user_id), CH))
    game = engines.get(game_id)
    hidden = game.meta.hidden_information
    rng = random.Random(seed)
    moves = 0
    restarted = False
    session_id = (await client.host.sessions.in_channel(CH)).id
    while True:
        row = await client.host.sessions.session(session_id)
        if row.status != "active":
            break
        state = await client.host.sessions.state(row)
        seat = rng.choice(game.to_act(state))
        mover = row.seats[seat].user_id
        assert mover is not None  # every seat here is a person
        message = live_message(client, mover, hidden)
        start = message.sent
        if hidden and message.channel.id == CH:
            # the channel offers "Make my move" to everyone; the picker is ephemeral
            assert all(getattr(ids.parse(c), "kind", None) in ("pick", "hand", "undo")
                       for c in start.custom_ids)
        await make_move(client, mover, message.channel.id, start, rng, message)
        moves += 1
        assert moves < MAX_MOVES, "the game does not end"
        if not restarted and moves == 25:
            restarted = True
            await client.host.sessions.db.close()
            fresh = FakeClient(Sessions(await Database(db_path).open(), clock=clock, strict_bots=True))
            fresh.channels, fresh.users, fresh.closed_dms = (client.channels, client.users,
                                                             client.closed_dms)
            for user in fresh.users.values():
                user.client = fresh
            client = fresh
    return client


@pytest.mark.parametrize("game_id", ["toy", *playable()])
async def test_whole_game_through_the_cogs(game_id, sessions, db_path, clock, monkeypatch):
    game = engines.get(game_id)
    boards: set[bytes] = set()
    hands: set[bytes] = set()
    board_png, hand_png = render.board_png, render.hand_png

    def spy_board(game_id, view, **kw):
        assert "private" not in view  # public images come from the spectator view only
        boards.add(image := board_png(game_id, view, **kw))
        return image

    def spy_hand(game_id, view, **kw):
        image = hand_png(game_id, view, **kw)
        hands.add(image)
        return image

    monkeypatch.setattr(render, "board_png", spy_board)
    monkeypatch.setattr(render, "hand_png", spy_hand)
    players = min(max(game.meta.min_players, 3), game.meta.max_players)
    client = FakeClient(sessions)
    client.closed_dms.add(2)
    client = await play_game(client, game_id, players, db_path, clock, seed=7)
    sessions = client.host.sessions
    row = (await sessions.history(CH))[0]
    assert row.status == "finished" and row.result["ranking"]
    final = next(m.sent for m in reversed(client.channel(CH).messages)
                 if m.sent.file and m.sent.file.filename.endswith(".png"))
    assert [ids.parse(c).kind for c in final.custom_ids] == ["rematch"] and "1." in final.content
    # the breakdowns that did not fit in the final results follow as one file, whole lines
    after = client.channel(CH).messages[client.channel(CH).messages.index(
        next(m for m in client.channel(CH).messages if m.sent is final)) + 1:]
    breakdown = results.breakdown_message(row, row.lang)
    assert breakdown is not None or game_id != "bunny_kingdom"  # its parchments never fit
    if breakdown is None:
        assert after == []
    else:
        assert [m.sent.content for m in after] == [breakdown.content]
        assert after[0].sent.file.filename == "scores.txt" and not after[0].sent.view
        assert after[0].sent.image() == breakdown.image
    state = await sessions.state(row)
    assert json.dumps(await sessions.replay(row), sort_keys=True) == json.dumps(state, sort_keys=True)
    channel_images = {m.sent.image() for m in client.channel(CH).messages
                      if m.sent.file and m.sent.file.filename.endswith(".png")}
    assert channel_images and channel_images <= boards  # every channel image is a board...
    assert not channel_images & (hands - boards)  # ...and never a hand
    if game.meta.hidden_information:
        assert client.users[2].dm_attempts == 1  # refused once, never retried blindly
        assert any(u.dms for uid, u in client.users.items() if uid != 2)
    await sessions.db.close()  # play_game restarted over a database of its own
