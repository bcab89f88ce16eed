"""Dwóch następców computer player as it was before issue 15 (frozen for benchmarks).

A computer heir: greedy one step at a time, cheap enough to play a game in well under a
second or two.

Order of thought in a turn: resolve a siege (destroy what hurts the rival most); build the
tile that gains the most points; take a tile it can build (else any in reach); move a troop
if that makes a building affordable or doubles an own building; lay open terrain if that
discount lets another tile be built; use a Camp while the hand is small; end the turn.
"""

from __future__ import annotations

import random

from engines.base import State
from engines.dwoch_nastepcow import actions, rules, scoring
from engines.dwoch_nastepcow.state import copy_state

#: candidate cells tried per tile when looking for the best build
CELLS_PER_TILE = 8


def _after(state: State, seat: int, code: str) -> State:
    new = copy_state(state)
    verb, args = actions.parse(new, code)
    actions.perform(new, seat, verb, args)
    return new


def _margin(state: State, seat: int) -> int:
    points = scoring.totals(state)
    return points[seat] - points[1 - seat]


def _best(state: State, seat: int, codes: list[str], rng: random.Random) -> tuple[int, str]:
    base = _margin(state, seat)
    scored = [(_margin(_after(state, seat, c), seat) - base, rng.random(), c) for c in codes]
    gain, _, code = max(scored)
    return gain, code


def _sample_builds(codes: list[str], rng: random.Random) -> list[str]:
    by_tile: dict[str, list[str]] = {}
    for code in codes:
        by_tile.setdefault(code.split()[1], []).append(code)
    out: list[str] = []
    for options in by_tile.values():
        out += options if len(options) <= CELLS_PER_TILE else rng.sample(options, CELLS_PER_TILE)
    return out


def choose(state: State, seat: int, rng: random.Random) -> str:
    legal = actions.legal(state, seat)
    phase = state["phase"]
    if phase == "siege":
        return _best(state, seat, legal, rng)[1]
    if phase == "discard":
        have = rules.available_resources(state, seat)
        hand = sorted(state["hands"][seat],
                      key=lambda t: (-rules.shortfall(state["tiles"][t]["cost"], have),
                                     rng.random()))
        return f"discard {hand[0]}"
    by_verb: dict[str, list[str]] = {}
    for code in legal:
        by_verb.setdefault(code.split()[0], []).append(code)

    builds = by_verb.get("build", [])
    if builds:
        gain, code = _best(state, seat, _sample_builds(builds, rng), rng)
        if gain >= 0:
            return code

    takes = by_verb.get("take", [])
    if takes:
        buildable = [
            c for c in takes
            if any(b.startswith(f"build {c.split()[1]} ")
                   for b in actions.legal(_after(state, seat, c), seat))
        ]
        return rng.choice(buildable or takes)

    troop_moves = by_verb.get("move", []) + by_verb.get("deploy", []) + by_verb.get(
        "withdraw", [])
    if state["hands"][seat] and troop_moves:
        rng.shuffle(troop_moves)
        for code in troop_moves:
            if any(c.startswith("build ") for c in actions.legal(_after(state, seat, code),
                                                                  seat)):
                return code
    doubling = [c for c in by_verb.get("move", []) + by_verb.get("deploy", [])
                if _lands_on_own_building(state, seat, c.split()[-1])]
    if doubling:
        gain, code = _best(state, seat, doubling, rng)
        if gain > 0:
            return code

    hand = state["hands"][seat]
    terrains = by_verb.get("terrain", [])
    if len(hand) >= 2 and terrains:
        have = rules.available_resources(state, seat)
        discounts = state["turn"]["discounts"]
        short = {t: rules.shortfall(state["tiles"][t]["cost"], have) for t in hand}
        wanted = [t for t in hand if short[t] == discounts + 1]
        if wanted:
            keep = max(wanted, key=lambda t: sum(state["tiles"][t]["cost"].values()))
            spend = [c for c in terrains if c.split()[1] != keep]
            if spend:
                return rng.choice(spend)

    camps = by_verb.get("camp", [])
    if camps and len(hand) <= 2 and rng.random() < 0.5:
        return rng.choice(camps)
    if "end" in legal:
        return "end"
    return rng.choice(legal)


def _lands_on_own_building(state: State, seat: int, cell: str) -> bool:
    spot = state["landscape"].get(cell)
    return spot is not None and spot["face"] == "up" and spot["owner"] == seat
