"""Frozen copy of the Kingdomino computer player as it was before issue 15 (the benchmark's
"baseline"). Do not improve it: bench/bench_bots.py measures the new player against it.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from engines.base import State
from engines.kingdomino import rules, scoring
from engines.kingdomino.data import CASTLE, DOMINOES
from engines.kingdomino.geometry import neighbours, parse_cell
from engines.kingdomino.kingdom import terrain_and_crowns
from engines.kingdomino.state import grid_of, size_of

if TYPE_CHECKING:
    from engines.kingdomino.game import Kingdomino


def _best(options: list[tuple[tuple, str]], rng: random.Random) -> str:
    top = max(value for value, _ in options)
    return rng.choice(sorted(code for value, code in options if value == top))


def place_value(terrain: str, crowns: str, size: int, n: int, a: int, b: int) -> tuple[int, int]:
    """(points of the kingdom after the placement, same-terrain sides touched)."""
    d = DOMINOES[n]
    lo, hi = (a, b) if a < b else (b, a)
    t_lo, t_hi = (d.a_terrain, d.b_terrain) if a < b else (d.b_terrain, d.a_terrain)
    c_lo, c_hi = (str(d.a_crowns), str(d.b_crowns)) if a < b else (str(d.b_crowns),
                                                                      str(d.a_crowns))
    terrain = terrain[:lo] + t_lo + terrain[lo + 1:hi] + t_hi + terrain[hi + 1:]
    crowns = crowns[:lo] + c_lo + crowns[lo + 1:hi] + c_hi + crowns[hi + 1:]
    points = scoring.survey(terrain, crowns, size).points
    near = neighbours(size)
    touching = sum(
        1 for cell in (a, b) for k in near[cell]
        if k not in (a, b) and terrain[k] == terrain[cell]
    )
    return points, touching


def choose(game: Kingdomino, state: State, seat: int, rng: random.Random) -> str:
    legal = game.legal_actions(state, seat)
    if len(legal) <= 1:
        return legal[0] if legal else ""
    size = size_of(state)
    terrain, crowns = terrain_and_crowns(state["kingdoms"][seat]["rows"])
    if state["phase"] == "place":
        n = state["current_line"][state["turn"]]["n"]
        options = []
        for code in legal:
            _, first, second = code.split()
            a, b = parse_cell(first, size), parse_cell(second, size)
            assert a is not None and b is not None  # legal codes name cells of the grid
            options.append((place_value(terrain, crowns, size, n, a, b), code))
        return _best(options, rng)
    have = set(terrain) - {".", CASTLE}
    picks: list[tuple[tuple[int, bool, int], str]] = []
    for code in legal:
        d = DOMINOES[int(code.split()[1])]
        matches = (d.a_terrain in have) + (d.b_terrain in have)
        fits = rules.can_place(terrain, size, grid_of(state), d)
        picks.append(((d.crowns, fits, matches), code))
    return _best(picks, rng)



def bot_action(state: State, seat: int, rng: random.Random) -> str:
    from engines.kingdomino import GAME

    return choose(GAME, state, seat, rng)
