"""Seeded whole games: random legal moves (300 per player count) and the computer player,
with the invariants checked after every action, the final scoring recomputed independently
from the tiles, and an exact replay of the action log."""

from collections import Counter

import pytest

from engines.gheos import GAME
from engines.gheos.data import TEMPLES, tile
from engines.gheos.regions import partition_from_scratch

from .helpers import playout

GAMES = 300
REASONS = {"gheos.event.temple": "temple", "gheos.event.token": "token",
           "gheos.event.epoch_points": "epoch", "gheos.event.final_points": "final"}


def final_scoring_from_scratch(state: dict) -> list[int]:
    """Each follower scores the chalices of its civilization's continent, counted here
    straight from the tile data and a fresh partition of the board."""
    chalices = {}
    for region in partition_from_scratch(state):
        n = 0
        for key in region:
            cell, idx = key.split("/")
            part = tile(state, state["board"][cell][0]).parts[int(idx)]
            n += sum(1 for sym in part.symbols if sym == "chalice" and sym not in TEMPLES)
        for key in region:
            chalices[key] = n
    return [sum(n * chalices[state["civs"][c]] for c, n in held.items())
            for held in state["followers"]]


def check_finished(state: dict, log: list, events: list, players: int, seed: int) -> None:
    assert GAME.is_over(state) and GAME.to_act(state) == []
    assert state["end_reason"] in ("epochs", "tokens")
    if state["end_reason"] == "epochs":
        assert state["epochs"] == {2: 6, 3: 7, 4: 8}[players]
    else:
        assert sum(state["tokens"]) == 0
    assert [p["final"] for p in state["points"]] == final_scoring_from_scratch(state)
    from_events: list[Counter[str]] = [Counter() for _ in range(players)]
    for e in events:
        if e["key"] in REASONS:
            from_events[e["seat"]][REASONS[e["key"]]] += e["points"]
    for seat in range(players):
        assert {k: v for k, v in from_events[seat].items() if v} == \
            {k: v for k, v in state["points"][seat].items() if v}
    assert GAME.totals(state) == [sum(p.values()) for p in state["points"]]
    ranking = GAME.ranking(state)
    assert sorted(s for group in ranking for s in group) == list(range(players))
    # exact replay: the same seed and actions give the same position
    replay = GAME.setup(players, {}, seed)
    for seat, code in log:
        replay, _ = GAME.apply(replay, seat, code)
    assert GAME.notation(replay) == GAME.notation(state)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games(players):
    for seed in range(GAMES):
        state, log, events = playout(players, seed)
        check_finished(state, log, events, players, seed)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_computer_player_games_have_wars_and_migrations(players):
    seen = Counter()
    for seed in range(4):
        state, log, events = playout(players, 1000 + seed, policy=None)
        check_finished(state, log, events, players, 1000 + seed)
        seen.update(e["key"].rsplit(".", 1)[1] for e in events)
    assert seen["founded"] >= 8
    assert seen["war_starts"] >= 1 and seen["migration"] >= 1
