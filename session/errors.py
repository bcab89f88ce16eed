"""Errors the session layer raises (a translation key + params, like engine errors), and the
ones it lets through that its callers catch: a refusal (:class:`GameError`, which
:class:`SessionError` is) and a store failure (:class:`StoreError`); the decorator that
turns a storage failure into a refusal the user is told; and the retry of work that must not
be dropped while the database is away (start-up recovery)."""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Awaitable, Callable
from typing import ParamSpec, TypeVar

from db.database import DamagedRow, StoreBusy, StoreError
from engines.base import GameError

__all__ = ["Backoff", "GameError", "SessionError", "StoreError", "StoreFailed", "outcome_of",
           "store_refusal", "tells_store_failures", "until_stored"]

log = logging.getLogger(__name__)

P = ParamSpec("P")
R = TypeVar("R")

#: start-up recovery during an outage: the first wait, doubled after each failure up to the
#: most (read at each wait, so the tests can shorten them)
RETRY_FIRST = 0.5
RETRY_MOST = 30.0


class SessionError(GameError):
    """A request the session layer refuses (no game here, not your seat, stale button...)."""


class StoreFailed(SessionError):
    """A storage failure as the user is told it (``error.store_failed`` / ``error.store_busy``):
    nothing changed; a caller that must not drop its work tries again (:func:`until_stored`)."""


def store_refusal(exc: StoreError) -> SessionError:
    """The refusal a storage failure becomes for the user. A damaged row is told the same
    way but is no outage: trying again would find it as damaged (no :class:`StoreFailed`)."""
    if isinstance(exc, DamagedRow):
        if exc.session_id is None:
            return SessionError("error.store_failed", f"damaged row: {exc}")
        # trying again will not help: say which game is damaged
        return SessionError("error.damaged_game", f"game {exc.session_id} is damaged",
                            id=exc.session_id, game=exc.game_id or "?")
    if isinstance(exc, StoreBusy):
        return StoreFailed("error.store_busy", "storage busy, nothing changed")
    return StoreFailed("error.store_failed", "storage failed, nothing changed")


def tells_store_failures(fn: Callable[P, Awaitable[R]]) -> Callable[P, Awaitable[R]]:
    """A database failure becomes a :class:`StoreFailed` the user is shown (nothing changed,
    try again), and goes to the log; the bot goes on serving other games."""

    @functools.wraps(fn)
    async def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return await fn(*args, **kwargs)
        except StoreBusy as exc:
            log.warning("%s: storage busy: %s", fn.__qualname__, exc)
            raise store_refusal(exc) from exc
        except DamagedRow as exc:
            log.error("%s: damaged row: %s", fn.__qualname__, exc)
            raise store_refusal(exc) from exc
        except StoreError as exc:
            log.error("%s: storage failed: %s", fn.__qualname__, exc)
            raise store_refusal(exc) from exc

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


class Backoff:
    """Waits that double from :data:`RETRY_FIRST` up to :data:`RETRY_MOST` (bounded: a
    database back after a long outage is noticed within that)."""

    def __init__(self) -> None:
        self.delay = 0.0

    async def wait(self) -> float:
        self.delay = min(self.delay * 2, RETRY_MOST) if self.delay else RETRY_FIRST
        await asyncio.sleep(self.delay)
        return self.delay


async def until_stored(call: Callable[[], Awaitable[R]], what: str) -> R:
    """``call()`` again and again while the database fails it (:class:`StoreError`,
    :class:`StoreFailed`), with a bounded backoff, until it succeeds: work a stop left half
    done is finished once the database is back, never dropped. Other errors propagate."""
    backoff = Backoff()
    while True:
        try:
            return await call()
        except DamagedRow:
            raise  # no outage: the same row is as damaged next time
        except (StoreError, StoreFailed) as exc:
            log.warning("%s: the database failed (%s); trying again in %.1f s", what, exc,
                        min(backoff.delay * 2, RETRY_MOST) if backoff.delay else RETRY_FIRST)
        await backoff.wait()
