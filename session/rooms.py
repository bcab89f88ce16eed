"""The session's rooms wired together in one place: what the cogs and bot.py reach as
``host.rooms.<room>`` (``Sessions`` for the game itself, then one room per concern)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from session.absence import Absence
from session.ending import Ending
from session.profile import Profile
from session.service import Sessions
from session.timers import Timers
from session.undo import Undo


@dataclass(frozen=True)
class Rooms:
    sessions: Sessions
    undo: Undo
    absence: Absence
    ending: Ending
    timers: Timers
    profile: Profile


def compose(sessions: Sessions, owns: Callable[[int | None], bool]) -> Rooms:
    """Every room over one :class:`Sessions`. ``owns``: whether this process serves a
    guild's timers and start-up recovery (see bot.py; one process: always)."""
    ending = Ending(sessions)
    absence = Absence(sessions, ending)
    return Rooms(sessions=sessions, undo=Undo(sessions), absence=absence, ending=ending,
                 timers=Timers(sessions, absence, owns), profile=Profile(sessions))
