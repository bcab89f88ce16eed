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
from typing import NamedTuple

from engines.base import rank_by

from .data import CASTLE, EMPTY, LETTER_TERRAIN, TERRAIN_ICON
from .geometry import bounding_box, castle_index, neighbours

MIDDLE_KINGDOM_POINTS = 10
HARMONY_POINTS = 5


class Property(NamedTuple):
    terrain: str  # one-letter code
    squares: int
    crowns: int

    @property
    def points(self) -> int:
        return self.squares * self.crowns


class Tally(NamedTuple):
    """One kingdom's result in one game: points and the tie-break values."""

    points: int
    largest: int
    crowns: int


@lru_cache(maxsize=2048)
def properties(terrain: str, crowns: str, size: int) -> tuple[Property, ...]:
    """Every property of a kingdom, in order of its first cell (top-left first).

    This runs for every kingdom on every view (the live score), so it is memoised on the
    kingdom (a move changes one kingdom; the others are answered from the cache) and written
    for speed (bench/bench_kingdomino_scoring.py): only the occupied stretch of the grid is
    scanned, and a visited square is blanked in a working copy, so one comparison asks both
    "same terrain?" and "not seen yet?".
    """
    near_table = neighbours(size)
    cells: list[str | None] = list(terrain)
    first = len(terrain) - len(terrain.lstrip(EMPTY))
    last = len(terrain.rstrip(EMPTY))
    out: list[Property] = []
    for start in range(first, last):
        letter = cells[start]
        if letter is None or letter in (EMPTY, CASTLE):
            continue
        cells[start] = None
        stack = [start]
        squares = crown_count = 0
        while stack:
            cell = stack.pop()
            squares += 1
            crown_count += ord(crowns[cell]) - 48
            for k in near_table[cell]:
                if cells[k] == letter:
                    cells[k] = None
                    stack.append(k)
        out.append(Property(letter, squares, crown_count))
    return tuple(out)


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
        props = properties(terrain, crowns, size)
    for prop in props:
        if prop.crowns:
            name = LETTER_TERRAIN[prop.terrain]
            lines.append((
                "kingdomino.score.property", prop.points,
                {"terrain": name, "icon": TERRAIN_ICON[name],
                 "squares": prop.squares, "crowns": prop.crowns},
            ))
    if "middle_kingdom" in variants and is_middle_kingdom(terrain, size):
        lines.append(("kingdomino.score.middle_kingdom", MIDDLE_KINGDOM_POINTS, {}))
    if "harmony" in variants and discarded == 0:
        lines.append(("kingdomino.score.harmony", HARMONY_POINTS, {}))
    return lines


def tally(terrain: str, crowns: str, size: int, *, discarded: int, variants: list[str]) -> Tally:
    props = properties(terrain, crowns, size)
    points = sum(line[1] for line in kingdom_lines(
        terrain, crowns, size, discarded=discarded, variants=variants, props=props))
    return Tally(
        points,
        max((p.squares for p in props), default=0),
        sum(p.crowns for p in props),
    )


def rank(tallies: list[Tally]) -> list[list[int]]:
    """Seats grouped by place: points, then largest property, then crowns; equal = shared."""
    return rank_by(tallies)
