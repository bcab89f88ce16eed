"""Scoring: one test per building type (24), troops doubling, roads (example 5), ranking."""

from __future__ import annotations

import pytest

from engines.dwoch_nastepcow import GAME, scoring
from engines.dwoch_nastepcow.geometry import facing
from engines.dwoch_nastepcow.roads import roads
from engines.dwoch_nastepcow.rules import available_resources

from .helpers import BLUE, WHITE, base_points, blank, line_points, put, tile, troop


def board(**cells):
    """blank() plus tiles: cell=(building, colour, owner[, face][, extra dict]).

    ``road_to`` in the extra dict gives road edges as seen on the table; they are stored as
    printed, so blue's (turned 180°) are flipped.
    """
    s = blank()
    for i, (cell, spec) in enumerate(sorted(cells.items())):
        building, colour, owner, *rest = spec
        face = next((r for r in rest if isinstance(r, str)), "up")
        extra = dict(next((r for r in rest if isinstance(r, dict)), {}))
        if "road_to" in extra:
            extra["roads"] = [facing(e, owner) for e in extra.pop("road_to")]
        put(s, cell, tile(f"X{i}", building, colour, **extra), owner=owner, face=face)
    return s


def terrain(colour):
    return ("cathedral", colour, None, "down")


# --- Travel -------------------------------------------------------------------------------
def test_inn_counts_tiles_in_its_row_up_to_3_each_way():
    s = board(M13=("inn", "grey", WHITE, {"axis": "row"}),
              L13=("market", "grey", BLUE), K13=terrain("green"), J13=("mill", "yellow", WHITE),
              I13=("mill", "yellow", WHITE),  # 4 spaces away: no
              P13=("market", "grey", WHITE),  # 3 spaces away past a gap: yes
              M12=("market", "grey", WHITE))  # the column does not count for a row Inn
    assert base_points(s, "M13") == 1 + 3 + 1


def test_inn_column_and_the_maximum_of_7():
    cells = {"M13": ("inn", "grey", BLUE, {"axis": "column"})}
    for row in (10, 11, 12, 14, 15, 16, 17, 9):
        cells[f"M{row}"] = terrain("grey")
    cells["L13"] = terrain("grey")
    assert base_points(board(**cells), "M13") == 7


def test_market_counts_orthogonal_neighbours_max_5():
    s = board(M13=("market", "yellow", WHITE), N13=("mill", "grey", BLUE), M12=terrain("green"),
              L14=("mill", "grey", BLUE))  # diagonal: no
    assert base_points(s, "M13") == 1 + 2
    s = board(M13=("market", "yellow", WHITE), N13=terrain("grey"), M12=terrain("grey"),
              L13=terrain("grey"), M14=terrain("grey"))
    assert base_points(s, "M13") == 5


def test_pilgrimage_site_scores_its_longest_road_and_at_least_1():
    s = board(M13=("pilgrimage_site", "green", WHITE, {"road_to": ["E", "S"]}),
              N13=("market", "grey", BLUE, {"road_to": ["E", "W"]}),
              O13=("market", "grey", WHITE, {"road_to": ["E", "W"]}),
              P13=("market", "grey", BLUE, {"road_to": ["W"]}),
              M14=("market", "grey", WHITE, {"road_to": ["N"]}))
    assert base_points(s, "M13") == 4  # M13-N13-O13-P13, whoever owns them
    alone = board(M13=("pilgrimage_site", "green", WHITE, {"road_to": ["E"]}))
    assert base_points(alone, "M13") == 1


def test_robber_barony_2_per_rival_building_beside_it():
    s = board(M13=("robber_barony", "green", WHITE), N13=("mill", "grey", BLUE),
              M12=("mill", "grey", BLUE), L13=("mill", "grey", WHITE),
              M14=terrain("grey"), L12=("mill", "grey", BLUE))  # diagonal: no
    assert base_points(s, "M13") == 2 + 2 * 2


# --- Lands & Industry --------------------------------------------------------------------
@pytest.mark.parametrize("building, colour, other", [
    ("mill", "yellow", "grey"), ("mine", "grey", "green"), ("barn", "green", "yellow")])
def test_mill_mine_barn_count_the_joined_area_of_their_colour(building, colour, other):
    s = board(M13=(building, other, WHITE),
              N13=("market", colour, BLUE), O13=("market", colour, WHITE),
              O12=terrain(colour),  # joined through O13
              M14=terrain(colour),  # joined directly
              L13=("market", other, WHITE), K13=("market", colour, WHITE),  # cut off
              L12=("market", colour, WHITE))  # only diagonal: no
    assert base_points(s, "M13") == 1 + 4


def test_mill_on_a_yellow_tile_counts_itself_once():
    s = board(M13=("mill", "yellow", WHITE), M14=terrain("yellow"))
    assert base_points(s, "M13") == 2


@pytest.mark.parametrize("building, colour", [
    ("bakery", "yellow"), ("smithy", "grey"), ("guardhouse", "green")])
def test_bakery_smithy_guardhouse_count_buildings_on_their_colour(building, colour):
    s = board(M13=(building, colour, WHITE),
              N13=("market", colour, WHITE), K10=("market", colour, BLUE),
              L13=terrain(colour),  # open terrain is not a building
              M12=("market", "yellow" if colour != "yellow" else "grey", WHITE))
    assert base_points(s, "M13") == 1 + 2


def test_camp_scores_2_unless_used():
    s = board(M13=("camp", "green", WHITE))
    assert base_points(s, "M13") == 2
    s["landscape"]["M13"]["used"] = True
    assert base_points(s, "M13") == 0


# --- Trade & Church -----------------------------------------------------------------------
@pytest.mark.parametrize("building, resource", [
    ("farm", "wheat"), ("sawmill", "wood"), ("quarry", "stone")])
def test_farm_sawmill_quarry_score_nothing_but_give_a_resource(building, resource):
    s = board(M13=(building, "grey" if resource != "stone" else "green", WHITE))
    troop(s, WHITE, 0, "K10")
    put(s, "K10", tile("K", colour="yellow" if resource != "wheat" else "green"), face="down")
    troop(s, BLUE, 0, "A1")
    assert base_points(s, "M13") == 0
    assert available_resources(s, WHITE)[resource] == 1


def test_trading_post_3_per_own_producer_shown_on_it():
    s = board(M13=("trading_post", "yellow", WHITE, {"counts": ["farm", "sawmill", "quarry"]}),
              A1=("farm", "yellow", WHITE), A2=("sawmill", "green", WHITE),
              A3=("quarry", "grey", BLUE), A4=("farm", "yellow", WHITE))
    assert base_points(s, "M13") == 3 * 3
    s["tiles"][s["landscape"]["M13"]["tile"]]["counts"] = ["sawmill"]
    assert base_points(s, "M13") == 3


def test_each_printed_trading_post_counts_only_its_own_producers():
    """TC7 shows Sawmills and Quarries, TC8 Farms and Quarries (data/README.md): a Farm
    next to TC7 earns it nothing, a Quarry counts for both."""
    s = blank()
    put(s, "M13", "TC7", owner=WHITE)
    put(s, "M14", "TC8", owner=WHITE)
    put(s, "A1", tile("F", "farm", "yellow"), owner=WHITE)
    put(s, "A2", tile("Q", "quarry", "grey"), owner=WHITE)
    put(s, "A3", tile("S", "sawmill", "green"), owner=BLUE)
    assert s["tiles"]["TC7"]["counts"] == ["sawmill", "quarry"]
    assert base_points(s, "M13") == 3  # the quarry; the farm is not shown on TC7
    assert base_points(s, "M14") == 6  # the farm and the quarry


def test_cathedral_5():
    assert base_points(board(M13=("cathedral", "grey", BLUE)), "M13") == 5


# --- War ----------------------------------------------------------------------------------
def test_siege_tower_scores_nothing():
    s = board(M13=("siege_tower", "grey", WHITE), N13=("siege_tower", "grey", WHITE))
    assert base_points(s, "M13") == 0 and line_points(s, WHITE, "siege_tower") == []


def test_fortress_1_per_own_siege_tower_and_fortress_itself_included():
    s = board(M13=("fortress", "grey", WHITE), A1=("siege_tower", "grey", WHITE),
              A2=("siege_tower", "grey", WHITE), A3=("fortress", "grey", WHITE),
              A4=("siege_tower", "grey", BLUE), A5=("fortress", "grey", BLUE))
    assert base_points(s, "M13") == 4
    assert base_points(s, "A5") == 2  # blue: its own tower and itself


# --- Patrol -------------------------------------------------------------------------------
def test_watchtower_counts_its_colour_along_its_arrow_and_turns_with_its_owner():
    cells = dict(M12=terrain("green"), M10=("market", "green", BLUE),  # north, past a gap
                 M11=None, M14=terrain("green"), M16=terrain("green"),  # south
                 N12=terrain("green"), M9=terrain("grey"))
    cells = {k: v for k, v in cells.items() if v}
    white = board(M13=("watchtower", "green", WHITE, {"arrows": ["N"]}), **cells)
    assert base_points(white, "M13") == 1 + 2
    blue = board(M13=("watchtower", "green", BLUE, {"arrows": ["N"]}), **cells)
    assert base_points(blue, "M13") == 1 + 2  # its "up" points south: M14, M16
    blue["landscape"]["M16"]["tile"] = blue["landscape"]["M9"]["tile"]  # now grey
    assert base_points(blue, "M13") == 1 + 1


def test_garrison_2_per_watchtower_on_its_diagonals_at_any_distance():
    s = board(M13=("garrison", "grey", WHITE),
              N12=("watchtower", "grey", WHITE, {"arrows": ["N"]}),
              P10=("watchtower", "green", BLUE, {"arrows": ["N"]}),  # far, rival's
              J16=("watchtower", "green", BLUE, {"arrows": ["N"]}),
              M12=("watchtower", "green", WHITE, {"arrows": ["N"]}))  # orthogonal: no
    assert base_points(s, "M13") == 2 * 3


# --- Craft ----------------------------------------------------------------------------------
@pytest.mark.parametrize("building, layout", [
    ("basket_shop", {"W": "green", "E": "yellow"}),
    ("pottery", {"NE": "yellow", "SW": "grey"}),
    ("cooper", {"N": "grey", "S": "green"}),
])
def test_craft_shops_score_3_for_their_pair_in_the_printed_layout(building, layout):
    from engines.dwoch_nastepcow.geometry import OPPOSITE, step

    def shop(owner):
        cells = {"M13": (building, "grey", owner, {"layout": layout})}
        for direction, colour in layout.items():
            d = direction if owner == WHITE else OPPOSITE[direction]
            cells[step("M13", d)] = terrain(colour) if direction in ("W", "NE", "N") else (
                "market", colour, BLUE)  # anyone's tiles and open terrain count
        return board(**cells)

    assert base_points(shop(WHITE), "M13") == 3
    assert base_points(shop(BLUE), "M13") == 3  # blue's layout is turned 180°
    s = shop(WHITE)
    first, want = next(iter(layout.items()))
    wrong = next(c for c in ("green", "yellow", "grey") if c != want)
    put(s, step("M13", first), tile("WRONG", colour=wrong), face="down")
    assert base_points(s, "M13") == 0  # a wrong colour: nothing
    lone = board(M13=(building, "grey", WHITE, {"layout": layout}))
    assert base_points(lone, "M13") == 0


def test_guild_scores_nothing_and_makes_its_craft_4_a_pair():
    layout = {"W": "green", "E": "yellow"}
    s = board(M13=("basket_shop", "grey", WHITE, {"layout": layout}),
              L13=terrain("green"), N13=terrain("yellow"),
              A1=("guild", "grey", WHITE, {"boosts": "basket_shop"}),
              A2=("guild", "grey", WHITE, {"boosts": "basket_shop"}))  # two do not stack
    assert base_points(s, "M13") == 4
    assert base_points(s, "A1") == 0
    s["landscape"]["A1"]["owner"] = s["landscape"]["A2"]["owner"] = BLUE
    assert base_points(s, "M13") == 3  # the rival's Guild does not help
    s["landscape"]["A1"]["owner"] = WHITE
    s["tiles"][s["landscape"]["A1"]["tile"]]["boosts"] = "pottery"
    assert base_points(s, "M13") == 3  # a Guild of another craft does not help


def test_every_building_type_has_an_effect_and_a_test_here():
    assert set(scoring.EFFECTS) == {
        "inn", "market", "pilgrimage_site", "robber_barony", "mill", "mine", "barn", "bakery",
        "camp", "smithy", "guardhouse", "farm", "sawmill", "quarry", "trading_post",
        "cathedral", "siege_tower", "fortress", "watchtower", "garrison", "basket_shop",
        "pottery", "cooper", "guild"}


# --- troops double -----------------------------------------------------------------------
def test_own_troop_on_own_building_doubles_it_a_rival_troop_does_not():
    s = board(M13=("cathedral", "grey", WHITE), N13=("cathedral", "grey", WHITE))
    troop(s, WHITE, 0, "M13")
    troop(s, BLUE, 0, "N13")
    assert sorted(line_points(s, WHITE, "cathedral")) == [5, 10]
    assert GAME.totals(s)[BLUE] == 0


# --- roads ---------------------------------------------------------------------------------
def example_5():
    """Rulebook example 5: road A joins 3 white buildings; B joins 2 blue and 1 white; C joins
    2 white and 2 blue; D touches 1 blue building only."""
    return board(
        # road A, row 3: a crossroads end, a straight piece, a dead end
        B3=("cathedral", "grey", WHITE, {"road_to": ["N", "E", "S", "W"]}),
        C3=("cathedral", "grey", WHITE, {"road_to": ["E", "W"]}),
        D3=("cathedral", "grey", WHITE, {"road_to": ["W"]}),
        # road B, row 6
        B6=("cathedral", "grey", BLUE, {"road_to": ["E"]}),
        C6=("cathedral", "grey", BLUE, {"road_to": ["E", "W"]}),
        D6=("cathedral", "grey", WHITE, {"road_to": ["W"]}),
        # road C, row 9, with a bend
        B9=("cathedral", "grey", WHITE, {"road_to": ["E"]}),
        C9=("cathedral", "grey", BLUE, {"road_to": ["W", "S"]}),
        C10=("cathedral", "grey", WHITE, {"road_to": ["N", "E"]}),
        D10=("cathedral", "grey", BLUE, {"road_to": ["W"]}),
        # road D
        B13=("cathedral", "grey", BLUE, {"road_to": ["E"]}),
    )


def test_example_5_roads_A3_white_B1_blue_C0_D0():
    s = example_5()
    assert line_points(s, WHITE, "road") == [3]
    assert line_points(s, BLUE, "road") == [1]
    assert scoring.road_points(scoring.Context(s)) == [[(3, 3, 0)], [(1, 2, 1)]]


def test_crossroads_end_each_of_their_roads_and_do_not_join_them():
    s = board(M13=("cathedral", "grey", WHITE, {"road_to": ["N", "E", "S", "W"]}),
              N13=("cathedral", "grey", WHITE, {"road_to": ["W"]}),
              L13=("cathedral", "grey", BLUE, {"road_to": ["E"]}),
              M12=("cathedral", "grey", BLUE, {"road_to": ["S"]}))
    assert sorted(sorted(r) for r in roads(s) if len(r) > 1) == [
        ["L13", "M13"], ["M12", "M13"], ["M13", "N13"]]
    assert line_points(s, WHITE, "road") == [2]  # M13+N13; the blue roads are ties


def test_pilgrimage_site_ends_roads_and_open_terrain_cuts_them():
    s = board(L13=("cathedral", "grey", WHITE, {"road_to": ["E"]}),
              M13=("pilgrimage_site", "grey", WHITE, {"road_to": ["E", "W"]}),
              N13=("cathedral", "grey", WHITE, {"road_to": ["W", "E"]}),
              O13=("cathedral", "grey", WHITE, {"road_to": ["W", "E"]}, "down"),
              P13=("cathedral", "grey", WHITE, {"road_to": ["W"]}))
    assert sorted(sorted(r) for r in roads(s)) == [["L13", "M13"], ["M13", "N13"], ["P13"]]


def test_roads_need_a_road_on_both_sides_of_the_edge():
    s = board(M13=("cathedral", "grey", WHITE, {"road_to": ["E"]}),
              N13=("cathedral", "grey", WHITE, {"road_to": ["N", "S"]}))
    assert all(len(r) == 1 for r in roads(s))


def test_no_roads_variant_scores_no_roads():
    s = example_5()
    s["roads_scored"] = False
    assert line_points(s, WHITE, "road") == []


# --- ranking -----------------------------------------------------------------------------
def test_more_points_wins_then_more_troops_in_the_reserve_then_shared():
    s = board(M13=("cathedral", "grey", WHITE), N13=("cathedral", "grey", BLUE))
    for seat in (WHITE, BLUE):
        troop(s, seat, 0, "A1")
    assert GAME.ranking(s) == [[0, 1]]
    troop(s, BLUE, 1, "A2")
    assert GAME.ranking(s) == [[WHITE], [BLUE]]
    s["landscape"]["M13"]["owner"] = BLUE
    assert GAME.ranking(s) == [[BLUE], [WHITE]]
