"""The royal reserve and the royal protocol (królewska rezerwa, królewski protokół).

Seven slots in a circle, numbered clockwise 0-6: six tiles and the royal shield. A player's
reach is their troops in the reserve + 1, counted clockwise from the shield; empty slots
(only in the last round, when nothing refills them) are skipped.
"""

from __future__ import annotations

from typing import Any

from engines.base import State
from engines.dwoch_nastepcow.state import RESERVE_SLOTS


def reach(state: State, seat: int) -> int:
    """Troops of ``seat`` in the royal reserve, plus 1 (so 1..3).

    >>> reach({"troops": [[{"at": "M13"}, {"at": None}, {"at": None}], []]}, 0)
    3
    """
    return 1 + sum(1 for t in state["troops"][seat] if t["at"] is None)


def clockwise_from_shield(state: State) -> list[int]:
    """The six other slots, clockwise, starting right after the shield."""
    shield = state["shield"]
    return [(shield + i) % RESERVE_SLOTS for i in range(1, RESERVE_SLOTS)]


def slots_in_reach(state: State, seat: int) -> list[int]:
    """Slots whose tiles ``seat`` can reach now (take or use as resources).

    Counting starts at the shield and goes clockwise; empty slots do not count.
    """
    out = []
    limit = reach(state, seat)
    for slot in clockwise_from_shield(state):
        if state["reserve"][slot] is not None:
            out.append(slot)
            if len(out) == limit:
                break
    return out


def tiles_in_reach(state: State, seat: int) -> list[str]:
    return [state["reserve"][slot] for slot in slots_in_reach(state, seat)]


def take_tile(state: State, seat: int, tile_id: str) -> list[dict[str, Any]]:
    """Action A: the tile goes to the hand, the shield moves into the gap and flips, and the
    slot the shield left is refilled face up from the stack (a reveal: the host's undo stops
    there). The caller has checked that the tile is within reach; ``state`` is a copy.
    """
    slot = state["reserve"].index(tile_id)
    left = state["shield"]
    state["reserve"][slot] = None
    state["shield"] = slot
    state["hands"][seat].append(tile_id)
    events: list[dict[str, Any]] = []
    if state["stack"]:
        new = state["stack"].pop(0)
        state["reserve"][left] = new
        record = state["tiles"][new]
        events.append({
            "key": "dwoch_nastepcow.event.refill", "tile": new, "slot": left,
            "building": (f"dwoch_nastepcow.building.{record['building']}", {}),
            "left": len(state["stack"]), "reveal": True,
        })
        if not state["stack"]:
            events.append({"key": "dwoch_nastepcow.event.stack_empty"})
    return events
