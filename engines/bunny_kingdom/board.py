"""The New World board in a state: who controls which territory, buildings, fiefs.

State fields read here (all plain JSON):

- ``owner``: 100 ints, the seat whose rabbit stands on the cell, ``-1`` for none;
- ``building``: 100 entries, the building kind on the cell (``"city_2"``, ``"farm_gold"``,
  ``"trading_post"``, ``"sky_tower"``, ``"camp_3"``) or ``None``; pre-printed cities are
  ``"city_1"`` and stay neutral until someone plays their territory card;
- ``towers``: ``[[i, j], ...]`` one entry per Sky Tower pair built (its index is the pair number);
- ``posts``: ``{"C3": "fish"}`` the resource each trading post gives this harvest.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from engines.bunny_kingdom.data import (
    BASE_RESOURCE,
    CELLS,
    CITY_STRENGTH,
    COORDS,
    FARM_RESOURCE,
    NEIGHBOURS,
)

State = dict[str, Any]


def territories(state: State, seat: int) -> list[int]:
    """Cells the seat controls (a rabbit of theirs stands there, camps included)."""
    owner = state["owner"]
    return [i for i in range(CELLS) if owner[i] == seat]


def is_unoccupied(state: State, cell: int) -> bool:
    """*Незайнята територія*: no rabbit and no building (camps may only go there)."""
    return state["owner"][cell] < 0 and state["building"][cell] is None


def fiefs(state: State, seat: int) -> list[list[int]]:
    """The seat's fiefs (*феоди*, *księstwa*): groups of connected territories.

    Connected = orthogonally adjacent and not split by lava, or joined by a Sky Tower pair.
    Each fief is a sorted list of cells; fiefs are ordered by their first cell. A lone
    territory is a fief of one. (Memoised on the board's owners and towers: the rules and the
    computer player ask for the same fiefs many times between two moves.)
    """
    groups = _fiefs(tuple(state["owner"]), tuple(map(tuple, state["towers"])), seat)
    return [list(g) for g in groups]


@lru_cache(maxsize=256)
def _fiefs(owner: tuple[int, ...], towers: tuple[tuple[int, ...], ...], seat: int
           ) -> tuple[tuple[int, ...], ...]:
    links: dict[int, list[int]] = {}
    for a, b in towers:
        # both ends of a pair are always the builder's own territories (a tower is never removed)
        links.setdefault(a, []).append(b)
        links.setdefault(b, []).append(a)
    seen = [False] * CELLS
    out: list[tuple[int, ...]] = []
    for start in range(CELLS):
        if owner[start] != seat or seen[start]:
            continue
        seen[start] = True
        group = [start]
        stack = [start]
        while stack:
            i = stack.pop()
            for j in NEIGHBOURS[i]:
                if not seen[j] and owner[j] == seat:
                    seen[j] = True
                    group.append(j)
                    stack.append(j)
            for j in links.get(i, ()):
                if not seen[j] and owner[j] == seat:
                    seen[j] = True
                    group.append(j)
                    stack.append(j)
        out.append(tuple(sorted(group)))
    return tuple(out)


def fief_index(state: State, seat: int) -> dict[int, int]:
    """cell -> number of the seat's fief holding it."""
    return {cell: n for n, fief in enumerate(fiefs(state, seat)) for cell in fief}


def cell_resources(state: State, cell: int) -> list[str]:
    """Resources a territory produces: its terrain's and its farm's (a cell may give two).

    A trading post gives the basic resource chosen for this harvest (nothing before a choice).
    """
    out: list[str] = []
    base = BASE_RESOURCE[cell]
    if base:
        out.append(base)
    building = state["building"][cell]
    if building in FARM_RESOURCE:
        out.append(FARM_RESOURCE[building])
    elif building == "trading_post":
        chosen = state["posts"].get(COORDS[cell])
        if chosen:
            out.append(chosen)
    return out


def city_strength(state: State, cell: int) -> int:
    """Towers of the city on the cell (0 when there is no city)."""
    return CITY_STRENGTH.get(state["building"][cell] or "", 0)


def trading_posts(state: State, seat: int) -> list[int]:
    """Cells of the seat's trading posts on the board."""
    owner, building = state["owner"], state["building"]
    return [i for i in range(CELLS) if owner[i] == seat and building[i] == "trading_post"]
