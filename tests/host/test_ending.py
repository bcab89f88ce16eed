"""Ending early by vote (the abandon itself: tests/host/test_sessions.py and test_standings.py)."""

from __future__ import annotations

from tests.host.days import CH, kingdomino, rooms_over

#: the session suite runs on SQLite and on PostgreSQL
BACKENDS = "both"


async def test_everyone_agrees_to_end_early_and_it_is_recorded_as_abandoned(sessions):
    rooms = rooms_over(sessions)
    row = await kingdomino(sessions, pace=None)
    out = await rooms.absence.vote(row.id, 1, "end", "yes")
    assert out.session.status == "active"
    out = await rooms.absence.vote(row.id, 2, "end", "yes")
    assert out.session.status == "abandoned" and out.session.result["totals"] is not None
    assert [h.status for h in await sessions.history(CH)] == ["abandoned"]
