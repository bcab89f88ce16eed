"""Przygotowanie gry: sets, royal reserve, starting landscape, troops, first player."""

from __future__ import annotations

import json

import pytest

from engines.base import BadOptions
from engines.dwoch_nastepcow import GAME
from engines.dwoch_nastepcow.geometry import START


def test_default_sets_are_the_first_game_recommendation():
    state = GAME.setup(2, {}, 5)
    assert state["sets"] == ["travel", "lands", "trade"]
    assert len(state["tiles"]) == 27
    assert {t["set"] for t in state["tiles"].values()} == {"travel", "lands", "trade"}


def test_three_sets_chosen_by_variants_or_options():
    state = GAME.setup(2, {"variants": ["set_war", "set_patrol", "set_craft"]}, 5)
    assert state["sets"] == ["war", "patrol", "craft"]
    state = GAME.setup(2, {"sets": ["craft", "travel", "war"]}, 5)
    assert state["sets"] == ["travel", "war", "craft"]


@pytest.mark.parametrize("options", [
    {"variants": ["set_war"]},
    {"variants": ["set_war", "set_patrol", "set_craft", "set_travel"]},
    {"sets": ["war", "war", "craft"]},
    {"sets": ["war", "castle", "craft"]},
])
def test_not_three_sets_is_refused(options):
    with pytest.raises(BadOptions) as err:
        GAME.setup(2, options, 1)
    assert err.value.key == "dwoch_nastepcow.error.three_sets"


@pytest.mark.parametrize("players", [1, 3])
def test_two_players_only_solo_is_not_available(players):
    with pytest.raises(BadOptions):
        GAME.setup(players, {}, 1)


def test_royal_reserve_six_face_up_clockwise_from_the_shield():
    state = GAME.setup(2, {}, 9)
    assert state["shield"] == 0 and state["reserve"][0] is None
    assert all(t is not None for t in state["reserve"][1:])
    view = GAME.view(state, None)
    assert view["reserve"]["slots"][0] is None
    assert [s["id"] for s in view["reserve"]["slots"][1:]] == state["reserve"][1:]


def test_starting_landscape_face_down_with_both_retinues():
    state = GAME.setup(2, {}, 9)
    assert list(state["landscape"]) == [START]
    assert state["landscape"][START]["face"] == "down"
    for seat in (0, 1):
        kinds = [(t["kind"], t["at"]) for t in state["troops"][seat]]
        assert kinds == [("retinue", START), ("normal", None), ("normal", None)]


def test_stack_holds_the_rest_and_every_tile_is_somewhere():
    state = GAME.setup(2, {}, 9)
    assert len(state["stack"]) == 27 - 6 - 1
    placed = state["stack"] + [t for t in state["reserve"] if t] + [
        s["tile"] for s in state["landscape"].values()]
    assert sorted(placed) == sorted(state["tiles"])


def test_shield_toss_decides_the_first_player_and_both_can_begin():
    firsts = {GAME.setup(2, {}, seed)["current"] for seed in range(20)}
    assert firsts == {0, 1}
    state = GAME.setup(2, {}, 3)
    assert GAME.to_act(state) == [state["first"]]


def test_same_seed_same_game_and_state_is_json():
    a, b = GAME.setup(2, {}, 42), GAME.setup(2, {}, 42)
    assert a == b and json.loads(json.dumps(a)) == a
    assert GAME.setup(2, {}, 43)["stack"] != a["stack"]


def test_no_roads_variant():
    assert GAME.setup(2, {"variants": ["no_roads"]}, 1)["roads_scored"] is False
    assert GAME.setup(2, {}, 1)["roads_scored"] is True
