"""Plain values the session's rooms hand each other and the host: what a change produced
(:class:`Outcome`), a public line (:class:`Notice`), what a timer did (:class:`TimerEvent`).

The bottom of ``session/``: it imports nothing of the rooms, so any of them can use it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from db.store import SessionRow


@dataclass
class Notice:
    """One public line for the channel: a translation key and its parameters."""

    key: str
    params: dict[str, Any] = field(default_factory=dict)


@dataclass
class Outcome:
    """What changed, for the host to show: the session after the change and public notices."""

    session: SessionRow
    notices: list[Notice] = field(default_factory=list)
    board_changed: bool = False
    #: seats whose private view changed (send them their hand)
    private_seats: list[int] = field(default_factory=list)
    #: a new board message is due (someone new must act, something was revealed, the end);
    #: otherwise the current turn message is edited in place
    new_turn: bool = True
    #: the seats that must act now (empty once the game is over) and the spectator view, as
    #: the change left them: filled by the session that produced a move (``Sessions.settle``)
    #: so whoever publishes it need not read them again; ``None`` where nothing was produced
    #: (a lobby, a ballot that decided nothing)
    to_act: list[int] | None = None
    public: dict[str, Any] | None = None
    #: the seats that had to act before the first move of this change (set by that move)
    acting_before: set[int] | None = None
    #: the seats whose turn to act started with this change (each is told once: by the
    #: board's mention or by a new DM); ``None`` where unknown (a repair, a give-back): then
    #: everyone to act counts as started
    started: list[int] | None = None

    @property
    def finished(self) -> bool:
        return self.session.status in ("finished", "abandoned")


@dataclass
class TimerEvent:
    """Something a timer did, for the host to show: ``kind`` plus the session after it."""

    kind: str  # ping | remind | last_call | timeout | absent | skipped | idle_warn | archived | computer
    session: SessionRow
    seat: int | None = None
    outcome: Outcome | None = None
    params: dict[str, Any] = field(default_factory=dict)
    timer_id: int | None = None  # the timer that fired (None: found at start-up)


def timeout_topic(seat: int) -> str:
    """The vote on a timed-out (or absent) seat: skip its turn, a computer, or wait."""
    return f"timeout:{seat}"


def says_the_move(events: list[dict[str, Any]], seat: int) -> bool:
    """The engine's public events already tell what the seat did ("Ala picks domino 24")."""
    return any(e.get("seat") == seat and "private_to" not in e for e in events)


def event_notices(events: list[dict[str, Any]]) -> list[Notice]:
    """The engine's public events as notices (events for one seat's eyes left out)."""
    return [Notice(e["key"], {k: v for k, v in e.items() if k not in ("key", "reveal")})
            for e in events if "private_to" not in e]
