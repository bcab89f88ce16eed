"""Errors the session layer raises (a translation key + params, like engine errors), and the
ones it lets through that its callers catch: a refusal (:class:`GameError`, which
:class:`SessionError` is) and a store failure (:class:`StoreError`)."""

from db.database import StoreError
from engines.base import GameError

__all__ = ["GameError", "SessionError", "StoreError"]


class SessionError(GameError):
    """A request the session layer refuses (no game here, not your seat, stale button...)."""
