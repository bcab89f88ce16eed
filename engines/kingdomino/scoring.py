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

from functools import lru_cache
from operator import itemgetter
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
# only a neighbour of its own terrain, so one dilation grows every property at once, and the
# properties of different terrains (different bits) grow side by side in one number. A dilation
# takes three shifts, not four: ``x = b << 8 | b << row`` holds the squares moved one cell left
# and one row up, and ``x >> row + 8`` the same two moved back past their start: one row down
# and one cell right.
_TERRAIN_LETTERS = "".join(TERRAIN_LETTER.values())  # bit k of a byte: the k-th letter
_ALL_TERRAINS = 0x3F  # the six terrain bits of a cell's byte
# Crowns as weights, a second number laid out like the board: a crowned cell's weight byte has
# all six terrain bits (so ``squares & weights`` are the crowned squares, no mask needed), bit 6
# for a second crown and bit 7 for a third. Squares on terrain bit k copied to bits k, 6 and 7
# (``squares * _CROWN_READER[at]``; within the byte, k <= 5) meet exactly c set bits of a weight
# byte for c crowns, so ``(squares * reader & weights).bit_count()`` counts their crowns. One
# table turns both strings into bytes (letters and digits differ).
_CROWN_WEIGHTS = bytes([0, 0x3F, 0x7F, 0xFF])
_BYTES = bytes.maketrans(
    _TERRAIN_LETTERS.encode() + CASTLE.encode() + EMPTY.encode() + b"0123",
    bytes([1, 2, 4, 8, 16, 32, 0, 0]) + _CROWN_WEIGHTS)
_new_tuple = tuple.__new__  # builds a NamedTuple without its Python-level constructor
_from_bytes = int.from_bytes  # one global lookup instead of a global and a method
_second = itemgetter(1)


class _Tables(NamedTuple):
    """Constant bitboards of one grid size, for numbers of ``n`` cells (the cells up to the last
    square); the per-square tables are indexed by ``bit.bit_length()`` of a one-bit board ``bit``
    (index 0 unused). Only the column masks and ``near`` depend on ``n``, and only on ``n %
    size``: cutting whole rows off the end moves every cell by whole rows, its column stays."""

    first_column: int  # every terrain bit of the first column
    last_column: int
    plane: tuple[int, ...]  # the bit's terrain on every cell
    other_planes: tuple[int, ...]  # every other terrain bit
    near: tuple[int, ...]  # the bit and its four neighbours on the bit's terrain
    letter: tuple[str, ...]  # the bit's terrain letter
    planes: tuple[int, ...]  # the six terrains on every cell
    crown_reader: tuple[int, ...]  # the multiplier that copies the bit to bits 6 and 7
    crown_bits: int  # bits 0, 6 and 7 of every cell: a weight byte's crowns on terrain bit 0
    row: int  # bits in a row
    back: int  # x >> back: the squares moved left / up (x) moved down / right instead


class _TablesBySize(dict[int, tuple[tuple, ...]]):
    """``_TABLES[size][n]``, a size's tables for ``n`` cells, built on first use (a dict lookup:
    cheaper than a cached call). Plain tuples: unpacking a NamedTuple goes through an iterator."""

    def __missing__(self, size: int) -> tuple[tuple, ...]:
        self[size] = tables = _tables(size)
        return tables


def _tables(size: int) -> tuple[tuple, ...]:
    cells = size * size
    every_cell = sum(1 << 8 * k for k in range(cells))
    plane = (0,) + tuple(every_cell << (bit & 7) for bit in range(8 * cells))
    every_bit = (1 << 8 * cells) - 1  # positive masks: an AND with a negative int costs more
    other_planes = tuple(every_bit ^ mask for mask in plane)
    letters = ("",) + tuple((_TERRAIN_LETTERS + "  ")[bit & 7] for bit in range(8 * cells))
    planes = plane[1:1 + len(_TERRAIN_LETTERS)]
    crown_reader = (0,) + tuple(1 | 1 << 6 - (bit & 7) | 1 << 7 - (bit & 7) if bit & 7 < 6 else 0
                                for bit in range(8 * cells))
    by_rest = []
    for rest in range(size):
        # the longest number with this rest: a shorter one is the same rows and fewer of them
        count = cells - size + rest if rest else cells
        first = sum(_ALL_TERRAINS << 8 * (count - 1 - cell) for cell in range(0, count, size))
        last = sum(_ALL_TERRAINS << 8 * (count - 1 - cell)
                   for cell in range(size - 1, count, size))
        near = [0] * (8 * count + 1)
        for cell, cells_near in enumerate(neighbours(size)[:count]):
            for k in range(len(_TERRAIN_LETTERS)):
                bit = 8 * (count - 1 - cell) + k
                near[bit + 1] = sum(1 << 8 * (count - 1 - n) + k
                                    for n in cells_near if n < count) | 1 << bit
        by_rest.append(tuple(_Tables(first, last, plane, other_planes, tuple(near), letters,
                                     planes, crown_reader, every_cell * 0xC1, 8 * size,
                                     8 * size + 8)))
    return tuple(by_rest[n % size] for n in range(cells + 1))


_TABLES = _TablesBySize()

#: one scored property in the breakdown: ``(bit_length of its first square, property)``
_Line = tuple[int, Property]


def _score(terrain: str, crowns: str, size: int, lines: list[_Line] | None = None) -> Tally:
    """Points (no variant bonus), largest property and crowns of one kingdom; with ``lines``,
    also one line per crowned property appended to it (the breakdown, see :func:`survey`).

    Written for speed (bench/lab/bench_kingdomino_peer.py; the live score asks this of every
    kingdom on every view, through the memo :func:`_tally`), hence one function with its steps
    inline: bitboards and crown weights (above), only the cells up to the last square (the
    grid's empty cells after it would only widen every number; the tables for that many cells
    keep the columns), lone squares and crowns counted in one step each, and the crowned
    properties flooded together, one of each terrain at a time (usually all of them in one
    flood).

    A kingdom that fills both edge columns is laid out again with an empty column after every
    row: shifting sideways would wrap a row's last cell onto the next row's first. A legal
    kingdom (at most size - 1 cells wide) never does, but any input stays exact.
    """
    cells = terrain.encode().rstrip(b".")  # EMPTY (a bytes strip is faster than a str one)
    end = len(cells)
    first_column, last_column, plane_of, other_planes, near, letter_of, planes, crown_reader, \
        crown_bits, row, back = _TABLES[size][end]
    board = _from_bytes(cells.translate(_BYTES))  # big-endian (the default)
    weights = _from_bytes(crowns.encode()[:end].translate(_BYTES))
    if board & first_column and board & last_column:
        return _score(*_with_empty_columns(terrain, crowns, size), lines)
    # squares with a neighbour of their terrain: the others are lone (properties of 1 square)
    joined = board << 8 | board << row
    joined = board & (joined | joined >> back)
    # every crown lies on a lone square or in a crowned property: count each crown once now; a
    # property of n squares adds its crowns n - 1 times more (only squares carry crowns)
    all_crowns = (weights & crown_bits).bit_count()
    points = all_crowns
    largest = 1 if board else 0
    if lines is not None:  # the breakdown lists the lone crowned squares one by one
        lone = (board ^ joined) & weights
        while lone:
            at = lone.bit_length()
            square = 1 << at - 1
            lone ^= square
            lines.append((at, (letter_of[at], 1, (square * crown_reader[at] & weights).bit_count())))
    seeds = joined & weights  # the crowned squares (the terrain bits of a weight byte)
    left = joined  # squares not yet in a flooded property
    while seeds:
        component = 0
        found = []
        while seeds:  # one crowned square of every terrain: their floods never meet
            at = seeds.bit_length()
            found.append(at)
            seeds &= other_planes[at]
            component |= near[at]
        component &= left
        # flood until nothing grows, or sooner when all that is left is flooded; each terrain's
        # part is connected and has two squares or more (a seed and its neighbours), so every
        # square has a neighbour in it: the dilation holds the component without ORing it back
        while component != left:
            grown = component << 8 | component << row
            grown = (grown | grown >> back) & left
            if grown == component:
                break
            component = grown
        left ^= component
        for at in found:
            prop = component & plane_of[at]
            squares = prop.bit_count()
            if squares > largest:
                largest = squares
            crown_count = (prop * crown_reader[at] & weights).bit_count()
            points += (squares - 1) * crown_count
            if lines is not None:
                lines.append((prop.bit_length(), (letter_of[at], squares, crown_count)))
        seeds = left & weights
    if left.bit_count() > largest:
        largest = _largest_crownless(left, largest, row, back, near, planes)
    return _new_tuple(Tally, (points, largest, all_crowns))


#: :func:`_score` without the breakdown, memoised on the kingdom (a move changes one kingdom;
#: the others are answered from the memo). The memo wraps ``_score`` itself: a wrapper function
#: would add a call to every cold tally.
_tally = lru_cache(maxsize=2048)(_score)


def _flood(component: int, within: int, row: int, back: int) -> int:
    """``component`` grown through ``within`` until it stops: whole properties (side by side,
    one per terrain plane). Only for the crownless tie-break (:func:`_score` floods inline).
    Like that flood, it needs every square of ``component`` to have a neighbour in it."""
    while True:
        grown = component << 8 | component << row
        grown = (grown | grown >> back) & within
        if grown == component:
            return component
        component = grown


def _largest_crownless(left: int, largest: int, row: int, back: int, near: tuple[int, ...],
                       planes: tuple[int, ...]) -> int:
    """The largest property, given the squares ``left`` of crownless properties (a tie-break
    only, and only when they might outnumber ``largest``): only the terrains with more squares
    left than ``largest`` are flooded, side by side again, one property of each at a time."""
    found: tuple[int, ...] | list[int] = planes
    while True:
        component = 0
        over = []
        for plane in found:
            rest = left & plane
            if rest.bit_count() > largest:
                over.append(plane)
                component |= near[rest.bit_length()]
        if not over:
            return largest
        component = _flood(component & left, left, row, back)
        left ^= component
        for plane in over:
            squares = (component & plane).bit_count()
            if squares > largest:
                largest = squares
        found = over


@lru_cache(maxsize=2048)
def survey(terrain: str, crowns: str, size: int) -> Survey:
    """The scoring properties of a kingdom (the breakdown), its points, largest property and
    crowns: :func:`_score` with its lines, in the order of the properties' first squares.
    Memoised like the tally."""
    lines: list[_Line] = []
    points, largest, crown_total = _score(terrain, crowns, size, lines)
    lines.sort(reverse=True)  # the highest bit is the first square (no two lines share it)
    return _new_tuple(Survey, (tuple(map(_second, lines)), points, largest, crown_total))


def clear_memo() -> None:
    """Forget every memoised kingdom (benchmarks measure cold scoring with it)."""
    _tally.cache_clear()
    survey.cache_clear()


def _with_empty_columns(terrain: str, crowns: str, size: int) -> tuple[str, str, int]:
    """The kingdom laid out again with an empty column after every row (see _score)."""
    def widened(cells: str) -> str:
        return "".join(cells[r * size:(r + 1) * size] + EMPTY
                       for r in range(size)) + EMPTY * (size + 1)
    return widened(terrain), widened(crowns), size + 1


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
    found = _tally(terrain, crowns, size)
    if not variants:
        return found  # the memoised tally itself: no bonus to add
    return Tally._make((found.points + sum(line[1] for line in _bonus_lines(
        terrain, size, discarded=discarded, variants=variants)), found.largest, found.crowns))


def rank(tallies: list[Tally]) -> list[list[int]]:
    """Seats grouped by place: points, then largest property, then crowns; equal = shared."""
    return rank_by(tallies)
