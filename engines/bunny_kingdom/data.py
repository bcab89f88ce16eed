"""Component data: the New World board and the 182 exploration cards, loaded once at import.

The JSON files in ``data/`` are copies of the researched data (see ``data/SOURCES.md`` for where
each fact comes from and which questions are open). Cells are indexed 0..99 row-major:
``index = row * 10 + column`` with row A at the top and column 1 on the left, so ``A1`` is 0,
``A10`` is 9 and ``J10`` is 99 (the printed board's convention: letter = row, number = column).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

DATA_DIR = Path(__file__).parent / "data"
_BOARD: dict[str, Any] = json.loads((DATA_DIR / "board.json").read_text(encoding="utf-8"))
_CARDS: dict[str, Any] = json.loads((DATA_DIR / "cards.json").read_text(encoding="utf-8"))

SIZE = 10
ROWS = "ABCDEFGHIJ"
CELLS = SIZE * SIZE
COORDS: tuple[str, ...] = tuple(f"{r}{c}" for r in ROWS for c in range(1, SIZE + 1))
INDEX: dict[str, int] = {c: i for i, c in enumerate(COORDS)}

#: resources a territory's terrain produces (plains, mountains and city spaces give none)
BASIC_RESOURCES: tuple[str, ...] = tuple(r["id"] for r in _CARDS["resources"]["basic"])
LUXURY_RESOURCES: tuple[str, ...] = tuple(r["id"] for r in _CARDS["resources"]["luxury"])
RESOURCES: tuple[str, ...] = BASIC_RESOURCES + LUXURY_RESOURCES

_by_coord = {cell["coord"]: cell for cell in _BOARD["cells"]}
TERRAIN: tuple[str, ...] = tuple(_by_coord[c]["terrain"] for c in COORDS)
BASE_RESOURCE: tuple[str | None, ...] = tuple(_by_coord[c]["base_resource"] for c in COORDS)
EDGE: tuple[bool, ...] = tuple(_by_coord[c]["edge"] for c in COORDS)
CORNER: tuple[bool, ...] = tuple(_by_coord[c]["corner"] for c in COORDS)
#: the 18 pre-printed neutral strength-1 cities
START_CITIES: tuple[int, ...] = tuple(INDEX[c] for c in _BOARD["starting_cities"])
#: lava flows: pairs of cells that touch but are NOT connected
LAVA: frozenset[frozenset[int]] = frozenset(
    frozenset((INDEX[e["a"]], INDEX[e["b"]])) for e in _BOARD["lava_edges"]
)


def _neighbours(i: int) -> tuple[int, ...]:
    """Orthogonal neighbours of cell ``i`` that no lava flow separates from it."""
    r, c = divmod(i, SIZE)
    out = []
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        rr, cc = r + dr, c + dc
        if 0 <= rr < SIZE and 0 <= cc < SIZE:
            j = rr * SIZE + cc
            if frozenset((i, j)) not in LAVA:
                out.append(j)
    return tuple(out)


NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(_neighbours(i) for i in range(CELLS))


@dataclass(frozen=True)
class Kind:
    """One kind of exploration card (a card id without its ``#n`` copy suffix)."""

    id: str
    #: territory | city | farm | trading_post | sky_tower | camp | provisions | scroll
    category: str
    copies: int = 1
    coord: str = ""
    strength: int = 0
    resource: str = ""
    #: terrains the building may be placed on; empty = any territory you control
    terrains: tuple[str, ...] = ()
    priority: int = 0
    treasure: bool = False
    scoring: dict[str, Any] = field(default_factory=dict)

    @property
    def is_building(self) -> bool:
        return self.category in BUILDING_CATEGORIES


BUILDING_CATEGORIES = frozenset({"city", "farm", "trading_post", "sky_tower", "camp"})


def _load_kinds() -> dict[str, Kind]:
    kinds: dict[str, Kind] = {}
    for card in _CARDS["territory_cards"]:
        kinds[card["coord"]] = Kind(card["coord"], "territory", coord=card["coord"])
    for card in _CARDS["building_cards"]:
        category = card["category"]
        if category == "farm" and card["farm_type"] == "trading_post":
            category = "trading_post"
        kinds[card["id"]] = Kind(
            card["id"], category, copies=card["copies"],
            strength=card.get("strength", 0),
            resource=card.get("resource", "") if category == "farm" else "",
            terrains=tuple(card.get("terrain_requirement") or ()),
            priority=card.get("priority", 0),
        )
    for card in _CARDS["provisions_cards"]:
        kinds[card["id"]] = Kind(card["id"], "provisions", copies=card["copies"])
    for card in _CARDS["parchment_cards"]:
        kinds[card["id"]] = Kind(
            card["id"], "scroll", copies=card["copies"],
            treasure=card["parchment_type"] == "treasure", scoring=card["scoring"],
        )
    return kinds


KINDS: dict[str, Kind] = _load_kinds()


def _deck() -> tuple[str, ...]:
    ids = []
    for kind in KINDS.values():
        if kind.copies == 1:
            ids.append(kind.id)
        else:
            ids.extend(f"{kind.id}#{n}" for n in range(1, kind.copies + 1))
    return tuple(ids)


#: every card instance id, in data order (the unshuffled deck)
DECK: tuple[str, ...] = _deck()
SCROLLS: tuple[str, ...] = tuple(k.id for k in KINDS.values() if k.category == "scroll")
TREASURES: tuple[str, ...] = tuple(k.id for k in KINDS.values() if k.treasure)
COPY_SCROLLS = frozenset(k.id for k in KINDS.values() if k.scoring.get("type") == "copy")
CAMPS: tuple[str, ...] = tuple(
    sorted((k.id for k in KINDS.values() if k.category == "camp"), key=lambda i: KINDS[i].priority)
)


def kind_of(card: str) -> Kind:
    """``'city_2#4'`` -> the city_2 kind; ``'A1'`` -> the A1 territory kind."""
    return KINDS[card.split("#", 1)[0]]


#: which strength a city building has (pre-printed cities are ``city_1``)
CITY_STRENGTH: dict[str, int] = {k.id: k.strength for k in KINDS.values() if k.category == "city"}
#: building on the board -> resource it adds (basic and luxury farms)
FARM_RESOURCE: dict[str, str] = {k.id: k.resource for k in KINDS.values() if k.category == "farm"}

#: hand size per player count (2 players: 10 in hand + 10 in the face-down reserve)
HAND_SIZE = {2: 10, 3: 12, 4: 10}
ROUNDS = 4
#: rabbits of one colour; with 3 players the spare colour may be used (*у грі втрьох учасники
#: можуть використовувати фігурки четвертого кольору*), so only 2 and 4 players run out
RABBITS = 36

assert len(DECK) == 182, len(DECK)
assert len(SCROLLS) == 37 and len(TREASURES) == 8
