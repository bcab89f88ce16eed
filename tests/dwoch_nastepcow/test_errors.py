"""Wrong seat, malformed codes, illegal moves: a specific key and the state unchanged."""

from __future__ import annotations

import json

import pytest

from engines.base import IllegalAction, MalformedAction, NotYourTurn
from engines.dwoch_nastepcow import GAME


@pytest.fixture
def state():
    return GAME.setup(2, {}, 11)


def unchanged(state, seat, code, error, key):
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(error) as err:
        GAME.apply(state, seat, code)
    assert err.value.key == key
    assert str(err.value)  # an English message for logs
    assert json.dumps(state, sort_keys=True) == before


def test_wrong_seat(state):
    other = 1 - state["current"]
    code = GAME.legal_actions(state, state["current"])[0]
    unchanged(state, other, code, NotYourTurn, "dwoch_nastepcow.error.not_your_turn")
    assert GAME.legal_actions(state, other) == []


@pytest.mark.parametrize("code, key", [
    ("", "malformed"),
    ("   ", "malformed"),
    ("fly M12", "unknown_verb"),
    ("take", "arguments"),
    ("take TR1 M12", "arguments"),
    ("end now", "arguments"),
    ("build TR1", "arguments"),
    ("build TR1 Z99", "bad_cell"),
    ("move M13 m12", "bad_cell"),
    ("deploy 12M", "bad_cell"),
    ("take WA1", "bad_tile"),  # War is not in this game
    ("discard XX9", "bad_tile"),
])
def test_malformed(state, code, key):
    unchanged(state, state["current"], code, MalformedAction, f"dwoch_nastepcow.error.{key}")


@pytest.mark.parametrize("make_code, key", [
    (lambda s: f"take {s['reserve'][6]}", "out_of_reach"),
    (lambda s: f"build {s['reserve'][1]} M12", "not_in_hand"),
    (lambda s: "end", "must_take"),
    (lambda s: "move M13 M12", "no_tile_there"),
    (lambda s: "withdraw M13", "retinue_stays"),
    (lambda s: "deploy M13", "occupied"),
    (lambda s: "camp M13", "no_camp_here"),
    (lambda s: "discard " + s["reserve"][1], "not_over_limit"),
    (lambda s: "spare", "no_siege"),
])
def test_illegal_names_the_rule(state, make_code, key):
    unchanged(state, state["current"], make_code(state), IllegalAction,
              f"dwoch_nastepcow.rule.{key}")


def test_nothing_is_legal_after_the_end_and_every_action_is_refused(state):
    state["phase"] = "over"
    assert GAME.to_act(state) == [] and GAME.legal_actions(state, 0) == []
    unchanged(state, 0, "end", NotYourTurn, "dwoch_nastepcow.error.not_your_turn")
