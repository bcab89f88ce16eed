"""Action codes: reading them, checking step 1's rules, and listing the legal ones.

Codes (tokens separated by spaces, the verb first):

* ``place T17 M30 r1`` / ``replace T17 M31 r0``: hand tile, cell, rotation (r0, r1, r2 =
  the tile turned 0, 120 or 240 degrees clockwise from how it is printed);
* ``pay red``, ``migrate blue M28``, ``win yellow``: choices forced by a placement;
* ``found red M30``, ``take blue``: step 2 (a continent is named by its label cell: its
  first landmass tile in reading order);
* ``token``, ``pass``: step 3.
"""

from __future__ import annotations

from typing import Any

import engines.gheos.geometry as geometry
import engines.gheos.rules as R
from engines.base import IllegalAction, MalformedAction
from engines.gheos.data import distinct_rotations, part_slots, tile
from engines.gheos.regions import Land

ROTATIONS = ("r0", "r1", "r2")


def frontier(board: dict[str, Any]) -> list[str]:
    """Free cells next to the board, in reading order: where a tile may be placed."""
    out = set()
    for cell in board:
        for nb in geometry.neighbours(cell):
            if nb is not None and nb not in board:
                out.add(nb)
    return sorted(out, key=geometry.sort_key)


def tile_sort(tid: str) -> int:
    return int(tid[1:])


def parse_colour(token: str) -> str:
    c = token.lower()
    if c not in R.CIVILIZATIONS:
        raise MalformedAction("gheos.error.bad_colour", f"no civilization colour {token!r}",
                              colour=token)
    return c


def parse_put(tokens: list[str]) -> tuple[str, str, str, int]:
    """``place T17 M30 r1`` -> ("place", "T17", "M30", 1)."""
    if len(tokens) != 4:
        raise MalformedAction("gheos.error.malformed",
                              f"use: {tokens[0] if tokens else 'place'} <tile> <cell> <r0|r1|r2>",
                              code=" ".join(tokens))
    verb, tid, cell, rot = tokens[0], tokens[1].upper(), tokens[2].upper(), tokens[3].lower()
    if rot not in ROTATIONS:
        raise MalformedAction("gheos.error.bad_rotation", f"rotation must be r0, r1 or r2, "
                              f"not {rot!r}", rotation=rot)
    if geometry.parse(cell) is None:
        raise MalformedAction("gheos.error.bad_cell", f"no cell {cell!r} on the table", cell=cell)
    return verb, tid, cell, int(rot[1])


def check_put(s: dict, seat: int, verb: str, tid: str, cell: str, rot: int) -> None:
    """Step 1's rules, apart from the follower needed for a war or migration."""
    if tid not in s["hands"][seat]:
        raise IllegalAction("gheos.rule.tile_not_in_hand", f"{tid} is not in your hand",
                            tile=tid)
    if verb == "place":
        if cell in s["board"]:
            raise IllegalAction("gheos.rule.cell_taken",
                                f"{cell} already holds a tile (use replace)", cell=cell)
        if not any(nb in s["board"] for nb in geometry.neighbours(cell) if nb):
            raise IllegalAction("gheos.rule.must_touch_board",
                                f"{cell} does not touch the board", cell=cell)
    else:
        if cell not in s["board"]:
            raise IllegalAction("gheos.rule.nothing_to_replace", f"{cell} is empty", cell=cell)
        if not R.replaceable(s, cell):
            raise IllegalAction("gheos.rule.pyramid_cannot_be_replaced",
                                f"the tile on {cell} has a pyramid and cannot be replaced",
                                cell=cell)


def tile_actions(state: dict[str, Any], seat: int, first_only: bool = False) -> list[str]:
    """Step 1's codes: every hand tile on every free cell next to the board (place) and
    on every tile without a pyramid (replace), in each rotation that looks different.
    A player without followers may not start a war or migration, so those are left out."""
    hand = sorted(state["hands"][seat], key=tile_sort)
    careful = R.followers_of(state, seat) == 0
    land = Land(state) if careful else None
    lifted: dict[str, R.Lifted] = {}  # a replacement's first half, shared by its tiles
    out: list[str] = []
    for verb in ("place", "replace"):
        # the cells are found only when needed (``first_only`` often stops at a placement)
        if verb == "place":
            where = frontier(state["board"])
        else:
            where = sorted((c for c in state["board"] if R.replaceable(state, c)),
                           key=geometry.sort_key)
        for tid in hand:
            rots = distinct_rotations(tile(state, tid))
            for cell in where:
                for r in rots:
                    if land is not None and conflict(state, land, verb, cell, tid, r,
                                                     lifted):
                        continue
                    out.append(f"{verb} {tid} {cell} r{r}")
                    if first_only:
                        return out
    return out


def civ_actions(state: dict[str, Any]) -> list[str]:
    """Step 2's codes: found a free civilization on an uninhabited continent (named by its
    label cell), or take a follower of a civilization on the board."""
    conts = R.uninhabited_continents(state, Land(state))
    out = [f"found {c} {r.label}" for c in R.free_markers(state) for r in conts]
    return out + [f"take {c}" for c in R.takeable(state)]


def conflict(s: dict, land: Land, verb: str, cell: str, tid: str, rot: int,
             lifted: dict[str, R.Lifted]) -> bool:
    """Would this placement start a war or a migration? (only asked for a player with no
    follower to pay with, so it is worth being quick; ``lifted`` keeps the maps with a tile
    lifted for the next replacement on that cell)"""
    inhabited = {land.regions[a] for a in s["civs"].values() if a is not None}
    if verb == "replace":
        removed = {land.regions[k] for k in land.parts_of(cell)}
        touched = {land.regions[o] for slot in range(3)
                   if (o := land.across(cell, slot)) is not None}
        if removed & inhabited or removed & touched:
            # a split is possible: work it out in full
            return R.put_tile(s, verb, cell, tid, rot, R.lift_kept(lifted, s, cell)).costs_follower
    if len(inhabited) < 2:
        return False
    # the new tile's parts link the regions they touch; a region touched by two parts
    # links those parts too, so group the touched regions transitively
    groups: list[set[int]] = []
    t = tile(s, tid)
    for slots in part_slots(t, rot):
        touched = set()
        for slot in slots:
            other = land.across(cell, slot)
            if other is not None:
                touched.add(land.regions[other])
        merged = [g for g in groups if g & touched]
        for g in merged:
            touched |= g
            groups.remove(g)
        groups.append(touched)
    return any(len(g & inhabited) > 1 for g in groups)
