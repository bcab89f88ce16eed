"""Two clicks a move (issue 25): over seeded whole games of every game and seat count, the
moves the engine's own computer player chooses take a median of at most 2 clicks and never
more than 4, counted with the click model ``bench/bench_clicks.py`` uses against the real bot
(``tests/clicks.py``) on the components ``session.present`` builds. Deterministic: counts,
not timings."""

from __future__ import annotations

import random
import statistics

import pytest

import engines
from session.service import playable
from tests.clicks import model_move, session_row

SEEDS = (1, 2)
MEDIAN, MAX = 2, 4


def clicks_per_move(game_id: str, players: int) -> list[int]:
    game = engines.get(game_id)
    out = []
    for seed in SEEDS:
        rng = random.Random(seed)
        state = game.setup(players, {"variants": []}, seed)
        version = 0
        while not game.is_over(state):
            seat = rng.choice(game.to_act(state))
            code = game.bot_action(state, seat, rng, "easy")
            clicks, _ = model_move(session_row(game_id, players, version), state, seat, code)
            out.append(clicks)
            state, _ = game.apply(state, seat, code)
            version += 1
    return out


@pytest.mark.parametrize("game_id", playable())
def test_median_two_clicks_and_never_more_than_four(game_id):
    meta = engines.get(game_id).meta
    for players in range(meta.min_players, meta.max_players + 1):
        counts = clicks_per_move(game_id, players)
        assert statistics.median(counts) <= MEDIAN, (game_id, players, statistics.median(counts))
        assert max(counts) <= MAX, (game_id, players, max(counts))
