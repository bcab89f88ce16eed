"""The computer player's strength and levels, from short seeded tournaments (bench/bench_bots.py).

The games are seeded, so these figures are exact, not statistical: a change that makes the
player weaker fails here. The full-size tournaments are in docs/BENCHMARKS.md.
"""

from __future__ import annotations

import random

import pytest

from bench.bench_bots import tournament
from engines.kingdomino import GAME, bot
from engines.kingdomino.kingdom import terrain_and_crowns


def test_normal_beats_the_random_player():
    result = tournament("kingdomino", games=20, players=2, a="normal", b="random", seed=3)
    assert result.wins >= 19


def test_normal_beats_the_old_player():
    result = tournament("kingdomino", games=30, players=2, a="normal", b="baseline", seed=3)
    assert result.wins >= 19


def test_easy_beats_random_but_loses_to_normal():
    assert tournament("kingdomino", games=20, players=2, a="easy", b="random", seed=3).wins >= 14
    assert tournament("kingdomino", games=20, players=2, a="normal", b="easy", seed=3).wins >= 17


@pytest.mark.parametrize(("players", "variants", "key"), [
    (2, ["middle_kingdom", "harmony"], "kingdomino.score.middle_kingdom"),
    (4, ["middle_kingdom", "harmony"], "kingdomino.score.harmony"),
])
def test_the_bonuses_are_played_for(players, variants, key):
    """Middle Kingdom and Harmony: the normal player earns them far more often than the old."""
    new = tournament("kingdomino", games=12, players=players, a="normal", b="baseline",
                     seed=5, variants=variants)
    fired_new = new.census["normal"][key][0] / len(new.points["normal"])
    fired_old = new.census["baseline"][key][0] / len(new.points["baseline"])
    assert fired_new >= 0.3 and fired_new > 2 * fired_old


@pytest.mark.parametrize("variants", [["mighty_duel"], ["dynasty"],
                                      ["dynasty", "harmony", "middle_kingdom", "mighty_duel"]])
@pytest.mark.parametrize("level", ["easy", "normal"])
def test_every_option_set_is_played_legally_to_the_end(variants, level):
    state = GAME.setup(2, {"variants": variants}, 11)
    while not GAME.is_over(state):
        seat = GAME.to_act(state)[0]
        code = GAME.bot_action(state, seat, random.Random(len(str(state))), level)
        assert code in GAME.legal_actions(state, seat)
        state, _ = GAME.apply(state, seat, code)


def test_a_hole_that_no_domino_can_fill_costs_value():
    # E5 castle; a wheat square on each side of D4 leaves D4 enclosed
    rows = [".." * 9] * 9
    size = 9

    def with_cells(cells: dict[str, str]) -> tuple[str, str]:
        grid = [list(r) for r in rows]
        for name, square in {"E5": "CC", **cells}.items():
            r, c = int(name[1:]) - 1, ord(name[0]) - 65
            grid[r][2 * c:2 * c + 2] = square
        return terrain_and_crowns(["".join(r) for r in grid])

    open_ = with_cells({"D5": "W0", "D3": "W0", "C4": "W0"})
    closed = with_cells({"D5": "W0", "D3": "W0", "C4": "W0", "E4": "W0"})
    assert bot.kingdom_value(*closed, size, 5, []) <= bot.kingdom_value(*open_, size, 5, []) - 1.5


def test_the_choice_depends_only_on_the_generator():
    state = GAME.setup(3, {}, 77)
    seat = GAME.to_act(state)[0]
    assert len({GAME.bot_action(state, seat, random.Random(5)) for _ in range(3)}) == 1
