"""Every other playable game, a whole game each through the stand-in. In games with hidden
hands the players whose DMs are open draft and move from what the bot DMs them (Bunny Kingdom's
simultaneous picks are made there); one player has closed DMs and plays from the channel."""

from __future__ import annotations

import random
import types
from typing import Any

import pytest

import engines
from session import ids, wording
from session.service import playable
from tests.e2e.helpers import (
    assert_boards_are_public_views,
    assert_no_violations,
    check_png,
    open_game,
    play_to_end,
    read_session,
)
from tests.standin.users import Player, Table, answer
from text.catalog import t

OTHER_GAMES = [g for g in playable() if g != "kingdomino"]


def private_texts(stored, lang: str) -> set[str]:
    """The text of every event the engine meant for one seat only, as the bot would word it."""
    game = engines.get(stored.game_id)
    row: Any = types.SimpleNamespace(seats=[types.SimpleNamespace(name=n) for n in stored.names])
    state = game.setup(stored.players, stored.options, stored.seed)
    out: set[str] = set()
    for _, seat, _, code in stored.actions:
        state, events = game.apply(state, seat, code)
        for event in events:
            if "private_to" in event:
                params = {k: v for k, v in event.items() if k not in ("key", "reveal")}
                out.add(wording.text(stored.game_id, lang, row, event["key"], params))
    return out


async def assert_breakdown_file(table: Table, stored, final) -> None:
    """A breakdown too long for the final results follows them as one message with a text
    file: every seat's breakdown line in it whole, alt text opening with the result. Bunny
    Kingdom's parchments never fit; the other games' breakdowns may."""
    def files():
        return [(m, a) for m in table.public() for a in m.attachments
                if a.filename == "scores.txt"]

    if stored.game_id != "bunny_kingdom" and not files():
        return
    # it follows the final board (which ended the wait for the game's end)
    await table.discord.wait_for(files, 30, "the breakdown file")
    public = table.public()
    [(message, scores)] = files()
    assert public.index(message) > public.index(final)
    assert message.content == t(stored.lang, "ending.breakdown_file")
    assert scores.description.startswith(t(stored.lang, "ending.alt_final", places="1. ")[:-1])
    lines = scores.data.decode("utf-8").splitlines()
    row: Any = types.SimpleNamespace(seats=[types.SimpleNamespace(name=n) for n in stored.names])
    expected = ["· " + wording.text(stored.game_id, stored.lang, row, key, params) + f" = {points}"
                for seat_lines in stored.result["breakdown"] for key, points, params in seat_lines]
    assert expected and all(line in lines for line in expected)
    assert len(expected) >= 30 or stored.game_id != "bunny_kingdom"  # its ~35 parchment lines


@pytest.mark.parametrize("game_id", OTHER_GAMES)
async def test_a_whole_game(game_id, discord, bot):
    game = engines.get(game_id)
    hidden = game.meta.hidden_information
    count = min(max(game.meta.min_players, 3), game.meta.max_players)
    channel = discord.text_channels[1]
    players = [Player(discord, name) for name in ("Ala", "Bartek", "Cyryl", "Dana")[:count]]
    closed = players[1]
    discord.faults.refuse_dms(closed.id)
    table = Table(discord, channel, players, random.Random(7), dms_closed={closed.id})
    await open_game(table, game_id)
    moves = await play_to_end(table, game_id)

    stored = read_session(bot.db_path, channel)
    assert stored.status == "finished" and len(stored.actions) == stored.version
    human_moves = sum(1 for a in stored.actions if a[2] is not None)
    assert human_moves == moves, "every acknowledged move is in the log, and no other"
    assert stored.replay()[-1] == stored.state
    final = table.turn_message()
    assert [ids.parse(c).kind for c in final.custom_ids()] == ["rematch"]
    assert t("en", "ui.final_results") in final.content
    assert assert_boards_are_public_views(table, stored, every=7) >= 2
    # every image says in words what it shows (alt text), channel boards and hands alike
    images = [a for m in discord.messages.values() for a in m.attachments
              if a.content_type == "image/png"]
    assert images and all(a.description for a in images)
    await assert_breakdown_file(table, stored, final)

    if hidden:
        # hands went by DM to everyone whose DMs are open, as images, and were used to play
        for player in players:
            if player is closed:
                continue
            dms = discord.dms(player.id)
            assert dms, f"{player.name} got no DM"
            assert all(check_png(m.images()[0]) for m in dms if m.images())
        from_dm = [m for m in table.moves if discord.channels[m.clicks[0].channel_id].type == 1]
        assert from_dm, "nobody played from a DM"
        # nothing meant for one player reached the channel, in text or in a board
        public = "\n".join(m.content for m in table.public())
        leaked = [text for text in private_texts(stored, stored.lang) if text and text in public]
        assert not leaked, leaked
        # the player with closed DMs: refused once, told once, and "My hand" works
        assert len(discord.dms(closed.id)) == 0
        notices = [m for m in table.public() if t("en", "ui.dm_closed", players=f"<@{closed.id}>")
                   == m.content]
        assert len(notices) == 1
        boards = [m for m in table.public() if m.images()][:-1]
        assert all(any(ids.parse(c).kind == "hand" for c in m.custom_ids(first=True)) for m in boards)
    assert_no_violations(discord)


async def test_my_hand_button_answers_privately_with_an_image(discord, bot):
    hidden_games = [g for g in OTHER_GAMES if engines.get(g).meta.hidden_information]
    if not hidden_games:
        pytest.skip("no playable game with hidden hands in this checkout")
    game_id = hidden_games[0]
    channel = discord.text_channels[2]
    players = [Player(discord, "Ala"), Player(discord, "Bartek")]
    discord.faults.refuse_dms(players[1].id)
    table = Table(discord, channel, players, random.Random(3), dms_closed={players[1].id})
    await open_game(table, game_id)
    board = table.turn_message()
    hand = next(c for c in board.custom_ids() if ids.parse(c).kind == "hand")
    inter = await players[1].click(board, hand)
    await answer(discord, inter)
    await discord.wait_for(lambda: inter.followups, 15, "the hand")
    reply = discord.messages[inter.followups[0]]
    assert reply.ephemeral and reply.visible_to == players[1].id
    check_png(reply.images()[0])
    # someone who is not playing gets a private refusal, not someone else's hand
    stranger = Player(discord, "Zoe")
    inter = await stranger.click(board, hand)
    await answer(discord, inter)
    await discord.wait_for(lambda: inter.followups, 15, "the refusal")
    refusal = discord.messages[inter.followups[0]]
    assert refusal.ephemeral and not refusal.attachments
    assert refusal.content == t("en", "error.not_a_player")
    assert_no_violations(discord)
