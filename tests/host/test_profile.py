"""A player's settings, open games and a game's public history."""

from __future__ import annotations

import pytest

from session.errors import SessionError
from session.profile import parse_quiet
from tests.host.days import CH, kingdomino, mover, rooms_over

#: the session suite runs on SQLite and on PostgreSQL
BACKENDS = "both"


def test_quiet_hours_parse():
    assert parse_quiet("22-7") == (22, 7) and parse_quiet("off") == (None, None)
    for bad in ("7", "25-3", "3-3", "a-b"):
        with pytest.raises(SessionError):
            parse_quiet(bad)


async def test_pings_can_be_turned_off_and_settings_are_checked(sessions, clock):
    rooms = rooms_over(sessions)
    with pytest.raises(SessionError) as err:
        await rooms.profile.settings(1, tz="Mars/Olympus")
    assert err.value.key == "error.bad_timezone"
    saved = await rooms.profile.settings(1, tz="Europe/Kyiv", quiet="23-8", pings=False)
    assert saved == {"tz": "Europe/Kyiv", "quiet_start": 23, "quiet_end": 8, "pings": False}
    assert await rooms.profile.settings(1) == saved
    row = await kingdomino(sessions)
    seat, user = await mover(sessions, row)
    clock.advance(hours=23)
    kinds = [e.kind for e in await rooms.timers.fire_due() if e.seat == seat]
    assert ("remind" in kinds) == (user != 1)


async def test_mine_lists_my_games_across_channels(sessions):
    rooms = rooms_over(sessions)
    await kingdomino(sessions, pace=None)
    await sessions.new(guild_id=2, channel_id=CH + 1, game_id="kingdomino", user_id=1, name="Ala")
    mine = await rooms.profile.mine(1)
    assert [m["session"].channel_id for m in mine] == [CH, CH + 1]
    assert sum(m["my_turn"] for m in mine) <= 1
    assert await rooms.profile.mine(12345) == []


async def test_public_log_never_shows_secret_picks(sessions):
    rooms = rooms_over(sessions)
    out = await sessions.new(guild_id=1, channel_id=CH, game_id="toy", user_id=1, name="A",
                             players=2)
    out = await sessions.join(CH, 2, "B")
    await sessions.act(out.session.id, 1, "pick 3")
    row = await sessions.session(out.session.id)
    lines = await rooms.profile.public_log(row)
    assert [n.key for n in lines] == ["toy.event.picked"]
    assert "3" not in repr([n.params for n in lines])
