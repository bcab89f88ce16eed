"""Timers of games over days, with a fake clock: reminders, timeouts, inactivity warnings
and archiving, restarts and shards. Nothing sleeps; time moves by ``clock.advance``."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

import engines
from db import Database
from db import seats as seat_sql
from db import timers as timer_sql
from session.clocks import DAY
from session.service import Sessions
from session.timers import OWNER_GRACE
from tests.host.days import CH, kingdomino, mover, rooms_over, stopped_before_a_computer_move

#: the session suite runs on SQLite and on PostgreSQL
BACKENDS = "both"


async def test_the_player_to_move_is_reminded_twice_then_times_out(sessions, clock):
    rooms = rooms_over(sessions)
    row = await kingdomino(sessions)
    seat, _ = await mover(sessions, row)
    assert row.seats[seat].bank == DAY and row.seats[seat].running_since
    assert [t["kind"] for t in await sessions.store.pending_timers(row.id)] == [
        "remind", "last_call", "timeout", "idle_warn"]
    clock.advance(hours=11)
    assert await rooms.timers.fire_due() == []
    clock.advance(hours=2)
    events = await rooms.timers.fire_due()
    assert [(e.kind, e.seat) for e in events] == [("remind", seat)]
    assert await rooms.timers.fire_due() == []  # once only
    clock.advance(hours=9)
    assert [e.kind for e in await rooms.timers.fire_due()] == ["last_call"]
    clock.advance(hours=3)
    assert [e.kind for e in await rooms.timers.fire_due()] == ["timeout"]
    assert rooms.absence.timed_out(await sessions.session(row.id), seat)


async def test_moving_stops_the_clock_and_cancels_its_timers(sessions, clock):
    rooms = rooms_over(sessions)
    row = await kingdomino(sessions)
    seat, user = await mover(sessions, row)
    clock.advance(hours=6)
    code = engines.get("kingdomino").legal_actions(await sessions.state(row), seat)[0]
    row = (await sessions.act(row.id, user, code)).session
    if seat not in engines.get("kingdomino").to_act(await sessions.state(row)):
        assert row.seats[seat].running_since is None
        assert row.seats[seat].bank == pytest.approx(DAY - 6 * 3600)
    clock.advance(hours=20)
    still_to_act = seat in engines.get("kingdomino").to_act(await sessions.state(row))
    fired = [e for e in await rooms.timers.fire_due() if e.seat == seat]
    assert still_to_act or fired == []
    assert not [t for t in await sessions.store.pending_timers(row.id)
                if t["seat"] == seat and seat not in
                engines.get("kingdomino").to_act(await sessions.state(row))]


async def test_with_only_computers_left_a_timeout_plays_the_turn_itself(sessions, clock):
    rooms = rooms_over(sessions)
    out = await sessions.new(guild_id=1, channel_id=CH, game_id="kingdomino", user_id=1,
                             name="Ala", players=2, pace="realtime:5")
    out = await sessions.join(CH, None, "Bot")
    row = out.session
    clock.advance(minutes=6)
    events = [e for e in await rooms.timers.fire_due() if e.kind not in ("remind", "last_call")]
    assert [e.kind for e in events] == ["skipped"]
    assert (await sessions.store.actions(row.id))[-1].kind in ("skip", "computer")
    assert events[0].session.version > row.version


async def test_a_silent_game_is_warned_then_archived_unless_someone_moves(sessions, clock):
    rooms = rooms_over(sessions)
    await kingdomino(sessions, pace=None)
    clock.advance(days=31)
    warned = await rooms.timers.fire_due()
    # the player to move was declared absent meanwhile, once; the reminders that came due
    # before it are stale beside the absence's vote, which pings the player (issue 27)
    assert [(e.kind, e.params) for e in warned if e.kind == "idle_warn"] == [
        ("idle_warn", {"days": 30})]
    assert sorted(e.kind for e in warned) == ["absent", "idle_warn"]
    clock.advance(days=8)
    events = await rooms.timers.fire_due()
    assert [e.kind for e in events] == ["archived"]
    assert events[0].session.status == "abandoned"


async def test_a_move_after_the_warning_keeps_the_game(sessions, clock):
    rooms = rooms_over(sessions)
    row = await kingdomino(sessions, pace=None)
    clock.advance(days=31)
    await rooms.timers.fire_due()
    seat, user = await mover(sessions, row)
    await sessions.act(row.id, user, engines.get("kingdomino").legal_actions(
        await sessions.state(row), seat)[0])
    clock.advance(days=8)
    # the next player's absence (its reminder, due with it, is stale beside the vote)
    assert [e.kind for e in await rooms.timers.fire_due()] == ["absent"]
    assert (await sessions.session(row.id)).status == "active"


async def test_a_pending_timer_survives_a_restart_and_fires_once(sessions, db_path, clock):
    row = await kingdomino(sessions, pace="realtime:10")
    await sessions.db.close()
    clock.advance(minutes=6)
    db1 = await Database(db_path).open()
    db2 = await Database(db_path).open()
    first = rooms_over(Sessions(db1, clock=clock, strict_bots=True)).timers
    second = rooms_over(Sessions(db2, clock=clock, strict_bots=True)).timers
    fired = [e.kind for e in await first.fire_due()] + [e.kind for e in await second.fire_due()]
    assert fired == ["remind"]
    await db1.close()
    await db2.close()
    assert row.id


async def test_the_silence_before_a_warning_is_configurable(db_path, clock, monkeypatch):
    from tests.host import toy

    toy.install(monkeypatch)
    async with Database(db_path) as db:
        sessions = Sessions(db, clock=clock, idle_after=timedelta(days=3), strict_bots=True)
        await kingdomino(sessions, pace=None)
        clock.advance(days=4)
        assert [e.params for e in await rooms_over(sessions).timers.fire_due()
                if e.kind == "idle_warn"] == [{"days": 3}]


async def test_a_game_busy_at_start_up_is_recovered_after_the_others(sessions, clock,
                                                                       monkeypatch):
    busy = await stopped_before_a_computer_move(sessions, CH, monkeypatch)
    other = await stopped_before_a_computer_move(sessions, CH + 1, monkeypatch)
    sessions.db.lock_wait = 1.0
    restarted = rooms_over(Sessions(sessions.db, clock=clock, strict_bots=True)).timers
    holding = asyncio.Event()

    async def click_in_progress():
        """A player's click holds the busy game's lock until the other game is recovered."""
        async with sessions.locked(busy.id):
            holding.set()
            while (await sessions.session(other.id)).version == other.version:
                await asyncio.sleep(0.01)

    holder = asyncio.create_task(click_in_progress())
    await holding.wait()
    events = await restarted.recover()
    await holder
    assert sorted(e.session.id for e in events if e.kind == "computer") == [busy.id, other.id]
    for row in (busy, other):
        assert (await sessions.session(row.id)).version > row.version  # the computer moved


async def test_computer_seats_move_again_after_a_restart(sessions, clock, monkeypatch):
    row = await stopped_before_a_computer_move(sessions, CH, monkeypatch)
    game = engines.get("kingdomino")
    restarted = rooms_over(Sessions(sessions.db, clock=clock, strict_bots=True)).timers
    events = await restarted.recover()
    assert [e.kind for e in events] == ["computer"]
    assert events[0].session.version > row.version
    state = await restarted.sessions.state(events[0].session)
    assert not events[0].session.seats[game.to_act(state)[0]].is_bot


async def test_a_forgotten_lobby_is_warned_then_closed(sessions, clock):
    rooms = rooms_over(sessions)
    await sessions.new(guild_id=1, channel_id=CH, game_id="kingdomino", user_id=1, name="Ala")
    clock.advance(days=31)
    assert [e.kind for e in await rooms.timers.fire_due()] == ["idle_warn"]
    clock.advance(days=8)
    events = await rooms.timers.fire_due()
    assert [(e.kind, e.session.status) for e in events] == [("archived", "abandoned")]
    out = await sessions.new(guild_id=1, channel_id=CH, game_id="kingdomino", user_id=2, name="Bo")
    assert out.session.status == "lobby"  # the channel is free again


async def test_a_timeout_vote_that_could_not_be_posted_is_tried_again(sessions, clock):
    import asyncio

    rooms = rooms_over(sessions)
    await kingdomino(sessions, players=3, pace="realtime:1")
    clock.advance(minutes=2)
    posted: list[str] = []
    failures = [True]

    async def publish(event):
        if event.kind == "timeout" and failures:
            failures.pop()
            raise RuntimeError("Discord is down")
        posted.append(event.kind)

    stop = asyncio.Event()
    task = asyncio.create_task(rooms.timers.run_dispatcher(publish, poll=0.01, stop=stop))
    for _ in range(200):
        await asyncio.sleep(0.01)
        if "timeout" in posted:
            break
    stop.set()
    await task
    assert posted.count("timeout") == 1 and not failures
    # a restart re-announces a timeout that already fired (its vote may never have shown)
    again = await rooms_over(Sessions(sessions.db, clock=clock, strict_bots=True)).timers.recover()
    assert [e.kind for e in again] == ["timeout"]


async def test_reminders_of_a_simultaneous_phase_come_as_one_message(sessions, clock):
    rooms = rooms_over(sessions)
    out = await sessions.new(guild_id=1, channel_id=CH, game_id="toy", user_id=1, name="A",
                             players=3, pace="realtime:10")
    await sessions.join(CH, 2, "B")
    await sessions.join(CH, 3, "C")
    clock.advance(minutes=6)
    events = await rooms.timers.fire_due()
    assert [(e.kind, [seat for seat, _ in e.params["seats"]]) for e in events] == [
        ("remind", [0, 1, 2])]
    assert out.session.id == events[0].session.id


async def test_another_shards_timers_wait_for_its_process_unless_it_seems_down(sessions, clock):
    """Sharding: each process fires the timers of its own guilds; a timer left that long
    overdue (its process is down) is fired by any process, still exactly once."""
    mine = rooms_over(sessions, owns=lambda guild_id: guild_id != 1).timers
    theirs = rooms_over(sessions, owns=lambda guild_id: guild_id == 1).timers
    await sessions.new(guild_id=1, channel_id=CH, game_id="toy", user_id=1, name="A",
                       players=2, pace="realtime:10")
    await sessions.join(CH, 2, "B")
    clock.advance(minutes=5, seconds=1)  # the halfway reminders are due
    assert await mine.fire_due() == [] and mine.left_to_owner
    assert await mine.recover() == []  # start-up recovery too is the owner's
    clock.advance(seconds=OWNER_GRACE.total_seconds() + 1)
    taken_over = await mine.fire_due()
    assert [e.kind for e in taken_over] == ["remind"] and not mine.left_to_owner
    assert await theirs.fire_due() == []  # claimed: never twice


async def test_a_forward_jump_past_the_deadline_posts_the_vote_and_no_stale_reminder(
        sessions, clock):
    """The clock jumps past a turn's deadline with both reminders pending: the vote that
    replaced them is posted, the reminders are not (issue 27, item 7); none comes later."""
    rooms = rooms_over(sessions)
    row = await kingdomino(sessions, players=3, pace="daily:1")
    seat, _ = await mover(sessions, row)
    assert [t["kind"] for t in await sessions.store.pending_timers(row.id)] == [
        "remind", "last_call", "timeout", "idle_warn"]
    clock.advance(days=1, hours=1)
    assert [(e.kind, e.seat) for e in await rooms.timers.fire_due()] == [("timeout", seat)]
    assert not [t for t in await sessions.store.pending_timers(row.id) if t["seat"] == seat]
    clock.advance(hours=1)
    assert await rooms.timers.fire_due() == []


async def test_a_reminder_due_after_its_deadline_is_not_posted(sessions, clock):
    """A reminder that comes due once the clock has run out (quiet hours pushed it past the
    deadline, or the timeout fired in an earlier pass) is stale: the vote already asks."""
    rooms = rooms_over(sessions)
    row = await kingdomino(sessions, players=3, pace="daily:1")
    seat, _ = await mover(sessions, row)
    # a reminder held back by quiet hours until after the deadline
    await sessions.store.run([timer_sql.seat_timer(
        row.id, seat, "last_call", (clock() + timedelta(days=1, hours=2)).isoformat())])
    clock.advance(days=1, minutes=1)
    kinds = [e.kind for e in await rooms.timers.fire_due()]
    assert kinds == ["timeout"]
    clock.advance(hours=2)
    assert await rooms.timers.fire_due() == []


async def test_an_untimed_reminder_beside_the_absence_vote_is_not_posted(sessions, clock):
    rooms = rooms_over(sessions)
    row = await kingdomino(sessions, pace=None, players=3)
    seat, _ = await mover(sessions, row)
    clock.advance(days=4)  # reminders at 24 h and 48 h, the absence at 72 h
    assert [(e.kind, e.seat) for e in await rooms.timers.fire_due()] == [("absent", seat)]


@pytest.mark.parametrize("pace, bank", [("realtime:5", 300.0), ("daily:1", DAY)])
async def test_a_backward_jump_during_a_turn_does_not_grow_the_bank(sessions, clock, pace,
                                                                    bank):
    """The clock goes back a day while a player's clock runs: the time they spent is never
    negative, so their bank is what they had, not a day more (issue 27, item 7)."""
    row = await kingdomino(sessions, pace=pace)
    seat, user = await mover(sessions, row)
    assert row.seats[seat].bank == bank
    clock.advance(days=-1)
    rooms = rooms_over(sessions)
    assert rooms.absence.timed_out(row, seat) is False
    row = (await sessions.act(row.id, user, engines.get("kingdomino").legal_actions(
        await sessions.state(row), seat)[0])).session
    assert row.seats[seat].running_since is None  # kingdomino: the turn passed on
    assert row.seats[seat].bank == bank


async def test_a_bank_never_exceeds_what_the_pace_allows(sessions, clock):
    """A bank above the pace's most (a row written by an older version, a clock that went
    back before this fix) is cut down to it when the turn ends."""
    row = await kingdomino(sessions, pace="daily:1")  # at most 3 days banked
    seat, user = await mover(sessions, row)
    await sessions.store.run([seat_sql.start_clock(row.id, seat, 10 * DAY,
                                                   clock().isoformat())])
    clock.advance(hours=1)
    row = (await sessions.act(row.id, user, engines.get("kingdomino").legal_actions(
        await sessions.state(row), seat)[0])).session
    assert row.seats[seat].bank == 3 * DAY
