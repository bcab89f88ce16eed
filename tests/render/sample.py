"""Positions to render in the image tests: seeded bot games of any game."""

from __future__ import annotations

import random
from typing import Any

import engines


def bot_game_views(game_id: str, players: int, seed: int, *, every: int = 1,
                   variants: list[str] | None = None) -> list[tuple[Any, list[Any]]]:
    """(spectator view, private views of every seat) every ``every`` actions of a seeded
    bot game, and at its end; private views only for games with hidden information."""
    game = engines.get(game_id)
    state = game.setup(players, {"variants": variants or []}, seed)
    rng = random.Random(seed)
    out = []
    step = 0
    while True:
        over = game.is_over(state)
        if over or step % every == 0:
            hands = [game.view(state, s) for s in range(players)] \
                if game.meta.hidden_information else []
            out.append((game.view(state, None), hands))
        if over:
            return out
        seat = game.to_act(state)[0]
        state, _ = game.apply(state, seat, game.bot_action(state, seat, rng))
        step += 1
