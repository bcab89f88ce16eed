"""Fiefs and the harvest, with the rulebook's worked examples (rounds 2, 3 and 4).

The rulebook's pictures are not available, so the examples are laid out on the real board
with the numbers of the text: Arthur (yellow) and Alla (pink); Alla's two territories lie
between Arthur's fiefs; in round 3 the new mountain is across the C2-D2 lava flow from
Arthur's second fief, exactly the kind of split the rulebook warns about.
"""

from __future__ import annotations

import pytest

from engines.bunny_kingdom import GAME
from engines.bunny_kingdom.board import fiefs
from engines.bunny_kingdom.data import COORDS, INDEX
from engines.bunny_kingdom.harvest import fief_resources, fief_strength, harvest_fiefs
from tests.bunny_kingdom.helpers import board_only, own, put, tower

ARTHUR, ALLA = 0, 1


def names(state, seat):
    return [[COORDS[i] for i in f] for f in fiefs(state, seat)]


def round2():
    """Arthur: fief 1 of 6 territories, cities 3 (mountain) + 2 (forest) + 1 + 1, wood, fish,
    mushrooms; fief 2 of 3 territories, cities 3 + 1, carrots only. Alla: sea + plains, no city."""
    s = board_only(2)
    own(s, ARTHUR, "A2", "A3", "A4", "A5", "B2", "B3")  # A4, B3: printed cities
    put(s, "B2", "city_3")  # mountain
    put(s, "A2", "city_2")  # forest
    put(s, "A3", "farm_mushroom")  # forest (the rulebook's example)
    own(s, ARTHUR, "D2", "D3", "D4")  # D3: printed city; D4 field
    put(s, "D2", "city_3")
    own(s, ALLA, "C3", "C4")
    return s


def round3():
    s = round2()
    own(s, ARTHUR, "B4")  # sea, with a carrot farm
    put(s, "B4", "farm_carrots")
    own(s, ARTHUR, "C2")  # mountain, with a gold farm (lava C2-D2: not joined to fief 2)
    put(s, "C2", "farm_gold")
    own(s, ARTHUR, "D5")  # mountain joined to fief 2, a trading post giving fish
    put(s, "D5", "trading_post")
    s["posts"]["D5"] = "fish"
    put(s, "C3", "city_1")  # Alla builds a strength-1 city in her fief
    return s


def round4():
    s = round3()
    tower(s, "A5", "D4")  # Arthur joins his fiefs with a sky tower
    own(s, ALLA, "H2")  # field
    put(s, "H2", "city_2")
    return s


def test_round_2_example_21_plus_4():
    s = round2()
    f1, f2 = harvest_fiefs(s, ARTHUR)
    assert len(f1.cells) == 6 and f1.strength == 7
    assert f1.resources == ("fish", "mushroom", "wood") and f1.points == 21
    assert len(f2.cells) == 3 and f2.strength == 4
    assert f2.resources == ("carrots",) and f2.points == 4
    (alla,) = harvest_fiefs(s, ALLA)
    assert alla.wealth == 1 and alla.strength == 0 and alla.points == 0


def test_round_3_example_35_plus_8_through_the_engine():
    s = round3()
    s["posts"] = {}
    s.update(phase="trade", round=3)
    assert GAME.to_act(s) == [ARTHUR]
    assert sorted(GAME.legal_actions(s, ARTHUR)) == ["trade D5 carrots", "trade D5 fish",
                                                      "trade D5 wood"]
    new, events = GAME.apply(s, ARTHUR, "trade D5 fish")
    fiefs_scored = [(e["anchor"], e["strength"], e["wealth"], e["points"]) for e in events
                    if e["key"] == "bunny_kingdom.event.harvest_fief" and e["seat"] == ARTHUR]
    assert fiefs_scored == [("A2", 7, 5, 35), ("D2", 4, 2, 8)]
    total = [e for e in events if e["key"] == "bunny_kingdom.event.harvest"]
    assert [e["points"] for e in total] == [43, 1]
    assert new["score"] == [43, 1]
    assert new["round"] == 4 and new["phase"] == "explore"  # the next round is dealt


def test_round_4_example_55_sky_tower():
    s = round4()
    (f1,) = harvest_fiefs(s, ARTHUR)
    assert f1.strength == 11 and f1.wealth == 5 and f1.points == 55
    # the carrot farm and the trading post add nothing: the 3 basic resources are all there
    assert f1.resources == ("carrots", "fish", "gold", "mushroom", "wood")
    assert [f.points for f in harvest_fiefs(s, ALLA)] == [1, 2]


def test_fief_is_orthogonal_not_diagonal():
    s = board_only(2)
    own(s, ARTHUR, "E4", "F5")
    assert names(s, ARTHUR) == [["E4"], ["F5"]]
    own(s, ARTHUR, "E5")
    assert names(s, ARTHUR) == [["E4", "E5", "F5"]]


@pytest.mark.parametrize("a,b", [("B1", "B2"), ("B6", "C6"), ("C2", "D2"), ("C8", "C9"),
                                 ("D5", "D6"), ("F2", "F3"), ("I7", "J7"), ("I8", "J8")])
def test_lava_splits_fiefs(a, b):
    s = board_only(2)
    own(s, ARTHUR, a, b)
    assert len(fiefs(s, ARTHUR)) == 2


def test_sky_tower_joins_two_fiefs_and_what_touches_them():
    s = board_only(2)
    own(s, ARTHUR, "A1", "A2", "J9", "J10")
    assert len(fiefs(s, ARTHUR)) == 2
    tower(s, "A2", "J9")
    assert names(s, ARTHUR) == [["A1", "A2", "J9", "J10"]]


def test_camp_territory_belongs_to_the_fief():
    s = board_only(2)
    own(s, ARTHUR, "E4")
    s["owner"][INDEX["E5"]] = ARTHUR
    put(s, "E5", "camp_1")
    assert names(s, ARTHUR) == [["E4", "E5"]]


def test_no_city_or_no_resource_scores_nothing():
    s = board_only(2)
    own(s, ARTHUR, "A4")  # a city, no resource
    own(s, ARTHUR, "A8")  # a forest, no city
    assert [f.points for f in harvest_fiefs(s, ARTHUR)] == [0, 0]


def test_strength_counts_towers_and_wealth_distinct_resources():
    s = board_only(2)
    own(s, ARTHUR, "A1", "A2", "A3", "A4")  # three forests and a city
    put(s, "A1", "city_2")
    f = fiefs(s, ARTHUR)[0]
    assert fief_strength(s, f) == 3
    assert fief_resources(s, f) == ("wood",)  # three woods are one type


def test_a_farm_adds_its_resource_to_the_territory_resource():
    s = board_only(2)
    own(s, ARTHUR, "A5", "A4")  # sea + city
    put(s, "A5", "farm_pearl")
    (f,) = harvest_fiefs(s, ARTHUR)
    assert f.resources == ("fish", "pearl") and f.points == 2


def test_trading_post_gives_the_chosen_resource_only():
    s = board_only(2)
    own(s, ARTHUR, "A4", "E4")
    own(s, ARTHUR, "B4")
    put(s, "B4", "trading_post")  # on a sea: fish + the choice
    s["posts"]["B4"] = "fish"
    assert harvest_fiefs(s, ARTHUR)[0].resources == ("fish",)
    s["posts"]["B4"] = "wood"
    assert harvest_fiefs(s, ARTHUR)[0].resources == ("fish", "wood")
