"""Helpers for the tests of games over days (timers, absence, undo, ending, profile): a
Kingdomino game with a pace, who moves next, a game stopped before a computer's move, and
the rooms over a :class:`Sessions`."""

from __future__ import annotations

from collections.abc import Callable

import engines
from session.rooms import Rooms, compose
from session.service import Sessions

CH = 40


def every_guild(guild_id: int | None) -> bool:
    """One process serves every guild's timers (no sharding)."""
    return True


def rooms_over(sessions: Sessions, owns: Callable[[int | None], bool] = every_guild) -> Rooms:
    return compose(sessions, owns=owns)


async def kingdomino(sessions: Sessions, pace: str | None = "daily:1:2", players: int = 2):
    out = await sessions.new(guild_id=1, channel_id=CH, game_id="kingdomino", user_id=1,
                             name="Ala", players=players, pace=pace)
    for user in range(2, players + 1):
        out = await sessions.join(CH, user, f"P{user}")
    return out.session


async def mover(sessions: Sessions, row) -> tuple[int, int]:
    """(seat, user) whose move it is in a sequential game."""
    state = await sessions.state(row)
    seat = engines.get(row.game_id).to_act(state)[0]
    return seat, row.seats[seat].user_id


async def first_moves(sessions: Sessions, row, moves: int):
    """``row`` after ``moves`` moves, each the first legal move of the first seat to act."""
    game = engines.get(row.game_id)
    for _ in range(moves):
        state = await sessions.state(row)
        seat = game.to_act(state)[0]
        row = (await sessions.act(row.id, row.seats[seat].user_id,
                                  game.legal_actions(state, seat)[0])).session
    return row


async def stopped_before_a_computer_move(sessions, channel_id, monkeypatch):
    """A Kingdomino game against a computer whose process stopped right after a human move,
    before the computer moved."""
    await sessions.new(guild_id=1, channel_id=channel_id, game_id="kingdomino", user_id=1,
                       name="Ala", players=2)
    row = (await sessions.join(channel_id, None, "Bot")).session
    game = engines.get("kingdomino")
    while True:
        state = await sessions.state(row)
        seat = game.to_act(state)[0]
        if row.seats[seat].is_bot:
            return row
        async def no_computers(outcome):
            return outcome
        monkeypatch.setattr(sessions, "run_computer_players", no_computers)
        row = (await sessions.act(row.id, 1, game.legal_actions(state, seat)[0])).session
        monkeypatch.undo()
