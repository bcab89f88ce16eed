"""A computer player: a quick estimate shortlists placements, a look-ahead to the end of
the turn picks one.

It values its followers by what their continents will still pay: chalices for each scoring
token left plus the final scoring, pyramids for each epoch still to come, counting the
growth a continent can expect in the turns still to be played. A placement is
first judged by that value after the wars and migrations it would cause (ties decided in the
bot's favour), minus the follower it costs, plus temple points; some of the best rival's
value is subtracted so the bot also likes to hurt the leader's civilizations. The normal
level then plays each of its best few placements to the end of its turn (the real wars,
migrations, temple and its own best founding or take) and keeps the one that leaves its
points and followers best against the best rival's. With two players it looks one reply
further: the rival answers with its best placement by the quick estimate (wars and
replacements on inhabited land looked at first), so a move that leaves a civilization open
to an obvious attack loses its value. The look-ahead runs on a determinised copy: the tiles
the bot cannot see (the bag's order, the others' hands) are dealt anew with ``rng``.
With 3-4 players no reply is played (one of several threats, at thrice the time); the
value instead discounts the followers of every civilization one tile away from a stronger
one (more swords), whoever would attack it; every legal placement is judged and 24 are
played out.
Scoring tokens wait for a rich moment (a less rich one with 3-4 players).

Levels: ``normal`` as above; ``easy`` judges a small noisy sample without the look-ahead and
spends tokens early. Deterministic given ``rng``; a failure raises (no fallback).
"""

from __future__ import annotations

import random
from typing import Any, NamedTuple

import engines.gheos.geometry as geometry
import engines.gheos.moves as moves
import engines.gheos.rules as R
from engines.gheos.data import (
    CHALICE,
    PYRAMID,
    SWORDS,
    TEMPLES,
    WHEAT,
    epoch_count,
    is_epoch,
    tile,
)
from engines.gheos.regions import CONTINENT, Land, Region, part_key, split_key

LEVELS = ("easy", "normal")
#: placements and replacements the quick estimate looks at with 2 players (time is spent on
#: the reply instead)
SAMPLE_PLACE = 48
SAMPLE_REPLACE = 24
#: placements the normal level plays out to the end of the turn
SHORTLIST = 8
#: with 3-4 players no reply is looked at, so every legal placement is judged and this many
#: are played out: a sample left out most replacements
SHORTLIST_MANY = 24
#: how much a rival's expected points weigh against the bot's own
RIVAL_WEIGHT = 0.7
RIVAL_WEIGHT_2P = 0.7
#: how likely a follower is to still score at a later token or epoch
TOKEN_WEIGHT = 1.0
EPOCH_WEIGHT = 1.0
#: continents keep growing: a follower is valued as if its continent showed this many more
#: chalices and pyramids per ten turns still to be played (see ``turns_left``), so that
#: founding on a bare continent can beat taking one follower of a rich civilization;
#: pyramids weigh more, as every epoch scores them
GROWTH_CHALICE, GROWTH_PYRAMID = 0.25, 1.0
#: chalice points worth a scoring token at once: spending early is what loses most
TOKEN_AT = 18
#: ... or, with few turns or epochs left for the tokens in hand, this many
HURRY_AT = 9
#: with 3-4 players a follower's share of the chalices is smaller and a rich moment rarer
TOKEN_AT_MANY, HURRY_AT_MANY = 12, 6
#: the quick estimate's weight of the best rival's value, and of the best civilization
#: still to be founded; with two players hurting the only rival pays most, with more
#: players hurting one also helps the others
JUDGE_RIVAL_WEIGHT, JUDGE_RIVAL_WEIGHT_2P, FOUND_WEIGHT = 0.6, 0.8, 0.6
#: the normal level's two-player look-ahead: the rival replies with the best of this many
#: of its placements by the quick estimate, on a hand dealt from the tiles the bot cannot
#: see (0 turns the reply off); with 3-4 players one reply is one threat of several and
#: triples the time, so none is played
REPLY_SAMPLE = 16
#: the value after the reply, weighed against the value before it
REPLY_BLEND = 1.0
#: how much of a follower's value is kept when its civilization is threatened (one tile
#: could join its continent to one with more swords, see ``threatened``): with 3-4 players
#: no reply shows the attack coming
THREAT = 0.3
#: a replaced tile leaves the game: with 2 players a replacement is kept for a real gain;
#: with 3-4 players, every replacement judged, no such cost does better
REPLACE_COST, REPLACE_COST_MANY = 0.5, 0.0
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


def turns_left(state: dict) -> float:
    """Expected turns still to be played (all players together): the landscape tiles that
    will be drawn before the epoch tile that ends the game. The bag is in random order, so
    the k-th of its m epoch tiles comes on average after k / (m + 1) of its landscapes. Only
    what every player knows: the bag's size, and its epoch tiles (each is shown when drawn)."""
    bag = state["bag"]
    m = epoch_count(bag)
    k = R.LAST_EPOCH[state["players"]] - state["epochs"]
    return k * (len(bag) - m) / (m + 1)


def _weights(state: dict, seat: int) -> tuple[float, float]:
    """Worth of one chalice and one pyramid per follower from now on."""
    epochs_left = max(R.LAST_EPOCH[state["players"]] - state["epochs"], 0)
    return state["tokens"][seat] * TOKEN_WEIGHT + 1.0, epochs_left * EPOCH_WEIGHT


def _growth(state: dict) -> tuple[float, float]:
    """Chalices and pyramids a continent is expected to gain before the end (the same for
    every seat: a caller that values several seats asks once; counting the bag is not free)."""
    tens = turns_left(state) / 10
    return GROWTH_CHALICE * tens, GROWTH_PYRAMID * tens


def _civ_values(state: dict, region_of: dict[str, Region], seat: int,
                growth: tuple[float, float]) -> dict[str, float]:
    wc, wp = _weights(state, seat)
    gc, gp = growth
    return {c: (r.counts[CHALICE] + gc) * wc + (r.counts[PYRAMID] + gp) * wp
            for c, r in region_of.items()}


class JudgeContext(NamedTuple):
    """What the quick estimate of one position needs whatever the placement: computed once
    per decision (counting the bag and valuing every continent is not free)."""

    growth: tuple[float, float]  # see ``_growth``
    weights: list[tuple[float, float]]  # ``_weights`` of each seat
    #: (value of founding there for the judging seat, region id) of each continent on the
    #: map before the placement, best first; a placement changes only a few regions
    found: list[tuple[float, int]]
    #: cell -> the map with its tile lifted (``rules.lift_tile``), filled as replacements
    #: are judged: every tile and rotation on one cell starts from the same
    lifted: dict[str, R.Lifted]


def judge_context(state: dict, seat: int) -> JudgeContext:
    weights = [_weights(state, s) for s in range(len(state["followers"]))]
    wc, wp = weights[seat]
    land = Land(state)
    found = []
    for rid in land.landmass_regions():
        r = land.region(rid)
        if r.kind == CONTINENT:
            found.append((_found_value(r, wc, wp), rid))
    found.sort(reverse=True)
    return JudgeContext(_growth(state), weights, found, {})


def _found_value(r: Region, wc: float, wp: float) -> float:
    n = min(r.counts[WHEAT], R.FOLLOWERS_PER_CIVILIZATION)
    return n * (r.counts[CHALICE] * wc + r.counts[PYRAMID] * wp + 0.3)


def _civ_value(r: Region, weights: tuple[float, float], growth: tuple[float, float]) -> float:
    """``_civ_values`` of one civilization (the same arithmetic, so the same float)."""
    wc, wp = weights
    gc, gp = growth
    return (r.counts[CHALICE] + gc) * wc + (r.counts[PYRAMID] + gp) * wp


def _worth(region_of: dict[str, Region], followers: list[dict[str, int]], seat: int,
           ctx: JudgeContext) -> float:
    mine = 0.0
    others = 0.0
    gc, gp = ctx.growth
    # the arithmetic of ``_civ_values``, written out (so the same floats); every
    # civilization held is in ``region_of`` (``judge`` drops the others)
    grown = {c: (r.counts[CHALICE] + gc, r.counts[PYRAMID] + gp) for c, r in region_of.items()}
    for s, held in enumerate(followers):
        wc, wp = ctx.weights[s]
        v = 0.0
        for c, n in held.items():
            ch, py = grown[c]
            v += n * (ch * wc + py * wp)
        if s == seat:
            mine = v
        else:
            others = max(others, v)
    weight = JUDGE_RIVAL_WEIGHT_2P if len(followers) == 2 else JUDGE_RIVAL_WEIGHT
    return mine - weight * others


def _tile(state: dict, seat: int, legal: list[str], rng: random.Random, level: str) -> str:
    """Easy: the quick estimate of a small sample, with noise. Normal: the estimate of a
    larger sample (with 3-4 players, of every legal code) shortlists placements, then each
    shortlisted one is played out to the end of the turn (real wars, migrations, temple and
    founding) and the outcome is valued."""
    many = state["players"] > 2
    if level != "normal":
        sample_place, sample_replace = EASY_SAMPLE, EASY_SAMPLE // 2
    elif many:
        sample_place = sample_replace = len(legal)  # every one
    else:
        sample_place, sample_replace = SAMPLE_PLACE, SAMPLE_REPLACE
    noise = 0.05 if level == "normal" else EASY_NOISE
    places = [a for a in legal if a.startswith("place")]
    replaces = [a for a in legal if a.startswith("replace")]
    if len(places) > sample_place:
        places = rng.sample(places, sample_place)
    if len(replaces) > sample_replace:
        replaces = rng.sample(replaces, sample_replace)
    judged = []
    ctx = judge_context(state, seat)
    replace_cost = REPLACE_COST_MANY if many else REPLACE_COST
    for code in places + replaces:
        v = judge(state, seat, code, ctx) + rng.random() * noise
        if code.startswith("replace"):
            v -= replace_cost
        judged.append((v, code))
    judged.sort(reverse=True)
    if level != "normal":
        return judged[0][1]
    # the hidden tiles (the bag's order, the others' hands) are dealt anew: the look-ahead
    # must not use what the bot cannot see
    guess = determinise(state, seat, rng)
    best, best_v = judged[0][1], float("-inf")
    for _, code in judged[:SHORTLIST_MANY if many else SHORTLIST]:
        after = play_turn(guess, seat, code)
        v = position_value(after, seat)
        if REPLY_SAMPLE and not many:
            v = (1 - REPLY_BLEND) * v + REPLY_BLEND * position_value(_reply(after, seat, rng), seat)
        v += rng.random() * 0.01
        if code.startswith("replace"):
            v -= replace_cost
        if v > best_v:
            best, best_v = code, v
    return best


def play_turn(state: dict, seat: int, code: str) -> dict:
    """The state after ``code`` and the bot's own choices up to its scoring decision."""
    s, _ = moves.apply(state, seat, code)
    while s["phase"] in ("resolve", "civ") and s["turn"] == seat:
        legal = moves.legal_actions(s, seat)
        if s["phase"] == "resolve":
            s, _ = moves.apply(s, seat, _resolve(s, seat, legal))
        else:
            _, s = _best_civ_after(s, seat, legal)  # the state its choice was valued on
    return s


def determinise(state: dict, seat: int, rng: random.Random) -> dict:
    """A copy of ``state`` in which the tiles ``seat`` cannot see (the bag and the other
    players' hands) are shuffled and dealt again."""
    s = moves.copy_state(state)
    others = [o for o in range(s["players"]) if o != seat]
    pool = sorted(s["bag"] + [t for o in others for t in s["hands"][o]])
    rng.shuffle(pool)
    for o in others:
        n = len(s["hands"][o])
        hand = [t for t in pool if not is_epoch(t)][:n]
        for t in hand:
            pool.remove(t)
        s["hands"][o] = hand
    s["bag"] = pool
    return s


def _reply(state: dict, seat: int, rng: random.Random) -> dict:
    """The position after the next player's reply: its best sampled placement by the quick
    estimate, played to the end of its turn. ``state`` is ``seat``'s turn played out
    (before its scoring decision, which changes nothing on the board)."""
    if state["phase"] == "over":
        return state
    if state["turn"] == seat:  # skip our scoring decision: the reply is what is looked at
        state = dict(state, turn=(seat + 1) % state["players"], phase="tile", pending=None)
    rival = state["turn"]
    legal = moves.legal_actions(state, rival)
    if state["phase"] != "tile" or not legal:
        return state
    if len(legal) > REPLY_SAMPLE:
        legal = _reply_sample(state, legal, rng)
    ctx = judge_context(state, rival)
    code = max(legal,
               key=lambda c: judge(state, rival, c, ctx) - 0.5 * c.startswith("replace"))
    return play_turn(state, rival, code)


def _reply_sample(state: dict, legal: list[str], rng: random.Random) -> list[str]:
    """REPLY_SAMPLE of ``legal``, the likeliest to matter first: placements next to two
    inhabited continents (a war), then replacements on an inhabited continent (a migration
    or war), then placements next to one (growth), then the rest; at random within each."""
    land = Land(state)
    inhabited = {land.regions[a] for a in state["civs"].values() if a is not None}
    rids_at: dict[str, set[int]] = {}
    for rid in inhabited:
        for k in land.region(rid).parts:
            rids_at.setdefault(split_key(k)[0], set()).add(rid)
    groups: list[list[str]] = [[], [], [], []]
    for code in legal:
        verb, _, cell, _ = code.split()
        if verb == "replace":
            groups[1 if cell in rids_at else 3].append(code)
            continue
        touched: set[int] = set()
        for nb in geometry.neighbours(cell):
            touched |= rids_at.get(nb or "", set())
        groups[0 if len(touched) > 1 else 2 if touched else 3].append(code)
    out: list[str] = []
    for group in groups:
        rng.shuffle(group)
        out += group[:REPLY_SAMPLE - len(out)]
    return out


def _best_civ(state: dict, seat: int, legal: list[str]) -> str:
    """Found or take: whichever leaves the best position. Founding on one continent is
    worth the same in any free colour (a free colour has all its followers in the supply),
    so one colour per continent is tried."""
    return _best_civ_after(state, seat, legal)[0]


def _best_civ_after(state: dict, seat: int, legal: list[str]) -> tuple[str, dict]:
    """``_best_civ``'s choice and the state it leaves (the first of the best, as ``max``)."""
    tried, cells = [], set()
    for a in legal:
        parts = a.split()
        if parts[0] == "found":
            if parts[2] in cells:
                continue
            cells.add(parts[2])
        tried.append(a)
    best: tuple[float, str, dict] | None = None
    for a in tried:
        after = moves.apply(state, seat, a)[0]
        v = position_value(after, seat)
        if best is None or v > best[0]:
            best = (v, a, after)
    if best is None:
        raise ValueError(f"seat {seat} has no civilization action")
    return best[1], best[2]


def position_value(state: dict, seat: int) -> float:
    """Points so far plus what each seat's followers should still earn; the bot's own
    against the best rival's (a win is what counts, not a score)."""
    totals = R.tally(state)
    if state["phase"] == "over":
        worth = [float(t) for t in totals]
    else:
        land = Land(state)
        regions = R.civilization_regions(land, state)
        keep = {c: 1.0 - THREAT for c in threatened(land, regions)}
        worth = []
        growth = _growth(state)
        for s, held in enumerate(state["followers"]):
            weights = _weights(state, s)
            v = 0.0
            for c, n in held.items():  # the civilizations held only
                r = regions.get(c)
                if r is not None:
                    v += n * _civ_value(r, weights, growth) * keep.get(c, 1.0)
            worth.append(totals[s] + v)
    rival = max(w for s, w in enumerate(worth) if s != seat)
    weight = RIVAL_WEIGHT_2P if len(worth) == 2 else RIVAL_WEIGHT
    return worth[seat] - weight * rival


def threatened(land: Land, regions: dict[str, Region]) -> set[str]:
    """Civilizations that one tile could join to a continent with more swords, or with as
    many (the attacker then picks the winner): a free cell that both continents' land
    faces, or a tile without a pyramid with parts in both (replaced by a landmass). Every
    tile edge carries land, so continents are separated only inside such tiles or by free
    cells. The attacker needs a landmass in hand and a follower to pay: likely, not sure."""
    if len(regions) < 2:
        return set()
    civ_of = {r.id: c for c, r in regions.items()}
    contacts = land.contacts()
    swords = {rid: land.region(rid).counts[SWORDS] for rid in civ_of}
    # a civilization is threatened where one tile could join it to another with at least as
    # many swords (in a group of several the strongest alone is safe, unless tied)
    return {c for rid, c in civ_of.items()
            if any(swords[o] >= swords[rid] for o in contacts.get(rid, ()) if o in civ_of)}


def judge(state: dict, seat: int, code: str, ctx: JudgeContext | None = None) -> float:
    """The quick estimate of placement ``code``; ``ctx`` is ``judge_context(state, seat)``
    (computed here when not given)."""
    if ctx is None:
        ctx = judge_context(state, seat)
    verb, tid, cell, rot = code.split()
    lifted = R.lift_kept(ctx.lifted, state, cell) if verb == "replace" else None
    out = R.put_tile(state, verb, cell, tid, int(rot[1]), lifted)
    land = out.land
    alive = _after_wars(land, out, _survivors(land, out), state["followers"][seat])
    followers = [{c: n for c, n in f.items() if c in alive} for f in state["followers"]]
    value = _worth(alive, followers, seat, ctx)
    if out.costs_follower and followers[seat]:
        value -= _cheapest_payment(alive, followers[seat], ctx.weights[seat], ctx.growth)
    temple = _temple_now(state, tid, cell, land, alive)
    if temple is not None:
        value += temple
    return value + FOUND_WEIGHT * _best_found(land, alive, ctx.found, ctx.weights[seat])


def _survivors(land: Land, out: R.Outcome) -> dict[str, Region]:
    """The continent of each civilization after a placement: where it stays, or where a
    split one migrates (the continent that pays most; an island is not one)."""
    alive: dict[str, Region] = {c: land.region(rid) for c, rid in out.stays.items()}
    for c, rids in out.migrations.items():
        dests = R.migration_destinations(land, rids)
        regs = [land.region(r) for r in dests]
        regs = [r for r in regs if r.kind == CONTINENT]
        if regs:
            alive[c] = max(regs, key=lambda r: r.counts[CHALICE] + r.counts[PYRAMID])
    return alive


def _after_wars(land: Land, out: R.Outcome, alive: dict[str, Region],
                mine: dict[str, int]) -> dict[str, Region]:
    """``alive`` without the losers of the wars: the most swords on the old part wins; on a
    tie the bot picks its favourite (the civilization it holds most followers of)."""
    by_region: dict[int, list[str]] = {}
    for c, r in alive.items():
        by_region.setdefault(r.id, []).append(c)
    losers: set[str] = set()
    for rid, civs in by_region.items():
        if len(civs) < 2:
            continue
        stayers = [c for c in civs if c in out.stays] or civs
        region = land.region(rid)
        swords = {c: R.swords_on_old_part(land, out.old_parts.get(c, []), region) for c in stayers}
        top = max(swords.values())
        tied = [c for c in stayers if swords[c] == top]
        winner = max(tied, key=lambda c: mine.get(c, 0))
        losers.update(c for c in civs if c != winner)
    return {c: r for c, r in alive.items() if c not in losers}


def _cheapest_payment(alive: dict[str, Region], held: dict[str, int],
                      weights: tuple[float, float], growth: tuple[float, float]) -> float:
    """What paying for a war or migration costs: the follower worth least, and a little."""
    vals = {c: _civ_value(alive[c], weights, growth) for c in held}
    cheapest = min(held, key=lambda c: vals[c])
    return vals[cheapest] + 0.5


def _temple_now(state: dict, tid: str, cell: str, land: Land,
                alive: dict[str, Region]) -> int | None:
    """What a temple on the placed tile pays now (None: no temple)."""
    t = tile(state, tid)
    if t.temple is None:
        return None
    idx, kind = t.temple
    region = land.region_of(part_key(cell, idx))
    if region.kind == CONTINENT and any(r.id == region.id for r in alive.values()):
        return region.counts[TEMPLES[kind]]
    return None


def _best_found(land: Land, alive: dict[str, Region], found: list[tuple[float, int]],
                weights: tuple[float, float]) -> float:
    """The room to found a civilization next step: the best uninhabited continent."""
    taken = {r.id for r in alive.values()}
    best_found = 0.0
    if len(alive) < len(R.CIVILIZATIONS):
        # the continents the placement left alone were valued before it (best first);
        # those it changed or made are valued here
        changed = land.changed_regions()
        for v, rid in found:
            if rid not in taken and rid not in changed:
                best_found = max(best_found, v)
                break
        wc, wp = weights
        for rid in changed:
            r = land.region(rid)
            if r.kind == CONTINENT and rid not in taken:
                best_found = max(best_found, _found_value(r, wc, wp))
    return best_found


def _resolve(state: dict, seat: int, legal: list[str]) -> str:
    land = Land(state)
    regions = R.civilization_regions(land, state)
    vals = _civ_values(state, regions, seat, _growth(state))
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
    vals = _civ_values(state, regions, seat, _growth(state))
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
    token_at, hurry_at = (TOKEN_AT, HURRY_AT) if state["players"] == 2 \
        else (TOKEN_AT_MANY, HURRY_AT_MANY)
    if pts >= token_at or (hurry and pts >= hurry_at):
        return "token"
    return "pass"
