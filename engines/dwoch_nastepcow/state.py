"""The shape of a game state and small read helpers shared by the rule modules.

A state is a plain JSON dict::

    seed, rng_draws, players (=2), game, sets, roads_scored
    tiles       id -> tile record of the 27 tiles in play (a copy, so a saved game keeps
                its own data even if data/tiles.json is corrected later; never mutated)
    stack       ids, face down; the next tile is stack[0]         (wspólny stos)
    reserve     7 slots clockwise, each an id or None; the shield's slot is None
    shield      slot of the royal shield                          (królewska tarcza)
    landscape   cell -> {"tile", "face": "up"|"down", "owner": seat|None,
                         "used": Camp spent, "destroyed": flipped by siege towers}
    troops      per seat, [retinue, normal, normal]: {"kind", "at": cell|None, "moved"}
                (at None = in the royal reserve)                   (oddziały, orszak)
    hands       per seat, tile ids                                 (ręka)
    removed     tiles that left the game over the hand limit
    current     seat whose turn it is; first: who began
    phase       "turn" | "discard" | "siege" | "over"
    turn        {"took", "extra", "discounts", "number"}
    pending     {"targets": [cells]} while a siege choice is open, else None
    final_turns None, or turns left once the stack has run out
"""

from __future__ import annotations

from typing import Any

from engines.base import State

HAND_LIMIT = 3
RESERVE_SLOTS = 7
#: seat -> colour of its troops and crown (rulebook: biały, niebieski)
SEAT_COLOURS = ("white", "blue")


def new_turn(number: int) -> dict[str, Any]:
    """A fresh turn: nothing taken yet, no open-terrain discounts."""
    return {"took": 0, "extra": 0, "discounts": 0, "number": number}


def copy_state(state: State) -> State:
    """A copy safe to change; faster than deepcopy. ``tiles`` is shared: it is never mutated."""
    new = dict(state)
    new["stack"] = list(state["stack"])
    new["reserve"] = list(state["reserve"])
    new["landscape"] = {cell: dict(spot) for cell, spot in state["landscape"].items()}
    new["troops"] = [[dict(t) for t in seat] for seat in state["troops"]]
    new["hands"] = [list(h) for h in state["hands"]]
    new["removed"] = list(state["removed"])
    new["turn"] = dict(state["turn"])
    if state.get("pending") is not None:
        new["pending"] = {"targets": list(state["pending"]["targets"])}
    return new


def tile(state: State, tile_id: str) -> dict[str, Any]:
    return state["tiles"][tile_id]


def opponent(seat: int) -> int:
    return 1 - seat


def troop_cells(state: State) -> dict[str, list[int]]:
    """Cell -> seats with a troop there (two only on the starting tile at the start)."""
    out: dict[str, list[int]] = {}
    for seat, troops in enumerate(state["troops"]):
        for t in troops:
            if t["at"] is not None:
                out.setdefault(t["at"], []).append(seat)
    return out


def own_troop_cells(state: State, seat: int) -> list[str]:
    return [t["at"] for t in state["troops"][seat] if t["at"] is not None]


def buildings(state: State) -> list[tuple[str, dict[str, Any], int]]:
    """(cell, tile record, owner) of every face-up building in the landscape."""
    return [
        (cell, state["tiles"][spot["tile"]], spot["owner"])
        for cell, spot in state["landscape"].items()
        if spot["face"] == "up"
    ]
