"""Positions to render in the image tests: seeded bot games of any game."""

from __future__ import annotations

import random
from typing import Any

import engines


def bot_game_states(game_id: str, players: int, seed: int, *,
                    variants: list[str] | None = None) -> list[Any]:
    """Every state of a seeded game of computer players, from the setup to the end (the
    first seat to act moves)."""
    game = engines.get(game_id)
    state = game.setup(players, {"variants": variants or []}, seed)
    rng = random.Random(seed)
    states = [state]
    while not game.is_over(state):
        seat = game.to_act(state)[0]
        state, _ = game.apply(state, seat, game.bot_action(state, seat, rng))
        states.append(state)
    return states


def bot_game_views(game_id: str, players: int, seed: int, *, every: int = 1,
                   variants: list[str] | None = None) -> list[tuple[Any, list[Any]]]:
    """(spectator view, private views of every seat) every ``every`` actions of a seeded
    bot game, and at its end; private views only for games with hidden information."""
    game = engines.get(game_id)
    states = bot_game_states(game_id, players, seed, variants=variants)
    out = []
    for step, state in enumerate(states):
        if step % every == 0 or step == len(states) - 1:
            hands = [game.view(state, s) for s in range(players)] \
                if game.meta.hidden_information else []
            out.append((game.view(state, None), hands))
    return out
