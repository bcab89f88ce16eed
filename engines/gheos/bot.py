"""A computer player: a quick estimate shortlists placements, a look-ahead to the end of
the turn picks one.

It values its followers by what their continents will still pay: chalices for each scoring
token left plus the final scoring, pyramids for each epoch still to come. A placement is
first judged by that value after the wars and migrations it would cause (ties decided in the
bot's favour), minus the follower it costs, plus temple points; some of the best rival's
value is subtracted so the bot also likes to hurt the leader's civilizations. The normal
level then plays each of its best few placements to the end of its turn (the real wars,
migrations, temple and its own best founding or take) and keeps the one that leaves its
points and followers best against the best rival's. Scoring tokens wait for a rich moment.

Levels: ``normal`` as above; ``easy`` judges a small noisy sample without the look-ahead and
spends tokens early. Deterministic given ``rng``; a failure raises (no fallback).
"""

from __future__ import annotations

import random
from typing import Any

from engines.gheos import rules as R
from engines.gheos.data import CHALICE, PYRAMID, WHEAT, tile
from engines.gheos.regions import CONTINENT, Land, Region

LEVELS = ("easy", "normal")
SAMPLE_PLACE = 48
SAMPLE_REPLACE = 24
#: placements the normal level plays out to the end of the turn
SHORTLIST = 8
#: how much a rival's expected points weigh against the bot's own
RIVAL_WEIGHT = 0.7
#: how likely a follower is to still score at a later token or epoch
TOKEN_WEIGHT = 1.0
EPOCH_WEIGHT = 1.0
#: chalice points that are worth a scoring token at once (tuned in tournaments against the
#: earlier bot, which used 12 and 3: spending early is what loses most)
TOKEN_AT = 18
#: ... or, with few turns or epochs left for the tokens in hand, this many
HURRY_AT = 9
#: the easy level looks at a few placements and judges them roughly
EASY_SAMPLE = 10
EASY_NOISE = 3.0


def choose(game, state: dict[str, Any], seat: int, rng: random.Random,
           level: str = "normal") -> str:
    """The bot's action for ``seat``. A failure here raises: the session's call site decides
    what a game does when its computer player breaks (a silent random fallback would hide
    the bug, and a bot that always crashed would still pass every test)."""
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}; known: {', '.join(LEVELS)}")
    legal = game.legal_actions(state, seat)
    if not legal:
        raise ValueError(f"seat {seat} has no legal action (phase {state['phase']})")
    if len(legal) == 1:
        return legal[0]
    phase = state["phase"]
    if phase == "tile":
        return _tile(state, seat, legal, rng, level)
    if phase == "resolve":
        return _resolve(state, seat, legal)
    if phase == "civ":
        if level == "normal":  # as the turn's look-ahead assumed: the best outcome
            return _best_civ(state, seat, legal)
        return _civ(state, seat, legal)
    if phase == "score":
        return _score(state, seat, legal, level)
    raise ValueError(f"no bot decision for phase {phase!r}")


def _weights(state: dict, seat: int) -> tuple[float, float]:
    """Worth of one chalice and one pyramid per follower from now on."""
    epochs_left = max(R.LAST_EPOCH[state["players"]] - state["epochs"], 0)
    return state["tokens"][seat] * TOKEN_WEIGHT + 1.0, epochs_left * EPOCH_WEIGHT


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


def _tile(state: dict, seat: int, legal: list[str], rng: random.Random, level: str) -> str:
    """Easy: the quick estimate of a small sample, with noise. Normal: the estimate of a
    larger sample shortlists placements, then each shortlisted one is played out to the end
    of the turn (real wars, migrations, temple and founding) and the outcome is valued."""
    sample_place, sample_replace = (SAMPLE_PLACE, SAMPLE_REPLACE) if level == "normal" \
        else (EASY_SAMPLE, EASY_SAMPLE // 2)
    noise = 0.05 if level == "normal" else EASY_NOISE
    places = [a for a in legal if a.startswith("place")]
    replaces = [a for a in legal if a.startswith("replace")]
    if len(places) > sample_place:
        places = rng.sample(places, sample_place)
    if len(replaces) > sample_replace:
        replaces = rng.sample(replaces, sample_replace)
    judged = []
    for code in places + replaces:
        v = _judge(state, seat, code) + rng.random() * noise
        if code.startswith("replace"):
            v -= 0.5  # a replaced tile leaves the game: keep it for a real gain
        judged.append((v, code))
    judged.sort(reverse=True)
    if level != "normal":
        return judged[0][1]
    best, best_v = judged[0][1], float("-inf")
    for _, code in judged[:SHORTLIST]:
        v = _value(_play_turn(state, seat, code), seat) + rng.random() * 0.01
        if code.startswith("replace"):
            v -= 0.5
        if v > best_v:
            best, best_v = code, v
    return best


def _play_turn(state: dict, seat: int, code: str) -> dict:
    """The state after ``code`` and the bot's own choices up to its scoring decision."""
    from engines.gheos import GAME

    s, _ = GAME.apply(state, seat, code)
    while s["phase"] in ("resolve", "civ") and s["turn"] == seat:
        legal = GAME.legal_actions(s, seat)
        resolving = s["phase"] == "resolve"
        pick = _resolve(s, seat, legal) if resolving else _best_civ(s, seat, legal)
        s, _ = GAME.apply(s, seat, pick)
    return s


def _best_civ(state: dict, seat: int, legal: list[str]) -> str:
    """Found or take: whichever leaves the best position."""
    from engines.gheos import GAME

    return max(legal, key=lambda a: _value(GAME.apply(state, seat, a)[0], seat))


def _value(state: dict, seat: int) -> float:
    """Points so far plus what each seat's followers should still earn; the bot's own
    against the best rival's (a win is what counts, not a score)."""
    totals = R.tally(state)
    if state["phase"] == "over":
        worth = [float(t) for t in totals]
    else:
        regions = R.civilization_regions(Land(state), state)
        worth = []
        for s, held in enumerate(state["followers"]):
            vals = _civ_values(state, regions, s)
            worth.append(totals[s] + sum(n * vals.get(c, 0.0) for c, n in held.items()))
    rival = max(w for s, w in enumerate(worth) if s != seat)
    return worth[seat] - RIVAL_WEIGHT * rival


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


def _score(state: dict, seat: int, legal: list[str], level: str) -> str:
    """Keep tokens for a rich moment, spending them before the bag runs out; never end the
    game (everybody's last token) while behind. The easy level spends a token on any
    modest gain, which a new player can learn to beat."""
    if "token" not in legal:
        return "pass"
    land = Land(state)
    pts = R.follower_points(state, land, seat, CHALICE)
    left = state["tokens"][seat]
    if pts <= 0:
        return "pass"
    if level == "easy":
        return "token" if pts >= 4 else "pass"
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
    if pts >= TOKEN_AT or (hurry and pts >= HURRY_AT):
        return "token"
    return "pass"
