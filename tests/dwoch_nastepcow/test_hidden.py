"""Hidden information: the stack, the hands and tiles laid face down never reach a spectator;
each seat sees its own hand under view["private"] only."""

from __future__ import annotations

import json
import random

from engines.dwoch_nastepcow import GAME

from .test_playouts import random_move


def hidden(state) -> set[str]:
    return (set(state["stack"]) | {t for h in state["hands"] for t in h} | set(state["removed"])
            | {s["tile"] for s in state["landscape"].values() if s["face"] == "down"})


def test_no_hidden_tile_ever_appears_in_a_spectator_view():
    for seed in range(12):
        state = GAME.setup(2, {"variants": ["set_war", "set_lands", "set_craft"]}
                           if seed % 2 else {}, seed)
        rng = random.Random(seed)
        steps = 0
        while not GAME.is_over(state):
            public = json.dumps(GAME.view(state, None))
            assert "private" not in GAME.view(state, None)
            leaks = [t for t in hidden(state) if f'"{t}"' in public]
            assert not leaks, leaks
            (seat,) = GAME.to_act(state)
            state, _ = GAME.apply(state, seat, random_move(GAME.legal_actions(state, seat), rng))
            steps += 1
        assert steps > 20


def test_each_seat_sees_its_own_hand_only():
    state = GAME.setup(2, {}, 3)
    rng = random.Random(3)
    while not (state["hands"][0] and state["hands"][1]):
        (seat,) = GAME.to_act(state)
        legal = GAME.legal_actions(state, seat)
        code = next((c for c in legal if c.startswith("take")), "end")
        state, _ = GAME.apply(state, seat, code)
    for seat in (0, 1):
        view = GAME.view(state, seat)
        mine = [t["id"] for t in view["private"]["hand"]]
        assert mine == state["hands"][seat]
        theirs = json.dumps({k: v for k, v in view.items() if k != "private"})
        assert not any(f'"{t}"' in theirs for t in state["hands"][1 - seat])
        assert not any(f'"{t}"' in json.dumps(view) for t in state["hands"][1 - seat])
    assert GAME.view(state, None)["hand_sizes"] == [len(h) for h in state["hands"]]
    rng.random()


def test_open_terrain_shows_only_its_colour_and_describe_does_not_name_it():
    state = GAME.setup(2, {}, 8)
    (seat,) = GAME.to_act(state)
    take = next(c for c in GAME.legal_actions(state, seat) if c.startswith("take"))
    state, _ = GAME.apply(state, seat, take)
    tid = state["hands"][seat][0]
    code = next(c for c in GAME.legal_actions(state, seat) if c.startswith(f"terrain {tid}"))
    key, params = GAME.describe(state, code)
    assert tid not in json.dumps(params)
    new, events = GAME.apply(state, seat, code)
    cell = code.split()[-1]
    entry = next(e for e in GAME.view(new, None)["landscape"] if e["cell"] == cell)
    assert entry == {"cell": cell, "face": "down", "colour": state["tiles"][tid]["colour"],
                     "destroyed": False, "start": False}
    assert [e for e in events if tid in json.dumps(e)] == [
        e for e in events if e.get("private_to") == seat]


def test_discards_are_not_named_in_public():
    state = GAME.setup(2, {}, 8)
    (seat,) = GAME.to_act(state)
    state["hands"][seat] = [state["stack"].pop() for _ in range(3)]
    take = next(c for c in GAME.legal_actions(state, seat) if c.startswith("take"))
    state, _ = GAME.apply(state, seat, take)
    state, _ = GAME.apply(state, seat, "end")
    code = GAME.legal_actions(state, seat)[0]
    _, events = GAME.apply(state, seat, code)
    assert code.split()[1] not in json.dumps(events)
    assert code.split()[1] not in json.dumps(GAME.describe(state, code))
