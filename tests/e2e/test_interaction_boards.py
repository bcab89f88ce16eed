"""A human's move goes out on the interaction that made it (issue 11, item 2): the new board is
a public follow-up of the click (pinging whoever must act now), the old board loses its buttons
through an interaction too, so a Kingdomino game in a channel makes no call that counts toward
Discord's global rate limit; when the token no longer works the board goes by the channel, and
under a burst the bot keeps to the global limit the stand-in enforces."""

from __future__ import annotations

import asyncio
import random

from tests.e2e.helpers import assert_no_violations, board_messages, open_game, read_session
from tests.standin.botproc import BotProcess
from tests.standin.server import EPHEMERAL, Call, Discord, Message
from tests.standin.users import Player, Table

GAME = "kingdomino"


def global_calls(discord: Discord, since: int) -> list[Call]:
    return [c for c in discord.calls[since:] if c.globally_limited]


def pinged(discord: Discord, board: Message) -> set[int]:
    """The users the follow-up that posted ``board`` allowed to be notified (a click's only
    public follow-up is its board)."""
    token = discord.interactions[board.interaction_id or 0].token
    [post] = [c for c in discord.calls if c.key == "POST /webhooks/{webhook_id}/{token}"
              and c.path.endswith(token) and c.status == 200
              and not (c.body or {}).get("flags", 0) & EPHEMERAL]
    return {int(u) for u in (post.body.get("allowed_mentions") or {}).get("users", [])}


async def test_a_clicked_move_comes_back_as_a_follow_up_and_no_global_call_is_made(discord, bot):
    channel = discord.text_channels[0]
    players = [Player(discord, "Ala"), Player(discord, "Bartek")]
    spectator = Player(discord, "Zoe")  # in the channel, not in the game
    table = Table(discord, channel, players, random.Random(11))
    await open_game(table, GAME)
    first = table.turn_message()
    assert first is not None and first.via == "channel"  # the start: a lobby click's board

    since = len(discord.calls)
    after_first = 0
    moves = 0
    while moves < 16 and not table.finished():
        before = table.turn_message()
        mover = table.rng.choice(table.movers())
        move = await table.make_move(mover, False)
        moves += 1
        board = table.turn_message()
        assert board is not None and before is not None
        click = move.clicks[-1]
        if board is before:  # the same player moves again: the clicked board, edited
            assert discord.messages[click.message_id or 0].ephemeral or click.message_id == board.id
            continue
        # the new board is a public follow-up of the click that made the move
        assert board.via == "followup" and board.interaction_id == click.id
        assert board.public and board.visible_to is None and board.images()
        assert spectator.id not in {p.id for p in table.movers()}  # sees it, is not pinged
        assert pinged(discord, board) == {p.id for p in table.movers()}
        # the old board loses its buttons
        await discord.wait_for(lambda b=before: not b.components, 10, "the old board retired")
        if moves == 1:
            after_first = len(discord.calls)
    assert moves >= 10 and after_first
    await asyncio.sleep(0.5)  # anything the last move still sends
    # not one call counted toward the global limit: boards, pings and retirements all went out
    # on interactions; the first move at most retires the board the lobby's Start posted in
    # the channel by a channel PATCH (when its last click was in the private picker)
    assert [c.key for c in global_calls(discord, after_first)] == []
    assert len(global_calls(discord, since)) <= 1
    shown = [v for v, _ in board_messages(table)]
    assert shown == sorted(shown) and len(set(shown)) == len(shown)
    assert_no_violations(discord)


async def test_an_expired_token_sends_the_board_by_the_channel(discord, bot):
    channel = discord.text_channels[1]
    players = [Player(discord, "Ala"), Player(discord, "Bartek")]
    table = Table(discord, channel, players, random.Random(12))
    await open_game(table, GAME)
    old = table.turn_message()
    assert old is not None
    discord.token_lifetime = 0.0  # every follow-up and edit with a token: 401, 50027
    move = await table.make_move(table.movers()[0], False)
    board = table.turn_message()
    assert board is not None and board is not old
    assert board.via == "channel" and board.images()  # not lost: posted the old way
    assert any(c.status == 401 for c in discord.calls if not c.globally_limited)
    await discord.wait_for(lambda: not old.components, 10, "the old board retired")
    stored = read_session(bot.db_path, channel)
    assert stored.version == 1 and stored.actions[0][3] == move.code
    discord.token_lifetime = 15 * 60.0
    # and the game goes on through interactions again
    await table.make_move(table.movers()[0], False)
    newest = table.turn_message()
    assert newest is not None and newest.via in ("followup", "channel")
    assert read_session(bot.db_path, channel).version == 2
    assert_no_violations(discord)


async def test_a_burst_of_channel_calls_keeps_to_the_global_limit(discord, bot):
    """Four games opened at once with the limit lowered to 4 a second: the lobbies and first
    boards (channel posts) run into global 429s, the bot waits them out, nothing is lost."""
    discord.global_limit = 4
    tables = [Table(discord, channel, [Player(discord, f"T{n}A"), Player(discord, f"T{n}B")],
                    random.Random(n)) for n, channel in enumerate(discord.text_channels)]
    await asyncio.gather(*(open_game(t, GAME, timeout=120) for t in tables))
    await asyncio.gather(*(t.make_move(t.movers()[0], False, timeout=120) for t in tables))
    refused = [c for c in discord.calls if c.status == 429 and c.globally_limited]
    assert refused, "the burst never reached the lowered limit"
    for table in tables:
        assert read_session(bot.db_path, table.channel_id).version == 1
        board = table.turn_message()
        assert board is not None and board.components
    assert_no_violations(discord)


async def test_a_bot_told_its_share_of_the_limit_is_never_refused(discord, tmp_path):
    """The same kind of burst, with the bot told the limit (``STOLIK_GLOBAL_LIMIT``): it paces
    its own channel calls (cogs/pace.py) and Discord refuses none of them; with the limit it
    does not know (the test above) the same burst is refused."""
    discord.global_limit = 10
    bot = BotProcess(discord, tmp_path / "stolik.sqlite3", tmp_path,
                     extra_env={"STOLIK_GLOBAL_LIMIT": "10"})
    await bot.start()
    try:
        tables = [Table(discord, channel, [Player(discord, f"P{n}A"), Player(discord, f"P{n}B")],
                        random.Random(n)) for n, channel in enumerate(discord.text_channels)]
        since = len(discord.calls)
        await asyncio.gather(*(open_game(t, GAME, timeout=120) for t in tables))
        await asyncio.gather(*(t.make_move(t.movers()[0], False, timeout=120) for t in tables))
        made = global_calls(discord, since)
        assert len(made) > discord.global_limit  # more than one second's worth
        assert [c.key for c in made if c.status == 429] == []
        for table in tables:
            assert read_session(bot.db_path, table.channel_id).version == 1
        assert_no_violations(discord)
    finally:
        await bot.stop()
    assert "Traceback" not in bot.log_text()
