"""The reconstructed tile set respects every fact the rulebook and public sources give."""

from __future__ import annotations

import copy
import json
from collections import Counter

import pytest

from engines.dwoch_nastepcow import data

BY_SET = {
    "travel": {"inn", "market", "pilgrimage_site", "robber_barony"},
    "lands": {"mill", "mine", "barn", "bakery", "camp", "smithy", "guardhouse"},
    "trade": {"farm", "sawmill", "quarry", "trading_post", "cathedral"},
    "war": {"siege_tower", "fortress"},
    "patrol": {"watchtower", "garrison"},
    "craft": {"basket_shop", "pottery", "cooper", "guild"},
}


def test_54_tiles_in_6_sets_of_9():
    assert len(data.TILES) == 54
    assert Counter(t["set"] for t in data.TILES.values()) == {s: 9 for s in BY_SET}


@pytest.mark.parametrize("name", sorted(BY_SET))
def test_each_set_is_3_green_3_yellow_3_grey(name):
    colours = Counter(t["colour"] for t in data.TILES.values() if t["set"] == name)
    assert colours == {"green": 3, "yellow": 3, "grey": 3}


@pytest.mark.parametrize("name", sorted(BY_SET))
def test_buildings_by_set_exactly_as_the_rulebook_lists_them(name):
    assert {t["building"] for t in data.TILES.values() if t["set"] == name} == BY_SET[name]


@pytest.mark.parametrize("building, cost", [
    ("inn", {"stone": 2, "wheat": 1}),
    ("trading_post", {"wheat": 2, "wood": 1}),
    ("bakery", {"wheat": 2, "wood": 1}),
    ("watchtower", {"wheat": 1, "wood": 1, "stone": 1}),
])
def test_costs_printed_in_the_rulebook(building, cost):
    tiles = [t for t in data.TILES.values() if t["building"] == building]
    assert tiles and all(t["cost"] == cost for t in tiles)


def test_directional_effects_are_tile_data():
    for t in data.TILES.values():
        if t["building"] == "inn":
            assert t["axis"] in ("row", "column")
        if t["building"] == "watchtower":
            assert t["arrows"]
        if t["building"] in ("basket_shop", "pottery", "cooper"):
            assert len(t["layout"]) == 2
        if t["building"] == "pilgrimage_site":
            assert t["roads"]
    assert any(len(t["roads"]) == 4 for t in data.TILES.values()), "crossroads exist"


def test_file_says_it_is_a_reconstruction_and_has_a_readme():
    about = " ".join(data.DATA["_about"])
    assert "RECONSTRUCTION" in about
    readme = data.DATA_FILE.parent / "README.md"
    assert "reconstruct" in readme.read_text(encoding="utf-8").lower()


def test_a_correction_that_breaks_a_fact_is_refused():
    broken = copy.deepcopy(data.DATA)
    inn = next(t for t in broken["tiles"] if t["building"] == "inn")
    inn["cost"] = {"stone": 1}
    with pytest.raises(ValueError, match="rulebook"):
        data.check(broken)
    broken = copy.deepcopy(data.DATA)
    next(t for t in broken["tiles"] if t["colour"] == "grey")["colour"] = "green"
    with pytest.raises(ValueError, match="3 green"):
        data.check(broken)


def test_every_tile_is_one_line_in_the_file():
    lines = [x for x in data.DATA_FILE.read_text(encoding="utf-8").splitlines()
             if x.strip().startswith('{"id"')]
    assert len(lines) == 54
    assert all(json.loads(x.rstrip().rstrip(",")) for x in lines)


def test_each_trading_post_counts_the_producers_shown_on_it():
    """"3 punkty za każdy z twoich budynków przedstawionych na Faktorii": a post names its
    own producer kinds, never all three; between them the posts show every kind."""
    posts = [t for t in data.TILES.values() if t["building"] == "trading_post"]
    assert len(posts) == 2
    for post in posts:
        assert post["counts"] and set(post["counts"]) < set(data.PRODUCERS)
    assert {kind for post in posts for kind in post["counts"]} == set(data.PRODUCERS)
    assert posts[0]["counts"] != posts[1]["counts"]


def test_the_trading_post_reading_is_a_ruling_the_check_accepts_either_way():
    """Whether a post counts the kinds it shows or all three is our ruling (README.md), not
    a fact: both readings pass the check; a post counting nothing or an unknown kind not."""
    other = copy.deepcopy(data.DATA)
    for post in (t for t in other["tiles"] if t["building"] == "trading_post"):
        post["counts"] = ["farm", "sawmill", "quarry"]
    data.check(other)
    for counts in ([], ["farm", "farm"], ["mill"]):
        broken = copy.deepcopy(data.DATA)
        next(t for t in broken["tiles"] if t["building"] == "trading_post")["counts"] = counts
        with pytest.raises(ValueError, match="counts farms/sawmills/quarries"):
            data.check(broken)
