"""Shared helpers for the Kingdomino tests (no dependency on /work/shared)."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence

from engines.kingdomino import GAME
from engines.kingdomino.notation import position

__all__ = ["GAME", "position", "snapshot", "play_random", "act"]


def snapshot(state: dict) -> str:
    return json.dumps(state, sort_keys=True)


def act(state: dict, *codes: str) -> tuple[dict, list[dict]]:
    """Play codes in order, each by the seat whose turn it is; returns state and all events."""
    events: list[dict] = []
    for code in codes:
        state, new = GAME.apply(state, GAME.to_act(state)[0], code)
        events.extend(new)
    return state, events


def play_random(players: int, seed: int, variants: Sequence[str] = ()) -> tuple[dict, list[str]]:
    """A whole game of random legal moves; returns the final state and the action log."""
    state = GAME.setup(players, {"variants": list(variants)}, seed)
    rng = random.Random(seed)
    log = []
    while not GAME.is_over(state):
        seat = GAME.to_act(state)[0]
        code = rng.choice(GAME.legal_actions(state, seat))
        state, _ = GAME.apply(state, seat, code)
        log.append(code)
    return state, log
