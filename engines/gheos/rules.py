"""The rules of Gheos, one function per rule, in the rulebook's words.

Every function works on a *working copy* of the state (the caller copied it) and appends
public events to ``events``. Scoring values are added to ``state["points"][seat][reason]``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import engines.gheos.geometry as geometry
from engines.base import rng_for
from engines.gheos.data import CHALICE, PYRAMID, SWORDS, TEMPLES, WHEAT, is_epoch, tile
from engines.gheos.regions import CONTINENT, Land, Region, part_key, split_key

#: civilization colours (6 wooden discs and 5 cubes each), in the order menus show them
CIVILIZATIONS = ("red", "green", "yellow", "blue", "black", "white")
FOLLOWERS_PER_CIVILIZATION = 5
SCORING_TOKENS = 3
HAND_SIZE = 2
#: the game ends after this epoch tile (2 players: the 6th, 3: the 7th, 4: the 8th)
LAST_EPOCH = {2: 6, 3: 7, 4: 8}
POINT_REASONS = ("temple", "token", "epoch", "final")

Event = dict[str, Any]


# --- followers (wyznawcy) ------------------------------------------------------------------
def followers_of(state: dict, seat: int) -> int:
    return sum(state["followers"][seat].values())


def give_follower(state: dict, seat: int, colour: str, n: int = 1) -> None:
    """Move ``n`` followers of ``colour`` from the supply to ``seat``."""
    state["supply"][colour] -= n
    held = state["followers"][seat]
    held[colour] = held.get(colour, 0) + n


def return_follower(state: dict, seat: int, colour: str, n: int = 1) -> None:
    held = state["followers"][seat]
    held[colour] -= n
    if held[colour] == 0:
        del held[colour]
    state["supply"][colour] += n


# --- what a continent holds --------------------------------------------------------------
def civilization_regions(land: Land, state: dict) -> dict[str, Region]:
    return {c: land.region_of(a) for c, a in state["civs"].items() if a is not None}


def symbols_of_civilization(land: Land, state: dict, symbol: str) -> dict[str, int]:
    """For each civilization on the board, how many ``symbol`` its continent shows."""
    return {c: r.counts[symbol] for c, r in civilization_regions(land, state).items()}


def add_points(state: dict, seat: int, reason: str, points: int) -> None:
    state["points"][seat][reason] += points
    if "scored" in state:  # each scoring by kind and epoch, for the final breakdown
        record = state["scored"][seat].setdefault(f"{reason}/{state['epochs']}", [0, 0])
        record[0] += points
        record[1] += 1


# --- 1. placing or replacing a tile -------------------------------------------------------
@dataclass
class Outcome:
    """What putting a tile down does to the civilizations, before any choice is made."""

    land: Land
    #: civilizations whose continent stays in one piece: colour -> its region id now
    stays: dict[str, int] = field(default_factory=dict)
    #: civilizations whose continent was split (migracja): colour -> candidate region ids
    migrations: dict[str, list[int]] = field(default_factory=dict)
    #: each civilization's continent before the move, minus a replaced tile (for swords)
    old_parts: dict[str, list[str]] = field(default_factory=dict)

    @property
    def wars(self) -> list[list[str]]:
        """Civilizations that already share a continent (war needs no choice to happen)."""
        by_region: dict[int, list[str]] = {}
        for c, rid in self.stays.items():
            by_region.setdefault(rid, []).append(c)
        return [sorted(cs, key=CIVILIZATIONS.index) for _, cs in sorted(by_region.items())
                if len(cs) > 1]

    @property
    def costs_follower(self) -> bool:
        """War or migration: the active player pays one follower (once per placement)."""
        return bool(self.migrations) or bool(self.wars)


@dataclass(frozen=True)
class Lifted:
    """The first half of a replacement: the map with the tile on ``cell`` taken off, for
    a caller that tries several tiles on that cell (see :func:`put_tile`)."""

    cell: str
    land: Land  # never changed: put_tile works on copies
    start: dict[str, int]  # each civilization's region id before
    old: dict[str, list[str]]  # each civilization's parts before, less the tile's


def lift_tile(state: dict, cell: str) -> Lifted:
    land = Land(state)
    members = land.members()
    start = {c: land.regions[a] for c, a in state["civs"].items() if a is not None}
    removed = set(land.parts_of(cell))
    old = {c: [k for k in members[rid] if k not in removed] for c, rid in start.items()}
    land.remove(cell)
    return Lifted(cell, land, start, old)


def lift_kept(kept: dict[str, Lifted], state: dict, cell: str) -> Lifted:
    """``lift_tile(state, cell)``, kept in ``kept`` for the next tile tried on that cell."""
    lifted = kept.get(cell)
    if lifted is None:
        lifted = kept[cell] = lift_tile(state, cell)
    return lifted


def put_tile(state: dict, verb: str, cell: str, tile_id: str, rotation: int,
             lifted: Lifted | None = None) -> Outcome:
    """Place a tile on a free cell, or replace the tile on ``cell`` (verb ``replace``), on a
    working copy of the map, and find which continents join (wojna) or split (migracja).

    ``state`` is only read; the new map is in the returned ``Outcome.land``. A replacement
    may bring ``lift_tile(state, cell)``, shared by several calls.
    """
    if verb == "replace":
        if lifted is None:
            lifted = lift_tile(state, cell)
        elif lifted.cell != cell:
            raise ValueError(f"the map given has {lifted.cell} lifted, not {cell}")
        land = lifted.land.copy()
        start = lifted.start
        old = {c: list(ks) for c, ks in lifted.old.items()}
    else:
        land = Land(state)
        members = land.members()
        start = {c: land.regions[a] for c, a in state["civs"].items() if a is not None}
        old = {c: list(members[rid]) for c, rid in start.items()}
    land.add(cell, tile_id, rotation)
    out = Outcome(land, old_parts=old)
    changed = land.changed_regions()
    for c, ks in old.items():
        # a region the move left alone keeps its id and parts (no need to look at them)
        rids = [start[c]] if start[c] not in changed else sorted({land.regions[k] for k in ks})
        if len(rids) == 1 and land.region(rids[0]).kind == CONTINENT:
            out.stays[c] = rids[0]
        else:
            # split into several parts, or what is left is an island: the civilization
            # must migrate (the one-island case is our ruling: it cannot stay on an island)
            out.migrations[c] = rids
    return out


def replaceable(state: dict, cell: str) -> bool:
    """Tiles with a pyramid cannot be replaced (kafelki z piramidą nie mogą zostać zastąpione)."""
    tid = state["board"][cell][0]
    return not tile(state, tid).has_pyramid


# --- war and migration --------------------------------------------------------------------
def swords_on_old_part(land: Land, parts: list[str], region: Region) -> int:
    """Swords on the "old" part of a civilization's continent: its parts from before the
    move that lie in ``region``; the new tile's swords do not count."""
    inside = set(region.parts)
    total = 0
    for key in parts:
        if key in inside:
            cell, idx = split_key(key)
            total += land.tile_at(cell).parts[idx].symbols.count(SWORDS)
    return total


def migration_destinations(land: Land, candidates: list[int]) -> list[int]:
    """Where a migrating civilization may go: the part with the most wheat (the new tile
    counts); on a tie a continent must be chosen over an island; a tie left over is the
    active player's choice. If only islands are left, the choice changes nothing (the
    civilization perishes anyway), so the first is taken."""
    if not candidates:
        return []
    regions = [land.region(r) for r in candidates]
    most = max(r.counts[WHEAT] for r in regions)
    best = [r for r in regions if r.counts[WHEAT] == most]
    continents = [r for r in best if r.kind == CONTINENT]
    if not continents:
        return [best[0].id]
    return [r.id for r in continents]


def eliminate(state: dict, colour: str, events: list[Event], reason: str) -> None:
    """The civilization's marker and all its followers return to the supply."""
    lost = {}
    for seat, held in enumerate(state["followers"]):
        n = held.get(colour, 0)
        if n:
            return_follower(state, seat, colour, n)
            lost[seat] = n
    del state["civs"][colour]
    events.append({"key": f"gheos.event.eliminated_{reason}", "civ": colour,
                   "followers": sum(lost.values())})


def land_migration(state: dict, land: Land, colour: str, rid: int, events: list[Event]) -> None:
    """Move a migrating civilization's marker to region ``rid`` (an island destroys it)."""
    region = land.region(rid)
    events.append({"key": "gheos.event.migrated", "civ": colour, "cell": region.label,
                   "land": region.kind})
    if region.kind != CONTINENT:
        eliminate(state, colour, events, "island")
        return
    state["civs"][colour] = anchor_of(land, region)
    state["pending"]["migrated"].append(colour)


def anchor_of(land: Land, region: Region) -> str:
    """The part a marker stands on: the landmass of the region's label tile."""
    cell = region.label
    for i in range(len(land.tile_at(cell).parts)):
        if land.regions.get(part_key(cell, i)) == region.id:
            return part_key(cell, i)
    return region.parts[0]


def war_fronts(state: dict, land: Land) -> list[tuple[Region, list[str]]]:
    """Continents held by two or more civilizations now, in reading order of their labels."""
    by_region: dict[int, list[str]] = {}
    for c in CIVILIZATIONS:
        a = state["civs"].get(c)
        if a is not None:
            by_region.setdefault(land.regions[a], []).append(c)
    fronts = [(land.region(rid), cs) for rid, cs in by_region.items() if len(cs) > 1]
    fronts.sort(key=lambda f: geometry.sort_key(f[0].label))
    return fronts


def war_contenders(
    state: dict, land: Land, region: Region, civs: list[str]
) -> tuple[list[str], list[str], dict[str, int]]:
    """(those who can win, those who lose outright, swords counted) for one war.

    A civilization that migrated onto an inhabited continent loses automatically; the
    others compare swords on their old parts. If only migrants meet (our ruling), they
    compare swords like any war.
    """
    migrated = set(state["pending"]["migrated"])
    stayers = [c for c in civs if c not in migrated]
    fighters = stayers or civs
    auto_losers = [c for c in civs if c not in fighters]
    swords = {c: swords_on_old_part(land, state["pending"]["old"].get(c, []), region)
              for c in fighters}
    top = max(swords.values())
    tied = [c for c in fighters if swords[c] == top]
    return tied, auto_losers + [c for c in fighters if c not in tied], swords


def win_war(state: dict, region: Region, winner: str, civs: list[str], swords: dict[str, int],
            events: list[Event], chosen: bool) -> None:
    """The winner keeps the continent; every other civilization there perishes (with three
    civilizations both losers go)."""
    losers = [c for c in civs if c != winner]
    events.append({"key": "gheos.event.war_chosen" if chosen else "gheos.event.war",
                   "winner": winner, "losers": losers, "cell": region.label,
                   "swords": [["gheos.text.swords_of", {"civ": c, "swords": n}]
                              for c, n in swords.items()]})
    for c in losers:
        eliminate(state, c, events, "war")


# --- temples (świątynie) -------------------------------------------------------------------
def temple_points(state: dict, land: Land, cell: str) -> tuple[str, int] | None:
    """A newly placed temple scores, for its player, the symbols of its kind on its
    continent, if that continent is inhabited after wars and migrations.
    Temples do not count as normal symbols."""
    t = land.tile_at(cell)
    found = t.temple
    if found is None:
        return None
    idx, temple = found
    region = land.region_of(part_key(cell, idx))
    inhabited = any(land.regions.get(a) == region.id
                    for a in state["civs"].values() if a is not None)
    if region.kind != CONTINENT or not inhabited:
        return TEMPLES[temple], 0
    return TEMPLES[temple], region.counts[TEMPLES[temple]]


# --- 2. found a civilization or take a follower ------------------------------------------
def uninhabited_continents(state: dict, land: Land) -> list[Region]:
    taken = {land.regions[a] for a in state["civs"].values() if a is not None}
    # only a region holding a landmass can be a continent: summarise just those (the many
    # shore-only regions would make this the slowest part of an engine step)
    out = []
    for rid in sorted(land.landmass_regions() - taken):
        r = land.region(rid)
        if r.kind == CONTINENT:
            out.append(r)
    out.sort(key=lambda r: geometry.sort_key(r.label))
    return out


def free_markers(state: dict) -> list[str]:
    return [c for c in CIVILIZATIONS if c not in state["civs"]]


def found_civilization(state: dict, land: Land, seat: int, colour: str, region: Region,
                       events: list[Event]) -> None:
    """Put a free marker on an uninhabited continent and take as many followers of that
    colour as the continent shows wheat (no more than are left in the supply)."""
    state["civs"][colour] = anchor_of(land, region)
    n = min(region.counts[WHEAT], state["supply"][colour])
    if n:
        give_follower(state, seat, colour, n)
    events.append({"key": "gheos.event.founded", "seat": seat, "civ": colour,
                   "cell": region.label, "followers": n})


def takeable(state: dict) -> list[str]:
    """Colours of civilizations on the board with a follower left in the supply."""
    return [c for c in CIVILIZATIONS if c in state["civs"] and state["supply"][c] > 0]


# --- 3. scoring token (żeton indywidualnego punktowania) ----------------------------------
def follower_points(state: dict, land: Land, seat: int, symbol: str) -> int:
    """Each of ``seat``'s followers is worth the ``symbol`` count of its continent."""
    per = symbols_of_civilization(land, state, symbol)
    return sum(n * per.get(c, 0) for c, n in state["followers"][seat].items())


def use_scoring_token(state: dict, land: Land, seat: int, events: list[Event]) -> None:
    """Only the active player scores: chalices on each follower's continent."""
    state["tokens"][seat] -= 1
    pts = follower_points(state, land, seat, CHALICE)
    add_points(state, seat, "token", pts)
    events.append({"key": "gheos.event.token", "seat": seat, "points": pts,
                   "left": state["tokens"][seat]})


# --- 4. draw; epoch scoring ------------------------------------------------------------------
def epoch_scoring(state: dict, land: Land, events: list[Event]) -> None:
    """Everybody scores: each follower is worth its continent's pyramids."""
    for seat in range(state["players"]):
        pts = follower_points(state, land, seat, PYRAMID)
        add_points(state, seat, "epoch", pts)
        events.append({"key": "gheos.event.epoch_points", "seat": seat, "points": pts,
                       "epoch": state["epochs"]})


def final_scoring(state: dict, land: Land, events: list[Event]) -> None:
    """At the end everybody scores once more as if playing a scoring token."""
    for seat in range(state["players"]):
        pts = follower_points(state, land, seat, CHALICE)
        add_points(state, seat, "final", pts)
        events.append({"key": "gheos.event.final_points", "seat": seat, "points": pts})


def draw_tiles(state: dict, seat: int, events: list[Event]) -> bool:
    """Refill the hand to two tiles. An epoch tile is shown, scored and set aside, and the
    player draws again. Returns True if an epoch tile ended the game."""
    land = None
    while len(state["hands"][seat]) < HAND_SIZE and state["bag"]:
        tid = state["bag"].pop()
        if not is_epoch(tid):
            state["hands"][seat].append(tid)
            events.append({"key": "gheos.event.drew", "seat": seat, "reveal": True})
            events.append({"key": "gheos.event.drew_private", "seat": seat, "tile": tid,
                           "private_to": seat, "reveal": True})
            continue
        state["epochs"] += 1
        state["epoch_tiles"].append(tid)
        events.append({"key": "gheos.event.epoch", "seat": seat, "epoch": state["epochs"],
                       "last": LAST_EPOCH[state["players"]], "reveal": True})
        land = land or Land(state)
        epoch_scoring(state, land, events)
        if state["epochs"] >= LAST_EPOCH[state["players"]]:
            return True
    return False


def deal_start_hands(state: dict) -> None:
    """Each player draws two tiles; an epoch tile drawn now is shuffled back and replaced."""
    for seat in range(state["players"]):
        while len(state["hands"][seat]) < HAND_SIZE:
            tid = state["bag"].pop()
            if is_epoch(tid):
                state["bag"].append(tid)
                rng_for(state).shuffle(state["bag"])
                continue
            state["hands"][seat].append(tid)


def end_game(state: dict, reason: str, events: list[Event]) -> None:
    final_scoring(state, Land(state), events)
    state["phase"] = "over"
    state["end_reason"] = reason
    events.append({"key": f"gheos.event.game_over_{reason}"})


def tally(state: dict) -> list[int]:
    return [sum(p.values()) for p in state["points"]]
