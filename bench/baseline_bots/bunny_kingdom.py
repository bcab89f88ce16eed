"""Frozen copy of the Bunny Kingdom computer player as it was before issue 15 (the
benchmark's "baseline"). Do not improve it: bench/bench_bots.py measures the new player
against it.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from engines.bunny_kingdom.board import fief_index
from engines.bunny_kingdom.data import (
    BASE_RESOURCE,
    BASIC_RESOURCES,
    CELLS,
    CITY_STRENGTH,
    FARM_RESOURCE,
    INDEX,
    KINDS,
    NEIGHBOURS,
    TERRAIN,
    kind_of,
)
from engines.bunny_kingdom.harvest import harvest_fiefs
from engines.bunny_kingdom.scrolls import effective_kinds, facts, score_kind

if TYPE_CHECKING:
    from engines.bunny_kingdom.game import BunnyKingdom

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


def choose(game: BunnyKingdom, state: State, seat: int, rng: random.Random) -> str:
    legal = game.legal_actions(state, seat)
    phase = state["phase"]
    if phase == "explore":
        return _pick(state, seat, rng)
    if phase == "camps":
        return _camp(state, seat, legal)
    if phase == "build":
        return _build(state, seat, legal)
    if phase == "trade":
        return _trade(state, seat, legal)
    if phase == "copy":
        return _copy(state, seat, legal)
    return rng.choice(legal)


def _pick(state: State, seat: int, rng: random.Random) -> str:
    summary = Summary(state, seat)
    hand = state["hands"][seat]
    ranked = sorted(hand, key=lambda c: card_value(summary, c) + rng.random() * 0.5,
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


def bot_action(state: State, seat: int, rng: random.Random) -> str:
    from engines.bunny_kingdom import GAME

    return choose(GAME, state, seat, rng)
