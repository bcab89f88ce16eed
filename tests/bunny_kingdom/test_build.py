"""The construction phase (camps in priority order, then buildings) and trading posts."""

from __future__ import annotations

import pytest

from engines.base import IllegalAction
from engines.bunny_kingdom import GAME
from engines.bunny_kingdom.data import CELLS, INDEX, kind_of
from engines.bunny_kingdom.rules import advance
from tests.bunny_kingdom.helpers import board_only, give_waiting, own, put

A, B, C = 0, 1, 2


def construction(players=3):
    """A blank board in round 1's construction phase (camps first)."""
    s = board_only(players)
    s.update(phase="camps", round=1, camps_offered=[], done=[False] * players)
    return s


def go(s, seat, code):
    return GAME.apply(s, seat, code)[0]


def test_camps_are_offered_lowest_number_first():
    s = construction()
    give_waiting(s, A, "camp_5")
    give_waiting(s, B, "camp_2")
    give_waiting(s, C, "camp_4")
    assert GAME.to_act(s) == [B]
    assert GAME.view(s, None)["camp_offer"] == {"seat": B, "card": "camp_2"}
    s = go(s, B, "build camp_2 E5")
    assert GAME.to_act(s) == [C]
    s = go(s, C, "keep")
    assert GAME.to_act(s) == [A]
    s = go(s, A, "build camp_5 F6")
    assert s["owner"][INDEX["E5"]] == B and s["building"][INDEX["E5"]] == "camp_2"
    assert kind_of(s["waiting"][C][0]).id == "camp_4"  # kept for a later round
    assert s["phase"] != "camps"


def test_a_camp_goes_only_on_an_unoccupied_territory():
    s = construction()
    give_waiting(s, A, "camp_1")
    own(s, B, "E5")
    legal = GAME.legal_actions(s, A)
    assert "build camp_1 E5" not in legal  # a rabbit there
    assert "build camp_1 A4" not in legal  # a printed city there
    assert "build camp_1 E4" in legal and "keep" in legal
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, A, "build camp_1 A4")
    assert err.value.key == "bunny_kingdom.rule.camp_unoccupied"


def test_only_the_offered_camp_may_be_placed():
    s = construction()
    give_waiting(s, A, "camp_1", "camp_3")
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, A, "build camp_3 E4")
    assert err.value.key == "bunny_kingdom.rule.camp_order"


def build_phase(players=3):
    s = construction(players)
    s["phase"] = "build"
    return s


def test_buildings_only_on_your_own_territories_one_per_territory():
    s = build_phase()
    own(s, A, "E4", "A4")
    own(s, B, "E5")
    give_waiting(s, A, "city_2", "city_2")
    legal = GAME.legal_actions(s, A)
    assert "build city_2 E4" in legal
    assert "build city_2 E5" not in legal  # B's
    assert "build city_2 A4" not in legal  # already a city
    for code, key in (("build city_2 E5", "bunny_kingdom.rule.not_your_territory"),
                      ("build city_2 A4", "bunny_kingdom.rule.one_building"),
                      ("build city_2 J10", "bunny_kingdom.rule.not_your_territory")):
        with pytest.raises(IllegalAction) as err:
            GAME.apply(s, A, code)
        assert err.value.key == key


def test_strength_3_cities_only_on_mountains():
    s = build_phase()
    own(s, A, "B1", "A1")
    give_waiting(s, A, "city_3")
    legal = GAME.legal_actions(s, A)
    assert "build city_3 B1" in legal and "build city_3 A1" not in legal
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, A, "build city_3 A1")
    assert err.value.key == "bunny_kingdom.rule.terrain"


@pytest.mark.parametrize("farm,good,bad", [
    ("farm_pearl", "A5", "A1"), ("farm_mushroom", "A1", "A5"), ("farm_spices", "C7", "A1"),
    ("farm_diamond", "B1", "A1"), ("farm_copper", "B1", "C7"), ("farm_gold", "B1", "A5"),
    ("farm_iron", "B1", "E2"),
])
def test_luxury_farms_need_their_terrain(farm, good, bad):
    s = build_phase()
    own(s, A, good, bad)
    give_waiting(s, A, farm)
    legal = GAME.legal_actions(s, A)
    assert f"build {farm} {good}" in legal and f"build {farm} {bad}" not in legal


def test_basic_farms_and_trading_posts_go_anywhere_you_control():
    s = build_phase()
    own(s, A, "B1", "A5", "E2")
    give_waiting(s, A, "farm_wood", "trading_post")
    legal = set(GAME.legal_actions(s, A))
    for coord in ("B1", "A5", "E2"):
        assert {f"build farm_wood {coord}", f"build trading_post {coord}"} <= legal


def test_sky_tower_joins_two_of_your_territories_in_different_fiefs():
    s = build_phase()
    own(s, A, "A1", "A2", "J10")
    give_waiting(s, A, "sky_tower")
    legal = GAME.legal_actions(s, A)
    assert "build sky_tower A1 J10" in legal and "build sky_tower J10 A2" in legal
    assert "build sky_tower A1 A2" not in legal
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, A, "build sky_tower A1 A2")
    assert err.value.key == "bunny_kingdom.rule.tower_fiefs"
    s = go(s, A, "build sky_tower A1 J10")
    assert s["towers"] == [[INDEX["A1"], INDEX["J10"]]]
    assert s["building"][INDEX["A1"]] == s["building"][INDEX["J10"]] == "sky_tower"
    assert len(GAME.view(s, None)["board"]["towers"]) == 1


def test_building_phase_is_simultaneous_and_ends_when_all_are_done():
    s = build_phase()
    own(s, A, "E4")
    own(s, B, "E7")
    give_waiting(s, A, "city_1")
    give_waiting(s, B, "city_2", "farm_wood")
    assert GAME.to_act(s) == [A, B]  # C has nothing to build: not asked
    s = go(s, B, "build city_2 E7")
    assert GAME.to_act(s) == [A]  # B's farm has nowhere left to go
    s = go(s, A, "done")
    assert s["phase"] not in ("build", "camps")
    assert [kind_of(c).id for c in s["waiting"][A]] == ["city_1"]  # kept for later


def test_built_cards_go_to_the_personal_discard():
    s = build_phase()
    own(s, A, "E4")
    (card,) = give_waiting(s, A, "city_1")
    s = go(s, A, "build city_1 E4")
    assert card in s["discard"][A] and not s["waiting"][A]


def trade_phase():
    s = board_only(3)
    own(s, A, "G5", "G4")
    put(s, "G4", "trading_post")
    own(s, A, "J5")
    put(s, "J5", "trading_post")
    s.update(phase="trade", round=1, posts={})
    return s


def test_each_trading_post_chooses_a_basic_resource_before_the_harvest():
    s = trade_phase()
    assert GAME.to_act(s) == [A]
    legal = GAME.legal_actions(s, A)
    assert sorted(legal) == sorted(f"trade {c} {r}" for c in ("G4", "J5")
                                   for r in ("wood", "fish", "carrots"))
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, A, "trade G4 gold")
    assert err.value.key == "bunny_kingdom.rule.post_basic"
    s = go(s, A, "trade G4 wood")
    assert GAME.to_act(s) == [A] and s["round"] == 1
    s = go(s, A, "trade J5 carrots")
    assert s["round"] == 2  # harvested, next round dealt
    assert s["harvests"][0][A][0]["resources"] == ["wood"]


def test_trading_post_choice_is_made_again_each_harvest():
    s = trade_phase()
    s = go(s, A, "trade G4 wood")
    s = go(s, A, "trade J5 carrots")
    # next harvest: the choice is open again
    s.update(phase="build", done=[True, True, True])
    advance(s, [])
    assert s["phase"] == "trade" and s["posts"] == {}
    assert GAME.to_act(s) == [A]


def test_no_building_anywhere_skips_the_phase():
    s = construction()
    events = []
    advance(s, events)
    assert s["round"] == 2 and s["phase"] == "explore"
    assert [e["key"] for e in events][:2] == ["bunny_kingdom.event.harvest"] * 2


def test_one_building_per_territory_everywhere():
    s = build_phase()
    cells = [i for i in range(CELLS) if s["building"][i]]
    assert len(cells) == 18  # the printed cities
