"""Wrong seat, malformed codes, illegal moves: a specific key, and the state untouched."""

from __future__ import annotations

import json

import pytest

from engines.base import GameError, IllegalAction, MalformedAction, NotYourTurn
from engines.bunny_kingdom import GAME
from engines.bunny_kingdom.data import kind_of
from tests.bunny_kingdom.helpers import fresh


def refused(state, seat, code, error, key):
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(error) as err:
        GAME.apply(state, seat, code)
    assert err.value.key == key, err.value
    assert isinstance(err.value, GameError) and isinstance(err.value, ValueError)
    assert json.dumps(state, sort_keys=True) == before  # nothing changed
    return err.value


def first_two(state, seat):
    return " ".join(kind_of(c).id for c in state["hands"][seat][:2])


def test_a_seat_that_has_picked_must_wait():
    s = fresh(3)
    s, _ = GAME.apply(s, 0, "pick " + first_two(s, 0))
    refused(s, 0, "pick " + first_two(s, 0), NotYourTurn, "bunny_kingdom.error.not_your_turn")
    assert GAME.legal_actions(s, 0) == []


def test_a_seat_outside_the_game_may_not_act():
    refused(fresh(3), 5, "pick A1 A2", NotYourTurn, "bunny_kingdom.error.not_your_turn")


@pytest.mark.parametrize("code", ["", "dance", "pick", "pick A1", "pick A1 A2 A3",
                                  "done now", "keep it", "trade E4", "copy liberal"])
def test_malformed_codes(code):
    refused(fresh(3), 0, code, MalformedAction, "bunny_kingdom.error.malformed")


def test_unknown_card_is_malformed():
    e = refused(fresh(3), 0, "pick unicorn A1", MalformedAction, "bunny_kingdom.error.unknown_card")
    assert e.params["card"] == "unicorn"


def test_card_not_in_hand_is_illegal():
    s = fresh(3)
    missing = next(c for c in s["deck"] if "#" not in c)
    e = refused(s, 0, f"pick {missing} {kind_of(s['hands'][0][0]).id}", IllegalAction,
                "bunny_kingdom.rule.not_in_hand")
    assert "not in your hand" in str(e)


def test_the_same_single_card_cannot_be_picked_twice():
    s = fresh(3)
    hand = [kind_of(c).id for c in s["hands"][0]]
    once = next(k for k in hand if hand.count(k) == 1)
    refused(s, 0, f"pick {once} {once}", IllegalAction, "bunny_kingdom.rule.not_in_hand")


def test_a_move_of_another_phase_is_illegal():
    refused(fresh(3), 0, "done", IllegalAction, "bunny_kingdom.rule.wrong_phase")
    refused(fresh(3), 0, "build city_1 A4", IllegalAction, "bunny_kingdom.rule.wrong_phase")


def test_build_needs_a_building_and_a_cell():
    s = fresh(3)
    s["phase"] = "build"
    s["owner"][0] = 0
    s["waiting"][0].append(s["deck"].pop(s["deck"].index("city_2#1"))
                           if "city_2#1" in s["deck"] else "city_2#1")
    refused(s, 0, "build city_2 Z9", MalformedAction, "bunny_kingdom.error.malformed")
    refused(s, 0, "build A1 A1", MalformedAction, "bunny_kingdom.error.malformed")
    refused(s, 0, "build sky_tower A1", MalformedAction, "bunny_kingdom.error.malformed")
    refused(s, 0, "build city_3 A1", IllegalAction, "bunny_kingdom.rule.not_waiting")


def test_every_error_key_has_a_text_in_every_language():
    from text.catalog import catalog

    keys = ["bunny_kingdom.error.malformed", "bunny_kingdom.error.unknown_card",
            "bunny_kingdom.error.not_your_turn", "bunny_kingdom.rule.not_in_hand",
            "bunny_kingdom.rule.wrong_phase", "bunny_kingdom.rule.camp_order",
            "bunny_kingdom.rule.camp_unoccupied", "bunny_kingdom.rule.not_your_territory",
            "bunny_kingdom.rule.one_building", "bunny_kingdom.rule.terrain",
            "bunny_kingdom.rule.not_waiting", "bunny_kingdom.rule.tower_fiefs",
            "bunny_kingdom.rule.not_your_post", "bunny_kingdom.rule.post_basic",
            "bunny_kingdom.rule.no_copy_card", "bunny_kingdom.rule.copy_target"]
    for lang in ("en", "pl", "uk"):
        assert all(k in catalog(lang) for k in keys)
