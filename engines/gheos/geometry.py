"""The triangular grid: cell names, up/down cells, edge slots and neighbours.

A cell is ``(col, row)``. It points up when ``col + row`` is even, down otherwise, so every
cell has three edge neighbours: left and right in its row, and the cell below (up cell) or
above (down cell) in the same column. Centres of one column share an x coordinate, so the
image labels rows with letters down the side and columns with numbers along the top, and a
cell is named like a spreadsheet cell: ``M30`` = row M, column 30.

The table is finite (rows A-Z, columns 1-60, the start tile at M30): a chain of more than
28 tiles in a straight line would be needed to reach an edge. That is our ruling (a real
table has edges too); the rulebook has no board limit.

Edge slots (each cell's edges, clockwise):

* up cell: 0 = left (north-west side), 1 = right (north-east side), 2 = bottom;
* down cell: the same triangle turned half a turn, so 0 = right (south-east side),
  1 = left (south-west side), 2 = top.

Two neighbours always touch through the same slot number on both sides (up slot 0 meets the
down cell's slot 0, and so on), which keeps joining land simple. A tile's own edges are
numbered 0, 1, 2 clockwise as printed (drawn pointing up); placed with rotation ``r``, tile
edge ``e`` lies on slot ``(e + r) % 3``.
"""

from __future__ import annotations

import re
from functools import cache

ROWS = 26
COLS = 60
START_CELL = "M30"
_NAME = re.compile(r"^([A-Z])([1-9][0-9]?)$")


@cache
def parse(name: str) -> tuple[int, int] | None:
    """``"M30"`` -> ``(29, 12)`` (0-based col, row); None for a name off the table."""
    m = _NAME.match(name.upper())
    if not m:
        return None
    row = ord(m.group(1)) - ord("A")
    col = int(m.group(2)) - 1
    if not (0 <= col < COLS and 0 <= row < ROWS):
        return None
    return col, row


@cache
def name(col: int, row: int) -> str:
    return f"{chr(ord('A') + row)}{col + 1}"


def on_table(col: int, row: int) -> bool:
    return 0 <= col < COLS and 0 <= row < ROWS


@cache
def is_up(cell: str) -> bool:
    col, row = parse(cell)  # type: ignore[misc]
    return (col + row) % 2 == 0


@cache
def neighbours(cell: str) -> tuple[str | None, str | None, str | None]:
    """The cell across each edge slot 0, 1, 2 (None past the table edge)."""
    col, row = parse(cell)  # type: ignore[misc]
    if (col + row) % 2 == 0:
        spots = ((col - 1, row), (col + 1, row), (col, row + 1))
    else:
        spots = ((col + 1, row), (col - 1, row), (col, row - 1))
    return tuple(name(c, r) if on_table(c, r) else None for c, r in spots)  # type: ignore[return-value]


@cache
def sort_key(cell: str) -> tuple[int, int]:
    """Reading order: row first (top to bottom), then column (left to right)."""
    col, row = parse(cell)  # type: ignore[misc]
    return row, col
