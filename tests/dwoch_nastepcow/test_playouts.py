"""Seeded random games: invariants after every action, scores against an independent
recomputation, and exact replay of seed + action list."""

from __future__ import annotations

import itertools
import json
import random

import pytest

from engines.base import GameError, IllegalAction
from engines.dwoch_nastepcow import GAME
from engines.dwoch_nastepcow.geometry import START
from engines.dwoch_nastepcow.reserve import reach
from engines.dwoch_nastepcow.state import HAND_LIMIT

from . import independent

SET_CHOICES = [list(c) for c in itertools.combinations(
    ["travel", "lands", "trade", "war", "patrol", "craft"], 3)]
RANDOM_GAMES = 300
BOT_GAMES = 24


def random_move(legal: list[str], rng: random.Random) -> str:
    """A random verb first, then a random code of it: turns stay short and varied."""
    verbs = sorted({c.split()[0] for c in legal})
    verb = rng.choice(verbs)
    return rng.choice([c for c in legal if c.split()[0] == verb])


def never_named(state) -> set[str]:
    """Tiles no public event may name: the stack, tiles laid face down, tiles returned to
    the box. (A tile in hand was named when it was taken face up from the reserve.)"""
    return (set(state["stack"]) | set(state["removed"])
            | {s["tile"] for s in state["landscape"].values()
               if s["face"] == "down" and not s["destroyed"]})


def check_invariants(state) -> None:
    # tile conservation: every tile in exactly one place
    places = (state["stack"] + [t for t in state["reserve"] if t is not None]
              + [s["tile"] for s in state["landscape"].values()]
              + [t for h in state["hands"] for t in h] + state["removed"])
    assert sorted(places) == sorted(state["tiles"]), "tile conservation"
    assert state["reserve"][state["shield"]] is None
    # troops: on tiles, one per tile (both retinues share only the starting tile)
    seen: dict[str, list] = {}
    for seat, troops in enumerate(state["troops"]):
        assert troops[0]["kind"] == "retinue" and troops[0]["at"] is not None
        for t in troops:
            if t["at"] is not None:
                assert t["at"] in state["landscape"], "troops stand on tiles"
                seen.setdefault(t["at"], []).append((seat, t["kind"]))
    for cell, who in seen.items():
        assert len(who) == 1 or (cell == START and sorted(who) == [(0, "retinue"),
                                                                    (1, "retinue")])
    for seat in (0, 1):
        assert 1 <= reach(state, seat) <= 3
    if state["phase"] == "turn" and state["turn"]["took"] == 0:
        other = 1 - state["current"]
        assert len(state["hands"][other]) <= HAND_LIMIT
    assert json.loads(json.dumps(state)) == state


def play(seed: int, options: dict, policy: str, check: bool = True):
    state = GAME.setup(2, options, seed)
    rng = random.Random(seed)
    log: list[tuple[int, str]] = []
    while not GAME.is_over(state):
        (seat,) = GAME.to_act(state)
        legal = GAME.legal_actions(state, seat)
        assert legal, "the seat to move always has a move"
        assert len(set(legal)) == len(legal) and all(len(c) <= 60 for c in legal)
        code = (GAME.bot_action(state, seat, random.Random(rng.random())) if policy == "bot"
                else random_move(legal, rng))
        assert code in legal
        new, events = GAME.apply(state, seat, code)
        if check:
            check_invariants(new)
            public = json.dumps([e for e in events if "private_to" not in e])
            assert not any(t in public for t in never_named(new)), (code, public)
            if len(log) % 11 == 0:  # a code that is not legal is refused
                bad = rng.choice([c for c in (f"take {t}" for t in state["tiles"])
                                  if c not in legal] or ["end"])
                if bad not in legal:
                    with pytest.raises(GameError):
                        GAME.apply(state, seat, bad)
        log.append((seat, code))
        state = new
        assert len(log) < 3000
    return state, log


def replay(seed: int, options: dict, log) -> dict:
    state = GAME.setup(2, options, seed)
    for seat, code in log:
        state, _ = GAME.apply(state, seat, code)
    return state


@pytest.mark.parametrize("chunk", range(6))
def test_random_games_keep_every_invariant_and_replay_exactly(chunk):
    per = RANDOM_GAMES // 6
    for i in range(chunk * per, (chunk + 1) * per):
        options = {"variants": [f"set_{s}" for s in SET_CHOICES[i % len(SET_CHOICES)]]}
        if i % 5 == 0:
            options["variants"].append("no_roads")
        final, log = play(1000 + i, options, "random")
        assert GAME.to_act(final) == [] and final["phase"] == "over"
        assert GAME.totals(final) == independent.totals(final), (i, log[-3:])
        assert GAME.notation(replay(1000 + i, options, log)) == GAME.notation(final)
        ranking = GAME.ranking(final)
        assert sorted(s for group in ranking for s in group) == [0, 1]


def test_bot_games_end_with_matching_scores():
    for i in range(BOT_GAMES):
        options = {"variants": [f"set_{s}" for s in SET_CHOICES[(i * 7) % len(SET_CHOICES)]]}
        final, log = play(5000 + i, options, "bot", check=i % 4 == 0)
        assert GAME.totals(final) == independent.totals(final)
        assert GAME.notation(replay(5000 + i, options, log)) == GAME.notation(final)
        built = sum(1 for s in final["landscape"].values() if s["face"] == "up")
        assert built >= 6, "the bot builds"


def test_every_legal_code_applies_and_a_sample_of_others_is_refused():
    state = GAME.setup(2, {"variants": ["set_lands", "set_war", "set_craft"]}, 77)
    rng = random.Random(77)
    for _ in range(150):
        if GAME.is_over(state):
            break
        (seat,) = GAME.to_act(state)
        legal = GAME.legal_actions(state, seat)
        for code in legal:
            GAME.apply(state, seat, code)  # never raises
        cells = [f"{c}{r}" for c in "KLMNOP" for r in range(10, 17)]
        others = [f"move {a} {b}" for a in cells[:6] for b in cells[6:12]] + [
            f"build {t} {c}" for t in state["tiles"] for c in cells[::9]] + [
            f"deploy {c}" for c in cells] + [f"camp {c}" for c in cells[:5]]
        for code in rng.sample(others, 20):
            if code not in legal:
                with pytest.raises(IllegalAction):
                    GAME.apply(state, seat, code)
        state, _ = GAME.apply(state, seat, random_move(legal, rng))
