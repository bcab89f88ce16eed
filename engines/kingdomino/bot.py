"""The computer player, in two levels; deterministic for a given ``rng``.

``normal`` values a kingdom by its points now plus what it can still become
(:func:`kingdom_value`), and plays one ply deep:

- Place (D1): the placement that gives the kingdom the highest value.
- Pick (D2): the domino whose best placement raises our value most, plus part of what it
  would give the opponent who would take it instead (denial), plus a little for a low number
  (an earlier turn next round).

``easy`` is beatable by a new player: it places for the points it sees now, picks a domino
at random and makes one move in four at random.

The value of a kingdom, beyond its points:

- Holes: an empty cell inside the final square whose every side is taken or outside can
  never be filled. A kingdom that must fill all 24 cells (5x5) then discards a domino, which
  costs points and Harmony.
- Growth: a property with crowns gains ``crowns`` points per square it still grows, so its
  free sides inside the final square are worth about half a crown each; crownless squares
  wait for a crown and are worth a little.
- Middle Kingdom: a square outside the 5x5 (7x7) centred on the castle loses the 10 points.
"""

from __future__ import annotations

import random

from engines.base import Game, State

from . import rules, scoring
from .data import CASTLE, DOMINOES, EMPTY
from .geometry import bounding_box, castle_index, neighbours, parse_cell, window
from .kingdom import terrain_and_crowns
from .state import grid_of, size_of

HOLE = 2.0  # a cell that can never be filled
GROWTH = 0.5  # a free side of a property, per crown
CROWNLESS = 0.15  # a crownless square, waiting for a crown
MIDDLE_LOST = 8.0  # the Middle Kingdom bonus out of reach
DENIAL = 0.35  # share of an opponent's gain we take away by picking first
EARLY_TURN = 0.03  # per number below 48: lower numbers place and pick first next round
EASY_RANDOM = 0.25
LOOK_AHEAD = 6  # placements re-ranked by the dominoes still to come
KNOWN = 1.0  # a domino we will place for sure
MAYBE = 0.5  # the best free domino of the next line


def _best(options: list[tuple[float, str]], rng: random.Random) -> str:
    top = max(value for value, _ in options)
    return rng.choice(sorted(code for value, code in options if value >= top - 1e-9))


def put(terrain: str, crowns: str, n: int, a: int, b: int) -> tuple[str, str]:
    """The kingdom's ``(terrain, crowns)`` with domino ``n`` on cells ``a`` (half a), ``b``."""
    d = DOMINOES[n]
    t, c = list(terrain), list(crowns)
    t[a], c[a], t[b], c[b] = d.a_terrain, str(d.a_crowns), d.b_terrain, str(d.b_crowns)
    return "".join(t), "".join(c)


def kingdom_value(terrain: str, crowns: str, size: int, grid: int, variants: list[str]) -> float:
    """Points now plus an estimate of what the kingdom can still become (see module doc).

    One flood fill finds the properties, their points and free sides at once: this runs for
    every candidate placement, so it is kept to one pass over the grid.
    """
    near = neighbours(size)
    box = bounding_box(terrain, size)
    inside = _growth_mask(len(terrain), size, window(box, grid, size))
    castle = castle_index(size)
    #: empty in-window cells next to something: the only cells that can be holes
    edge = {k for k in near[castle] if terrain[k] == EMPTY and inside[k]}
    value, crownless = _properties(terrain, crowns, near, inside, edge)
    for i in edge:  # a hole: no free in-window neighbour, so no domino can ever cover it
        if not any(terrain[k] == EMPTY and inside[k] for k in near[i]):
            value -= HOLE
    value += CROWNLESS * crownless
    if "middle_kingdom" in variants and not _middle_in_reach(box, castle // size, grid):
        value -= MIDDLE_LOST
    return value


def _growth_mask(cells: int, size: int, growth: tuple[int, int, int, int]) -> bytearray:
    """1 for each cell of the ``growth`` window, 0 elsewhere."""
    r0, c0, r1, c1 = growth
    inside = bytearray(cells)
    for r in range(r0, r1 + 1):
        inside[r * size + c0:r * size + c1 + 1] = b"\x01" * (c1 - c0 + 1)
    return inside


def _middle_in_reach(box: tuple[int, int, int, int], middle: int, grid: int) -> bool:
    """The castle can still end in the middle of the kingdom (the Middle Kingdom bonus)."""
    half = grid // 2
    b_r0, b_c0, b_r1, b_c1 = box
    return (middle - b_r0 <= half and b_r1 - middle <= half
            and middle - b_c0 <= half and b_c1 - middle <= half)


def _properties(terrain: str, crowns: str, near: tuple[tuple[int, ...], ...],
                inside: bytearray, edge: set[int]) -> tuple[float, int]:
    """One flood fill over the properties: the value of the crowned ones (points and room
    to grow) and the count of crownless squares; each property's free sides join ``edge``."""
    seen = bytearray(len(terrain))
    value = 0.0
    crownless = 0
    for start in range(len(terrain) - len(terrain.lstrip(EMPTY)), len(terrain.rstrip(EMPTY))):
        letter = terrain[start]
        if seen[start] or letter in (EMPTY, CASTLE):
            continue
        seen[start] = 1
        stack = [start]
        squares = crown_count = 0
        free: set[int] = set()
        while stack:
            cell = stack.pop()
            squares += 1
            crown_count += ord(crowns[cell]) - 48
            for k in near[cell]:
                t = terrain[k]
                if t == letter:
                    if not seen[k]:
                        seen[k] = 1
                        stack.append(k)
                elif t == EMPTY and inside[k]:
                    free.add(k)
        edge |= free
        if crown_count:
            value += squares * crown_count + GROWTH * crown_count * min(len(free), 4) / 2
        else:
            crownless += squares
    return value, crownless


def best_placement_gain(terrain: str, crowns: str, size: int, grid: int, variants: list[str],
                        n: int, base: float) -> float:
    """How much domino ``n`` at its best place raises the kingdom's value (a discard: < 0)."""
    placements = rules.legal_placements(terrain, size, grid, DOMINOES[n])
    if not placements:
        return -HOLE  # a discard: the cells stay empty, Harmony is lost
    return max(kingdom_value(*put(terrain, crowns, n, a, b), size, grid, variants)
               for a, b in placements) - base


def choose(game: Game, state: State, seat: int, rng: random.Random,
           level: str = "normal") -> str:
    legal = game.legal_actions(state, seat)
    if len(legal) <= 1:
        return legal[0]
    if level == "easy":
        return _easy(state, seat, legal, rng)
    size, grid, variants = size_of(state), grid_of(state), state["variants"]
    terrain, crowns = terrain_and_crowns(state["kingdoms"][seat]["rows"])
    if state["phase"] == "place":
        n = state["current_line"][state["turn"]]["n"]
        options = []
        for code in legal:
            _, first, second = code.split()
            a, b = parse_cell(first, size), parse_cell(second, size)
            assert a is not None and b is not None
            after = put(terrain, crowns, n, a, b)
            options.append((kingdom_value(*after, size, grid, variants), code, after))
        return _best(_look_ahead(state, seat, options), rng)
    mine = kingdom_value(terrain, crowns, size, grid, variants)
    others = []
    for other in range(state["players"]):
        if other != seat:
            t, c = terrain_and_crowns(state["kingdoms"][other]["rows"])
            others.append((t, c, kingdom_value(t, c, size, grid, variants)))
    picks: list[tuple[float, str]] = []
    for code in legal:
        n = int(code.split()[1])
        gain = best_placement_gain(terrain, crowns, size, grid, variants, n, mine)
        denial = max((best_placement_gain(t, c, size, grid, variants, n, v)
                      for t, c, v in others), default=0.0)
        picks.append((gain + DENIAL * max(denial, 0.0) + EARLY_TURN * (48 - n), code))
    return _best(picks, rng)


def _look_ahead(state: State, seat: int, options: list[tuple[float, str, tuple[str, str]]]
                ) -> list[tuple[float, str]]:
    """Re-rank the best placements by the dominoes still to come that we know of: our other
    domino of this line and those we picked in the next line (placed later for sure), and the
    best free domino of the next line (we may pick it now)."""
    size, grid, variants = size_of(state), grid_of(state), state["variants"]
    turn = state["turn"]
    ours = [slot["n"] for i, slot in enumerate(state["current_line"])
            if i > turn and slot["king"] == seat]
    ours += [slot["n"] for slot in state["next_line"] if slot["king"] == seat]
    free = [slot["n"] for slot in state["next_line"] if slot["king"] is None]
    options.sort(key=lambda o: o[0], reverse=True)
    out: list[tuple[float, str]] = []
    for rank, (value, code, after) in enumerate(options):
        if rank >= LOOK_AHEAD:
            out.append((value - 1000.0, code))  # never better than a looked-at placement
            continue
        total = value
        for m in ours:
            total += KNOWN * best_placement_gain(*after, size, grid, variants, m, value)
        if free:
            total += MAYBE * max(best_placement_gain(*after, size, grid, variants, m, value)
                                 for m in free)
        out.append((total, code))
    return out


def _easy(state: State, seat: int, legal: list[str], rng: random.Random) -> str:
    if rng.random() < EASY_RANDOM or state["phase"] == "pick":
        return rng.choice(legal)
    size = size_of(state)
    terrain, crowns = terrain_and_crowns(state["kingdoms"][seat]["rows"])
    n = state["current_line"][state["turn"]]["n"]
    options = []
    for code in legal:
        _, first, second = code.split()
        a, b = parse_cell(first, size), parse_cell(second, size)
        assert a is not None and b is not None
        points = scoring.survey(*put(terrain, crowns, n, a, b), size).points
        options.append((float(points), code))
    return _best(options, rng)
