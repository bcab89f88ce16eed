"""An independent, deliberately plain re-implementation of the harvest and the parchments,
written from the card texts (not from the engine's code or the ``scoring`` entries), used to
check the engine's numbers after random games."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

_BOARD = json.loads((Path(__file__).parents[2] / "engines" / "bunny_kingdom" / "data" /
                     "board.json").read_text(encoding="utf-8"))
TERRAIN = {c["coord"]: c["terrain"] for c in _BOARD["cells"]}
LAVA = {frozenset((e["a"], e["b"])) for e in _BOARD["lava_edges"]}
ROWS = "ABCDEFGHIJ"
COORDS = [f"{r}{c}" for r in ROWS for c in range(1, 11)]
GIVES = {"forest": "wood", "sea": "fish", "field": "carrots"}
FARM = {"farm_wood": "wood", "farm_fish": "fish", "farm_carrots": "carrots",
        "farm_pearl": "pearl", "farm_mushroom": "mushroom", "farm_spices": "spices",
        "farm_diamond": "diamond", "farm_copper": "copper", "farm_gold": "gold",
        "farm_iron": "iron"}
LUXURY = {"pearl", "mushroom", "spices", "diamond", "copper", "gold", "iron"}
STRENGTH = {"city_1": 1, "city_2": 2, "city_3": 3}
TREASURE = {"royal_ring": 1, "royal_coat": 2, "royal_scepter": 3, "royal_chalice": 4,
            "royal_crown": 5, "royal_carrot": 6, "left_glove": None, "right_glove": None}


def next_to(coord: str) -> list[str]:
    """Cells sharing a side with ``coord`` and not split from it by lava."""
    r, c = ROWS.index(coord[0]), int(coord[1:])
    out = []
    for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
        if 0 <= rr < 10 and 1 <= cc <= 10:
            other = f"{ROWS[rr]}{cc}"
            if frozenset((coord, other)) not in LAVA:
                out.append(other)
    return out


def mine(state: dict[str, Any], seat: int) -> list[str]:
    return [COORDS[i] for i, o in enumerate(state["owner"]) if o == seat]


def fiefs(state: dict[str, Any], seat: int) -> list[set[str]]:
    cells = set(mine(state, seat))
    links: dict[str, set[str]] = {}
    for a, b in state["towers"]:
        links.setdefault(COORDS[a], set()).add(COORDS[b])
        links.setdefault(COORDS[b], set()).add(COORDS[a])
    groups: list[set[str]] = []
    left = set(cells)
    while left:
        todo = [left.pop()]
        group = set(todo)
        while todo:
            cell = todo.pop()
            for other in next_to(cell) + sorted(links.get(cell, ())):
                if other in left:
                    left.discard(other)
                    group.add(other)
                    todo.append(other)
        groups.append(group)
    return groups


def produce(state: dict[str, Any], coord: str) -> list[str]:
    out = []
    if TERRAIN[coord] in GIVES:
        out.append(GIVES[TERRAIN[coord]])
    building = state["building"][COORDS.index(coord)]
    if building in FARM:
        out.append(FARM[building])
    if building == "trading_post" and coord in state["posts"]:
        out.append(state["posts"][coord])
    return out


def strength(state: dict[str, Any], coord: str) -> int:
    return STRENGTH.get(state["building"][COORDS.index(coord)] or "", 0)


def harvest(state: dict[str, Any], seat: int) -> list[int]:
    """Carrots of each fief: towers x distinct resources."""
    out = []
    for fief in fiefs(state, seat):
        towers = sum(strength(state, c) for c in fief)
        kinds = {r for c in fief for r in produce(state, c)}
        out.append(towers * len(kinds))
    return out


def parchments(state: dict[str, Any]) -> list[int]:
    """Each seat's total of parchment points."""
    n = state["players"]
    scored: list[dict[str, int]] = []
    opportunists: list[list[str]] = []
    counts = [len(mine(state, s)) for s in range(n)]
    for seat in range(n):
        cards = [state["copies"][seat].get(c) if c in ("liberal", "socialist") else c
                 for c in state["scrolls"][seat]]
        units: dict[str, int] = {}
        for coord in mine(state, seat):
            for r in produce(state, coord):
                units[r] = units.get(r, 0) + 1
        cities = [c for c in mine(state, seat) if strength(state, c)]
        fs = fiefs(state, seat)
        harvests = harvest(state, seat)
        treasures = [c for c in cards if c in TREASURE]

        def value(t: str, treasures: list[str] = treasures) -> int:
            points = TREASURE[t]
            if points is None:
                partner = "right_glove" if t == "left_glove" else "left_glove"
                return 4 if partner in treasures else 1
            return points

        edge = [c for c in mine(state, seat) if c[0] in "AJ" or c[1:] in ("1", "10")]
        corner = [c for c in mine(state, seat) if c in ("A1", "A10", "J1", "J10")]
        barren = [c for c in mine(state, seat) if not produce(state, c) and not strength(state, c)]
        no_res = [c for f in fs if not {r for x in f for r in produce(state, x)}
                  for c in f if strength(state, c)]
        camps = [c for c in state["waiting"][seat] + state["discard"][seat]
                 if c.startswith("camp_")]
        table = {
            "bureaucrat": len(state["scrolls"][seat]),
            "burgomaster": len(cities),
            "diplomat": len(edge),
            "explorer": 3 * len(corner),
            "carpenter": units.get("wood", 0),
            "master_carpenter": 2 * units.get("wood", 0),
            "woodland_king": 20 if units.get("wood", 0) >= 7 else 0,
            "fisher": units.get("fish", 0),
            "master_fisher": 2 * units.get("fish", 0),
            "fisher_king": 20 if units.get("fish", 0) >= 7 else 0,
            "farmer": units.get("carrots", 0),
            "master_farmer": 2 * units.get("carrots", 0),
            "carrot_king": 15 if units.get("carrots", 0) >= 5 else 0,
            "merchant": 3 * sum(v for k, v in units.items() if k in LUXURY),
            "master_of_the_mountains": 2 * sum(1 for c in mine(state, seat)
                                               if TERRAIN[c] == "mountain"),
            "carrotistador": 4 * sum(1 for f in fs if len(f) >= 3),
            "harecingetorix": len(fs),
            "hun_ny_king": 12 if len(fs) >= 10 else 0,
            "bun_shee": 2 * len(no_res),
            "panpan_the_barbarian": 2 * len(barren),
            "colonist": 3 * len(camps),
            "king_of_thieves": 12 if len(cities) >= 9 else 0,
            "matriarch": 12 if counts[seat] == max(counts) else 0,
            "little_prince": sum(harvests) - max(harvests, default=0),
            "treasure_guardian": 3 * len(treasures),
            "treasure_hunter": sum(value(t) for t in treasures),
        }
        points = {}
        opp = []
        for k, card in enumerate(cards):
            if card is None:
                points[f"{k}"] = 0
            elif card in TREASURE:
                points[f"{k}"] = value(card)
            elif card == "opportunist":
                opp.append(f"{k}")
            else:
                points[f"{k}"] = table[card]
        scored.append(points)
        opportunists.append(opp)
    before = [state["score"][s] + sum(scored[s].values()) for s in range(n)]
    out = []
    for seat in range(n):
        ahead = sum(1 for t in before if t > before[seat])
        out.append(sum(scored[seat].values()) + (10 if ahead == 1 else 0) * len(opportunists[seat]))
    return out
