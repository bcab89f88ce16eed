"""Shared helpers for the Gheos tests: tile shorthands, invariants, playing."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

from engines.gheos import GAME
from engines.gheos import rules as R
from engines.gheos.data import EPOCH_IDS, LANDSCAPE_IDS, is_epoch, tile
from engines.gheos.position import land, part
from engines.gheos.regions import CONTINENT, Land, partition_from_scratch, partition_stored

# On a row of cells every neighbour to the left or right meets through slots 0 and 1, and
# slot 2 faces the row above (down cells) or below (up cells). With rotation 0 a tile's
# edges are the slots, so these shorthands read "left-right landmass", etc.
LR = [0, 1]  # a landmass from the left to the right neighbour (either orientation)
ALL = [0, 1, 2]


def lr(*symbols: str) -> list[dict[str, Any]]:
    """Landmass joining the left and right neighbours, a bare shore on the outer edge."""
    return land(LR, *symbols)


def full(*symbols: str) -> list[dict[str, Any]]:
    return land(ALL, *symbols)


def shores(s0: tuple[str, ...] = (), s1: tuple[str, ...] = (), s2: tuple[str, ...] = ()
           ) -> list[dict[str, Any]]:
    return [part([0], *s0), part([1], *s1), part([2], *s2)]


def play(state: dict, seat: int, *codes: str) -> tuple[dict, list[dict]]:
    events: list[dict] = []
    for code in codes:
        state, ev = GAME.apply(state, seat, code)
        events += ev
    return state, events


def keys(events: list[dict]) -> list[str]:
    return [e["key"].removeprefix("gheos.") for e in events]


def region_of_civ(state: dict, colour: str):
    lnd = Land(state)
    return lnd.region_of(state["civs"][colour])


# --- invariants ---------------------------------------------------------------------------
def check_invariants(state: dict, board_changed: bool = True) -> None:
    """Everything that must hold after any action (the from-scratch region check only when
    the board changed, since nothing else moves land)."""
    assert json.loads(json.dumps(state)) == state
    # followers are conserved: 5 of each colour between the supply and the players
    for c in R.CIVILIZATIONS:
        held = sum(f.get(c, 0) for f in state["followers"])
        assert held + state["supply"][c] == R.FOLLOWERS_PER_CIVILIZATION, c
        if c not in state["civs"]:
            assert held == 0, f"{c} followers held without its civilization on the board"
    for f in state["followers"]:
        assert all(n > 0 for n in f.values())
    # the regions kept incrementally equal the regions computed from nothing
    if board_changed:
        assert partition_stored(state) == partition_from_scratch(state)
    assert set(state["regions"]) == {f"{cell}/{i}" for cell, (tid, _) in state["board"].items()
                                     for i in range(len(tile(state, tid).parts))}
    # one marker per civilization, each on a continent of its own (outside mid-move choices)
    lnd = Land(state)
    if state["phase"] != "resolve":
        regions = []
        for c, a in state["civs"].items():
            assert a is not None, c
            r = lnd.region_of(a)
            assert r.kind == CONTINENT, (c, r)
            regions.append(r.id)
        assert len(regions) == len(set(regions)), "two markers on one continent"
        assert state["pending"] is None
    # every tile is somewhere: board, removed, hands, bag or the epoch pile
    if not state.get("custom_tiles"):
        every = (list(b[0] for b in state["board"].values()) + state["removed"]
                 + [t for h in state["hands"] for t in h] + state["bag"] + state["epoch_tiles"])
        assert sorted(every) == sorted(LANDSCAPE_IDS + EPOCH_IDS)
    assert all(len(h) <= R.HAND_SIZE and not any(is_epoch(t) for t in h)
               for h in state["hands"])
    assert all(0 <= n <= R.SCORING_TOKENS for n in state["tokens"])
    assert all(v >= 0 for p in state["points"] for v in p.values())
    if state["phase"] != "over":
        seat = state["turn"]
        assert GAME.to_act(state) == [seat]  # (the policy then needs a legal action)


def random_game(players: int, seed: int) -> Iterator[tuple[dict, int]]:
    """The states of a seeded game of uniformly random legal moves, each with the seat about
    to move (``random.Random(seed)`` picks the moves)."""
    rng = random.Random(seed)
    state = GAME.setup(players, {}, seed)
    while not GAME.is_over(state):
        seat = GAME.to_act(state)[0]
        yield state, seat
        state, _ = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))


def random_policy(state: dict, seat: int, rng: random.Random) -> str:
    """A random legal move, choosing the verb first so placing is as likely as replacing."""
    legal = GAME.legal_actions(state, seat)
    verbs = sorted({a.split()[0] for a in legal})
    verb = rng.choice(verbs)
    return rng.choice([a for a in legal if a.split()[0] == verb])


def playout(players: int, seed: int, policy=random_policy, check: bool = True
            ) -> tuple[dict, list[tuple[int, str]], list[dict]]:
    state = GAME.setup(players, {}, seed)
    rng = random.Random(seed * 7919 + players)
    log: list[tuple[int, str]] = []
    events: list[dict] = []
    while not GAME.is_over(state):
        seat = GAME.to_act(state)[0]
        code = policy(state, seat, rng) if policy is not None else GAME.bot_action(state, seat,
                                                                                  rng)
        state, ev = GAME.apply(state, seat, code)
        log.append((seat, code))
        events += ev
        if check:
            check_invariants(state, code.startswith(("place", "replace")))
        assert len(log) < 2000
    return state, log, events
