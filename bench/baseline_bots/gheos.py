"""Gheos computer player as it was before issue 15 (frozen for benchmarks; do not improve).

Greedy over a cheap estimate, no look-ahead.

It values its followers by what their continents will still pay: chalices for each scoring
token left plus the final scoring, pyramids for each epoch still to come. A placement is
judged by that value after the wars and migrations it would cause (ties decided in the
bot's favour), minus the follower it costs, plus temple points; a little of the other
players' value is subtracted so the bot also likes to hurt the leader's civilizations.
"""

from __future__ import annotations

import random
from typing import Any

from engines.gheos import rules as R
from engines.gheos.data import CHALICE, PYRAMID, WHEAT, tile
from engines.gheos.regions import CONTINENT, Land, Region

SAMPLE_PLACE = 48
SAMPLE_REPLACE = 24


def choose(state: dict[str, Any], seat: int, rng: random.Random) -> str:
    from engines.gheos import GAME

    legal = GAME.legal_actions(state, seat)
    if len(legal) == 1:
        return legal[0]
    phase = state["phase"]
    try:
        if phase == "tile":
            return _tile(state, seat, legal, rng)
        if phase == "resolve":
            return _resolve(state, seat, legal)
        if phase == "civ":
            return _civ(state, seat, legal)
        if phase == "score":
            return _score(state, seat, legal)
    except Exception:  # a bot must never stall a game; fall back to a random legal move
        pass
    return rng.choice(legal)


def _weights(state: dict, seat: int) -> tuple[float, float]:
    """Worth of one chalice and one pyramid per follower from now on."""
    epochs_left = max(R.LAST_EPOCH[state["players"]] - state["epochs"], 0)
    return state["tokens"][seat] * 0.8 + 1.0, epochs_left * 0.7


def _civ_values(state: dict, region_of: dict[str, Region], seat: int) -> dict[str, float]:
    wc, wp = _weights(state, seat)
    return {c: r.counts[CHALICE] * wc + r.counts[PYRAMID] * wp for c, r in region_of.items()}


def _worth(state: dict, region_of: dict[str, Region], followers: list[dict[str, int]],
           seat: int) -> float:
    mine = 0.0
    others = 0.0
    for s, held in enumerate(followers):
        vals = _civ_values(state, region_of, s)
        v = sum(n * vals.get(c, 0.0) for c, n in held.items())
        if s == seat:
            mine = v
        else:
            others = max(others, v)
    return mine - 0.4 * others


def _tile(state: dict, seat: int, legal: list[str], rng: random.Random) -> str:
    places = [a for a in legal if a.startswith("place")]
    replaces = [a for a in legal if a.startswith("replace")]
    if len(places) > SAMPLE_PLACE:
        places = rng.sample(places, SAMPLE_PLACE)
    if len(replaces) > SAMPLE_REPLACE:
        replaces = rng.sample(replaces, SAMPLE_REPLACE)
    best, best_v = legal[0], float("-inf")
    for code in places + replaces:
        v = _judge(state, seat, code) + rng.random() * 0.05
        if code.startswith("replace"):
            v -= 0.5  # a replaced tile leaves the game: keep it for a real gain
        if v > best_v:
            best, best_v = code, v
    return best


def _judge(state: dict, seat: int, code: str) -> float:
    verb, tid, cell, rot = code.split()
    out = R.put_tile(state, verb, cell, tid, int(rot[1]))
    land = out.land
    followers = [dict(f) for f in state["followers"]]
    alive: dict[str, Region] = {c: land.region(rid) for c, rid in out.stays.items()}
    for c, rids in out.migrations.items():
        dests = R.migration_destinations(land, rids)
        regs = [land.region(r) for r in dests]
        regs = [r for r in regs if r.kind == CONTINENT]
        if regs:
            alive[c] = max(regs, key=lambda r: r.counts[CHALICE] + r.counts[PYRAMID])
    # wars: the most swords on the old part wins; on a tie the bot picks its favourite
    by_region: dict[int, list[str]] = {}
    for c, r in alive.items():
        by_region.setdefault(r.id, []).append(c)
    mine = state["followers"][seat]
    for rid, civs in by_region.items():
        if len(civs) < 2:
            continue
        stayers = [c for c in civs if c in out.stays] or civs
        region = land.region(rid)
        swords = {c: R.swords_on_old_part(land, out.old_parts.get(c, []), region) for c in stayers}
        top = max(swords.values())
        tied = [c for c in stayers if swords[c] == top]
        winner = max(tied, key=lambda c: mine.get(c, 0))
        for c in civs:
            if c != winner:
                del alive[c]
    for held in followers:
        for c in list(held):
            if c not in alive:
                del held[c]
    value = _worth(state, alive, followers, seat)
    if out.costs_follower:
        held = followers[seat]
        if held:
            vals = _civ_values(state, alive, seat)
            cheapest = min(held, key=lambda c: vals.get(c, 0.0))
            value -= vals.get(cheapest, 0.0) + 0.5
    # a temple pays now
    t = tile(state, tid)
    if t.temple is not None:
        from engines.gheos.data import TEMPLES
        from engines.gheos.regions import part_key

        idx, kind = t.temple
        region = land.region_of(part_key(cell, idx))
        if region.kind == CONTINENT and any(r.id == region.id for r in alive.values()):
            value += region.counts[TEMPLES[kind]]
    # room to found a civilization next step
    wc, wp = _weights(state, seat)
    taken = {r.id for r in alive.values()}
    best_found = 0.0
    if len(alive) < len(R.CIVILIZATIONS):
        for rid in set(land.regions.values()):
            if rid in taken:
                continue
            r = land.region(rid)
            if r.kind == CONTINENT:
                n = min(r.counts[WHEAT], R.FOLLOWERS_PER_CIVILIZATION)
                best_found = max(best_found,
                                 n * (r.counts[CHALICE] * wc + r.counts[PYRAMID] * wp + 0.3))
    return value + 0.6 * best_found


def _resolve(state: dict, seat: int, legal: list[str]) -> str:
    land = Land(state)
    regions = R.civilization_regions(land, state)
    vals = _civ_values(state, regions, seat)
    choice = state["pending"]["choice"]
    mine = state["followers"][seat]
    if choice["type"] == "pay":
        # pay with a follower that is worth least (one about to lose a war is worth nothing)
        return min(legal, key=lambda a: vals.get(a.split()[1], 0.0))
    if choice["type"] == "war":
        return max(legal, key=lambda a: mine.get(a.split()[1], 0))
    # migration: go where the continent pays most, or straight into a war we like
    def dest_value(code: str) -> float:
        r = land.continent_labelled(code.split()[2])
        if r is None:
            return 0.0
        held = mine.get(choice["civ"], 0)
        occupied = any(x.id == r.id for x in regions.values())
        gain = r.counts[CHALICE] + r.counts[PYRAMID]
        return -gain * held if occupied else gain * held
    return max(legal, key=dest_value)


def _civ(state: dict, seat: int, legal: list[str]) -> str:
    land = Land(state)
    regions = R.civilization_regions(land, state)
    vals = _civ_values(state, regions, seat)
    wc, wp = _weights(state, seat)

    def value(code: str) -> float:
        parts = code.split()
        if parts[0] == "take":
            return vals.get(parts[1], 0.0)
        r = land.continent_labelled(parts[2])
        if r is None:
            return 0.0
        n = min(r.counts[WHEAT], R.FOLLOWERS_PER_CIVILIZATION)
        return n * (r.counts[CHALICE] * wc + r.counts[PYRAMID] * wp + 0.3)

    return max(legal, key=value)


def _score(state: dict, seat: int, legal: list[str]) -> str:
    """Keep tokens for a rich moment, spending them before the bag runs out; never end the
    game (everybody's last token) while behind."""
    if "token" not in legal:
        return "pass"
    land = Land(state)
    pts = R.follower_points(state, land, seat, CHALICE)
    left = state["tokens"][seat]
    if pts <= 0:
        return "pass"
    if sum(state["tokens"]) == 1:
        totals = R.tally(state)
        finals = [R.follower_points(state, land, s, CHALICE) for s in range(state["players"])]
        mine = totals[seat] + 2 * pts
        if any(totals[s] + finals[s] >= mine for s in range(state["players"]) if s != seat):
            return "pass"
        return "token"
    my_turns = len(state["bag"]) / state["players"]
    epochs_left = R.LAST_EPOCH[state["players"]] - state["epochs"]
    hurry = my_turns <= left * 2 or epochs_left <= left
    if pts >= 12 or (hurry and pts >= 3):
        return "token"
    return "pass"
