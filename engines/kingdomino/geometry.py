"""The kingdom grid: cell names, neighbour tables and the bounding box.

A kingdom (królestwo) lives on a ``size x size`` grid, ``size = 2 * grid - 1`` (9 for the 5x5
game, 13 for Mighty Duel's 7x7), with the castle on the centre cell, so a kingdom may grow
``grid - 1`` cells in any direction from its castle. Columns are letters ``A..`` left to
right, rows numbers ``1..`` top to bottom: the castle sits on ``E5`` (``G7`` in Mighty Duel).
Cells are numbered ``row * size + col`` inside the engine.
"""

from __future__ import annotations

from functools import cache

Box = tuple[int, int, int, int]  # min_row, min_col, max_row, max_col (inclusive)


def grid_size(grid: int) -> int:
    """Working grid side for a kingdom of ``grid x grid``: ``grid_size(5) == 9``."""
    return 2 * grid - 1


def castle_index(size: int) -> int:
    middle = size // 2
    return middle * size + middle


@cache
def cell_names(size: int) -> tuple[str, ...]:
    """``cell_names(9)[0] == "A1"``; index ``row * size + col``."""
    return tuple(f"{chr(ord('A') + c)}{r + 1}" for r in range(size) for c in range(size))


@cache
def cell_indices(size: int) -> dict[str, int]:
    return {name: i for i, name in enumerate(cell_names(size))}


def cell_name(index: int, size: int) -> str:
    return cell_names(size)[index]


def parse_cell(text: str, size: int) -> int | None:
    """``"C3"`` -> index, or ``None`` when the text names no cell of this grid."""
    return cell_indices(size).get(text.upper())


@cache
def neighbours(size: int) -> tuple[tuple[int, ...], ...]:
    """Orthogonal neighbours of every cell (diagonals never connect in Kingdomino)."""
    out = []
    for r in range(size):
        for c in range(size):
            near = []
            if r > 0:
                near.append((r - 1) * size + c)
            if c > 0:
                near.append(r * size + c - 1)
            if c < size - 1:
                near.append(r * size + c + 1)
            if r < size - 1:
                near.append((r + 1) * size + c)
            out.append(tuple(near))
    return tuple(out)


def bounding_box(terrain: str, size: int) -> Box:
    """Smallest box around every occupied cell (castle included) of a terrain string.

    ``terrain`` holds one character per cell, ``"."`` for empty.
    """
    min_r = min_c = size
    max_r = max_c = -1
    # only the rows between the first and the last occupied cell (a view asks this per kingdom)
    first = len(terrain) - len(terrain.lstrip("."))
    last = len(terrain.rstrip(".")) - 1
    for r in range(first // size, last // size + 1) if last >= 0 else ():
        row = terrain[r * size:(r + 1) * size]
        right = len(row.rstrip("."))
        if not right:
            continue
        left = size - len(row.lstrip("."))
        min_r = min(min_r, r)
        max_r = r
        min_c = min(min_c, left)
        max_c = max(max_c, right - 1)
    return min_r, min_c, max_r, max_c


def window(box: Box, grid: int, size: int) -> Box:
    """The cells a kingdom with bounding box ``box`` may still grow into (a ``grid`` limit)."""
    min_r, min_c, max_r, max_c = box
    return (
        max(0, max_r - grid + 1),
        max(0, max_c - grid + 1),
        min(size - 1, min_r + grid - 1),
        min(size - 1, min_c + grid - 1),
    )
