"""Kingdomino's rules, one function per rule of the Polish rulebook (kingdomino.pl.txt).

Rulings where sources differ (see ``data/SOURCES.md``):
- 3 players: 36 dominoes (12 removed face down), 3 per line, 12 rounds (the Polish rulebook;
  the newer 48-domino/4-per-line rule is not used).
- A domino that can be placed must be placed: ``discard`` is legal only when no legal
  placement exists (the newer rules text; the Polish text only says it "must" be discarded
  when it cannot be placed).
- The kingdom limit is a bounding box of ``grid x grid`` (5x5, 7x7 in Mighty Duel) around every
  placed square and the castle; the castle need not be in the middle (rulebook: "UWAGA").
"""

from __future__ import annotations

from engines.base import IllegalAction

from .data import CASTLE, EMPTY, Domino
from .geometry import bounding_box, cell_name, neighbours, window

Placement = tuple[int, int]  # cell of half a, cell of half b


# --- setup ------------------------------------------------------------------------------
def kings_per_player(players: int) -> int:
    """2 players: two kings (znaczniki króla) each; 3 and 4 players: one each."""
    return 2 if players == 2 else 1


def dominoes_in_play(players: int, mighty_duel: bool) -> int:
    """2 players: 24 of 48 (Mighty Duel: all 48); 3 players: 36; 4 players: 48."""
    if mighty_duel:
        return 48
    return {2: 24, 3: 36, 4: 48}[players]


def line_size(players: int) -> int:
    """One domino per king in a line (kolumna): 4 for 2 and 4 players, 3 for 3 players."""
    return players * kings_per_player(players)


def rounds_in_game(players: int, mighty_duel: bool) -> int:
    """One round per line: 6 for 2 players, 12 for 3-4 players and for Mighty Duel."""
    return dominoes_in_play(players, mighty_duel) // line_size(players)


def lay_out_line(deck: list[int], count: int) -> tuple[list[int], list[int]]:
    """Draw ``count`` dominoes from the top of the stack and sort them by number, lowest first.

    >>> lay_out_line([30, 4, 17, 9, 2], 4)
    ([4, 9, 17, 30], [2])
    """
    return sorted(deck[:count]), deck[count:]


# --- placement (zasady łączenia terenów) ---------------------------------------------------
def are_adjacent(a: int, b: int, size: int) -> bool:
    """The two squares of a domino sit on orthogonally adjacent cells."""
    return b in neighbours(size)[a]


def connects(terrain: str, size: int, cell: int, letter: str) -> bool:
    """A square on ``cell`` touches the castle (wild, joker) or a square of its own terrain.

    Only the four orthogonal neighbours count; diagonals never connect.
    """
    for k in neighbours(size)[cell]:
        near = terrain[k]
        if near in (letter, CASTLE):
            return True
    return False


def fits_in_kingdom(terrain: str, size: int, grid: int, cells: tuple[int, ...]) -> bool:
    """After placing on ``cells`` the kingdom still fits in a ``grid x grid`` square."""
    min_r, min_c, max_r, max_c = bounding_box(terrain, size)
    for cell in cells:
        r, c = divmod(cell, size)
        min_r, max_r = min(min_r, r), max(max_r, r)
        min_c, max_c = min(min_c, c), max(max_c, c)
    return max_r - min_r < grid and max_c - min_c < grid


def check_placement(terrain: str, size: int, grid: int, domino: Domino, a: int, b: int) -> None:
    """Raise :class:`IllegalAction` naming the first placement rule that ``(a, b)`` breaks."""
    where = f"{cell_name(a, size)} {cell_name(b, size)}"
    if not are_adjacent(a, b, size):
        raise IllegalAction(
            "kingdomino.rule.not_adjacent",
            f"the two squares of a domino must be on adjacent cells, not {where}",
            a=cell_name(a, size), b=cell_name(b, size),
        )
    for cell in (a, b):
        if terrain[cell] != EMPTY:
            raise IllegalAction(
                "kingdomino.rule.cell_taken", f"cell {cell_name(cell, size)} is not free",
                cell=cell_name(cell, size),
            )
    if not fits_in_kingdom(terrain, size, grid, (a, b)):
        raise IllegalAction(
            "kingdomino.rule.kingdom_size",
            f"placing on {where} would make the kingdom larger than {grid}x{grid}",
            grid=grid,
        )
    if not (connects(terrain, size, a, domino.a_terrain)
            or connects(terrain, size, b, domino.b_terrain)):
        raise IllegalAction(
            "kingdomino.rule.must_connect",
            f"domino {domino.n} on {where} touches neither the castle nor its own terrain",
            n=domino.n,
        )


def legal_placements(terrain: str, size: int, grid: int, domino: Domino) -> list[Placement]:
    """Every legal ``(cell of a, cell of b)``, sorted by cell number.

    Only empty cells inside the growth window (``geometry.window``) can take a square, and
    a legal domino must touch the kingdom, so the search starts from the *frontier*: empty
    cells next to an occupied one. ``touch[i]`` holds the terrain letters around cell ``i``.
    A pair is checked in both orientations; the window check of each cell suffices for the
    pair because two adjacent cells span at most 2 <= grid.
    """
    near_table = neighbours(size)
    r0, c0, r1, c1 = window(bounding_box(terrain, size), grid, size)
    touch = _frontier(terrain, size, near_table, (r0, c0, r1, c1))
    ta, tb = domino.a_terrain, domino.b_terrain
    out: list[Placement] = []
    for i, near_i in touch.items():
        a_ok_i = CASTLE in near_i or ta in near_i
        b_ok_i = CASTLE in near_i or tb in near_i
        for j in near_table[i]:
            if terrain[j] != EMPTY:
                continue
            near_j = touch.get(j)
            if near_j is not None:
                if j < i:
                    continue  # this pair was already looked at from j
                a_ok_j = CASTLE in near_j or ta in near_j
                b_ok_j = CASTLE in near_j or tb in near_j
            else:
                rj, cj = divmod(j, size)
                if not (r0 <= rj <= r1 and c0 <= cj <= c1):
                    continue
                a_ok_j = b_ok_j = False
            if a_ok_i or b_ok_j:
                out.append((i, j))
            if a_ok_j or b_ok_i:
                out.append((j, i))
    out.sort()
    return out


def _frontier(terrain: str, size: int, near_table: tuple[tuple[int, ...], ...],
              growth: tuple[int, int, int, int]) -> dict[int, set[str]]:
    """Empty cells of the ``growth`` window next to an occupied one, each with the terrain
    letters around it (the castle's included)."""
    r0, c0, r1, c1 = growth
    touch: dict[int, set[str]] = {}
    for r in range(r0, r1 + 1):
        for i in range(r * size + c0, r * size + c1 + 1):
            if terrain[i] == EMPTY:
                near = {terrain[k] for k in near_table[i]}
                near.discard(EMPTY)
                if near:
                    touch[i] = near
    return touch


def can_place(terrain: str, size: int, grid: int, domino: Domino) -> bool:
    """True when the domino has at least one legal placement (else it must be discarded)."""
    return bool(legal_placements(terrain, size, grid, domino))
