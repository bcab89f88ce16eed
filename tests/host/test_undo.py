"""Undo: a player's own last move, until someone else acts, never across a reveal; the
clocks go back with it."""

from __future__ import annotations

import pytest

import engines
from session.errors import SessionError
from tests.host.days import kingdomino, mover, rooms_over

#: the session suite runs on SQLite and on PostgreSQL
BACKENDS = "both"


async def test_undo_own_last_move_until_someone_else_acts_never_across_a_reveal(sessions):
    rooms = rooms_over(sessions)
    row = await kingdomino(sessions, pace=None)
    game = engines.get("kingdomino")
    # opening picks reveal the hidden king order: they can never be taken back
    seat, user = await mover(sessions, row)
    row = (await sessions.act(row.id, user, game.legal_actions(await sessions.state(row), seat)[0])).session
    with pytest.raises(SessionError) as err:
        await rooms.undo.undo(row.id, user)
    assert err.value.key == "error.undo_reveal"
    # play on to the first placement, which reveals nothing
    while True:
        state = await sessions.state(row)
        seat, user = await mover(sessions, row)
        codes = game.legal_actions(state, seat)
        if codes[0].startswith("place"):
            break
        row = (await sessions.act(row.id, user, codes[0])).session
    before = state
    row = (await sessions.act(row.id, user, codes[0])).session
    other = next(s.user_id for s in row.seats if s.user_id != user)
    with pytest.raises(SessionError) as err:
        await rooms.undo.undo(row.id, other)
    assert err.value.key == "error.undo_nothing"
    out = await rooms.undo.undo(row.id, user)
    assert out.session.version == row.version + 1  # versions only grow
    assert await sessions.state(out.session) == before
    assert await sessions.replay(out.session) == before
    undone = (await sessions.store.actions(row.id, with_undone=True))[-1]
    assert undone.undone_version == out.session.version  # kept in the log, marked
    # an old button from before the undo is stale
    with pytest.raises(SessionError) as err:
        await sessions.act(row.id, user, codes[0], version=row.version)
    assert err.value.key == "error.stale"
    out = await sessions.act(row.id, user, codes[-1], version=out.session.version)
    assert out.session.version == row.version + 2


async def test_undo_puts_every_clock_back_and_takes_back_the_next_players_top_up(sessions,
                                                                                 clock):
    rooms = rooms_over(sessions)
    row = await kingdomino(sessions, players=3, pace="daily:1:3")
    game = engines.get("kingdomino")
    for _ in range(200):
        clock.advance(hours=1)
        state = await sessions.state(row)
        seat, user = await mover(sessions, row)
        code = game.legal_actions(state, seat)[0]
        before = row
        out = await sessions.act(row.id, user, code)
        row = out.session
        nxt = game.to_act(await sessions.state(row))[0]
        last = (await sessions.store.actions(row.id))[-1]
        if nxt != seat and not last.reveals and before.seats[nxt].bank is not None:
            break
    else:
        raise AssertionError("no undoable hand-over found")
    assert row.seats[nxt].bank > before.seats[nxt].bank  # the next player was topped up
    clock.advance(minutes=10)
    out = await rooms.undo.undo(row.id, user)
    for was, now in zip(before.seats, out.session.seats, strict=True):
        assert (now.bank, now.running_since) == (was.bank, was.running_since)
    timers = await sessions.store.pending_timers(row.id)
    assert {t["seat"] for t in timers if t["kind"] == "timeout"} == {seat}
