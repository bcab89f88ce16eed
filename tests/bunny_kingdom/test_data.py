"""The component data: what the rulebook's component list and the board say."""

from __future__ import annotations

from collections import Counter

from engines.bunny_kingdom.data import (
    BASE_RESOURCE,
    CORNER,
    DECK,
    EDGE,
    KINDS,
    LAVA,
    NEIGHBOURS,
    START_CITIES,
    TERRAIN,
    kind_of,
)


def test_182_cards_100_territories_42_buildings_3_provisions_37_parchments():
    categories = Counter(kind_of(c).category for c in DECK)
    assert len(DECK) == len(set(DECK)) == 182
    assert categories["territory"] == 100 and categories["provisions"] == 3
    assert categories["scroll"] == 37
    buildings = sum(categories[c] for c in ("city", "farm", "trading_post", "sky_tower", "camp"))
    assert buildings == 42


def test_buildings_21_cities_12_farms_3_sky_towers_6_camps():
    kinds = Counter(kind_of(c).id for c in DECK)
    assert (kinds["city_1"], kinds["city_2"], kinds["city_3"]) == (9, 9, 3)
    farms = sum(v for k, v in kinds.items() if KINDS[k].category in ("farm", "trading_post"))
    assert farms == 12 and kinds["trading_post"] == 2
    assert kinds["sky_tower"] == 3
    assert sorted(k for k in kinds if k.startswith("camp_")) == [f"camp_{n}" for n in range(1, 7)]
    assert KINDS["city_3"].terrains == ("mountain",)
    assert {KINDS[k].terrains for k in ("farm_wood", "farm_fish", "farm_carrots")} == {()}


def test_board_terrain_counts_and_cities():
    counts = Counter(TERRAIN)
    assert counts == {"plains": 26, "city": 18, "mountain": 16, "forest": 15, "sea": 15,
                      "field": 10}
    assert len(START_CITIES) == 18 and all(TERRAIN[i] == "city" for i in START_CITIES)
    resources = {t: BASE_RESOURCE[i] for i, t in enumerate(TERRAIN)}
    assert resources == {"forest": "wood", "sea": "fish", "field": "carrots", "plains": None,
                         "mountain": None, "city": None}


def test_lava_separates_mountains_only_and_cuts_adjacency():
    assert len(LAVA) == 8
    for pair in LAVA:
        a, b = sorted(pair)
        assert TERRAIN[a] == TERRAIN[b] == "mountain"
        assert b not in NEIGHBOURS[a] and a not in NEIGHBOURS[b]


def test_edges_and_corners():
    assert sum(EDGE) == 36 and [i for i, c in enumerate(CORNER) if c] == [0, 9, 90, 99]
