"""Statements on a running game's seats (clocks, who sits where) and its seat history, each
returned as a ``(sql, params)`` :data:`~db.store.Statement` for the caller's transaction."""

from __future__ import annotations

from db.store import Statement


def stop_clock(session_id: int, seat: int, bank: float | None) -> Statement:
    """The seat's clock stops with ``bank`` seconds left."""
    return ("UPDATE seats SET bank = ?, running_since = NULL WHERE session_id = ? AND seat = ?",
            (bank, session_id, seat))


def start_clock(session_id: int, seat: int, bank: float, since: str) -> Statement:
    """The seat's clock runs from ``since`` with ``bank`` seconds."""
    return ("UPDATE seats SET bank = ?, running_since = ? WHERE session_id = ? AND seat = ?",
            (bank, since, session_id, seat))


def seat_player(session_id: int, seat: int, user_id: int, name: str) -> Statement:
    """A person takes the seat over (a substitute)."""
    return ("UPDATE seats SET user_id = ?, name = ? WHERE session_id = ? AND seat = ?",
            (user_id, name, session_id, seat))


def seat_computer(session_id: int, seat: int, name: str) -> Statement:
    """A computer takes the seat over; it plays at the default level ("normal")."""
    return ("UPDATE seats SET user_id = NULL, name = ?, bot_level = NULL"
            " WHERE session_id = ? AND seat = ?", (name, session_id, seat))


def history(session_id: int, seat: int, user_id: int | None, name: str,
            from_version: int) -> Statement:
    """Who sits in the seat from ``from_version`` on (``None``: a computer)."""
    if user_id is None:
        return ("INSERT INTO seat_history (session_id, seat, user_id, name, from_version)"
                " VALUES (?, ?, NULL, ?, ?)", (session_id, seat, name, from_version))
    return ("INSERT INTO seat_history (session_id, seat, user_id, name, from_version)"
            " VALUES (?, ?, ?, ?, ?)", (session_id, seat, user_id, name, from_version))
