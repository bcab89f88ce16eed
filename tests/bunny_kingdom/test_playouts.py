"""Whole games: 300 seeded games per player count by the computer player, random-legal games,
invariants at every step, harvests and final scores recomputed independently, exact replay."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engines.bunny_kingdom import GAME
from engines.bunny_kingdom.data import CELLS, DECK, KINDS, kind_of
from tests.bunny_kingdom import reference
from tests.bunny_kingdom.helpers import all_cards, play_to_end, replay

GAMES = 300
CHUNK = 50
DECK_SET = set(DECK)


class Checker:
    """Invariants checked after every action of a game."""

    def __init__(self) -> None:
        self.steps = 0

    def __call__(self, before: dict[str, Any], after: dict[str, Any], seat: int, action: str,
                 events: list[dict[str, Any]]) -> None:
        self.steps += 1
        n = after["players"]
        # card conservation: every one of the 182 cards in exactly one place
        cards = all_cards(after)
        assert len(cards) == len(DECK) and set(cards) == DECK_SET, action
        owner, building = after["owner"], after["building"]
        rabbits = [owner.count(s) for s in range(n)]
        if n == 3:  # the spare colour may be used, shared by the three
            assert sum(max(0, r - 36) for r in rabbits) <= 36
        else:
            assert max(rabbits) <= 36  # rabbits of one colour
        for s in range(n):
            assert all(KINDS[kind_of(c).id].is_building for c in after["waiting"][s])
            assert all(KINDS[c].category == "scroll" for c in after["scrolls"][s])
        # one building per territory, on your own territory (the printed cities: neutral)
        for i in range(CELLS):
            b = building[i]
            if b and owner[i] < 0:
                assert b == "city_1"
            if b and b.startswith("camp_"):
                assert owner[i] >= 0
        for a, b in after["towers"]:
            assert building[a] == building[b] == "sky_tower" and owner[a] == owner[b] >= 0
        assert sum(1 for b in building if b == "sky_tower") == 2 * len(after["towers"])
        if after["phase"] == "explore" and all(p is None for p in after["picks"]):
            assert len({len(h) for h in after["hands"]}) == 1
        for e in events:
            assert e["key"].startswith("bunny_kingdom.")
            if "private_to" in e:
                assert e["private_to"] == seat
        # a harvest just happened: recompute it independently
        if len(after["harvests"]) > len(before["harvests"]):
            record = after["harvests"][-1]
            for s in range(n):
                mine = sorted(f["points"] for f in record[s])
                assert mine == sorted(reference.harvest(after, s)), (s, record[s])
            assert [after["score"][s] - before["score"][s] for s in range(n)] == [
                sum(f["points"] for f in record[s]) for s in range(n)]
        if self.steps % 25 == 0:
            assert json.loads(json.dumps(after)) == after


def check_final(state: dict[str, Any]) -> None:
    assert GAME.is_over(state) and GAME.to_act(state) == []
    assert len(state["harvests"]) == 4
    expected = [state["score"][s] + p for s, p in enumerate(reference.parchments(state))]
    assert GAME.totals(state) == expected
    ranking = GAME.ranking(state)
    flat = [s for group in ranking for s in group]
    assert sorted(flat) == list(range(state["players"]))
    totals = GAME.totals(state)
    for group in ranking:
        assert len({totals[s] for s in group}) == 1
    assert [totals[g[0]] for g in ranking] == sorted({*totals}, reverse=True)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("chunk", range(GAMES // CHUNK))
def test_bot_games(players: int, chunk: int) -> None:
    for seed in range(chunk * CHUNK, (chunk + 1) * CHUNK):
        checker = Checker()
        state, log = play_to_end(players, seed, check=checker)
        check_final(state)
        if seed % 5 == 0:
            again = replay(players, seed, log)
            assert GAME.notation(again) == GAME.notation(state)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_legal_games(players: int) -> None:
    for seed in range(40):
        state, log = play_to_end(players, 10_000 + seed, bot=False, check=Checker())
        check_final(state)
        if seed % 4 == 0:
            assert GAME.notation(replay(players, 10_000 + seed, log)) == GAME.notation(state)

