"""Statements on the votes table (a timed-out player's vote, ending early), each returned as a
``(sql, params)`` :data:`~db.store.Statement` for the caller's transaction. Reading the
ballots is :meth:`~db.store.Store.ballots`."""

from __future__ import annotations

from db.store import Statement


def cast(session_id: int, topic: str, user_id: int, choice: str) -> Statement:
    """A user's ballot on a topic; a second ballot replaces the first."""
    return ("INSERT INTO votes (session_id, topic, user_id, choice) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (session_id, topic, user_id) DO UPDATE SET choice = excluded.choice",
            (session_id, topic, user_id, choice))


def clear(session_id: int, topic: str) -> Statement:
    """Every ballot on a topic (the vote is decided, or no longer needed)."""
    return ("DELETE FROM votes WHERE session_id = ? AND topic = ?", (session_id, topic))

