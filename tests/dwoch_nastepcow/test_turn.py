"""The actions of a turn: build, open terrain, troops, Camp, siege, hand limit, last round."""

from __future__ import annotations

import pytest

from engines.base import IllegalAction
from engines.dwoch_nastepcow import GAME
from engines.dwoch_nastepcow.roads import road_edges
from engines.dwoch_nastepcow.rules import available_resources

from .helpers import BLUE, WHITE, blank, put, reserve, snapshot, tile, troop

INN = {"stone": 2, "wheat": 1}
TRADING_POST = {"wheat": 2, "wood": 1}
BAKERY = {"wheat": 2, "wood": 1}
WATCHTOWER = {"wheat": 1, "wood": 1, "stone": 1}


def illegal(state, seat, code, key):
    before = snapshot(state)
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, seat, code)
    assert err.value.key == f"dwoch_nastepcow.rule.{key}", err.value.key
    assert snapshot(state) == before
    assert code not in GAME.legal_actions(state, seat)


def took(state):
    """Mark the tile of this turn as taken (the shield shows the opponent)."""
    state["turn"]["took"] = 1
    return state


# --- resources and building ---------------------------------------------------------------
def example_2():
    """Rulebook example 2: white has reach 2 (1 troop still in the reserve) reaching 1 stone
    and 1 wood; a troop on a yellow building and one on grey open terrain; a Farm built
    earlier. In all: 2 wheat, 2 stone, 1 wood. The hand holds an Inn and a Trading Post."""
    s = blank()
    reserve(s, {1: tile("R1", colour="grey"), 2: tile("R2", colour="green"),
                3: tile("R3", colour="yellow")})
    put(s, "M13", tile("Y1", "mill", "yellow"), owner=WHITE)
    put(s, "N13", tile("G1", colour="grey"), face="down")
    put(s, "M14", tile("F1", "farm", "yellow"), owner=WHITE)
    troop(s, WHITE, 0, "M13")
    troop(s, WHITE, 1, "N13")
    troop(s, BLUE, 0, "K10")
    put(s, "K10", tile("B0", colour="green"), face="down")
    s["tiles"]["INN"] = tile("INN", "inn", "grey", cost=INN, axis="row")
    s["tiles"]["TP"] = tile("TP", "trading_post", "yellow", cost=TRADING_POST,
                            counts=["farm"])
    s["hands"][WHITE] = ["INN", "TP"]
    return took(s)


def test_example_2_resources_from_reserve_troops_and_farm():
    s = example_2()
    assert available_resources(s, WHITE) == {"wheat": 2, "stone": 2, "wood": 1}
    legal = GAME.legal_actions(s, WHITE)
    assert "build INN L12" in legal and "build TP L12" in legal


def test_resources_are_not_spent_both_buildings_in_one_turn():
    s, _ = GAME.apply(example_2(), WHITE, "build INN L12")
    s, _ = GAME.apply(s, WHITE, "build TP L14")
    assert s["landscape"]["L12"]["owner"] == WHITE and s["landscape"]["L14"]["face"] == "up"
    assert s["hands"][WHITE] == []


def test_cannot_build_without_the_resources():
    s = example_2()
    s["tiles"]["CAT"] = tile("CAT", "cathedral", "grey", cost={"stone": 2, "wood": 2})
    s["hands"][WHITE].append("CAT")
    illegal(s, WHITE, "build CAT L12", "cannot_afford")


def test_buildings_go_next_to_own_troops_in_8_directions_on_free_spaces():
    s = example_2()
    legal = GAME.legal_actions(s, WHITE)
    assert "build INN L12" in legal  # diagonal to M13
    assert "build INN O14" in legal  # diagonal to N13
    illegal(s, WHITE, "build INN P13", "not_next_to_troop")
    illegal(s, WHITE, "build INN J9", "not_next_to_troop")  # next to blue's troop only
    illegal(s, WHITE, "build INN M14", "space_taken")
    illegal(s, WHITE, "terrain R1 L12", "not_in_hand")


def test_producers_give_one_more_and_a_troop_on_them_another():
    s = example_2()
    troop(s, WHITE, 2, "M14")  # the last reserve troop onto the (yellow) Farm: reach 1
    have = available_resources(s, WHITE)
    assert have == {"wheat": 3, "stone": 2, "wood": 0}  # Farm: 1 for owning + 1 for the troop
    s["landscape"]["M14"]["owner"] = BLUE  # someone else's Farm gives nothing
    assert available_resources(s, WHITE)["wheat"] == 2  # the troop still counts


def test_buildings_face_their_owner():
    s = blank()
    put(s, "M13", tile("W", "market", roads=["N", "E"]), owner=WHITE)
    put(s, "M14", tile("B", "market", roads=["N", "E"]), owner=BLUE)
    assert road_edges(s, "M13") == ("N", "E")
    assert road_edges(s, "M14") == ("S", "W")  # upside down for blue
    view = GAME.view(s, None)
    owners = {e["cell"]: e["owner"] for e in view["landscape"]}
    assert owners == {"M13": WHITE, "M14": BLUE}


def example_3():
    """Rulebook example 3: white wants a Bakery (2 wheat + 1 wood) but reaches only 1 wheat
    and 1 wood, and plays a grey tile face down as open terrain for a 1-resource discount."""
    s = blank()
    put(s, "M13", tile("Y", colour="yellow"), face="down")
    put(s, "K10", tile("B0", colour="green"), face="down")
    troop(s, WHITE, 0, "M13")
    troop(s, BLUE, 0, "K10")
    reserve(s, {1: tile("R1", colour="green")})
    troop(s, WHITE, 1, "M13")  # reach 2 is irrelevant: one tile left in the reserve
    troop(s, WHITE, 1, None)
    s["tiles"]["BAK"] = tile("BAK", "bakery", "yellow", cost=BAKERY)
    s["tiles"]["GRY"] = tile("GRY", "cathedral", "grey", cost={"stone": 3})
    s["hands"][WHITE] = ["BAK", "GRY"]
    return took(s)


def test_example_3_open_terrain_lowers_a_building_cost_by_one():
    s = example_3()
    assert available_resources(s, WHITE) == {"wheat": 1, "wood": 1, "stone": 0}
    illegal(s, WHITE, "build BAK L12", "cannot_afford")
    s2, events = GAME.apply(s, WHITE, "terrain GRY N12")
    assert s2["landscape"]["N12"] == {"tile": "GRY", "face": "down", "owner": None,
                                      "used": False, "destroyed": False}
    assert s2["turn"]["discounts"] == 1
    assert "build BAK L12" in GAME.legal_actions(s2, WHITE)
    s3, _ = GAME.apply(s2, WHITE, "build BAK L12")
    assert s3["turn"]["discounts"] == 0  # used up


def test_open_terrain_discount_lasts_only_this_turn():
    s, _ = GAME.apply(example_3(), WHITE, "terrain GRY N12")
    s, _ = GAME.apply(s, WHITE, "end")
    assert s["turn"]["discounts"] == 0


def test_open_terrain_keeps_its_colour_for_a_troop_on_it():
    s, _ = GAME.apply(example_3(), WHITE, "terrain GRY N12")
    s, _ = GAME.apply(s, WHITE, "deploy N12")
    assert available_resources(s, WHITE)["stone"] == 1


# --- troops ---------------------------------------------------------------------------------
def example_4():
    """Rulebook example 4: white has taken a tile and wants a Watchtower at K11 (1 wheat,
    1 wood, 1 stone) but reaches no wood. The troop on the yellow building L12 is the only
    one next to K11; green open terrain lies at M12; one troop is still in the reserve."""
    s = blank()
    put(s, "M13", tile("S0", colour="grey"), face="down")
    put(s, "L12", tile("Y", "mill", "yellow"), owner=WHITE)
    put(s, "M12", tile("G", colour="green"), face="down")
    put(s, "O15", tile("B0", colour="grey"), face="down")
    troop(s, WHITE, 0, "M13")
    troop(s, WHITE, 1, "L12")
    troop(s, BLUE, 0, "O15")
    reserve(s, {1: tile("R1", colour="grey"), 2: tile("R2", colour="yellow")})
    s["tiles"]["WT"] = tile("WT", "watchtower", "grey", cost=WATCHTOWER, arrows=["N"])
    s["hands"][WHITE] = ["WT"]
    return took(s)


def test_example_4_only_deploying_from_the_reserve_works():
    s = example_4()
    illegal(s, WHITE, "build WT K11", "cannot_afford")
    # 1. move the troop from the yellow building onto the green terrain: K11 is lost
    moved, _ = GAME.apply(s, WHITE, "move L12 M12")
    assert not any(c.startswith("build WT K11") for c in GAME.legal_actions(moved, WHITE))
    illegal(moved, WHITE, "build WT K11", "not_next_to_troop")
    # 2. withdraw it for more reach: K11 is lost too
    back, _ = GAME.apply(s, WHITE, "withdraw L12")
    illegal(back, WHITE, "build WT K11", "not_next_to_troop")
    # 3. deploy the reserve troop onto the green open terrain: wood, and K11 still touched
    deployed, _ = GAME.apply(s, WHITE, "deploy M12")
    assert available_resources(deployed, WHITE)["wood"] == 1
    assert "build WT K11" in GAME.legal_actions(deployed, WHITE)
    assert deployed["troops"][WHITE][2]["moved"] is True  # token turned to its cross


def test_move_to_a_neighbouring_tile_in_8_directions_once_per_turn():
    s = example_4()
    assert "move L12 M12" in GAME.legal_actions(s, WHITE)
    s2, _ = GAME.apply(s, WHITE, "move L12 M12")
    illegal(s2, WHITE, "move M12 L12", "moved_already")
    illegal(s, WHITE, "move L12 K11", "no_tile_there")  # no tile there
    illegal(s, WHITE, "move L12 O15", "not_adjacent")
    s3, _ = GAME.apply(s2, WHITE, "end")
    assert all(not t["moved"] for t in s3["troops"][WHITE])  # turned back at the end


def test_never_onto_another_troop_either_colour():
    s = example_4()
    troop(s, BLUE, 1, "M12")
    illegal(s, WHITE, "move L12 M12", "occupied")
    illegal(s, WHITE, "move L12 M13", "occupied")  # own retinue there
    illegal(s, WHITE, "deploy M12", "occupied")


def test_deploy_next_to_an_own_troop_only():
    s = example_4()
    put(s, "O14", tile("X", colour="grey"), face="down")  # next to blue only
    illegal(s, WHITE, "deploy O14", "not_next_to_troop")


def test_a_withdrawn_troop_cannot_come_back_the_same_turn():
    s = example_4()
    troop(s, WHITE, 2, "M12")  # both normal troops in the landscape
    s2, _ = GAME.apply(s, WHITE, "withdraw M12")
    assert [c for c in GAME.legal_actions(s2, WHITE) if c.startswith("deploy")] == []
    illegal(s2, WHITE, "deploy M12", "none_in_reserve")


def test_the_retinue_troop_never_leaves_the_landscape():
    s = example_4()
    illegal(s, WHITE, "withdraw M13", "retinue_stays")
    assert "withdraw M13" not in GAME.legal_actions(s, WHITE)
    illegal(s, WHITE, "withdraw N20", "no_troop_here")


def test_both_retinues_share_only_the_starting_tile():
    s = GAME.setup(2, {}, 4)
    seat = s["current"]
    legal = GAME.legal_actions(s, seat)
    assert not any(c.startswith("move") for c in legal)  # nowhere to go yet
    # once one retinue leaves, it cannot come back while the other stands there
    s["landscape"]["M12"] = {"tile": s["stack"].pop(), "face": "down", "owner": None,
                             "used": False, "destroyed": False}
    s2, _ = GAME.apply(s, seat, "move M13 M12")
    assert "M13" not in [c.split()[-1] for c in GAME.legal_actions(s2, seat)
                         if c.startswith("move")]


# --- Camp -----------------------------------------------------------------------------------
def camp_state():
    s = example_1_like()
    put(s, "L12", tile("CMP", "camp", "green"), owner=WHITE)
    return s


def example_1_like():
    s = blank()
    put(s, "M13", tile("S0", colour="grey"), face="down")
    troop(s, WHITE, 0, "M13")
    troop(s, BLUE, 0, "M13")
    reserve(s, {i: tile(f"R{i}", colour="grey") for i in range(1, 7)})
    return s


def test_camp_after_taking_flips_the_shield_back_for_one_more_tile():
    s = camp_state()
    illegal(s, WHITE, "camp L12", "camp_before_take")
    s, _ = GAME.apply(s, WHITE, "take R1")
    assert GAME.view(s, None)["reserve"]["crown"] == BLUE
    s, events = GAME.apply(s, WHITE, "camp L12")
    assert any(e["key"] == "dwoch_nastepcow.event.camp" for e in events)
    assert GAME.view(s, None)["reserve"]["crown"] == WHITE
    s, _ = GAME.apply(s, WHITE, "take R2")
    assert s["hands"][WHITE] == ["R1", "R2"]
    illegal(s, WHITE, "camp L12", "camp_used")
    illegal(s, WHITE, "camp M13", "no_camp_here")


# --- Siege Towers ---------------------------------------------------------------------------
def siege_state():
    """White's Siege Tower at L13 and a blue Inn at M13; white builds a second tower at N13
    (also orthogonally next to the Inn)."""
    s = blank()
    put(s, "L13", tile("T1", "siege_tower", "grey"), owner=WHITE)
    put(s, "M13", tile("INN", "inn", "grey", axis="row"), owner=BLUE)
    put(s, "M14", tile("S0", colour="grey"), face="down")
    troop(s, WHITE, 0, "M14")
    troop(s, BLUE, 0, "L13")
    s["tiles"]["T2"] = tile("T2", "siege_tower", "grey", cost={"stone": 1})
    s["hands"][WHITE] = ["T2"]
    return took(s)


def test_second_siege_tower_may_destroy_the_building_between():
    s, events = GAME.apply(siege_state(), WHITE, "build T2 N13")
    assert s["phase"] == "siege" and s["pending"] == {"targets": ["M13"]}
    assert any(e["key"] == "dwoch_nastepcow.event.siege" for e in events)
    assert GAME.legal_actions(s, WHITE) == ["destroy M13", "spare"]
    illegal(s, WHITE, "end", "siege_pending")
    gone, _ = GAME.apply(s, WHITE, "destroy M13")
    assert gone["landscape"]["M13"]["face"] == "down" and gone["landscape"]["M13"]["owner"] is None
    assert gone["phase"] == "turn"
    kept, _ = GAME.apply(s, WHITE, "spare")
    assert kept["landscape"]["M13"]["owner"] == BLUE and kept["phase"] == "turn"


def test_a_single_siege_tower_does_nothing():
    s = siege_state()
    del s["landscape"]["L13"]
    troop(s, BLUE, 0, "M13")
    s, events = GAME.apply(s, WHITE, "build T2 N13")
    assert s["phase"] == "turn" and s["pending"] is None


def test_destroy_only_while_a_siege_is_open():
    s = siege_state()
    illegal(s, WHITE, "destroy M13", "no_siege")
    s, _ = GAME.apply(s, WHITE, "build T2 N13")
    illegal(s, WHITE, "destroy L13", "not_a_target")


# --- hand limit, taking, end ----------------------------------------------------------------
def test_taking_is_compulsory():
    s = example_1_like()
    illegal(s, WHITE, "end", "must_take")


def test_no_take_needed_when_nothing_is_within_reach():
    s = example_1_like()
    s["reserve"] = [None] * 7
    assert "end" in GAME.legal_actions(s, WHITE)


def test_hand_limit_3_at_the_end_of_the_turn():
    s = example_1_like()
    s["hands"][WHITE] = ["R4", "R5", "R6"]
    s["reserve"][4] = s["reserve"][5] = s["reserve"][6] = None
    illegal(s, WHITE, "discard R4", "not_over_limit")
    s, _ = GAME.apply(s, WHITE, "take R1")
    s, events = GAME.apply(s, WHITE, "end")
    assert s["phase"] == "discard" and s["current"] == WHITE
    assert any(e["key"] == "dwoch_nastepcow.event.over_limit" for e in events)
    assert GAME.legal_actions(s, WHITE) == [f"discard {t}" for t in sorted(s["hands"][WHITE])]
    illegal(s, WHITE, "end", "discard_first")
    s, _ = GAME.apply(s, WHITE, "discard R5")
    assert s["removed"] == ["R5"] and len(s["hands"][WHITE]) == 3
    assert s["current"] == BLUE and s["phase"] == "turn"


def test_last_tile_of_the_stack_then_one_more_turn_each_without_refills():
    s = example_1_like()
    s["stack"] = s["stack"][:1]
    s, events = GAME.apply(s, WHITE, "take R1")
    assert any(e["key"] == "dwoch_nastepcow.event.stack_empty" for e in events)
    s, events = GAME.apply(s, WHITE, "end")
    assert any(e["key"] == "dwoch_nastepcow.event.final_round" for e in events)
    assert s["final_turns"] == 2 and GAME.to_act(s) == [BLUE]
    s, events = GAME.apply(s, BLUE, "take R2")
    assert s["reserve"][1] is None  # the emptied shield slot stays empty
    assert not any(e.get("reveal") for e in events)
    s, _ = GAME.apply(s, BLUE, "end")
    assert GAME.to_act(s) == [WHITE] and not GAME.is_over(s)
    s, _ = GAME.apply(s, WHITE, "take R3")
    s, events = GAME.apply(s, WHITE, "end")
    assert GAME.is_over(s) and GAME.to_act(s) == []
    assert any(e["key"] == "dwoch_nastepcow.event.game_over" for e in events)
    assert GAME.legal_actions(s, WHITE) == [] == GAME.legal_actions(s, BLUE)


# --- legal action counts from fixed positions (perft-style) ---------------------------------
def test_legal_counts_at_the_start_and_after_the_first_take():
    s = GAME.setup(2, {}, 21)
    seat = s["current"]
    legal = GAME.legal_actions(s, seat)
    # only the three tiles within reach: no hand, nowhere to move, and taking is compulsory
    assert legal == [f"take {s['reserve'][i]}" for i in (1, 2, 3)]
    s, _ = GAME.apply(s, seat, legal[0])
    (tid,) = s["hands"][seat]
    affordable = any(c.startswith("build") for c in GAME.legal_actions(s, seat))
    legal = GAME.legal_actions(s, seat)
    # the 8 spaces round the starting tile, for open terrain (and building if affordable)
    assert len(legal) == 8 * (1 + affordable) + 1 and legal[-1] == "end"
    s, _ = GAME.apply(s, seat, f"terrain {tid} M12")
    legal = GAME.legal_actions(s, seat)
    # the retinue may step onto the new tile; a reserve troop may be sent there
    assert legal == ["move M13 M12", "deploy M12", "end"]
