"""Logs name the game they are about (session/logs.py): JSON lines with STOLIK_LOG_FORMAT=json,
a short prefix in text."""

from __future__ import annotations

import io
import json
import logging
import random

import pytest

import engines
from cogs.game import GameCog
from session import logs
from tests.host.driver import click, make_move
from tests.host.fakes import FakeClient, FakeInteraction

CH = 500


@pytest.fixture
def captured():
    """The bot's own log handler (as bot.py sets it up) writing into a buffer; the root
    logger as it was afterwards."""
    root = logging.getLogger()
    level = root.level
    out = io.StringIO()

    def install(log_format: str) -> io.StringIO:
        logs.configure(log_format, "DEBUG", stream=out)
        return out

    yield install
    for handler in [h for h in root.handlers if h.get_name() == "stolik"]:
        root.removeHandler(handler)
    root.setLevel(level)


async def test_json_lines_of_a_played_game_carry_session_game_and_guild(sessions, captured):
    out = captured("json")
    client = FakeClient(sessions)
    cog = GameCog(client)  # type: ignore[arg-type]
    opener = FakeInteraction(client, client.user(1, "Ada"), CH)
    await GameCog.new.callback(cog, opener, "toy", 2, None)
    lobby = client.channel(CH).last.sent
    await click(client, 2, CH, lobby, lobby.custom_ids[0])  # joins and starts
    channel = client.channel(CH)
    rng = random.Random(3)
    for _ in range(2):
        row = await sessions.in_channel(CH)
        state = await sessions.state(row)
        seat = engines.get("toy").to_act(state)[0]
        turn = next(m for m in reversed(channel.messages) if m.sent.view)
        await make_move(client, row.seats[seat].user_id, CH, turn.sent, rng, turn)

    lines = [json.loads(line) for line in out.getvalue().splitlines()]  # every line is JSON
    moves = [line for line in lines if line["logger"] == "session.service"
             and line["message"].startswith("move by seat")]
    assert len(moves) >= 2
    for line in moves:
        assert (line["session_id"], line["game_id"], line["guild_id"]) == (row.id, "toy", 1)
        assert {"time", "level"} <= set(line)


async def test_timer_work_is_scoped_to_its_game_and_ends_with_it(captured):
    out = captured("json")
    log = logging.getLogger("session.timers")
    with logs.scope(session_id=7, game_id="gheos", guild_id=99):
        log.warning("inside")
        logs.bind(game_id="kingdomino")  # bound inside: ends with the scope too
        log.warning("rebound")
    log.warning("after")
    inside, rebound, after = (json.loads(line) for line in out.getvalue().splitlines())
    assert (inside["session_id"], inside["game_id"], inside["guild_id"]) == (7, "gheos", 99)
    assert rebound["game_id"] == "kingdomino"
    assert not {"session_id", "game_id", "guild_id"} & set(after)


async def test_text_lines_name_the_game_in_a_short_prefix(captured):
    out = captured("text")
    log = logging.getLogger("cogs.board")
    with logs.scope(session_id=12, game_id="kingdomino", guild_id=34):
        log.info("board shown again")
    log.info("no game")
    game_line, plain = out.getvalue().splitlines()
    assert game_line.endswith("INFO cogs.board: [s12 kingdomino g34] board shown again")
    assert plain.endswith("INFO cogs.board: no game")


async def test_a_click_starts_from_its_own_game_only(captured):
    """A task that handled one game and then a click on another keeps none of the first."""
    out = captured("json")
    logs.bind(session_id=1, game_id="toy", guild_id=5)
    logs.start(session_id=2, guild_id=6)
    logging.getLogger("cogs.components").warning("click")
    [line] = [json.loads(x) for x in out.getvalue().splitlines()]
    assert (line["session_id"], line["guild_id"]) == (2, 6) and "game_id" not in line
