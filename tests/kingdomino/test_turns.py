"""Turn order (D1 place, D2 pick, in line order), the last round, errors and events."""

from typing import Any

import pytest

from engines.base import IllegalAction, MalformedAction, NotYourTurn

from .helpers import GAME, act, position, snapshot


def round_state(**kwargs) -> dict:
    """4 players, round 3; kings on the current line: 2 on 5, 0 on 17, 3 on 30, 1 on 44."""
    base: dict[str, Any] = dict(
        current=[(5, 2), (17, 0), (30, 3), (44, 1)],
        next_line=[(9, None), (20, None), (33, None), (46, None)],
        round=3, deck=[1, 2, 3, 4, 10, 11, 12, 13],
    )
    base.update(kwargs)
    return position(4, **base)


def test_kings_act_in_line_order_each_placing_then_picking():
    state = round_state()
    order = []
    for _ in range(4):
        seat = GAME.to_act(state)[0]
        order.append(seat)
        assert state["phase"] == "place"
        state, _ = GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])
        assert GAME.to_act(state) == [seat] and state["phase"] == "pick"
        state, _ = GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])
    assert order == [2, 0, 3, 1]


def test_next_round_order_follows_the_picked_dominoes():
    state = round_state()
    state, events = act(state, "place F5 G5", "pick 46", "place F5 G5", "pick 9",
                        "place F5 G5", "pick 33", "place F5 G5", "pick 20")
    # kings now stand on 9 (seat 0), 20 (seat 1), 33 (seat 3), 46 (seat 2)
    assert [s["king"] for s in state["current_line"]] == [0, 1, 3, 2]
    assert GAME.to_act(state) == [0] and state["round"] == 4
    drawn = [e for e in events if e["key"] == "kingdomino.event.line_drawn"]
    assert len(drawn) == 1 and drawn[0]["reveal"] is True
    assert drawn[0]["line"] == [1, 2, 3, 4] == [s["n"] for s in state["next_line"]]


def test_two_player_game_each_player_acts_once_per_king():
    state = position(2, current=[(5, 1), (17, 1), (30, 0), (44, 0)],
                     next_line=[(9, None), (20, None), (33, None), (46, None)], deck=[1, 2, 3, 4])
    seats = []
    while state["round"] == 1:
        seat = GAME.to_act(state)[0]
        seats.append(seat)
        state, _ = GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])
    assert seats == [1, 1, 1, 1, 0, 0, 0, 0]  # place, pick per king


def test_last_round_is_place_only_then_the_game_ends():
    state = round_state(next_line=[], deck=[], round=12)
    view = GAME.view(state, None)
    assert view["last_round"] is True
    for seat in (2, 0, 3):
        assert GAME.to_act(state) == [seat]
        assert not any(code.startswith("pick") for code in GAME.legal_actions(state, seat))
        state, events = GAME.apply(state, seat, "place F5 G5")
        assert state["phase"] == "place" and GAME.to_act(state) != [seat]
    state, events = GAME.apply(state, 1, "place F5 G5")
    assert GAME.is_over(state) and GAME.to_act(state) == [] and state["phase"] == "over"
    assert events[-1]["key"] == "kingdomino.event.game_over"
    assert GAME.legal_actions(state, 1) == []


def test_last_round_starts_when_the_stack_runs_out():
    state = round_state(deck=[])
    state, events = act(state, "place F5 G5", "pick 46", "place F5 G5", "pick 9",
                        "place F5 G5", "pick 33", "place F5 G5", "pick 20")
    assert state["next_line"] == [] and state["round"] == 4
    assert events[-1] == {"key": "kingdomino.event.last_round", "round": 4}
    assert GAME.view(state, None)["last_round"] is True


def test_wrong_seat_is_not_your_turn_and_changes_nothing():
    state = round_state()
    before = snapshot(state)
    for seat in (0, 1, 3):
        with pytest.raises(NotYourTurn) as caught:
            GAME.apply(state, seat, "place F5 G5")
        assert caught.value.key == "kingdomino.error.not_your_turn"
        assert GAME.legal_actions(state, seat) == []
    assert snapshot(state) == before


def test_after_the_game_nobody_may_act():
    state = round_state(next_line=[], deck=[], round=12, phase="over")
    with pytest.raises(NotYourTurn) as caught:
        GAME.apply(state, 2, "place F5 G5")
    assert caught.value.key == "kingdomino.error.game_over"


@pytest.mark.parametrize(
    ("phase", "code", "error", "key"),
    [
        ("place", "pick 9", IllegalAction, "kingdomino.rule.place_first"),
        ("pick", "place F5 G5", IllegalAction, "kingdomino.rule.pick_now"),
        ("pick", "discard", IllegalAction, "kingdomino.rule.pick_now"),
        ("pick", "pick 8", IllegalAction, "kingdomino.rule.not_in_line"),
        ("pick", "pick 5", IllegalAction, "kingdomino.rule.not_in_line"),
        ("pick", "pick 20", IllegalAction, "kingdomino.rule.domino_taken"),
        ("pick", "pick", MalformedAction, "kingdomino.malformed.pick"),
        ("pick", "pick twelve", MalformedAction, "kingdomino.malformed.pick"),
        ("pick", "pick 9 20", MalformedAction, "kingdomino.malformed.pick"),
    ],
)
def test_errors_name_the_rule_and_leave_the_state_unchanged(phase, code, error, key):
    state = round_state(phase=phase, next_line=[(9, None), (20, 3), (33, None), (46, None)])
    before = snapshot(state)
    with pytest.raises(error) as caught:
        GAME.apply(state, 2, code)
    assert caught.value.key == key
    assert str(caught.value)  # an English message for logs
    assert snapshot(state) == before


def test_events_carry_keys_and_params():
    state = round_state()
    state, events = GAME.apply(state, 2, "place F5 G5")
    assert events == [{"key": "kingdomino.event.placed", "seat": 2, "n": 5,
                       "cells": ["F5", "G5"], "at": "F5-G5", "terrains": events[0]["terrains"]}]
    state, events = GAME.apply(state, 2, "pick 33")
    assert events[0]["key"] == "kingdomino.event.picked" and events[0]["n"] == 33
    assert "reveal" not in events[0]


def test_opening_picks_reveal_the_next_drawn_king():
    state = GAME.setup(3, {}, 4)
    _, events = GAME.apply(state, GAME.to_act(state)[0], GAME.legal_actions(
        state, GAME.to_act(state)[0])[0])
    assert events[0]["key"] == "kingdomino.event.picked" and events[0]["reveal"] is True


def test_describe_every_legal_action():
    state = round_state()
    for code in GAME.legal_actions(state, 2):
        key, params = GAME.describe(state, code)
        assert key == "kingdomino.action.place" and params["n"] == 5
    key, params = GAME.describe(state, "place F5 G5")
    assert params["a"] == "F5" and params["b"] == "G5"
    state, _ = GAME.apply(state, 2, "place F5 G5")
    key, params = GAME.describe(state, "pick 46")
    assert key == "kingdomino.action.pick" and params["n"] == 46 and "👑" in params["terrains"]
    stuck = position(2, kingdoms=["F0 F0 F0\nF0 CC F0\nF0 F0 F0"], current=[(1, 0), (2, 1)])
    assert GAME.describe(stuck, "discard") == (
        "kingdomino.action.discard", {"n": 1, "terrains": "🌾 | 🌾"})
    assert GAME.describe(state, "jump")[0] == "action.generic"


def test_action_codes_are_short():
    state = GAME.setup(2, {"variants": ["mighty_duel"]}, 2)
    for _ in range(30):
        seat = GAME.to_act(state)[0]
        codes = GAME.legal_actions(state, seat)
        assert all(len(code) <= 60 for code in codes)
        state, _ = GAME.apply(state, seat, codes[len(codes) // 2])
