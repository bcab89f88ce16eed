"""The royal reserve and the royal protocol: reach, taking, the shield, refills."""

from __future__ import annotations

from engines.dwoch_nastepcow import GAME
from engines.dwoch_nastepcow.reserve import reach, slots_in_reach
from engines.dwoch_nastepcow.rules import available_resources

from .helpers import BLUE, WHITE, blank, put, reserve, tile, troop


def example_1():
    """Rulebook example 1: the shield shows the white crown; white has both troops in the
    reserve, so reach 3: tiles 1-3 (stone, wheat, wood) yes, tiles 4-6 (marked X) no."""
    s = blank()
    put(s, "M13", tile("S0", colour="grey"), face="down")
    troop(s, WHITE, 0, "M13")
    troop(s, BLUE, 0, "M13")
    reserve(s, {1: tile("R1", colour="grey"), 2: tile("R2", colour="yellow"),
                3: tile("R3", colour="green"), 4: tile("R4", colour="grey"),
                5: tile("R5", colour="yellow"), 6: tile("R6", colour="green")})
    return s


def test_example_1_reach_3_counted_clockwise_from_the_shield():
    s = example_1()
    assert reach(s, WHITE) == 3
    assert slots_in_reach(s, WHITE) == [1, 2, 3]
    takes = [c for c in GAME.legal_actions(s, WHITE) if c.startswith("take")]
    assert takes == ["take R1", "take R2", "take R3"]
    # the king's promise: 1 stone, 1 wheat, 1 wood (plus 1 stone from the grey start tile)
    assert available_resources(s, WHITE) == {"stone": 2, "wheat": 1, "wood": 1}
    view = GAME.view(s, None)
    assert view["reserve"]["in_reach"][WHITE] == [1, 2, 3]
    assert view["reserve"]["crown"] == WHITE


def test_reach_is_troops_in_reserve_plus_one_down_to_one():
    s = example_1()
    troop(s, WHITE, 1, "M13")  # (stacking is impossible in play; reach only counts)
    assert reach(s, WHITE) == 2 and slots_in_reach(s, WHITE) == [1, 2]
    troop(s, WHITE, 2, "M13")
    assert reach(s, WHITE) == 1 and slots_in_reach(s, WHITE) == [1]


def test_reach_wraps_round_the_circle_from_the_shield():
    s = example_1()
    s["reserve"][5], s["reserve"][0] = None, s["reserve"][5]
    s["shield"] = 5
    assert slots_in_reach(s, WHITE) == [6, 0, 1]


def test_empty_slots_are_skipped_for_reach():
    s = example_1()
    s["reserve"][2] = None
    assert slots_in_reach(s, WHITE) == [1, 3, 4]


def test_take_moves_the_shield_into_the_gap_flips_it_and_refills_from_the_stack():
    s = example_1()
    top = s["stack"][0]
    new, events = GAME.apply(s, WHITE, "take R2")
    assert new["hands"][WHITE] == ["R2"]
    assert new["shield"] == 2 and new["reserve"][2] is None
    assert new["reserve"][0] == top and new["stack"] == s["stack"][1:]
    refill = [e for e in events if e["key"] == "dwoch_nastepcow.event.refill"]
    assert refill and refill[0]["reveal"] is True and refill[0]["tile"] == top
    assert GAME.view(new, None)["reserve"]["crown"] == BLUE  # the opponent's crown now
    # the reach now counts from the new shield position
    assert slots_in_reach(new, WHITE) == [3, 4, 5]


def test_take_only_once_per_turn():
    s, _ = GAME.apply(example_1(), WHITE, "take R1")
    assert not [c for c in GAME.legal_actions(s, WHITE) if c.startswith("take")]


def test_only_the_events_of_a_refill_are_reveals():
    s = example_1()
    s["stack"] = []
    _, events = GAME.apply(s, WHITE, "take R1")
    assert not any(e.get("reveal") for e in events)
