"""Errors the session layer raises (a translation key + params, like engine errors), and the
ones it lets through that its callers catch: a refusal (:class:`GameError`, which
:class:`SessionError` is) and a store failure (:class:`StoreError`); and the decorator that
turns a storage failure into a refusal the user is told."""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable
from typing import ParamSpec, TypeVar

from db.database import DamagedRow, StoreBusy, StoreError
from engines.base import GameError

__all__ = ["GameError", "SessionError", "StoreError", "outcome_of", "tells_store_failures"]

log = logging.getLogger(__name__)

P = ParamSpec("P")
R = TypeVar("R")


class SessionError(GameError):
    """A request the session layer refuses (no game here, not your seat, stale button...)."""


def tells_store_failures(fn: Callable[P, Awaitable[R]]) -> Callable[P, Awaitable[R]]:
    """A database failure becomes a :class:`SessionError` the user is shown (nothing
    changed, try again), and goes to the log; the bot goes on serving other games."""

    @functools.wraps(fn)
    async def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return await fn(*args, **kwargs)
        except StoreBusy as exc:
            log.warning("%s: storage busy: %s", fn.__qualname__, exc)
            raise SessionError("error.store_busy", "storage busy, nothing changed") from exc
        except DamagedRow as exc:
            log.error("%s: damaged row: %s", fn.__qualname__, exc)
            if exc.session_id is None:
                raise SessionError("error.store_failed", "storage failed") from exc
            # not a storage failure (trying again will not help): say which game is damaged
            raise SessionError("error.damaged_game", f"game {exc.session_id} is damaged",
                               id=exc.session_id, game=exc.game_id or "?") from exc
        except StoreError as exc:
            log.error("%s: storage failed: %s", fn.__qualname__, exc)
            raise SessionError("error.store_failed", "storage failed, nothing changed") from exc

    return wrapper


#: the keys of the refusals :func:`tells_store_failures` makes of a storage failure
STORE_FAILURES = frozenset({"error.store_busy", "error.store_failed"})


def outcome_of(error: BaseException | None) -> str:
    """How a request ended, for the operator's counters: ``accepted`` (no error), ``stale`` (a
    button behind the game), ``refused`` (any other refusal the user is told), ``failed`` (the
    store failed, or a bug)."""
    if error is None:
        return "accepted"
    if isinstance(error, GameError):
        if error.key == "error.stale":
            return "stale"
        return "failed" if error.key in STORE_FAILURES else "refused"
    return "failed"
