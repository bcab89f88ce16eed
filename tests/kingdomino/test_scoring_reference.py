"""The fast scorer (bitboards) against a plain flood fill written straight from the rulebook.

Kingdoms come from random legal games (every position of the game, 5x5 and Mighty Duel's 7x7,
with the bonus variants) and from arbitrary grids (any letters anywhere, so also shapes no
legal game makes, e.g. squares on both edge columns, where a sideways shift would wrap).
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engines.kingdomino import scoring
from engines.kingdomino.kingdom import terrain_and_crowns
from engines.kingdomino.state import size_of

from .helpers import GAME

LETTERS = "WFLGSM"


def reference_properties(terrain: str, crowns: str, size: int) -> list[tuple[str, int, int]]:
    """Every property (terrain, squares, crowns), in order of its first cell, by flood fill."""
    seen: set[tuple[int, int]] = set()
    out = []
    for r in range(size):
        for c in range(size):
            letter = terrain[r * size + c]
            if (r, c) in seen or letter not in LETTERS:
                continue
            seen.add((r, c))
            todo = [(r, c)]
            squares = crown_count = 0
            while todo:
                y, x = todo.pop()
                squares += 1
                crown_count += int(crowns[y * size + x])
                for ny, nx in ((y - 1, x), (y + 1, x), (y, x - 1), (y, x + 1)):
                    if (0 <= ny < size and 0 <= nx < size and (ny, nx) not in seen
                            and terrain[ny * size + nx] == letter):
                        seen.add((ny, nx))
                        todo.append((ny, nx))
            out.append((letter, squares, crown_count))
    return out


def reference_tally(terrain: str, crowns: str, size: int, discarded: int,
                    variants: list[str]) -> tuple[int, int, int]:
    props = reference_properties(terrain, crowns, size)
    points = sum(squares * crown_count for _, squares, crown_count in props)
    occupied = [(i // size, i % size) for i, letter in enumerate(terrain) if letter != "."]
    rows = [r for r, _ in occupied]
    cols = [c for _, c in occupied]
    middle = size // 2
    if ("middle_kingdom" in variants and min(rows) + max(rows) == 2 * middle
            and min(cols) + max(cols) == 2 * middle):
        points += 10
    if "harmony" in variants and discarded == 0:
        points += 5
    largest = max((squares for _, squares, _ in props), default=0)
    return points, largest, sum(crown_count for _, _, crown_count in props)


def check(terrain: str, crowns: str, size: int, discarded: int, variants: list[str]) -> None:
    scoring.clear_memo()
    scoring_props = [p for p in reference_properties(terrain, crowns, size) if p[2]]
    assert list(scoring.survey(terrain, crowns, size).properties) == scoring_props
    # the two scorers (with and without the breakdown) agree on the figures, bonus aside
    without_bonus = reference_tally(terrain, crowns, size, 1, [])
    assert tuple(scoring.survey(terrain, crowns, size))[1:] == without_bonus
    assert tuple(scoring.tally(terrain, crowns, size, discarded=1, variants=[])) == without_bonus
    assert tuple(scoring.tally(terrain, crowns, size, discarded=discarded, variants=variants)) \
        == reference_tally(terrain, crowns, size, discarded, variants)
    lines = scoring.kingdom_lines(terrain, crowns, size, discarded=discarded, variants=variants)
    assert [(line[1], line[2].get("squares"), line[2].get("crowns")) for line in lines
            if line[0] == "kingdomino.score.property"] == [
        (squares * crown_count, squares, crown_count) for _, squares, crown_count in scoring_props]


VARIANTS = st.sampled_from([[], ["middle_kingdom"], ["harmony"], ["middle_kingdom", "harmony"],
                            ["mighty_duel"], ["mighty_duel", "middle_kingdom", "harmony"]])


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 4), variants=VARIANTS)
def test_fast_scorer_agrees_on_every_position_of_random_games(seed, players, variants):
    if "mighty_duel" in variants:
        players = 2
    state = GAME.setup(players, {"variants": variants}, seed)
    rng = random.Random(seed)
    while not GAME.is_over(state):
        seat = GAME.to_act(state)[0]
        state, _ = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
        for kingdom in state["kingdoms"]:
            terrain, crowns = terrain_and_crowns(kingdom["rows"])
            check(terrain, crowns, size_of(state), len(kingdom["discarded"]), variants)


@st.composite
def any_grid(draw) -> tuple[str, str, int]:
    size = draw(st.sampled_from([3, 5, 9, 13]))
    cells = draw(st.lists(st.sampled_from(LETTERS + ".."), min_size=size * size,
                          max_size=size * size))
    crowns = draw(st.lists(st.sampled_from("00123"), min_size=size * size,
                           max_size=size * size))
    castle = (size // 2) * size + size // 2
    cells[castle] = "C"
    crowns = ["0" if cell == "." else crown for cell, crown in zip(cells, crowns, strict=True)]
    crowns[castle] = "C"
    return "".join(cells), "".join(crowns), size


@settings(max_examples=300, deadline=None)
@given(grid=any_grid(), discarded=st.integers(0, 1), variants=VARIANTS)
def test_fast_scorer_agrees_on_arbitrary_grids(grid, discarded, variants):
    check(*grid, discarded, variants)


def test_every_terrain_with_every_crown_count():
    # the crown weights depend on the terrain's bit in a cell's byte: each pair of them, lone
    # and in a property, next to a property of every other terrain
    for letter in LETTERS:
        for crown in "0123":
            for other in LETTERS:
                terrain = f"{letter}.{letter}{letter}{other}" + "....." + "..C.." + "....." + \
                    f"{other}{other}.{letter}."
                crowns = f"{crown}.{crown}3{crown}" + "....." + "..C.." + "....." + \
                    f"2{crown}.{crown}."
                check(terrain, crowns, 5, 0, [])


def test_squares_on_both_edge_columns_do_not_wrap_into_the_next_row():
    # row 0 ends with wheat, row 1 starts with wheat: next to each other in memory, not on the
    # table; a sideways shift of the bitboard would join them
    terrain = "....W" + "W...." + "..C.." + "....." + "....."
    crowns = "....1" + "1...." + "..C.." + "....." + "....."
    assert scoring.survey(terrain, crowns, 5).properties == (("W", 1, 1), ("W", 1, 1))
    check(terrain, crowns, 5, 0, [])


def test_a_ring_around_the_castle_and_other_properties_of_its_terrain():
    # a wheat ring (a property with a hole) next to the castle, a second wheat property with or
    # without a crown, and a longer crownless forest: each flood stops at its own property
    rows = ["WW.....", ".......", "..WWW..", "..WCW..", "..WWW..", ".......", "FFFFFFF"]
    terrain = "".join(rows)
    for second in "01":
        crowns = "".join(
            ("C" if letter == "C" else "." if letter == "." else "0") for letter in terrain)
        crowns = second + crowns[1:16] + "2" + crowns[17:]  # a crown on the ring's first square
        check(terrain, crowns, 7, 0, [])
        assert scoring.tally(terrain, crowns, 7, discarded=0, variants=[]) == (
            8 * 2 + 2 * int(second), 8, 2 + int(second))


def test_the_last_square_in_every_cell_of_the_grid():
    # the numbers stop at the last square, so each remainder of their length by the grid size
    # has its own neighbour and column tables: a property of two squares ending on every cell
    # (with its neighbour above, or to the left on the first row), a crowned lone square on
    # the first cell and a crownless pair on the first column
    for size in (5, 9):
        castle = (size // 2) * size + size // 2
        for last in range(1, size * size):
            if last == castle:
                continue
            cells = ["."] * (size * size)
            crowns = ["."] * (size * size)
            cells[castle] = crowns[castle] = "C"
            before = last - size if last >= size else last - 1
            for cell in (before, last):
                if cell != castle:
                    cells[cell], crowns[cell] = "M", "1"
            if cells[0] == ".":
                cells[0], crowns[0] = "S", "2"
            for cell in (size, 2 * size):
                if cells[cell] == "." and cell < last:
                    cells[cell], crowns[cell] = "L", "0"
            check("".join(cells), "".join(crowns), size, 0, [])
