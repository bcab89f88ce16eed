"""The computer player's strength, levels and use of the game's mechanisms, from short seeded
tournaments (bench/bench_bots.py). Seeded, so the figures are exact: a change that makes the
player weaker fails here. The full-size tournaments are in docs/BENCHMARKS.md."""

from __future__ import annotations

import random

import pytest

from bench.bench_bots import tournament
from engines.bunny_kingdom import GAME


def test_normal_beats_the_random_player():
    result = tournament("bunny_kingdom", games=10, players=2, a="normal", b="random", seed=3)
    assert result.wins >= 10


def test_normal_beats_the_old_player():
    result = tournament("bunny_kingdom", games=12, players=2, a="normal", b="baseline", seed=3)
    assert result.wins >= 10


def test_normal_wins_more_than_twice_its_share_with_four():
    result = tournament("bunny_kingdom", games=12, players=4, a="normal", b="baseline", seed=3)
    assert result.wins >= 6


def test_easy_beats_random_but_loses_to_normal():
    assert tournament("bunny_kingdom", games=8, players=2, a="easy", b="random",
                      seed=3).wins >= 6
    assert tournament("bunny_kingdom", games=8, players=2, a="normal", b="easy",
                      seed=3).wins >= 7


def test_the_normal_player_uses_the_game_s_mechanisms():
    """Fiefs harvested, treasures and missions scored, buildings of every kind built."""
    result = tournament("bunny_kingdom", games=6, players=3, a="normal", b="normal", seed=9)
    keys = set(result.census["normal"])
    assert "bunny_kingdom.score.fief" in keys
    assert any(k.startswith("bunny_kingdom.score.scroll.") for k in keys)
    built: set[str] = set()
    for seed in range(3):
        state = GAME.setup(3, {}, seed)
        while not GAME.is_over(state):
            seat = GAME.to_act(state)[0]
            code = GAME.bot_action(state, seat, random.Random(seed))
            if code.startswith("build "):
                built.add(code.split()[1].split("_")[0])
            state, _ = GAME.apply(state, seat, code)
    assert {"city", "farm", "camp", "sky", "trading"} <= built


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("level", ["easy", "normal"])
def test_every_level_plays_legally_to_the_end(players, level):
    state = GAME.setup(players, {}, 21)
    moves = 0
    while not GAME.is_over(state):
        seat = GAME.to_act(state)[0]
        code = GAME.bot_action(state, seat, random.Random(moves), level)
        assert code in GAME.legal_actions(state, seat)
        state, _ = GAME.apply(state, seat, code)
        moves += 1


def test_the_pick_ignores_what_the_seat_cannot_see():
    """Other hands and the deck order do not change the computer's pick."""
    state = GAME.setup(3, {}, 4)
    seat = 0
    other = dict(state, hands=[state["hands"][0], state["hands"][2], state["hands"][1]],
                 deck=list(reversed(state["deck"])))
    assert GAME.bot_action(state, seat, random.Random(1)) == GAME.bot_action(
        other, seat, random.Random(1))
