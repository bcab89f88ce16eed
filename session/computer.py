"""Computer moves, decided away from the event loop and never failing silently.

A computer player's search may take tens of milliseconds of pure-Python CPU; on the event loop
that would stall heartbeats and the 3-second answers to clicks. :func:`move` runs the decision
where the renderers run (``workers.off_loop``: the worker processes in production, a thread
in tests), with a generator seeded by the caller, so the move is the same wherever it runs.

A bot that raises or answers an illegal code is a bug. When strict (``Sessions(strict_bots=)``:
the test suite, ``STOLIK_STRICT_BOTS=1`` for the bot) it raises :class:`ComputerPlayerFailed`;
in production it is logged with the game's notation, so the position reproduces, and a legal
move chosen by a seeded generator is played instead, so the game goes on.
"""

from __future__ import annotations

import logging
import random
import traceback
from dataclasses import dataclass

import engines
from engines.base import BOT_LEVELS, State
from session import workers

log = logging.getLogger(__name__)


class ComputerPlayerFailed(RuntimeError):
    """The computer player raised or chose an illegal move (strict mode only)."""


@dataclass(frozen=True)
class Decision:
    """What the worker decided: ``code`` is always legal; ``failure`` says why the bot's own
    choice was replaced (its traceback or the illegal code), ``None`` when it was not."""

    code: str
    failure: str | None = None
    notation: str = ""


def level_or_default(level: str | None) -> str:
    """A stored level (``NULL`` for a seat a computer took over) as one the engines know."""
    return level if level in BOT_LEVELS else "normal"


def decide(game_id: str, state: State, seat: int, seed: str, level: str) -> Decision:
    """The computer's move for ``seat`` (runs in a worker). Catches the bot's failure on
    purpose: it is reported in the :class:`Decision` and logged or raised by :func:`move`."""
    game = engines.get(game_id)
    legal = game.legal_actions(state, seat)
    try:
        code = game.bot_action(state, seat, random.Random(seed), level)
    except Exception:  # reported with the position, never hidden: see move()
        failure = traceback.format_exc()
    else:
        if code in legal:
            return Decision(code)
        failure = f"illegal move {code!r} (legal: {legal[:10]}{' ...' if len(legal) > 10 else ''})"
    fallback = random.Random(f"{seed}/fallback").choice(legal)
    return Decision(fallback, failure, game.notation(state))


async def move(game_id: str, state: State, seat: int, seed: str, level: str | None, *,
               strict: bool) -> str:
    """A legal move for the computer ``seat``, decided off the event loop; ``strict`` raises
    :class:`ComputerPlayerFailed` instead of playing a fallback (the tests)."""
    decision: Decision = await workers.off_loop(
        decide, game_id, state, seat, seed, level_or_default(level))
    if decision.failure is None:
        return decision.code
    if strict:
        raise ComputerPlayerFailed(
            f"{game_id} computer player failed for seat {seat} (level {level}) at "
            f"{decision.notation}:\n{decision.failure}")
    log.error("%s computer player failed for seat %s (level %s); playing %r instead. "
              "Position: %s\n%s", game_id, seat, level, decision.code, decision.notation,
              decision.failure)
    return decision.code
