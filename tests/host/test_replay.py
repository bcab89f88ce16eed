"""/game replay (issue 12): the boards of a game as an animation (spectator views only) and
the whole public move log as a text file, for a finished or a running game."""

from __future__ import annotations

import io

import pytest
from PIL import Image

import engines
import render
from cogs.game import GameCog
from session import replay
from tests.host.fakes import FakeClient, FakeInteraction
from tests.host.test_every_game_through_cogs import CH, play_game
from text.catalog import t


@pytest.fixture
def client(sessions) -> FakeClient:
    return FakeClient(sessions)


def test_frames_keep_the_first_and_the_last_and_are_capped():
    assert replay.frame_indices(5, 48) == [0, 1, 2, 3, 4]
    chosen = replay.frame_indices(1000, 48)
    assert len(chosen) == 48 and chosen[0] == 0 and chosen[-1] == 999
    assert chosen == sorted(set(chosen))


async def test_replay_of_a_finished_game_by_number(client, db_path, clock):
    client = await play_game(client, "kingdomino", 2, db_path, clock, seed=3)
    row = (await client.host.sessions.history(CH))[0]
    cog = GameCog(client)  # type: ignore[arg-type]
    asked = FakeInteraction(client, client.user(77), 12345)  # another channel, same server
    await GameCog.replay.callback(cog, asked, row.id)
    answer = asked.replies[-1]
    assert answer.ephemeral and len(answer.files) == 2
    animation, moves = (f.fp.read() for f in answer.files)
    gif = Image.open(io.BytesIO(animation))
    assert gif.format == "GIF" and gif.n_frames == min(replay.MAX_FRAMES, row.version + 1)
    assert len(animation) < replay.MAX_BYTES
    lines = moves.decode().splitlines()
    assert lines[0].startswith("1. ") and len([x for x in lines if "picks domino" in x]) > 10
    assert "▶" not in moves.decode()  # every move said once
    assert answer.content == t("en", "ui.replay", game="Kingdomino", id=row.id,
                               moves=row.version, frames=gif.n_frames)
    # another server's game is not shown by its number
    elsewhere = FakeInteraction(client, client.user(77), 12345, guild_id=999)
    await GameCog.replay.callback(cog, elsewhere, row.id)
    assert elsewhere.ephemeral_texts() == [t("en", "error.no_such_session", id=row.id)]
    await client.host.sessions.db.close()  # play_game restarted over a database of its own


async def test_replay_of_a_running_game_with_secrets_shows_only_spectator_views(
        client, sessions, monkeypatch):
    drawn: list[dict] = []
    board_png = render.board_png

    def spy(game_id, view, **kw):
        assert "private" not in view  # never a seat's view
        drawn.append(view)
        return board_png(game_id, view, **kw)

    monkeypatch.setattr(render, "board_png", spy)
    cog = GameCog(client)  # type: ignore[arg-type]
    await GameCog.new.callback(cog, FakeInteraction(client, client.user(1), CH),
                               "bunny_kingdom", 2, None, None, False)
    await GameCog.join.callback(cog, FakeInteraction(client, client.user(2), CH))
    await GameCog.addbot.callback(cog, FakeInteraction(client, client.user(1), CH))
    row = await sessions.in_channel(CH)
    game = engines.get("bunny_kingdom")
    for _ in range(4):
        row = await sessions.in_channel(CH)
        state = await sessions.state(row)
        for seat in game.to_act(state):
            if row.seats[seat].user_id is not None:
                await sessions.act(row.id, row.seats[seat].user_id,
                                   game.legal_actions(state, seat)[0])
                break
    drawn.clear()
    asked = FakeInteraction(client, client.user(2), CH)
    await GameCog.replay.callback(cog, asked, None)
    answer = asked.replies[-1]
    assert len(answer.files) == 2 and drawn
    log = answer.files[1].fp.read().decode()
    row = await sessions.in_channel(CH)
    hand = game.view(await sessions.state(row), 0)["private"]
    assert str(hand) not in log


async def test_replay_before_a_game_starts_says_why(client):
    cog = GameCog(client)  # type: ignore[arg-type]
    nothing = FakeInteraction(client, client.user(1), CH)
    await GameCog.replay.callback(cog, nothing, None)
    assert nothing.ephemeral_texts() == [t("en", "error.no_game_here")]
    await GameCog.new.callback(cog, FakeInteraction(client, client.user(1), CH),
                               "kingdomino", 2, None, None, False)
    lobby = FakeInteraction(client, client.user(1), CH)
    await GameCog.replay.callback(cog, lobby, None)
    assert lobby.ephemeral_texts() == [t("en", "error.not_started")]


async def started_kingdomino(client, channel: int, guild_id: int | None = 1):
    """A game of user 1 against a computer, started (its first moves made)."""
    cog = GameCog(client)  # type: ignore[arg-type]
    await GameCog.new.callback(cog, FakeInteraction(client, client.user(1), channel,
                                                    guild_id=guild_id),
                               "kingdomino", 2, None, None, False)
    await GameCog.addbot.callback(cog, FakeInteraction(client, client.user(1), channel,
                                                       guild_id=guild_id))
    row = await client.host.sessions.in_channel(channel)
    assert row.status == "active"
    return cog, row


async def replay_by(client, cog, user_id: int, number: int, *, channel: int = 12345,
                    guild_id: int | None = 1) -> FakeInteraction:
    asked = FakeInteraction(client, client.user(user_id), channel, guild_id=guild_id)
    await GameCog.replay.callback(cog, asked, number)
    return asked


def replayed(asked: FakeInteraction) -> bool:
    return len(asked.replies[-1].files) == 2


async def test_replay_by_number_follows_the_view_permission_of_the_games_channel(client):
    """Issue 27: a game's number is no key to a channel the member cannot see."""
    cog, row = await started_kingdomino(client, CH)
    assert replayed(await replay_by(client, cog, 77, row.id))  # sees the channel
    client.channel(CH).hidden_from.add(78)
    hidden = await replay_by(client, cog, 78, row.id)
    assert hidden.ephemeral_texts() == [t("en", "error.replay_hidden", id=row.id)]
    assert not hidden.replies[-1].files
    client.channel(CH).history_hidden_from.add(79)  # sees the channel, not its past
    assert (await replay_by(client, cog, 79, row.id)).ephemeral_texts() == [
        t("en", "error.replay_hidden", id=row.id)]
    client.channel(CH).hidden_from.add(1)
    assert replayed(await replay_by(client, cog, 1, row.id))  # its player saw every board
    client.gone.add(CH)  # the channel was deleted: nobody else's view can be checked
    assert (await replay_by(client, cog, 77, row.id)).ephemeral_texts() == [
        t("en", "error.replay_hidden", id=row.id)]


async def test_a_game_in_direct_messages_is_replayed_by_its_players_only(client):
    cog, row = await started_kingdomino(client, -1, guild_id=None)  # user 1's DM with the bot
    assert row.guild_id is None
    assert replayed(await replay_by(client, cog, 1, row.id, channel=-1, guild_id=None))
    assert replayed(await replay_by(client, cog, 1, row.id))  # the player, from a server
    refused = [t("en", "error.replay_private", id=row.id)]
    # another user, in their own DM with the bot (no server on either side) or in a server
    assert (await replay_by(client, cog, 2, row.id, channel=-2, guild_id=None)
            ).ephemeral_texts() == refused
    assert (await replay_by(client, cog, 2, row.id)).ephemeral_texts() == refused
