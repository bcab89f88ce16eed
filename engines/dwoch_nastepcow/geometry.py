"""The table: a grid of named cells (columns A-Y, rows 1-25), eight directions, orientation.

The landscape grows around the starting tile at M13. Cell names stay fixed for the whole
game so players can name cells; 12 spaces on every side of the start is more than a
27-tile landscape needs in practice, and the grid's edge works as the edge of the table.
Row 1 is at the top of the picture, where the blue player (seat 1) sits; white (seat 0)
sits at the bottom. A building faces its owner, so blue's tiles are turned 180°.
"""

from __future__ import annotations

from functools import cache

COLS = 25
ROWS = 25
START = "M13"

#: direction -> (dx, dy); y grows downwards (towards white, seat 0)
VECTORS: dict[str, tuple[int, int]] = {
    "N": (0, -1), "NE": (1, -1), "E": (1, 0), "SE": (1, 1),
    "S": (0, 1), "SW": (-1, 1), "W": (-1, 0), "NW": (-1, -1),
}
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E",
            "NE": "SW", "SW": "NE", "NW": "SE", "SE": "NW"}
ORTHOGONAL = ("N", "E", "S", "W")
DIAGONAL = ("NE", "SE", "SW", "NW")


def cell_name(x: int, y: int) -> str:
    return f"{chr(ord('A') + x)}{y + 1}"


_XY: dict[str, tuple[int, int]] = {
    cell_name(x, y): (x, y) for x in range(COLS) for y in range(ROWS)
}


def is_cell(name: str) -> bool:
    return name in _XY


def xy(name: str) -> tuple[int, int]:
    return _XY[name]


def step(cell: str, direction: str, distance: int = 1) -> str | None:
    """The cell ``distance`` spaces from ``cell`` towards ``direction``; None off the table."""
    x, y = _XY[cell]
    dx, dy = VECTORS[direction]
    x, y = x + dx * distance, y + dy * distance
    if 0 <= x < COLS and 0 <= y < ROWS:
        return cell_name(x, y)
    return None


@cache
def neighbours8(cell: str) -> tuple[str, ...]:
    """Cells touching ``cell`` orthogonally or diagonally (prostopadle lub po przekątnej)."""
    return tuple(n for d in VECTORS if (n := step(cell, d)) is not None)


@cache
def neighbours4(cell: str) -> tuple[str, ...]:
    """Cells sharing an edge with ``cell``."""
    return tuple(n for d in ORTHOGONAL if (n := step(cell, d)) is not None)


def ray(cell: str, direction: str) -> list[str]:
    """Every cell from ``cell`` (excluded) to the table's edge towards ``direction``."""
    out = []
    current = step(cell, direction)
    while current is not None:
        out.append(current)
        current = step(current, direction)
    return out


def facing(direction: str, owner: int | None) -> str:
    """A printed direction on a tile turned to face ``owner``: blue's tiles are upside down.

    >>> facing("N", 0), facing("N", 1), facing("SW", 1)
    ('N', 'S', 'NE')
    """
    return OPPOSITE[direction] if owner == 1 else direction
