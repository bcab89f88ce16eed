"""One player's kingdom as stored in the state: rows of two-character squares.

``rows[r]`` spells row ``r`` of the ``size x size`` grid, two characters a cell: ``W1`` (wheat,
one crown), ``CC`` (castle), ``..`` (empty). Strings keep the state small, JSON-plain and cheap
to copy; the engine reads a kingdom through :func:`terrain_and_crowns`.
"""

from __future__ import annotations

from .data import CASTLE_CELL, EMPTY_CELL, LETTER_TERRAIN, Domino
from .geometry import castle_index, cell_name


def empty_rows(size: int) -> list[str]:
    """A kingdom holding only its starting tile with the castle, on the centre cell."""
    rows = [EMPTY_CELL * size for _ in range(size)]
    middle = size // 2
    row = rows[middle]
    rows[middle] = row[:2 * middle] + CASTLE_CELL + row[2 * middle + 2:]
    return rows


def terrain_and_crowns(rows: list[str]) -> tuple[str, str]:
    """``(terrain, crowns)``: one character per cell each (``"."``/``"C"``, ``"0"``..``"3"``)."""
    flat = "".join(rows)
    return flat[0::2], flat[1::2]


def with_domino(rows: list[str], size: int, domino: Domino, a: int, b: int) -> list[str]:
    """New rows with the domino's half ``a`` on cell ``a`` and half ``b`` on cell ``b``."""
    out = list(rows)
    for cell, square in (
        (a, f"{domino.a_terrain}{domino.a_crowns}"),
        (b, f"{domino.b_terrain}{domino.b_crowns}"),
    ):
        r, c = divmod(cell, size)
        row = out[r]
        out[r] = row[:2 * c] + square + row[2 * c + 2:]
    return out


def cells_view(rows: list[str], size: int) -> dict[str, list]:
    """``{"C3": ["wheat", 1], ...}`` for every placed square (the castle is listed apart)."""
    out: dict[str, list] = {}
    terrain, crowns = terrain_and_crowns(rows)
    castle = castle_index(size)
    for i, letter in enumerate(terrain):
        if letter != "." and i != castle:
            out[cell_name(i, size)] = [LETTER_TERRAIN[letter], int(crowns[i])]
    return out
