"""Games over days, with a fake clock: paces, reminders, timeouts, votes, substitutes, undo,
archiving, ratings. Nothing sleeps; time moves by ``clock.advance``."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

import engines
from db import Database
from session.async_play import OWNER_GRACE, AsyncPlay, parse_quiet
from session.clocks import DAY, Pace, Quiet, parse_pace, reminder_times, turn_starts
from session.errors import SessionError
from session.service import Sessions

#: the session suite runs on SQLite and on PostgreSQL
BACKENDS = "both"

CH = 40


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


# --- pure clock rules ----------------------------------------------------------------------
def test_paces_parse_and_bad_ones_are_refused():
    assert parse_pace(None) == Pace()
    assert parse_pace("realtime").per_move == 300 and parse_pace("realtime:10").per_move == 600
    daily = parse_pace("daily:2")
    assert (daily.increment, daily.cap) == (2 * DAY, 6 * DAY)
    for bad in ("weekly", "daily:0", "realtime:x", "daily:3:1", "none:5"):
        with pytest.raises(SessionError) as err:
            parse_pace(bad)
        assert err.value.key == "error.bad_pace"


def test_time_bank_tops_up_each_turn_and_is_capped():
    pace = parse_pace("daily:1:2")
    bank = turn_starts(pace, None)
    assert bank == DAY
    assert turn_starts(pace, bank - 0.5 * DAY) == 1.5 * DAY  # half a day used
    assert turn_starts(pace, 1.5 * DAY) == 2 * DAY  # capped at two days
    assert turn_starts(parse_pace("realtime:5"), 12345.0) == 300  # a fresh allowance each move


def test_reminders_wait_for_quiet_hours_to_end_in_the_players_zone():
    start = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)
    end = start + timedelta(days=1)
    assert reminder_times(start, end, Quiet()) == [
        ("remind", start + timedelta(hours=12)), ("last_call", start + timedelta(hours=21.6))]
    warsaw = Quiet("Europe/Warsaw", 22, 7)  # UTC+1 in November
    (first, when), (second, _) = reminder_times(start, end, warsaw)
    # half time is 00:00 UTC = 01:00 in Warsaw, quiet: the ping waits until 07:00 Warsaw
    assert first == "remind" and when == datetime(2026, 11, 23, 6, 0, tzinfo=UTC)
    assert second == "last_call"
    # a ping pushed past the deadline is still sent when the quiet hours end, never dropped
    # (both fall in the same night: one ping, at 08:00 Warsaw)
    short_end = start + timedelta(hours=14)  # ends 03:00 Warsaw
    night = Quiet("Europe/Warsaw", 20, 8)
    assert reminder_times(start + timedelta(hours=7), short_end, night) == [
        ("remind", datetime(2026, 11, 23, 7, 0, tzinfo=UTC))]


def test_quiet_hours_parse():
    assert parse_quiet("22-7") == (22, 7) and parse_quiet("off") == (None, None)
    for bad in ("7", "25-3", "3-3", "a-b"):
        with pytest.raises(SessionError):
            parse_quiet(bad)


# --- sessions with clocks --------------------------------------------------------------
async def test_the_player_to_move_is_reminded_twice_then_times_out(sessions, clock):
    play = AsyncPlay(sessions)
    row = await kingdomino(sessions)
    seat, _ = await mover(sessions, row)
    assert row.seats[seat].bank == DAY and row.seats[seat].running_since
    assert [t["kind"] for t in await sessions.store.pending_timers(row.id)] == [
        "remind", "last_call", "timeout", "idle_warn"]
    clock.advance(hours=11)
    assert await play.fire_due() == []
    clock.advance(hours=2)
    events = await play.fire_due()
    assert [(e.kind, e.seat) for e in events] == [("remind", seat)]
    assert await play.fire_due() == []  # once only
    clock.advance(hours=9)
    assert [e.kind for e in await play.fire_due()] == ["last_call"]
    clock.advance(hours=3)
    assert [e.kind for e in await play.fire_due()] == ["timeout"]
    assert play.timed_out(await sessions.session(row.id), seat)


async def test_moving_stops_the_clock_and_cancels_its_timers(sessions, clock):
    play = AsyncPlay(sessions)
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
    fired = [e for e in await play.fire_due() if e.seat == seat]
    assert still_to_act or fired == []
    assert not [t for t in await sessions.store.pending_timers(row.id)
                if t["seat"] == seat and seat not in
                engines.get("kingdomino").to_act(await sessions.state(row))]


async def test_timeout_vote_skips_the_turn_with_a_logged_computer_move(sessions, clock):
    play = AsyncPlay(sessions)
    row = await kingdomino(sessions, players=3)
    seat, late_user = await mover(sessions, row)
    clock.advance(days=1, hours=1)
    assert [e.kind for e in await play.fire_due() if e.kind == "timeout"] == ["timeout"]
    voters = [s.user_id for s in row.seats if s.seat != seat]
    with pytest.raises(SessionError) as err:
        await play.vote(row.id, late_user, f"timeout:{seat}", "skip")
    assert err.value.key == "error.not_a_voter"
    out = await play.vote(row.id, voters[0], f"timeout:{seat}", "skip")
    assert out.session.version == row.version  # one of two: no majority yet
    out = await play.vote(row.id, voters[1], f"timeout:{seat}", "skip")
    assert out.session.version > row.version
    log = await sessions.store.actions(row.id)
    assert log[0].kind == "skip" and log[0].user_id is None and log[0].seat == seat
    # it replays like any other move, and the next player's clock runs
    state = await sessions.state(out.session)
    assert await sessions.replay(out.session) == state
    nxt = engines.get("kingdomino").to_act(state)[0]
    assert out.session.seats[nxt].running_since is not None


async def test_replaced_by_computer_then_a_substitute_takes_the_seat(sessions, clock):
    play = AsyncPlay(sessions)
    row = await kingdomino(sessions, players=3)
    seat, late_user = await mover(sessions, row)
    with pytest.raises(SessionError) as err:
        await play.substitute(CH, 99, "Sub", seat)
    assert err.value.key == "error.seat_not_free"
    clock.advance(days=2)
    await play.fire_due()
    voters = [s.user_id for s in row.seats if s.seat != seat]
    for user in voters:
        out = await play.vote(row.id, user, f"timeout:{seat}", "computer")
    row = out.session
    assert row.seats[seat].user_id is None and "🤖" in row.seats[seat].name
    assert row.version > 0  # the computer already played that seat's move
    out = await play.substitute(CH, 99, "Sub", seat)
    assert out.session.seats[seat].user_id == 99 and out.session.seats[seat].name == "Sub"
    history = await sessions.store.seat_history(row.id)
    assert [(h["seat"], h["user_id"]) for h in history] == [(seat, None), (seat, 99)]
    with pytest.raises(SessionError):
        await play.substitute(CH, 99, "Sub", seat)  # already seated


async def test_with_only_computers_left_a_timeout_plays_the_turn_itself(sessions, clock):
    play = AsyncPlay(sessions)
    out = await sessions.new(guild_id=1, channel_id=CH, game_id="kingdomino", user_id=1,
                             name="Ala", players=2, pace="realtime:5")
    out = await sessions.join(CH, None, "Bot")
    row = out.session
    clock.advance(minutes=6)
    events = [e for e in await play.fire_due() if e.kind not in ("remind", "last_call")]
    assert [e.kind for e in events] == ["skipped"]
    assert (await sessions.store.actions(row.id))[-1].kind in ("skip", "computer")
    assert events[0].session.version > row.version


async def test_undo_own_last_move_until_someone_else_acts_never_across_a_reveal(sessions):
    play = AsyncPlay(sessions)
    row = await kingdomino(sessions, pace=None)
    game = engines.get("kingdomino")
    # opening picks reveal the hidden king order: they can never be taken back
    seat, user = await mover(sessions, row)
    row = (await sessions.act(row.id, user, game.legal_actions(await sessions.state(row), seat)[0])).session
    with pytest.raises(SessionError) as err:
        await play.undo(row.id, user)
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
        await play.undo(row.id, other)
    assert err.value.key == "error.undo_nothing"
    out = await play.undo(row.id, user)
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


async def test_everyone_agrees_to_end_early_and_it_is_recorded_as_abandoned(sessions):
    play = AsyncPlay(sessions)
    row = await kingdomino(sessions, pace=None)
    out = await play.vote(row.id, 1, "end", "yes")
    assert out.session.status == "active"
    out = await play.vote(row.id, 2, "end", "yes")
    assert out.session.status == "abandoned" and out.session.result["totals"] is not None
    assert [h.status for h in await sessions.history(CH)] == ["abandoned"]


async def test_a_silent_game_is_warned_then_archived_unless_someone_moves(sessions, clock):
    play = AsyncPlay(sessions)
    await kingdomino(sessions, pace=None)
    clock.advance(days=31)
    warned = await play.fire_due()
    # the player to move was reminded and declared absent meanwhile (issue 12), once each
    assert [(e.kind, e.params) for e in warned if e.kind == "idle_warn"] == [
        ("idle_warn", {"days": 30})]
    assert sorted(e.kind for e in warned) == ["absent", "idle_warn", "remind"]
    assert [s for s, _ in next(e for e in warned if e.kind == "remind").params["seats"]] == [0]
    clock.advance(days=8)
    events = await play.fire_due()
    assert [e.kind for e in events] == ["archived"]
    assert events[0].session.status == "abandoned"


async def test_a_move_after_the_warning_keeps_the_game(sessions, clock):
    play = AsyncPlay(sessions)
    row = await kingdomino(sessions, pace=None)
    clock.advance(days=31)
    await play.fire_due()
    seat, user = await mover(sessions, row)
    await sessions.act(row.id, user, engines.get("kingdomino").legal_actions(
        await sessions.state(row), seat)[0])
    clock.advance(days=8)
    assert [e.kind for e in await play.fire_due()] == ["remind", "absent"]  # the next player's
    assert (await sessions.session(row.id)).status == "active"


async def test_a_pending_timer_survives_a_restart_and_fires_once(sessions, db_path, clock):
    row = await kingdomino(sessions, pace="realtime:10")
    await sessions.db.close()
    clock.advance(minutes=6)
    db1 = await Database(db_path).open()
    db2 = await Database(db_path).open()
    first, second = AsyncPlay(Sessions(db1, clock=clock)), AsyncPlay(Sessions(db2, clock=clock))
    fired = [e.kind for e in await first.fire_due()] + [e.kind for e in await second.fire_due()]
    assert fired == ["remind"]
    await db1.close()
    await db2.close()
    assert row.id


async def test_pings_can_be_turned_off_and_settings_are_checked(sessions, clock):
    play = AsyncPlay(sessions)
    with pytest.raises(SessionError) as err:
        await play.settings(1, tz="Mars/Olympus")
    assert err.value.key == "error.bad_timezone"
    saved = await play.settings(1, tz="Europe/Kyiv", quiet="23-8", pings=False)
    assert saved == {"tz": "Europe/Kyiv", "quiet_start": 23, "quiet_end": 8, "pings": False}
    assert await play.settings(1) == saved
    row = await kingdomino(sessions)
    seat, user = await mover(sessions, row)
    clock.advance(hours=23)
    kinds = [e.kind for e in await play.fire_due() if e.seat == seat]
    assert ("remind" in kinds) == (user != 1)


async def test_mine_lists_my_games_across_channels(sessions):
    play = AsyncPlay(sessions)
    await kingdomino(sessions, pace=None)
    await sessions.new(guild_id=2, channel_id=CH + 1, game_id="kingdomino", user_id=1, name="Ala")
    mine = await play.mine(1)
    assert [m["session"].channel_id for m in mine] == [CH, CH + 1]
    assert sum(m["my_turn"] for m in mine) <= 1
    assert await play.mine(12345) == []


async def test_public_log_never_shows_secret_picks(sessions):
    play = AsyncPlay(sessions)
    out = await sessions.new(guild_id=1, channel_id=CH, game_id="toy", user_id=1, name="A",
                             players=2)
    out = await sessions.join(CH, 2, "B")
    await sessions.act(out.session.id, 1, "pick 3")
    row = await sessions.session(out.session.id)
    lines = await play.public_log(row)
    assert [n.key for n in lines] == ["toy.event.picked"]
    assert "3" not in repr([n.params for n in lines])


async def test_the_silence_before_a_warning_is_configurable(db_path, clock, monkeypatch):
    from tests.host import toy

    toy.install(monkeypatch)
    async with Database(db_path) as db:
        sessions = Sessions(db, clock=clock, idle_after=timedelta(days=3))
        await kingdomino(sessions, pace=None)
        clock.advance(days=4)
        assert [e.params for e in await AsyncPlay(sessions).fire_due()
                if e.kind == "idle_warn"] == [{"days": 3}]


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


async def test_a_game_busy_at_start_up_is_recovered_after_the_others(sessions, clock,
                                                                       monkeypatch):
    busy = await stopped_before_a_computer_move(sessions, CH, monkeypatch)
    other = await stopped_before_a_computer_move(sessions, CH + 1, monkeypatch)
    sessions.db.lock_wait = 1.0
    restarted = AsyncPlay(Sessions(sessions.db, clock=clock))
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
    restarted = AsyncPlay(Sessions(sessions.db, clock=clock))
    events = await restarted.recover()
    assert [e.kind for e in events] == ["computer"]
    assert events[0].session.version > row.version
    state = await restarted.sessions.state(events[0].session)
    assert not events[0].session.seats[game.to_act(state)[0]].is_bot


async def test_an_overrun_is_not_carried_into_the_next_turn(sessions, clock):
    play = AsyncPlay(sessions)
    row = await kingdomino(sessions, players=3)
    seat, late = await mover(sessions, row)
    clock.advance(days=3)
    await play.fire_due()
    for user in [s.user_id for s in row.seats if s.seat != seat]:
        await play.vote(row.id, user, f"timeout:{seat}", "wait")
    game = engines.get("kingdomino")
    state = await sessions.state(row)
    row = (await sessions.act(row.id, late, game.legal_actions(state, seat)[0])).session
    if seat not in game.to_act(await sessions.state(row)):
        assert row.seats[seat].bank == 0.0
    assert turn_starts(parse_pace("daily:1:2"), 0.0) == DAY


async def test_a_forgotten_lobby_is_warned_then_closed(sessions, clock):
    play = AsyncPlay(sessions)
    await sessions.new(guild_id=1, channel_id=CH, game_id="kingdomino", user_id=1, name="Ala")
    clock.advance(days=31)
    assert [e.kind for e in await play.fire_due()] == ["idle_warn"]
    clock.advance(days=8)
    events = await play.fire_due()
    assert [(e.kind, e.session.status) for e in events] == [("archived", "abandoned")]
    out = await sessions.new(guild_id=1, channel_id=CH, game_id="kingdomino", user_id=2, name="Bo")
    assert out.session.status == "lobby"  # the channel is free again


async def test_a_timeout_vote_that_could_not_be_posted_is_tried_again(sessions, clock):
    import asyncio

    play = AsyncPlay(sessions)
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
    task = asyncio.create_task(play.run_dispatcher(publish, poll=0.01, stop=stop))
    for _ in range(200):
        await asyncio.sleep(0.01)
        if "timeout" in posted:
            break
    stop.set()
    await task
    assert posted.count("timeout") == 1 and not failures
    # a restart re-announces a timeout that already fired (its vote may never have shown)
    again = await AsyncPlay(Sessions(sessions.db, clock=clock)).recover()
    assert [e.kind for e in again] == ["timeout"]


async def test_reminders_of_a_simultaneous_phase_come_as_one_message(sessions, clock):
    play = AsyncPlay(sessions)
    out = await sessions.new(guild_id=1, channel_id=CH, game_id="toy", user_id=1, name="A",
                             players=3, pace="realtime:10")
    await sessions.join(CH, 2, "B")
    await sessions.join(CH, 3, "C")
    clock.advance(minutes=6)
    events = await play.fire_due()
    assert [(e.kind, [seat for seat, _ in e.params["seats"]]) for e in events] == [
        ("remind", [0, 1, 2])]
    assert out.session.id == events[0].session.id


async def test_undo_puts_every_clock_back_and_takes_back_the_next_players_top_up(sessions,
                                                                                 clock):
    play = AsyncPlay(sessions)
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
    out = await play.undo(row.id, user)
    for was, now in zip(before.seats, out.session.seats, strict=True):
        assert (now.bank, now.running_since) == (was.bank, was.running_since)
    timers = await sessions.store.pending_timers(row.id)
    assert {t["seat"] for t in timers if t["kind"] == "timeout"} == {seat}


async def test_another_shards_timers_wait_for_its_process_unless_it_seems_down(sessions, clock):
    """Sharding: each process fires the timers of its own guilds; a timer left that long
    overdue (its process is down) is fired by any process, still exactly once."""
    mine, theirs = AsyncPlay(sessions), AsyncPlay(sessions)
    mine.owns = lambda guild_id: guild_id != 1
    theirs.owns = lambda guild_id: guild_id == 1
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
