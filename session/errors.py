"""Errors the session layer raises (a translation key + params, like engine errors)."""

from engines.base import GameError


class SessionError(GameError):
    """A request the session layer refuses (no game here, not your seat, stale button...)."""
