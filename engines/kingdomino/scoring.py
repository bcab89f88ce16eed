"""Counting prestige points (punkty prestiżu) and breaking ties.

- A property (posiadłość) is a group of same-terrain squares connected by their sides; it
  scores squares x crowns, so a property without crowns scores 0. Several properties of one
  terrain score separately; the castle belongs to none.
- The breakdown lists only properties that score (crowns > 0): a zero line per crownless
  meadow would bury the lines that matter. Tie-break values still count every property.
- Middle Kingdom (Królestwo Środka), ruling: +10 when the bounding box of the kingdom (castle
  included) is centred on the castle, i.e. the castle is the middle cell of the box. For a
  finished 5x5 (7x7) kingdom this is exactly "the castle is in the centre"; an unfinished
  kingdom with holes or fewer rows still earns it when centred (the newer rules allow holes).
- Harmony (Harmonia): +5 when the player discarded no domino, as the Polish rulebook defines
  "ukończone"; in every mode this equals a full grid (see SOURCES.md).
- Ranking: points, then the largest property in squares (with or without crowns), then most
  crowns in the kingdom, else a shared place.
- Dynasty ruling: totals of the three games decide; ties are broken by the *sum* over the three
  games of each tie-break value (largest property, then crowns), else a shared place.
"""

from __future__ import annotations

from functools import cache, lru_cache
from typing import NamedTuple

from engines.base import rank_by

from .data import CASTLE, EMPTY, LETTER_TERRAIN, TERRAIN_ICON, TERRAIN_LETTER
from .geometry import bounding_box, castle_index, neighbours

MIDDLE_KINGDOM_POINTS = 10
HARMONY_POINTS = 5


#: one property (posiadłość): ``(terrain letter, squares, crowns)``; it scores squares x crowns.
#: A plain tuple: a kingdom has a dozen and the live score builds them on every view.
Property = tuple[str, int, int]


class Tally(NamedTuple):
    """One kingdom's result in one game: points and the tie-break values."""

    points: int
    largest: int
    crowns: int


class Survey(NamedTuple):
    """What scoring needs of one kingdom, computed in one pass (see :func:`survey`)."""

    properties: tuple[Property, ...]  # the properties that score (crowns > 0), first cell first
    points: int  # sum of their points (no variant bonus)
    largest: int  # squares of the largest property, with or without crowns (a tie-break)
    crowns: int  # every crown in the kingdom (a tie-break)


# The fast scorer works on bitboards: one byte per cell, big-endian (cell 0 is the highest
# byte), and in a cell's byte one bit per terrain (one-hot). Shifting the board by 8 bits moves
# every square one cell sideways, by ``8 * size`` one row; ANDed with the board, a square meets
# only a neighbour of its own terrain, so one dilation grows every property at once.
_TERRAIN_LETTERS = "".join(TERRAIN_LETTER.values())  # bit k of a byte: the k-th letter
_ONE_HOT = bytes.maketrans(
    _TERRAIN_LETTERS.encode() + CASTLE.encode() + EMPTY.encode(), bytes([1, 2, 4, 8, 16, 32, 0, 0]))
_ALL_TERRAINS = 0x3F  # the six terrain bits of a cell's byte
# crowns in two bit planes (1 and 3 odd, 2 and 3 in the twos), every terrain bit of the byte
# set so that ``component & plane`` keeps the component's own squares
_ODD_CROWNS = bytes.maketrans(b"0123" + CASTLE.encode() + EMPTY.encode(),
                              bytes([0, _ALL_TERRAINS, 0, _ALL_TERRAINS, 0, 0]))
_TWO_CROWNS = bytes.maketrans(b"0123" + CASTLE.encode() + EMPTY.encode(),
                              bytes([0, 0, _ALL_TERRAINS, _ALL_TERRAINS, 0, 0]))


@cache
def _boards(size: int) -> tuple[int, int, tuple[int, ...], tuple[str, ...]]:
    """The first and the last column (every terrain bit), and for a one-bit board ``bit``,
    indexed by ``bit.bit_length()``: its neighbours on the bit's terrain, the terrain letter."""
    cells = size * size
    first = sum(_ALL_TERRAINS << 8 * (cells - 1 - r * size) for r in range(size))
    near = [0] * (8 * cells + 1)
    for cell, cells_near in enumerate(neighbours(size)):
        for plane in range(len(_TERRAIN_LETTERS)):
            bit = 8 * (cells - 1 - cell) + plane
            near[bit + 1] = sum(1 << 8 * (cells - 1 - k) + plane for k in cells_near)
    letters = ("",) + tuple((_TERRAIN_LETTERS + "  ")[bit & 7] for bit in range(8 * cells))
    return first, first >> 8 * (size - 1), tuple(near), letters


@lru_cache(maxsize=2048)
def survey(terrain: str, crowns: str, size: int) -> Survey:
    """The scoring properties of a kingdom, its points, largest property and crowns.

    This runs for every kingdom on every view (the live score), so it is memoised on the
    kingdom (a move changes one kingdom; the others are answered from the cache) and written
    for speed (bench/bench_kingdomino_scoring.py, bench/bench_kingdomino_peer.py) on
    bitboards (above): a lone square is a property of one square, all of them found in one
    step; the others are flooded one property at a time, but only from squares with crowns,
    as a crownless property scores nothing. Crownless properties matter only as the largest
    property (a tie-break), and only when all their squares together outnumber the largest
    property found; then they are flooded too.
    """
    cols_first, cols_last, near, letter_of = _boards(size)
    board = int.from_bytes(terrain.encode().translate(_ONE_HOT), "big")
    if board & cols_first and board & cols_last:
        # Shifting sideways wraps a row's last cell onto the next row's first; a legal
        # kingdom (at most grid <= size - 1 cells wide) never fills both edge columns, but any
        # input stays exact: lay it out again with an empty column after every row.
        return survey(_with_empty_column(terrain, size), _with_empty_column(crowns, size),
                      size + 1)
    crown_bytes = crowns.encode()
    odd = int.from_bytes(crown_bytes.translate(_ODD_CROWNS), "big")
    twos = int.from_bytes(crown_bytes.translate(_TWO_CROWNS), "big")
    row = 8 * size
    joined = board & (board << 8 | board >> 8 | board << row | board >> row)
    lone = board ^ joined  # squares without a neighbour of their terrain
    crowned = odd | twos
    found = []  # (component, property); sorted below by component
    points = (lone & odd).bit_count() + 2 * (lone & twos).bit_count()
    crowned_lone = lone & crowned
    while crowned_lone:
        square = crowned_lone & -crowned_lone
        crowned_lone ^= square
        found.append((square, (letter_of[square.bit_length()], 1,
                               (1 if square & odd else 0) + (2 if square & twos else 0))))
    largest = 1 if lone else 0
    seeds = joined & crowned
    left = joined
    while seeds:
        seed = seeds & -seeds
        at = seed.bit_length()
        component = seed | near[at] & left
        while True:
            grown = (component | component << 8 | component >> 8 | component << row
                     | component >> row) & left
            if grown == component:
                break
            component = grown
        left ^= component
        seeds &= left
        squares = component.bit_count()
        if squares > largest:
            largest = squares
        crown_count = (component & odd).bit_count() + 2 * (component & twos).bit_count()
        points += squares * crown_count
        found.append((component, (letter_of[at], squares, crown_count)))
    if left.bit_count() > largest:  # crownless properties that might be the largest
        # the flood is written out twice, not called: this is the hot loop of every live score
        while left:
            component = left & -left
            while True:
                grown = (component | component << 8 | component >> 8 | component << row
                         | component >> row) & left
                if grown == component:
                    break
                component = grown
            left ^= component
            largest = max(largest, component.bit_count())
    # disjoint components: the one holding the first cell (highest byte) is the greatest number
    found.sort(reverse=True)
    properties = tuple([prop for _, prop in found])
    # _make: a NamedTuple's own constructor costs a Python call more (measured)
    return Survey._make((properties, points, largest, (odd.bit_count() + 2 * twos.bit_count()) // 6))


def _with_empty_column(cells: str, size: int) -> str:
    return "".join(cells[r * size:(r + 1) * size] + EMPTY for r in range(size)) + EMPTY * (size + 1)


def is_middle_kingdom(terrain: str, size: int) -> bool:
    """The castle is the centre cell of the kingdom's bounding box."""
    min_r, min_c, max_r, max_c = bounding_box(terrain, size)
    middle = castle_index(size) // size
    return min_r + max_r == 2 * middle and min_c + max_c == 2 * middle


def kingdom_lines(
    terrain: str, crowns: str, size: int, *, discarded: int, variants: list[str],
    props: tuple[Property, ...] | None = None,
) -> list[tuple[str, int, dict]]:
    """Score breakdown of one kingdom as ``(key, points, params)`` lines."""
    lines: list[tuple[str, int, dict]] = []
    if props is None:
        props = survey(terrain, crowns, size).properties
    for letter, squares, crown_count in props:
        name = LETTER_TERRAIN[letter]
        lines.append((
            "kingdomino.score.property", squares * crown_count,
            {"terrain": name, "icon": TERRAIN_ICON[name],
             "squares": squares, "crowns": crown_count},
        ))
    lines.extend(_bonus_lines(terrain, size, discarded=discarded, variants=variants))
    return lines


def _bonus_lines(
    terrain: str, size: int, *, discarded: int, variants: list[str],
) -> list[tuple[str, int, dict]]:
    lines: list[tuple[str, int, dict]] = []
    if "middle_kingdom" in variants and is_middle_kingdom(terrain, size):
        lines.append(("kingdomino.score.middle_kingdom", MIDDLE_KINGDOM_POINTS, {}))
    if "harmony" in variants and discarded == 0:
        lines.append(("kingdomino.score.harmony", HARMONY_POINTS, {}))
    return lines


def tally(terrain: str, crowns: str, size: int, *, discarded: int, variants: list[str]) -> Tally:
    found = survey(terrain, crowns, size)
    points = found.points
    if variants:
        points += sum(line[1] for line in _bonus_lines(
            terrain, size, discarded=discarded, variants=variants))
    return Tally._make((points, found.largest, found.crowns))


def rank(tallies: list[Tally]) -> list[list[int]]:
    """Seats grouped by place: points, then largest property, then crowns; equal = shared."""
    return rank_by(tallies)
