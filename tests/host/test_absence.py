"""Absent players over days, with a fake clock: the vote on a timed-out player (skip,
computer, wait) and a substitute taking the seat. Nothing sleeps; time moves by
``clock.advance``."""

from __future__ import annotations

import pytest

import engines
from session.clocks import DAY, parse_pace, turn_starts
from session.errors import SessionError
from tests.host.days import CH, kingdomino, mover, rooms_over

#: the session suite runs on SQLite and on PostgreSQL
BACKENDS = "both"


async def test_timeout_vote_skips_the_turn_with_a_logged_computer_move(sessions, clock):
    rooms = rooms_over(sessions)
    row = await kingdomino(sessions, players=3)
    seat, late_user = await mover(sessions, row)
    clock.advance(days=1, hours=1)
    assert [e.kind for e in await rooms.timers.fire_due() if e.kind == "timeout"] == ["timeout"]
    voters = [s.user_id for s in row.seats if s.seat != seat]
    with pytest.raises(SessionError) as err:
        await rooms.absence.vote(row.id, late_user, f"timeout:{seat}", "skip")
    assert err.value.key == "error.not_a_voter"
    out = await rooms.absence.vote(row.id, voters[0], f"timeout:{seat}", "skip")
    assert out.session.version == row.version  # one of two: no majority yet
    out = await rooms.absence.vote(row.id, voters[1], f"timeout:{seat}", "skip")
    assert out.session.version > row.version
    log = await sessions.store.actions(row.id)
    assert log[0].kind == "skip" and log[0].user_id is None and log[0].seat == seat
    # it replays like any other move, and the next player's clock runs
    state = await sessions.state(out.session)
    assert await sessions.replay(out.session) == state
    nxt = engines.get("kingdomino").to_act(state)[0]
    assert out.session.seats[nxt].running_since is not None


async def test_replaced_by_computer_then_a_substitute_takes_the_seat(sessions, clock):
    rooms = rooms_over(sessions)
    row = await kingdomino(sessions, players=3)
    seat, late_user = await mover(sessions, row)
    with pytest.raises(SessionError) as err:
        await rooms.absence.substitute(CH, 99, "Sub", seat)
    assert err.value.key == "error.seat_not_free"
    clock.advance(days=2)
    await rooms.timers.fire_due()
    voters = [s.user_id for s in row.seats if s.seat != seat]
    for user in voters:
        out = await rooms.absence.vote(row.id, user, f"timeout:{seat}", "computer")
    row = out.session
    assert row.seats[seat].user_id is None and "🤖" in row.seats[seat].name
    assert row.version > 0  # the computer already played that seat's move
    out = await rooms.absence.substitute(CH, 99, "Sub", seat)
    assert out.session.seats[seat].user_id == 99 and out.session.seats[seat].name == "Sub"
    history = await sessions.store.seat_history(row.id)
    assert [(h["seat"], h["user_id"]) for h in history] == [(seat, None), (seat, 99)]
    with pytest.raises(SessionError):
        await rooms.absence.substitute(CH, 99, "Sub", seat)  # already seated


async def test_an_overrun_is_not_carried_into_the_next_turn(sessions, clock):
    rooms = rooms_over(sessions)
    row = await kingdomino(sessions, players=3)
    seat, late = await mover(sessions, row)
    clock.advance(days=3)
    await rooms.timers.fire_due()
    for user in [s.user_id for s in row.seats if s.seat != seat]:
        await rooms.absence.vote(row.id, user, f"timeout:{seat}", "wait")
    game = engines.get("kingdomino")
    state = await sessions.state(row)
    row = (await sessions.act(row.id, late, game.legal_actions(state, seat)[0])).session
    if seat not in game.to_act(await sessions.state(row)):
        assert row.seats[seat].bank == 0.0
    assert turn_starts(parse_pace("daily:1:2"), 0.0) == DAY


async def test_a_tied_vote_is_said_and_means_waiting(sessions, clock):
    """1-1 on a timed-out player: the tie is said with its rule (a tie means waiting), the
    turn stays the player's, and the vote is over (issue 24)."""
    rooms = rooms_over(sessions)
    row = await kingdomino(sessions, players=3)
    seat, _ = await mover(sessions, row)
    clock.advance(days=1, hours=1)
    assert "timeout" in [e.kind for e in await rooms.timers.fire_due()]
    voters = [s.user_id for s in row.seats if s.seat != seat]
    out = await rooms.absence.vote(row.id, voters[0], f"timeout:{seat}", "skip")
    assert [n.key for n in out.notices] == ["notice.voted"]  # one of two: not a tie yet
    out = await rooms.absence.vote(row.id, voters[1], f"timeout:{seat}", "computer")
    assert [n.key for n in out.notices] == ["notice.voted", "notice.vote_tie"]
    assert out.notices[1].params == {"seat": seat}
    assert out.session.version == row.version and not out.session.seats[seat].is_bot
    assert await sessions.store.ballots(row.id, f"timeout:{seat}") == {}


async def test_an_end_vote_not_everyone_agreed_to_is_said_and_over(sessions):
    rooms = rooms_over(sessions)
    row = await kingdomino(sessions, pace=None)
    await rooms.absence.vote(row.id, 1, "end", "yes")
    out = await rooms.absence.vote(row.id, 2, "end", "no")
    assert out.session.status == "active"
    assert [n.key for n in out.notices] == ["notice.voted", "notice.end_vote_failed"]
    assert await sessions.store.ballots(row.id, "end") == {}
