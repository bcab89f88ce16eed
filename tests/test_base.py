"""The engine contract's shared helpers."""

from __future__ import annotations

import json

import pytest

from engines.base import BadOptions, GameMeta, Variant, check_players, rank_by, rng_for


def test_rank_by_groups_equal_keys_best_first():
    assert rank_by([(10, 2), (12, 0), (10, 2)]) == [[1], [0, 2]]
    assert rank_by([5, 5]) == [[0, 1]]
    assert rank_by([(3, 1), (3, 0)]) == [[0], [1]]  # the tie-break decides


def test_rng_for_is_seeded_by_the_state_and_survives_json():
    state = {"seed": 7, "rng_draws": 0}
    first = rng_for(state).random()
    loaded = json.loads(json.dumps({"seed": 7, "rng_draws": 0}))
    assert rng_for(loaded).random() == first
    assert state["rng_draws"] == 1 and rng_for(state).random() != first


def test_check_players_names_what_is_wrong():
    meta = GameMeta("g", 2, 4, variants=(Variant("duel", (2,)),))
    check_players(meta, 2, ["duel"])
    for players, variants, key in ((5, [], "error.players_range"),
                                   (3, ["nope"], "error.unknown_variant"),
                                   (3, ["duel"], "error.variant_players")):
        with pytest.raises(BadOptions) as err:
            check_players(meta, players, variants)
        assert err.value.key == key
