"""Statements on the durable timers table (see migrations), each returned as a ``(sql, params)``
:data:`~db.store.Statement` for the caller to run inside the transaction it belongs to (a
move's, an undo's, a claim's). Reads of timers are :class:`~db.store.Store` methods."""

from __future__ import annotations

from db.store import Statement


def idle_warning(session_id: int, due_at: str) -> Statement:
    """A silent game (or a lobby nobody starts) is warned at ``due_at``."""
    return ("INSERT INTO timers (session_id, kind, due_at) VALUES (?, 'idle_warn', ?)",
            (session_id, due_at))


def archive(session_id: int, due_at: str) -> Statement:
    """A warned game is archived at ``due_at`` unless someone acts."""
    return ("INSERT INTO timers (session_id, kind, due_at) VALUES (?, 'archive', ?)",
            (session_id, due_at))


def seat_timer(session_id: int, seat: int, kind: str, due_at: str) -> Statement:
    """A seat's timer: a ping, a reminder, its absence or its timeout."""
    return ("INSERT INTO timers (session_id, seat, kind, due_at) VALUES (?, ?, ?, ?)",
            (session_id, seat, kind, due_at))


def drop_pending(session_id: int) -> Statement:
    """Every timer of the session not fired yet (the game ended)."""
    return ("DELETE FROM timers WHERE session_id = ? AND fired_at IS NULL", (session_id,))


def drop_idle(session_id: int) -> Statement:
    """The session's pending inactivity warning and archiving (someone acted)."""
    return ("DELETE FROM timers WHERE session_id = ? AND fired_at IS NULL"
            " AND kind IN ('idle_warn', 'archive')", (session_id,))


def drop_seat_pending(session_id: int, seat: int) -> Statement:
    """A seat's timers not fired yet (its clock stopped)."""
    return ("DELETE FROM timers WHERE session_id = ? AND seat = ? AND fired_at IS NULL",
            (session_id, seat))


def drop_seat_turn(session_id: int, seat: int) -> Statement:
    """A seat's turn ended in an untimed game: its reminders go, and so does its absence."""
    return ("DELETE FROM timers WHERE session_id = ? AND seat = ?"
            " AND (fired_at IS NULL OR kind = 'absent')", (session_id, seat))


def claim(timer_id: int, now: str) -> Statement:
    """Mark a timer fired, guarded: of several processes exactly one changes the row."""
    return ("UPDATE timers SET fired_at = ? WHERE id = ? AND fired_at IS NULL", (now, timer_id))


def unclaim(timer_id: int) -> Statement:
    """A fired timer whose event could not be published fires again."""
    return ("UPDATE timers SET fired_at = NULL WHERE id = ?", (timer_id,))


def reannounce(timer_id: int, now: str, not_since: str) -> Statement:
    """Claim the re-announcement of a fired timer, guarded: only when it was not re-announced
    at or after ``not_since``."""
    return ("UPDATE timers SET reannounced_at = ? WHERE id = ?"
            " AND (reannounced_at IS NULL OR reannounced_at < ?)", (now, timer_id, not_since))
