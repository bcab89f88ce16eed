"""The tile set, loaded once from ``data/tiles.json`` (a reconstruction: see data/README.md).

The file is checked on import against every fact the rulebook gives, so a correction that
breaks one (a set with 4 green tiles, an Inn that no longer costs 2 stone + 1 wheat) fails
loudly instead of quietly changing the game.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

DATA_FILE = Path(__file__).parent / "data" / "tiles.json"

#: tile colour -> the resource it gives (zielony = drewno, żółty = pszenica, szary = kamień)
COLOUR_RESOURCE = {"green": "wood", "yellow": "wheat", "grey": "stone"}
RESOURCES = ("wood", "wheat", "stone")
COLOURS = ("green", "yellow", "grey")

#: the six sets and their buildings, exactly as the rulebook lists them
RULEBOOK_SETS: dict[str, tuple[str, ...]] = {
    "travel": ("inn", "market", "pilgrimage_site", "robber_barony"),
    "lands": ("mill", "mine", "barn", "bakery", "camp", "smithy", "guardhouse"),
    "trade": ("farm", "sawmill", "quarry", "trading_post", "cathedral"),
    "war": ("siege_tower", "fortress"),
    "patrol": ("watchtower", "garrison"),
    "craft": ("basket_shop", "pottery", "cooper", "guild"),
}
CRAFT_SHOPS = ("basket_shop", "pottery", "cooper")
#: the buildings that give a resource, which a Trading Post counts (those shown on it)
PRODUCERS = ("farm", "sawmill", "quarry")
#: the colour pair each Craft shop scores (Sklep z koszykami, Garncarnia, Warsztat bednarski)
CRAFT_PAIRS = {
    "basket_shop": {"green", "yellow"},
    "pottery": {"grey", "yellow"},
    "cooper": {"grey", "green"},
}
#: costs printed in the rulebook's examples
RULEBOOK_COSTS = {
    "inn": {"stone": 2, "wheat": 1},
    "trading_post": {"wheat": 2, "wood": 1},
    "bakery": {"wheat": 2, "wood": 1},
    "watchtower": {"wheat": 1, "wood": 1, "stone": 1},
}
EDGES = ("N", "E", "S", "W")
DIRECTIONS8 = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")


def check(data: dict[str, Any]) -> None:
    """Raise ValueError if the tile data contradicts a fact from the rulebook."""
    tiles = data["tiles"]
    ids = [t["id"] for t in tiles]
    if len(ids) != len(set(ids)):
        raise ValueError("duplicate tile ids")
    if set(data["sets"]) != set(RULEBOOK_SETS):
        raise ValueError("the six sets are travel, lands, trade, war, patrol, craft")
    for name, buildings in RULEBOOK_SETS.items():
        _check_set(name, buildings, [t for t in tiles if t["set"] == name], data["sets"][name])
    for t in tiles:
        _check_tile(t)
        _check_building(t)


def _check_set(name: str, buildings: tuple[str, ...], own: list[dict[str, Any]],
               record: dict[str, Any]) -> None:
    """A set is 9 tiles, 3 of each colour, holding exactly its buildings."""
    if len(own) != 9:
        raise ValueError(f"set {name} has {len(own)} tiles, not 9")
    colours = Counter(t["colour"] for t in own)
    if colours != Counter({"green": 3, "yellow": 3, "grey": 3}):
        raise ValueError(f"set {name} is not 3 green / 3 yellow / 3 grey: {dict(colours)}")
    if {t["building"] for t in own} != set(buildings):
        raise ValueError(f"set {name} must hold exactly {buildings}")
    prefix = record["prefix"]
    if any(not t["id"].startswith(prefix) for t in own):
        raise ValueError(f"set {name}: ids start with {prefix}")


def _check_tile(t: dict[str, Any]) -> None:
    """What every tile has: a colour, a cost (the rulebook's where it prints one), roads."""
    where = t["id"]
    if t["colour"] not in COLOURS:
        raise ValueError(f"{where}: colour {t['colour']}")
    if not t["cost"] or any(r not in RESOURCES or n < 1 for r, n in t["cost"].items()):
        raise ValueError(f"{where}: cost {t['cost']}")
    if t["building"] in RULEBOOK_COSTS and t["cost"] != RULEBOOK_COSTS[t["building"]]:
        raise ValueError(f"{where}: the rulebook prints {RULEBOOK_COSTS[t['building']]}")
    if any(e not in EDGES for e in t["roads"]) or len(set(t["roads"])) != len(t["roads"]):
        raise ValueError(f"{where}: roads {t['roads']}")


def _check_building(t: dict[str, Any]) -> None:
    """What some buildings need besides: an axis, arrows, a layout, counts..."""
    where, building = t["id"], t["building"]
    if building == "inn" and t.get("axis") not in ("row", "column"):
        raise ValueError(f"{where}: an Inn needs axis row|column")
    if building == "watchtower" and (
        not t.get("arrows") or any(a not in EDGES for a in t["arrows"])
    ):
        raise ValueError(f"{where}: a Watchtower needs arrows among N/E/S/W")
    if building in CRAFT_SHOPS:
        _check_craft_shop(t)
    if building == "guild" and t.get("boosts") not in CRAFT_SHOPS:
        raise ValueError(f"{where}: a Guild boosts one of {CRAFT_SHOPS}")
    if building == "trading_post":
        _check_trading_post(t)
    if building == "pilgrimage_site" and not t["roads"]:
        raise ValueError(f"{where}: a Pilgrimage Site counts as road and needs one")


def _check_craft_shop(t: dict[str, Any]) -> None:
    where, building = t["id"], t["building"]
    layout = t.get("layout") or {}
    if len(layout) != 2 or set(layout.values()) != CRAFT_PAIRS[building]:
        raise ValueError(f"{where}: layout must place {CRAFT_PAIRS[building]}")
    if any(d not in DIRECTIONS8 for d in layout):
        raise ValueError(f"{where}: layout directions are 8-neighbours")


def _check_trading_post(t: dict[str, Any]) -> None:
    """The rulebook's "3 punkty za każdy z twoich budynków przedstawionych na Faktorii: Farmy,
    Tartaki lub Kamieniołomy" reads two ways: each post counts the kinds it shows (our
    ruling, README.md) or every post counts all three. Which one is data, not a fact: the
    check accepts both, and refuses only what neither reading allows."""
    where = t["id"]
    counts = t.get("counts") or []
    if not counts or len(set(counts)) != len(counts) or not set(counts) <= set(PRODUCERS):
        raise ValueError(f"{where}: a Trading Post counts farms/sawmills/quarries")


def _load() -> dict[str, Any]:
    data = json.loads(DATA_FILE.read_text(encoding="utf-8"))
    check(data)
    return data


DATA = _load()
#: tile id -> tile record (never mutated)
TILES: dict[str, dict[str, Any]] = {t["id"]: t for t in DATA["tiles"]}
SETS: tuple[str, ...] = tuple(RULEBOOK_SETS)
DEFAULT_SETS: tuple[str, ...] = tuple(DATA["default_sets"])


def tiles_of_sets(sets: list[str] | tuple[str, ...]) -> list[str]:
    """Ids of the tiles of the chosen sets, in data-file order."""
    return [t["id"] for t in DATA["tiles"] if t["set"] in sets]
