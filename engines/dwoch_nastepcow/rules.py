"""The actions of a turn, one function per rule (Akcja A, B.1, B.2, C; Obozowisko; Wieża
oblężnicza; limit kafelków na ręce; ostatnia runda). Each checks its rule and raises
:class:`IllegalAction` naming it, then changes ``state`` (always a copy owned by the caller).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from engines.base import IllegalAction, State
from engines.dwoch_nastepcow.data import COLOUR_RESOURCE, RESOURCES
from engines.dwoch_nastepcow.geometry import is_cell, neighbours4, neighbours8
from engines.dwoch_nastepcow.reserve import take_tile, tiles_in_reach
from engines.dwoch_nastepcow.state import (
    HAND_LIMIT,
    new_turn,
    opponent,
    own_troop_cells,
    troop_cells,
)

Events = list[dict[str, Any]]
P = "dwoch_nastepcow.rule."
#: buildings whose owner gets one more of a resource every turn (Farma, Tartak, Kamieniołom)
PRODUCERS = {"farm": "wheat", "sawmill": "wood", "quarry": "stone"}


def _illegal(rule: str, message: str, **params: Any) -> IllegalAction:
    return IllegalAction(P + rule, message, **params)


# --- resources (zasoby) ---------------------------------------------------------------------
def available_resources(state: State, seat: int) -> dict[str, int]:
    """Everything ``seat`` can build with right now; nothing is spent by building.

    1. the tiles of the royal reserve within reach (promised by the king);
    2. the tiles under the seat's troops in the landscape;
    3. one more for each own Farm (wheat), Sawmill (wood) and Quarry (stone).
    """
    have = Counter({r: 0 for r in RESOURCES})
    for tile_id in tiles_in_reach(state, seat):
        have[COLOUR_RESOURCE[state["tiles"][tile_id]["colour"]]] += 1
    for cell in own_troop_cells(state, seat):
        have[COLOUR_RESOURCE[state["tiles"][state["landscape"][cell]["tile"]]["colour"]]] += 1
    for spot in state["landscape"].values():
        if spot["face"] == "up" and spot["owner"] == seat:
            produced = PRODUCERS.get(state["tiles"][spot["tile"]]["building"])
            if produced:
                have[produced] += 1
    return dict(have)


def shortfall(cost: dict[str, int], have: dict[str, int]) -> int:
    """Resources missing to pay ``cost`` (each open terrain this turn covers one of any kind)."""
    return sum(max(0, n - have.get(r, 0)) for r, n in cost.items())


# --- where tiles go ---------------------------------------------------------------------------
def placement_cells(state: State, seat: int) -> list[str]:
    """Free spaces touching (8 directions) a tile where one of ``seat``'s troops stands."""
    land = state["landscape"]
    out: set[str] = set()
    for cell in own_troop_cells(state, seat):
        out.update(n for n in neighbours8(cell) if n not in land)
    return sorted(out)


def check_placement(state: State, seat: int, cell: str) -> None:
    if not is_cell(cell):
        raise _illegal("off_table", f"{cell} is off the table", cell=cell)
    if cell in state["landscape"]:
        raise _illegal("space_taken", f"there is already a tile at {cell}", cell=cell)
    if not any(n in own_troop_cells(state, seat) for n in neighbours8(cell)):
        raise _illegal(
            "not_next_to_troop", f"{cell} does not touch a tile with one of your troops",
            cell=cell)


def check_in_hand(state: State, seat: int, tile_id: str) -> None:
    if tile_id not in state["hands"][seat]:
        raise _illegal("not_in_hand", f"{tile_id} is not in your hand", tile=tile_id)


# --- Action A: take a tile --------------------------------------------------------------------
def may_take(state: State) -> bool:
    """The shield still shows the mover's crown: one take, plus one per Camp used this turn."""
    return state["turn"]["took"] < 1 + state["turn"]["extra"]


def take(state: State, seat: int, tile_id: str) -> Events:
    """Akcja A: take one tile within reach into your hand (once per turn)."""
    if not may_take(state):
        raise _illegal("take_once", "you have already taken a tile this turn")
    if tile_id not in tiles_in_reach(state, seat):
        raise _illegal("out_of_reach", f"{tile_id} is not within your reach", tile=tile_id)
    state["turn"]["took"] += 1
    return take_tile(state, seat, tile_id)


# --- Action B.1: build --------------------------------------------------------------------------
def build(state: State, seat: int, tile_id: str, cell: str) -> Events:
    """Akcja B.1: place a tile from hand face up next to your troop, facing you, paying its
    cost from the resources you can reach (open terrain laid this turn covers the shortfall).
    """
    check_in_hand(state, seat, tile_id)
    check_placement(state, seat, cell)
    record = state["tiles"][tile_id]
    missing = shortfall(record["cost"], available_resources(state, seat))
    if missing > state["turn"]["discounts"]:
        raise _illegal(
            "cannot_afford", f"you cannot pay for {tile_id}: {missing} resource(s) short",
            tile=tile_id, missing=missing)
    state["turn"]["discounts"] -= missing
    state["hands"][seat].remove(tile_id)
    state["landscape"][cell] = {
        "tile": tile_id, "face": "up", "owner": seat, "used": False, "destroyed": False}
    events: Events = []
    if record["building"] == "siege_tower":
        targets = siege_targets(state, seat, cell)
        if targets:
            state["pending"] = {"targets": targets}
            state["phase"] = "siege"
            events.append({"key": "dwoch_nastepcow.event.siege", "seat": seat,
                           "cell": cell, "targets": ", ".join(targets)})
    return events


# --- Action B.2: open terrain -------------------------------------------------------------------
def open_terrain(state: State, seat: int, tile_id: str, cell: str) -> Events:
    """Akcja B.2: place a tile from hand face down, free; a building this turn costs 1 less."""
    check_in_hand(state, seat, tile_id)
    check_placement(state, seat, cell)
    state["hands"][seat].remove(tile_id)
    state["landscape"][cell] = {
        "tile": tile_id, "face": "down", "owner": None, "used": False, "destroyed": False}
    state["turn"]["discounts"] += 1
    return [{"key": "dwoch_nastepcow.event.terrain_private", "private_to": seat,
             "tile": tile_id, "cell": cell}]


# --- Action C: troops -------------------------------------------------------------------------
def _own_troop_at(state: State, seat: int, cell: str) -> dict[str, Any]:
    for troop in state["troops"][seat]:
        if troop["at"] == cell:
            return troop
    raise _illegal("no_troop_here", f"you have no troop at {cell}", cell=cell)


def _check_free_tile(state: State, cell: str) -> None:
    if cell not in state["landscape"]:
        raise _illegal("no_tile_there", f"there is no tile at {cell}", cell=cell)
    if cell in troop_cells(state):
        raise _illegal("occupied", f"a troop already stands at {cell}", cell=cell)


def move_troop(state: State, seat: int, source: str, target: str) -> Events:
    """C.1: a troop steps to a neighbouring tile (8 directions) with no troop, once a turn."""
    troop = _own_troop_at(state, seat, source)
    if troop["moved"]:
        raise _illegal("moved_already", f"the troop at {source} has moved this turn",
                       cell=source)
    if target not in neighbours8(source):
        raise _illegal("not_adjacent", f"{target} does not touch {source}",
                       source=source, cell=target)
    _check_free_tile(state, target)
    troop["at"] = target
    troop["moved"] = True
    return []


def deploy_troop(state: State, seat: int, target: str) -> Events:
    """C.2: a troop leaves the royal reserve for a free tile next to one of your troops."""
    troop = next(
        (t for t in state["troops"][seat] if t["at"] is None and not t["moved"]), None)
    if troop is None:
        raise _illegal("none_in_reserve", "you have no unmoved troop in the royal reserve")
    _check_free_tile(state, target)
    if not any(n in own_troop_cells(state, seat) for n in neighbours8(target)):
        raise _illegal("not_next_to_troop", f"{target} does not touch one of your troops",
                       cell=target)
    troop["at"] = target
    troop["moved"] = True
    return []


def withdraw_troop(state: State, seat: int, source: str) -> Events:
    """C.3: a troop returns to the royal reserve; the retinue troop never leaves the land."""
    troop = _own_troop_at(state, seat, source)
    if troop["kind"] == "retinue":
        raise _illegal("retinue_stays", "the retinue troop always stays in the landscape",
                       cell=source)
    if troop["moved"]:
        raise _illegal("moved_already", f"the troop at {source} has moved this turn",
                       cell=source)
    troop["at"] = None
    troop["moved"] = True
    return []


# --- Camp (Obozowisko) --------------------------------------------------------------------------
def use_camp(state: State, seat: int, cell: str) -> Events:
    """After taking a tile, turn one of your unused Camps to flip the shield back: you may
    take one more tile this turn. Once per Camp per game; an unused Camp scores 2.
    """
    spot = state["landscape"].get(cell)
    if (spot is None or spot["face"] != "up" or spot["owner"] != seat
            or state["tiles"][spot["tile"]]["building"] != "camp"):
        raise _illegal("no_camp_here", f"you have no Camp at {cell}", cell=cell)
    if spot["used"]:
        raise _illegal("camp_used", f"the Camp at {cell} has been used", cell=cell)
    if may_take(state):
        raise _illegal("camp_before_take", "a Camp is used after taking a tile", cell=cell)
    if not tiles_in_reach(state, seat):
        raise _illegal("nothing_to_take", "there is no tile within your reach", cell=cell)
    spot["used"] = True
    state["turn"]["extra"] += 1
    return [{"key": "dwoch_nastepcow.event.camp", "seat": seat, "cell": cell}]


# --- Siege Tower (Wieża oblężnicza) -------------------------------------------------------------
def siege_targets(state: State, seat: int, tower: str) -> list[str]:
    """Opponent buildings orthogonally next to the new tower and to another own tower."""
    land = state["landscape"]
    rival = opponent(seat)

    def is_own_tower(cell: str) -> bool:
        spot = land.get(cell)
        return (spot is not None and spot["face"] == "up" and spot["owner"] == seat
                and state["tiles"][spot["tile"]]["building"] == "siege_tower")

    out = []
    for cell in neighbours4(tower):
        spot = land.get(cell)
        if spot is None or spot["face"] != "up" or spot["owner"] != rival:
            continue
        if any(other != tower and is_own_tower(other) for other in neighbours4(cell)):
            out.append(cell)
    return sorted(out)


def destroy(state: State, seat: int, cell: str) -> Events:
    """The two towers may destroy the building: it flips face down into open terrain."""
    if cell not in state["pending"]["targets"]:
        raise _illegal("not_a_target", f"{cell} is not under siege", cell=cell)
    spot = state["landscape"][cell]
    building = state["tiles"][spot["tile"]]["building"]
    spot.update(face="down", owner=None, destroyed=True)
    state["pending"] = None
    state["phase"] = "turn"
    return [{"key": "dwoch_nastepcow.event.destroyed", "seat": seat, "cell": cell,
             "tile": spot["tile"],
             "building": (f"dwoch_nastepcow.building.{building}", {})}]


def spare(state: State, seat: int) -> Events:
    """Destruction is voluntary."""
    state["pending"] = None
    state["phase"] = "turn"
    return []


# --- end of the turn, hand limit, last round ----------------------------------------------------
def must_take(state: State, seat: int) -> bool:
    """Taking is compulsory, unless no tile is within reach (an emptied reserve at the end)."""
    return state["turn"]["took"] == 0 and bool(tiles_in_reach(state, seat))


def end_turn(state: State, seat: int) -> Events:
    """End the turn: if the hand holds more than 3 tiles, the player first chooses which
    extra tiles leave the game (phase "discard"); otherwise the turn passes.
    """
    if must_take(state, seat):
        raise _illegal("must_take", "you must take a tile from the royal reserve first")
    if len(state["hands"][seat]) > HAND_LIMIT:
        state["phase"] = "discard"
        return [{"key": "dwoch_nastepcow.event.over_limit", "seat": seat,
                 "count": len(state["hands"][seat]) - HAND_LIMIT}]
    return pass_turn(state, seat)


def discard(state: State, seat: int, tile_id: str) -> Events:
    """Limit kafelków na ręce: a tile over the limit leaves the game (back to the box)."""
    check_in_hand(state, seat, tile_id)
    state["hands"][seat].remove(tile_id)
    state["removed"].append(tile_id)
    events: Events = [{"key": "dwoch_nastepcow.event.discarded", "seat": seat}]
    if len(state["hands"][seat]) <= HAND_LIMIT:
        events += pass_turn(state, seat)
    return events


def pass_turn(state: State, seat: int) -> Events:
    """Troops turn back face up, the other heir moves. Once the stack has run out, each
    player has one more turn (without refills), then the game ends.
    """
    for troop in state["troops"][seat]:
        troop["moved"] = False
    events: Events = []
    if state["final_turns"] is None:
        if not state["stack"]:
            state["final_turns"] = 2
            events.append({"key": "dwoch_nastepcow.event.final_round"})
    else:
        state["final_turns"] -= 1
    if state["final_turns"] == 0:
        state["phase"] = "over"
        state["turn"] = new_turn(state["turn"]["number"])
        events.append({"key": "dwoch_nastepcow.event.game_over"})
        return events
    state["current"] = opponent(seat)
    state["phase"] = "turn"
    state["turn"] = new_turn(state["turn"]["number"] + 1)
    events.append({"key": "dwoch_nastepcow.event.next_turn", "seat": state["current"],
                   "turn": state["turn"]["number"]})
    return events
