"""Shared steps of the end-to-end tests: open a game by slash command, play it to the end by
clicking, read the bot's SQLite file (read-only) and replay its log with the engine."""

from __future__ import annotations

import io
import json
import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image

import engines
import render
from session import ids
from tests.standin.server import Discord, Snapshot
from tests.standin.users import Player, Table, answer
from text.catalog import t

PNG = b"\x89PNG\r\n\x1a\n"


def plain(content: str) -> str:
    """A text with its command mentions (``</game join:ID>``) written as plain names."""
    return re.sub(r"</([a-z_ ]+):\d+>", r"/\1", content)


async def open_game(table: Table, game_id: str, *, variants: str | None = None,
                    timeout: float = 30.0) -> None:
    """The first player opens the game by slash command; the others join, alternately by
    ``/game join`` and by the lobby's Join button; the full lobby starts by itself."""
    discord, channel = table.discord, table.channel_id
    creator = table.players[0]
    options: dict[str, Any] = {"game": game_id, "players": len(table.players)}
    if variants:
        options["variants"] = variants
    inter = await creator.command(channel, "game new", **options)
    await answer(discord, inter, timeout)
    await discord.wait_for(lambda: table.lobby_message(), timeout, "the lobby")
    reply = discord.messages[inter.original_id or 0]
    assert reply.ephemeral and plain(reply.content) == t("en", "ui.created"), reply.content
    for n, player in enumerate(table.players[1:]):
        count = len(table.public())
        if n % 2 == 0:
            joined = await player.command(channel, "game join")
        else:
            lobby = table.lobby_message()
            assert lobby is not None
            join = next(c for c in lobby.custom_ids() if c.endswith(":l:join"))
            joined = await player.click(lobby, join)
        await answer(discord, joined, timeout)

        def shown(before: int = count) -> bool:
            return len(table.public()) > before

        await discord.wait_for(shown, timeout, "the join")
    await discord.wait_for(lambda: table.turn_message(), timeout, "the first board")


async def play_to_end(table: Table, game_id: str, *, max_moves: int = 3000,
                      between=None) -> int:
    """Random legal moves by clicking, by whoever the turn message names, until the end.
    ``between(n)`` runs after each acknowledged move (a test's extra checks or faults)."""
    hidden = engines.get(game_id).meta.hidden_information
    moves = 0
    while not table.finished():
        movers = table.movers()
        assert movers, f"nobody to move: {getattr(table.turn_message(), 'content', None)!r}"
        await table.make_move(table.rng.choice(movers), hidden)
        moves += 1
        assert moves < max_moves, "the game does not end"
        if between is not None:
            await between(moves)
    return moves


@dataclass
class Stored:
    """A session as the bot's database holds it."""

    id: int
    game_id: str
    status: str
    seed: int
    players: int
    options: dict[str, Any]
    version: int
    lang: str
    state: dict[str, Any] | None
    result: dict[str, Any] | None
    names: list[str]
    user_ids: list[int | None]
    actions: list[tuple[int, int, int | None, str]]  # (n, seat, user_id, code)

    def replay(self, upto: int | None = None) -> list[dict[str, Any]]:
        """Every state from the start (index = version), by the engine alone."""
        game = engines.get(self.game_id)
        state = game.setup(self.players, self.options, self.seed)
        states = [state]
        for _, seat, _, code in self.actions[:upto]:
            state, _ = game.apply(state, seat, code)
            states.append(state)
        return states


def read_session(db_path: Path, channel_id: int) -> Stored:
    """The newest session of a channel, read-only (safe while the bot runs: WAL)."""
    conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    conn.row_factory = sqlite3.Row
    try:
        row = conn.execute("SELECT * FROM sessions WHERE channel_id = ? ORDER BY id DESC LIMIT 1",
                           (channel_id,)).fetchone()
        assert row is not None, f"no session in channel {channel_id}"
        seats = conn.execute("SELECT seat, user_id, name FROM seats WHERE session_id = ? ORDER BY seat",
                             (row["id"],)).fetchall()
        actions = conn.execute("SELECT n, seat, user_id, code FROM actions WHERE session_id = ?"
                               " ORDER BY n", (row["id"],)).fetchall()
    finally:
        conn.close()
    return Stored(
        row["id"], row["game_id"], row["status"], row["seed"], row["players"],
        json.loads(row["options"]), row["version"], row["lang"],
        json.loads(row["state"]) if row["state"] else None,
        json.loads(row["result"]) if row["result"] else None,
        [s["name"] for s in seats], [s["user_id"] for s in seats],
        [(a["n"], a["seat"], a["user_id"], a["code"]) for a in actions],
    )


def board_messages(table: Table) -> list[tuple[int, Snapshot]]:
    """(state version, snapshot) of every board shown in the channel, posted or edited in
    place; the version is the one its components carried (the final board has none: -1)."""
    out = []
    for message in table.public():
        for snap in message.history:
            if not snap.images:
                continue
            carried = [p.version for p in map(ids.parse, snap.custom_ids())
                       if p is not None and p.version is not None]
            out.append((max(carried) if carried else -1, snap))
    return out


def check_png(data: bytes) -> tuple[int, int]:
    assert data.startswith(PNG)
    with Image.open(io.BytesIO(data)) as image:
        image.verify()
    with Image.open(io.BytesIO(data)) as image:
        assert image.width >= 200 and image.height >= 200, image.size
        return image.size


def assert_boards_are_public_views(table: Table, stored: Stored, *, every: int = 1) -> int:
    """Every board image in the channel is exactly the render of the spectator view of the
    replayed state at its version: nothing private can be in it. Returns boards compared."""
    game = engines.get(stored.game_id)
    states = stored.replay()
    compared = 0
    boards = board_messages(table)
    for n, (version, snap) in enumerate(boards):
        if n % every and n != len(boards) - 1:
            continue
        state = states[version if version >= 0 else len(states) - 1]
        view = game.view(state, None)
        assert "private" not in view
        expected = render.board_png(stored.game_id, view, names=stored.names, lang=stored.lang)
        assert snap.images[0] == expected, f"board at version {version} is not the public view"
        compared += 1
    return compared


def assert_no_violations(discord: Discord) -> None:
    assert discord.violations == [], discord.violations
    late = [i for i in discord.interactions.values()
            if i.latency is not None and i.latency >= discord.ack_deadline]
    assert not late


def player_named(players: list[Player], user_id: int) -> Player:
    return next(p for p in players if p.id == user_id)
