"""Every round trip a move costs counts (on PostgreSQL each is ~0.1 ms of CPU between the bot
and the server): a turn start reads its player's settings and the server's defaults in ONE
statement, and a new board reads each starting player's settings once (whether they take
pings and their quiet hours together). What is read is the same as before: the same timers,
the same pings, the same quiet-hours holds."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

import engines
from session import nudges
from session.clocks import Quiet
from session.nudges import ServerDefaults
from session.service import Sessions
from tests.host.fakes import FakeClient

BACKENDS = "both"  # SQLite and PostgreSQL (tests/host/conftest.py)
CH = 70
GUILD = 1


async def start_kingdomino(sessions: Sessions, pace: str | None):
    await sessions.new(guild_id=GUILD, channel_id=CH, game_id="kingdomino", user_id=1,
                       name="Ala", players=2, pace=pace)
    return (await sessions.join(CH, 2, "Bo")).session


def waiting_seat(row) -> int:
    """The seat not to act (its turn has not started), for a turn start to be made."""
    acting = engines.get(row.game_id).to_act(
        engines.get(row.game_id).setup(row.players, row.options, row.seed))
    return next(s.seat for s in row.seats if s.seat not in acting)


def timers_of(statements) -> list[tuple[str, datetime]]:
    """The seat timers (kind, when) among a turn start's statements."""
    return [(params[2], datetime.fromisoformat(params[3])) for sql, params in statements
            if sql.startswith("INSERT INTO timers (session_id, seat, kind, due_at)")]


@pytest.mark.parametrize("pace", [None, "daily:1"])
async def test_a_turn_start_reads_the_settings_once_and_uses_them(sessions, clock, pace):
    """Bo is in quiet hours (11-14 UTC, the clock at 12:00) and the server reminds every 5 h:
    one read gives the held ping (14:00), the reminders of an untimed game every 5 h, and a
    timed game's reminder schedule around the quiet hours."""
    row = await start_kingdomino(sessions, pace)
    seat = waiting_seat(row)
    await sessions.store.save_settings(row.seats[seat].user_id, "UTC", 11, 14, True)
    await nudges.save_server_defaults(sessions.store, GUILD, remind_hours=5.0)
    before = sessions.db.statements
    out = await sessions.turns.statements(row, set(), [seat], over=False)
    assert sessions.db.statements - before == 1
    timers = timers_of(out)
    now = clock()
    assert ("ping", now.replace(hour=14)) in timers
    if pace is None:
        reminds = [when for kind, when in timers if kind == "remind"]
        assert reminds[:2] == [now + timedelta(hours=5), now + timedelta(hours=10)]
        assert ("absent", now + timedelta(hours=72)) in timers
    else:
        assert any(kind == "timeout" for kind, _ in timers)
        # no reminder falls in the quiet hours the one read brought
        assert all(not 11 <= when.hour < 14 for kind, when in timers if kind != "timeout")


@pytest.mark.parametrize("user_row, guild_row", [(False, False), (True, False), (False, True),
                                                 (True, True)])
async def test_one_read_gives_the_quiet_hours_and_the_defaults_with_or_without_rows(
        sessions, user_row, guild_row):
    """Neither row, either, or both: each side is what its own read gave (no row: the
    defaults), on either backend (a LEFT JOIN from one constant row)."""
    if user_row:
        await sessions.store.save_settings(7, "Europe/Warsaw", 22, 7, False)
    if guild_row:
        await nudges.save_server_defaults(sessions.store, GUILD, pace="daily:2",
                                          remind_hours=6.0, absent_hours=30.0, lang="pl")
    got = await nudges.turn_settings(sessions.store, 7, GUILD)
    assert got.quiet == (Quiet("Europe/Warsaw", 22, 7) if user_row else Quiet())
    assert got.defaults == (ServerDefaults("daily:2", 6.0, 30.0, "pl") if guild_row
                            else ServerDefaults())
    # a seat with nobody, a game with no server: still one row of defaults
    nobody = await nudges.turn_settings(sessions.store, None, None)
    assert (nobody.quiet, nobody.defaults) == (Quiet(), ServerDefaults())


async def test_a_new_board_reads_each_starting_players_settings_once(sessions, clock):
    """Ala takes pings, Bo turned them off, Cy is in quiet hours: one read each decides."""
    client = FakeClient(sessions)
    await sessions.new(guild_id=GUILD, channel_id=CH, game_id="kingdomino", user_id=1,
                       name="Ala", players=3, pace=None)
    await sessions.join(CH, 2, "Bo")
    row = (await sessions.join(CH, 3, "Cy")).session
    await sessions.store.save_settings(2, "UTC", None, None, False)
    await sessions.store.save_settings(3, "UTC", 11, 14, True)
    seats = [s.seat for s in row.seats]
    before = sessions.db.statements
    pings = await client.host.hands.board_pings(row, seats)
    assert sessions.db.statements - before == len(seats)  # kingdomino: no DM reads
    assert [u.id for u in pings.users] == [1]
    clock.advance(hours=2)  # 14:00: Cy's quiet hours are over
    pings = await client.host.hands.board_pings(row, seats)
    assert [u.id for u in pings.users] == [1, 3]


async def test_a_hand_reads_its_players_settings_once(sessions, monkeypatch):
    """A hand DM decides quiet hours and reminders-off from one read of the settings."""
    client = FakeClient(sessions)
    await sessions.new(guild_id=GUILD, channel_id=CH, game_id="toy", user_id=1, name="Ala",
                       players=2)
    row = (await sessions.join(CH, 2, "Bo")).session
    reads: list[int] = []
    read = sessions.store.settings

    async def counted(user_id: int):
        reads.append(user_id)
        return await read(user_id)

    monkeypatch.setattr(sessions.store, "settings", counted)
    await client.host.hands.send_hands(row, [0, 1], client.channel(CH), [0, 1])
    assert sorted(reads) == [1, 2]
