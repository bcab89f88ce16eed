"""A human's move goes out on the interaction that made it (issue 11, item 2): the new board is
a public follow-up of the click (pinging whoever must act now), the old board loses its buttons
through an interaction too, so a Kingdomino game in a channel makes no call that counts toward
Discord's global rate limit; when the token no longer works the board goes by the channel, and
under a burst the bot keeps to the global limit the stand-in enforces."""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import random
from collections.abc import Iterator
from pathlib import Path

from tests.e2e.helpers import assert_no_violations, board_messages, open_game, read_session
from tests.standin.botproc import BotProcess
from tests.standin.server import DEFERRED_UPDATE, EPHEMERAL, UPDATE, Call, Discord, Message
from tests.standin.users import Player, Table, answer, choices, error_text
from text.catalog import t

GAME = "kingdomino"
#: a game whose moves are chosen in the private picker ("My move")
PRIVATE_GAME = "dwoch_nastepcow"


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
    since = len(discord.calls)
    await open_game(table, GAME)
    first = table.turn_message()
    # the lobby and the first board went out on the commands' interactions too
    assert first is not None and first.via == "followup"
    await discord.wait_for(lambda: table.lobby_message() is None, 10, "the lobby retired")

    moves = 0
    kinds: set[str] = set()
    while moves < 24 and not table.finished():
        before = table.turn_message()
        assert before is not None
        at_start = len(discord.calls)
        mover = table.rng.choice(table.movers())
        move = await table.make_move(mover, False)
        moves += 1
        board = table.turn_message()
        assert board is not None
        click = move.clicks[-1]
        on_board = click.message_id == before.id
        # the click that plays is answered by an update: of the picker ("done", no buttons),
        # or of the board, whose buttons it takes off (its player alone was to move)
        assert click.response_type == UPDATE
        clicked = discord.messages[click.message_id or 0]
        assert clicked.ephemeral != on_board and not clicked.custom_ids(first=False) \
            or (on_board and board is before)
        if board is before:  # the same player moves again: the board, edited in place
            assert board.components and board.history[-1].t > click.sent_at
            kind = "edited"
        else:
            # the new board is a public follow-up of the click that made the move
            assert board.via == "followup" and board.interaction_id == click.id
            assert board.public and board.visible_to is None and board.images()
            assert spectator.id not in {p.id for p in table.movers()}  # sees it, not pinged
            # the players whose turn starts are pinged; one who just moved and moves again
            # (a new line revealed) is at the screen: no notification (issue 24)
            assert pinged(discord, board) == {p.id for p in table.movers()} - {mover.id}
            # the old board loses its buttons
            await discord.wait_for(lambda b=before: not b.components, 10, "the old board retired")
            kind = "new"
        kinds.add(f"{kind} from the {'board' if on_board else 'picker'}")
        await asyncio.sleep(0.2)  # anything the move still sends
        made = discord.calls[at_start:]
        # one call per click, one for the new or edited board, and only a move from the
        # private picker to a new board retires the old one with a call of its own
        expected = len(move.clicks) + 1 + (kind == "new" and not on_board)
        assert len(made) == expected, (kind, on_board, [c.key for c in made])
    # (every Kingdomino move is on its board since issue 25; a move from the private picker
    # is checked in test_a_refused_move_in_the_private_picker_shows_in_its_place and by
    # tests/e2e/test_every_game.py)
    assert moves == 24 and {"new from the board", "edited from the board"} <= kinds, kinds
    # not one call counted toward the global limit, from the lobby on: lobbies, boards, pings
    # and retirements all went out on interactions
    assert [c.key for c in global_calls(discord, since)] == []
    shown = [v for v, _ in board_messages(table)]
    assert shown == sorted(shown) and len(set(shown)) == len(shown)
    assert_no_violations(discord)


@contextlib.contextmanager
def store_lock_held(db_path: Path, session_id: int) -> Iterator[None]:
    """Hold the bot's store lock of one session from this process (as another bot process
    busy with that game would): the bot's moves there wait for it, then are refused with
    error.store_busy and change nothing."""
    fd = os.open(os.path.realpath(db_path) + "-locks", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, session_id)
        yield
    finally:
        os.close(fd)  # closing the descriptor drops the lock


def moves_on(message: Message) -> list[str]:
    """The custom ids of the move-making buttons on a message."""
    return [c for c, _ in choices(message)]


async def board_with(table: Table, kind: str) -> Message:
    """Play on until the live board offers a button of ``kind`` (``a`` plays a move, ``p``
    opens the private picker)."""
    while True:
        board = table.turn_message()
        assert board is not None and not table.finished()
        if any(f":{kind}:" in c and not c.endswith(":p:") for c in board.custom_ids()):
            return board
        await table.make_move(table.rng.choice(table.movers()), False)


async def test_clicks_that_are_refused_leave_the_live_board_as_it_was(discord, bot):
    """A spectator's click, the other player's click, the mover's click while the game is
    busy elsewhere (the answer took the board's buttons off: they come back), and a double
    click: each clicker gets a clear private answer, and the game always has one live board,
    the newest. (The same in the private picker: the next test.)"""
    channel = discord.text_channels[2]
    players = [Player(discord, "Ala"), Player(discord, "Bartek")]
    spectator = Player(discord, "Zoe")
    table = Table(discord, channel, players, random.Random(5))
    await open_game(table, GAME)
    session_id = read_session(bot.db_path, channel).id
    board = await board_with(table, "a")
    ids_now = board.custom_ids()
    [mover] = table.movers()
    other = next(p for p in players if p is not mover)
    act = next(c for c in ids_now if ":a:" in c)
    version = read_session(bot.db_path, channel).version

    async def refused_click(player: Player, key: str) -> None:
        edits = len(board.edits)
        inter = await answer(discord, await player.click(board, act))
        assert inter.response_type == DEFERRED_UPDATE  # not the clicker's board to change
        await discord.wait_for(lambda: error_text(discord, inter), 10, "the refusal")
        assert error_text(discord, inter) == t("en", key)
        assert board.custom_ids() == ids_now and len(board.edits) == edits

    await refused_click(spectator, "error.not_a_player")
    await refused_click(other, "kingdomino.error.not_your_turn")
    with store_lock_held(bot.db_path, session_id):
        # the mover's click takes the buttons off at once; the move cannot be stored
        inter = await answer(discord, await mover.click(board, act))
        assert inter.response_type == UPDATE and not board.components
        await discord.wait_for(lambda: error_text(discord, inter), 10, "the refusal")
        assert error_text(discord, inter) == t("en", "error.store_busy")
        await discord.wait_for(lambda: board.custom_ids() == ids_now, 10, "the buttons back")
    assert read_session(bot.db_path, channel).version == version  # nothing was stored

    # a double click: both answers may take the buttons off, one move is played, the other
    # click is told the board changed; the newest board is live, every older one retired
    first, second = await mover.click(board, act), await mover.click(board, ids_now[-1])
    await answer(discord, first)
    await answer(discord, second)
    await discord.wait_for(lambda: error_text(discord, second) or error_text(discord, first),
                           10, "the refusal of one click")
    await discord.wait_for(lambda: read_session(bot.db_path, channel).version > version, 10,
                           "the move")
    await asyncio.sleep(1.0)  # the board and the refused click's repair, if any
    assert read_session(bot.db_path, channel).version == version + 1
    newest = table.turn_message()
    assert newest is not None and moves_on(newest)
    assert [m for m in table.public() if m.components and m.images()] == [newest]

    assert_no_violations(discord)


async def test_a_refused_move_in_the_private_picker_shows_in_its_place(discord, bot):
    """The mover's move from the private picker while the game is busy elsewhere: the picker
    closes in the answer, then shows the refusal in its place; the board never changes.
    (Kingdomino offers every move on its board since issue 25: a game with hands, whose moves
    are chosen privately, opens the picker.)"""
    channel = discord.add_channel("picker-refused")
    players = [Player(discord, "Ala"), Player(discord, "Bartek")]
    table = Table(discord, channel, players, random.Random(5))
    await open_game(table, PRIVATE_GAME)
    session_id = read_session(bot.db_path, channel).id
    board = table.turn_message()
    assert board is not None
    ids_now = board.custom_ids()
    [mover] = table.movers()
    version = read_session(bot.db_path, channel).version
    with store_lock_held(bot.db_path, session_id):
        edits = len(board.edits)
        opener = next(c for c in ids_now if c.endswith(":p:"))  # "My move"
        step = await answer(discord, await mover.click(board, opener))
        await discord.wait_for(lambda: discord.messages.get(step.original_id or 0) is not None
                               and discord.messages[step.original_id or 0].components, 10,
                               "the picker")
        picker = discord.messages[step.original_id or 0]
        while True:
            assert picker.ephemeral and picker.visible_to == mover.id and picker.components
            custom_id, value = table.rng.choice(
                [(c, v) for c, v in choices(picker) if not c.endswith(":p:") or v])
            step = await answer(discord, await mover.click(picker, custom_id, value))
            if not picker.components:
                break  # the move: the picker closed in the answer
        assert step.response_type == UPDATE and picker.content == t("en", "ui.done")
        await discord.wait_for(lambda: picker.content != t("en", "ui.done"), 10, "the refusal")
        assert picker.content == t("en", "error.store_busy") and not picker.components
        assert error_text(discord, step) == t("en", "error.store_busy")
        assert board.custom_ids() == ids_now and len(board.edits) == edits
    assert read_session(bot.db_path, channel).version == version
    # and the game goes on
    await table.make_move(mover, True)
    assert read_session(bot.db_path, channel).version == version + 1
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


#: a game with hands: its DMs, and the boards of moves made in DMs, count toward the global
#: limit (lobbies and boards of clicks in the channel go out on interactions)
HIDDEN = "dwoch_nastepcow"


async def test_a_burst_of_channel_calls_keeps_to_the_global_limit(discord, bot):
    """Four games opened at once with the limit lowered to 4 a second: the hands DMed at the
    start and the boards of moves made in DMs (channel posts) run into global 429s, the bot
    waits them out, nothing is lost."""
    discord.global_limit = 4
    tables = [Table(discord, channel, [Player(discord, f"T{n}A"), Player(discord, f"T{n}B")],
                    random.Random(n)) for n, channel in enumerate(discord.text_channels)]
    await asyncio.gather(*(open_game(t, HIDDEN, timeout=120) for t in tables))
    # (a hand discord.py gave up on after five 429s is not waited for: its player moves
    # from the board's "My move")
    await asyncio.gather(*(t.make_move(t.movers()[0], True, timeout=120) for t in tables))
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
    discord.global_limit = 4
    # told a little less than Discord's limit: at so low a limit one request's network delay
    # can otherwise put a fifth arrival in a one-second window
    bot = BotProcess(discord, tmp_path / "stolik.sqlite3", tmp_path,
                     extra_env={"STOLIK_GLOBAL_LIMIT": "3"})
    await bot.start()
    try:
        tables = [Table(discord, channel, [Player(discord, f"P{n}A"), Player(discord, f"P{n}B")],
                        random.Random(n)) for n, channel in enumerate(discord.text_channels)]
        since = len(discord.calls)
        await asyncio.gather(*(open_game(t, HIDDEN, timeout=120) for t in tables))
        await discord.wait_for(lambda: all(discord.dms(t.movers()[0].id) for t in tables),
                               120, "the movers' hands")
        await asyncio.gather(*(t.make_move(t.movers()[0], True, timeout=120) for t in tables))
        made = global_calls(discord, since)
        assert len(made) > discord.global_limit  # more than one second's worth
        assert [c.key for c in made if c.status == 429] == []
        for table in tables:
            assert read_session(bot.db_path, table.channel_id).version == 1
        assert_no_violations(discord)
    finally:
        await bot.stop()
    assert "Traceback" not in bot.log_text()
