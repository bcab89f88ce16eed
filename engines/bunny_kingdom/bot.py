"""The computer player, in two levels; always legal, deterministic for a given ``rng``.

It looks only at what its seat may see (its hand, the board, the buildings waiting face up,
its own parchments).

``normal`` picks with a *projection* (:class:`Projection`): the carrots its fiefs would give
at each harvest still to come, with the buildings waiting in front of it placed greedily, plus
what its parchments are expected to score. A card is worth the rise of that projection; with
2 players the discarded card is the one worth most to the opponent (who would get the hand).
Camps go where the projection rises most. Construction, trading posts and copies are greedy on
a one-pass summary of the fiefs (strength and resources per fief).

``easy`` picks by a rough card value with a lot of noise, half of the time at random.
"""

from __future__ import annotations

import random
from typing import Any

from engines.base import Game
from engines.bunny_kingdom.board import fief_index, fiefs
from engines.bunny_kingdom.data import (
    BASE_RESOURCE,
    BASIC_RESOURCES,
    CAMPS,
    CELLS,
    CITY_STRENGTH,
    COPY_SCROLLS,
    FARM_RESOURCE,
    INDEX,
    KINDS,
    NEIGHBOURS,
    ROUNDS,
    TERRAIN,
    kind_of,
)
from engines.bunny_kingdom.harvest import harvest_fiefs
from engines.bunny_kingdom.scrolls import effective_kinds, facts, score_kind

State = dict[str, Any]


class Summary:
    """The seat's fiefs: which fief each cell is in, its strength and its resources."""

    def __init__(self, state: State, seat: int) -> None:
        self.state = state
        self.seat = seat
        self.index = fief_index(state, seat)
        fiefs = harvest_fiefs(state, seat)
        self.strength = [f.strength for f in fiefs]
        self.resources = [set(f.resources) for f in fiefs]
        owner, building = state["owner"], state["building"]
        self.free = [i for i in range(CELLS) if owner[i] == seat and building[i] is None]

    def fiefs_next_to(self, cell: int) -> set[int]:
        return {self.index[j] for j in NEIGHBOURS[cell] if j in self.index}

    def best_city_spot(self, strength: int, terrains: tuple[str, ...]) -> float:
        spots = [i for i in self.free if not terrains or TERRAIN[i] in terrains]
        if not spots:
            return 0.3
        return strength * max(1, max(len(self.resources[self.index[i]]) for i in spots))

    def best_farm_spot(self, resource: str | None, terrains: tuple[str, ...]) -> float:
        best = 0.3
        for i in self.free:
            if terrains and TERRAIN[i] not in terrains:
                continue
            have = self.resources[self.index[i]]
            missing = (resource not in have) if resource else bool(set(BASIC_RESOURCES) - have)
            if missing:
                best = max(best, 0.8 + self.strength[self.index[i]])
        return best


def card_value(summary: Summary, card: str) -> float:
    """A rough worth of a card in hand for this seat."""
    kind = kind_of(card)
    cat = kind.category
    state = summary.state
    if cat == "territory":
        cell = INDEX[kind.coord]
        value = 1.0 + (1.0 if BASE_RESOURCE[cell] else 0.0)
        if state["building"][cell] in CITY_STRENGTH:
            value += 2.5
        near = summary.fiefs_next_to(cell)
        if near:
            value += 2.0 + 3.0 * (len(near) - 1)
        return value
    if cat == "city":
        return 0.8 * summary.best_city_spot(kind.strength, kind.terrains)
    if cat == "farm":
        return summary.best_farm_spot(kind.resource, kind.terrains)
    if cat == "trading_post":
        return summary.best_farm_spot(None, ())
    if cat == "sky_tower":
        return 3.0 if len(summary.strength) >= 2 else 1.0
    if cat == "camp":
        return 2.5
    if cat == "provisions":
        return 3.0
    if kind.treasure:
        return 0.8 * kind.scoring.get("points", 2)
    return 2.5


def choose(game: Game, state: State, seat: int, rng: random.Random,
           level: str = "normal") -> str:
    legal = game.legal_actions(state, seat)
    phase = state["phase"]
    if phase == "explore":
        if level == "easy":
            return rng.choice(legal) if rng.random() < 0.5 else _pick(state, seat, rng, noise=6.0)
        return _projected_pick(state, seat, rng)
    if phase == "camps":
        return _camp(state, seat, legal) if level == "easy" else _projected_camp(state, seat, legal)
    if phase == "build":
        return _build(state, seat, legal)
    if phase == "trade":
        return _trade(state, seat, legal)
    if phase == "copy":
        return _copy(state, seat, legal)
    return rng.choice(legal)


def _pick(state: State, seat: int, rng: random.Random, noise: float = 0.5) -> str:
    summary = Summary(state, seat)
    hand = state["hands"][seat]
    ranked = sorted(hand, key=lambda c: card_value(summary, c) + rng.random() * noise,
                    reverse=True)
    # 2 players: play the best, discard the second best (it would help the opponent most)
    return f"pick {kind_of(ranked[0]).id} {kind_of(ranked[1]).id}"


def _camp(state: State, seat: int, legal: list[str]) -> str:
    summary = Summary(state, seat)
    best, best_value = "keep", 0.0
    for code in legal:
        if code == "keep":
            continue
        cell = INDEX[code.split()[2]]
        near = summary.fiefs_next_to(cell)
        value = 0.5 + (1.0 if BASE_RESOURCE[cell] else 0.0) + 2.0 * len(near)
        if value > best_value:
            best, best_value = code, value
    return best


def _gain(summary: Summary, code: str) -> float:
    """Carrots this building adds to the next harvest (a little more for later rounds)."""
    _, kind_id, *coords = code.split()
    cells = [INDEX[c] for c in coords]
    f = summary.index[cells[0]]
    s, res = summary.strength[f], summary.resources[f]
    if kind_id == "sky_tower":
        g = summary.index[cells[1]]
        t, other = summary.strength[g], summary.resources[g]
        return (s + t) * len(res | other) - s * len(res) - t * len(other) + 0.1
    if kind_id in CITY_STRENGTH:
        return CITY_STRENGTH[kind_id] * max(len(res), 0.2)
    if kind_id in FARM_RESOURCE:
        return s * (FARM_RESOURCE[kind_id] not in res) + 0.1
    return s * bool(set(BASIC_RESOURCES) - res) + 0.1  # trading post


def _build(state: State, seat: int, legal: list[str]) -> str:
    summary = Summary(state, seat)
    best, best_gain = "done", 0.5
    for code in legal:
        if code == "done":
            continue
        gain = _gain(summary, code)
        if gain > best_gain:
            best, best_gain = code, gain
    if best == "done" and state["round"] == 4 and len(legal) > 1:
        # the last round: a building left in front of you is worth nothing
        return legal[0]
    return best


def _trade(state: State, seat: int, legal: list[str]) -> str:
    summary = Summary(state, seat)
    for code in legal:
        _, coord, resource = code.split()
        if resource not in summary.resources[summary.index[INDEX[coord]]]:
            return code
    return legal[0]


def _copy(state: State, seat: int, legal: list[str]) -> str:
    """Copy the parchment that would score most on our own board (measured once)."""
    f = facts(state, seat)
    own = [k for _, k in effective_kinds(state, seat)]
    best, best_points = legal[0], -1
    for code in legal:
        _, card, target = code.split()
        if KINDS[target].scoring["type"] == "rank_bonus":
            points = 5  # the Opportunist: a coin toss
        else:
            kinds = [*own, target]
            points = score_kind(target, f, kinds)[0]
            if KINDS[target].treasure or target in ("left_glove", "right_glove"):
                # a treasure may also raise Treasure Guardian/Hunter and the glove pair
                points += sum(score_kind(k, f, kinds)[0] - score_kind(k, f, own)[0]
                              for k in own if k and KINDS[k].scoring["type"] != "rank_bonus")
        if points > best_points:
            best, best_points = code, points
    return best


# --- the projection (normal level) ---------------------------------------------------------
#: what a fief is worth beyond this harvest's carrots, per unit still missing: a resource
#: waiting for a city, a city waiting for a resource
POTENTIAL = 0.6
PROVISIONS = 4.0  # two cards from the deck, played at once
COPY_CARD = 5.0  # copies a neighbour's parchment: about an average one
DENY = 0.5  # share of the opponent's gain taken away by discarding a card (2 players)


class Projection:
    """Carrots a seat's board should still give, if the game ended with this board.

    ``value(owner, waiting)`` = harvests left x carrots per harvest (waiting buildings placed
    greedily on the seat's free territories) + a little for unfinished fiefs.
    """

    def __init__(self, state: State, seat: int) -> None:
        self.state = state
        self.seat = seat
        self.harvests = ROUNDS - state["round"] + (1 if state["phase"] != "copy" else 0)
        self.towers = state["towers"]
        self.building = state["building"]
        self.waiting = [kind_of(c).id for c in state["waiting"][seat] if c not in CAMPS]
        self.base = self.value(state["owner"], self.waiting)

    def value(self, owner: list[int] | tuple[int, ...], waiting: list[str]) -> float:
        groups = fiefs({"owner": owner, "towers": self.towers}, self.seat)
        strength, resources, free = _fief_summary(groups, self.building)
        # the waiting buildings, strongest first, each where it adds most
        for kind_id in sorted(waiting, key=lambda k: -CITY_STRENGTH.get(k, 0)):
            best = _best_spot(kind_id, strength, resources, free)
            if best is not None:
                _build_in_fief(kind_id, *best, strength, resources, free)
        per_harvest = sum(s * len(r) for s, r in zip(strength, resources, strict=True))
        unfinished = sum(len(r) if not s else (s if not r else 0)
                         for s, r in zip(strength, resources, strict=True))
        return self.harvests * per_harvest + POTENTIAL * min(self.harvests, 2) * unfinished

    def territory_gain(self, cell: int) -> float:
        owner = list(self.state["owner"])
        owner[cell] = self.seat
        return self.value(owner, self.waiting) - self.base

    def building_gain(self, kind_id: str) -> float:
        return self.value(self.state["owner"], [*self.waiting, kind_id]) - self.base


def _fief_summary(groups: list[list[int]], building: list[str | None]
                  ) -> tuple[list[int], list[set[str | None]], list[list[int]]]:
    """Per fief: its strength, its resources (a trading post counts as one more: a free
    choice each harvest) and its free territories."""
    strength: list[int] = []
    resources: list[set[str | None]] = []
    free: list[list[int]] = []
    for group in groups:
        s, res, spots = 0, set(), []
        for i in group:
            b = building[i]
            if BASE_RESOURCE[i]:
                res.add(BASE_RESOURCE[i])
            if b is None:
                spots.append(i)
            elif b in CITY_STRENGTH:
                s += CITY_STRENGTH[b]
            elif b in FARM_RESOURCE:
                res.add(FARM_RESOURCE[b])
            elif b == "trading_post":
                res.add("post")
        strength.append(s)
        resources.append(res)
        free.append(spots)
    return strength, resources, free


def _best_spot(kind_id: str, strength: list[int], resources: list[set[str | None]],
               free: list[list[int]]) -> tuple[int, int] | None:
    """(fief, territory) where building ``kind_id`` adds most; None where it adds nothing."""
    terrains = KINDS[kind_id].terrains
    best, best_gain = None, 0.0
    for n, spots in enumerate(free):
        spot = next((i for i in spots if not terrains or TERRAIN[i] in terrains), None)
        if spot is None:
            continue
        gain = _building_gain(kind_id, n, strength, resources, free)
        if gain > best_gain:
            best, best_gain = (n, spot), gain
    return best


def _building_gain(kind_id: str, n: int, strength: list[int],
                   resources: list[set[str | None]], free: list[list[int]]) -> float:
    """What building ``kind_id`` in fief ``n`` adds to a harvest (about)."""
    s, res = strength[n], resources[n]
    if kind_id in CITY_STRENGTH:
        return CITY_STRENGTH[kind_id] * max(len(res), 0.3)
    if kind_id in FARM_RESOURCE:
        return max(s, 0.3) * (FARM_RESOURCE[kind_id] not in res)
    if kind_id == "trading_post":
        return max(s, 0.3) * ("post" not in res)
    # sky tower: joins this fief to the best other one
    return max((_join_gain(s, res, strength[m], resources[m])
                for m in range(len(free)) if m != n and free[m]), default=0.0)


def _build_in_fief(kind_id: str, n: int, spot: int, strength: list[int],
           resources: list[set[str | None]], free: list[list[int]]) -> None:
    """Build ``kind_id`` on ``spot`` of fief ``n`` (a sky tower joins the best other fief)."""
    free[n] = [i for i in free[n] if i != spot]
    if kind_id in CITY_STRENGTH:
        strength[n] += CITY_STRENGTH[kind_id]
    elif kind_id in FARM_RESOURCE:
        resources[n].add(FARM_RESOURCE[kind_id])
    elif kind_id == "trading_post":
        resources[n].add("post")
    else:
        m = max((m for m in range(len(free)) if m != n and free[m]),
                key=lambda m: _join_gain(strength[n], resources[n], strength[m], resources[m]))
        strength[n] += strength[m]
        resources[n] |= resources[m]
        strength[m], resources[m], free[m] = 0, set(), []


def _join_gain(s: int, res: set[str | None], t: int, other: set[str | None]) -> float:
    return (s + t) * len(res | other) - s * len(res) - t * len(other)


def projected_card_value(projection: Projection, card: str, scroll_facts: Any,
                         own_kinds: list[str | None]) -> float:
    """What playing ``card`` adds to the seat's projected final score."""
    kind = kind_of(card)
    cat = kind.category
    state = projection.state
    if cat == "territory":
        cell = INDEX[kind.coord]
        near = {j for j in NEIGHBOURS[cell] if state["owner"][j] == projection.seat}
        # a lone territory is a seed for later cards: a little over its carrots now
        return projection.territory_gain(cell) + (0.5 if near else 0.8) + (
            0.4 if BASE_RESOURCE[cell] else 0.0)
    if cat in ("city", "farm", "trading_post", "sky_tower"):
        return projection.building_gain(kind.id) + 0.5
    if cat == "camp":
        return max(_camp_spots(projection), default=0.0)
    if cat == "provisions":
        return PROVISIONS
    if kind.id in COPY_SCROLLS:
        return COPY_CARD
    if scroll_facts is None:
        return 3.0  # someone else's parchments: we cannot see them
    if kind.scoring["type"] == "rank_bonus":
        return 0.3 * kind.scoring["points"]  # the Opportunist: second place, by chance
    points = score_kind(kind.id, scroll_facts, [*own_kinds, kind.id])[0]
    if kind.treasure:
        return float(points)
    # missions grow with the board: rounds still to play raise what they will count
    return points * (1 + 0.35 * (ROUNDS - state["round"])) + 1.0


def _camp_spots(projection: Projection) -> list[float]:
    """Projected gain of a camp on each unoccupied territory next to the seat's land."""
    state, seat = projection.state, projection.seat
    owner, building = state["owner"], state["building"]
    spots = {j for i in range(CELLS) if owner[i] == seat for j in NEIGHBOURS[i]
             if owner[j] < 0 and building[j] is None}
    return [projection.territory_gain(j) for j in sorted(spots)]


def _projected_pick(state: State, seat: int, rng: random.Random) -> str:
    hand = state["hands"][seat]
    mine = Projection(state, seat)
    own = [k for _, k in effective_kinds(state, seat)]
    f = facts(state, seat)
    kinds = sorted({kind_of(c).id for c in hand})
    value = {k: projected_card_value(mine, k, f, own) + rng.random() * 0.01 for k in kinds}
    if state["players"] == 2:
        theirs = Projection(state, 1 - seat)
        threat = {k: projected_card_value(theirs, k, None, []) for k in kinds}
        options = [(value[x] + DENY * threat[y], x, y) for x in kinds for y in kinds
                   if x != y or sum(kind_of(c).id == x for c in hand) > 1]
        _, x, y = max(options)
        return f"pick {x} {y}"
    ranked = sorted(kinds, key=lambda k: -value[k])
    if len(ranked) == 1:
        return f"pick {ranked[0]} {ranked[0]}"
    # the two best, checked together among the top four (a territory and a city may combine)
    top = ranked[:4]
    best, best_value = (ranked[0], ranked[1]), float("-inf")
    for i, x in enumerate(top):
        for y in top[i + 1:]:
            joint = _joint_gain(mine, x, y)
            if joint is None:
                joint = value[x] + value[y]
            if joint > best_value:
                best, best_value = (x, y), joint
    return f"pick {best[0]} {best[1]}"


def _joint_gain(projection: Projection, x: str, y: str) -> float | None:
    """Projected gain of playing territory/building cards ``x`` and ``y`` together, or None
    when one of them is another kind of card (valued alone)."""
    owner = list(projection.state["owner"])
    waiting = list(projection.waiting)
    for k in (x, y):
        kind = KINDS[k]
        if kind.category == "territory":
            owner[INDEX[kind.coord]] = projection.seat
        elif kind.category in ("city", "farm", "trading_post", "sky_tower"):
            waiting.append(k)
        else:
            return None
    return projection.value(owner, waiting) - projection.base + 1.0


def _projected_camp(state: State, seat: int, legal: list[str]) -> str:
    """Place the camp where the projection rises most; keep it when nothing gains yet."""
    projection = Projection(state, seat)
    best, best_value = "keep", 0.0 if state["round"] < ROUNDS else -1.0
    for code in legal:
        if code == "keep":
            continue
        cell = INDEX[code.split()[2]]
        near = any(state["owner"][j] == seat for j in NEIGHBOURS[cell])
        gain = projection.territory_gain(cell) + (0.5 if near else 0.0) + (
            0.3 if BASE_RESOURCE[cell] else 0.0)
        if gain > best_value:
            best, best_value = code, gain
    return best
