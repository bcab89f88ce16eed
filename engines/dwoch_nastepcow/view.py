"""What a seat may see. Everything the channel image and the host need, nothing hidden.

Hidden: the stack (only its size), the hands (only their sizes; a seat sees its own under
``private``), and what lies face down as open terrain (only its colour shows). The mover's
resources follow from public facts (reach, troops, buildings), so they are public.
"""

from __future__ import annotations

from typing import Any

import engines.dwoch_nastepcow.rules as rules
import engines.dwoch_nastepcow.scoring as scoring
from engines.base import State, View
from engines.dwoch_nastepcow.data import COLOUR_RESOURCE
from engines.dwoch_nastepcow.geometry import COLS, ROWS, START
from engines.dwoch_nastepcow.reserve import reach, slots_in_reach
from engines.dwoch_nastepcow.state import HAND_LIMIT, SEAT_COLOURS, opponent

#: printed fields a player sees on a face-up tile
PRINTED = ("id", "set", "building", "colour", "cost", "roads",
           "axis", "arrows", "layout", "boosts", "counts")


def public_tile(record: dict[str, Any]) -> dict[str, Any]:
    """The printed face of a tile (copied, so a view never aliases the state)."""
    out: dict[str, Any] = {}
    for k in PRINTED:
        if k in record:
            v = record[k]
            out[k] = dict(v) if isinstance(v, dict) else list(v) if isinstance(v, list) else v
    out["resource"] = COLOUR_RESOURCE[record["colour"]]
    return out


def landscape_view(state: State) -> list[dict[str, Any]]:
    out = []
    for cell in sorted(state["landscape"]):
        spot = state["landscape"][cell]
        record = state["tiles"][spot["tile"]]
        entry: dict[str, Any] = {"cell": cell, "face": spot["face"], "colour": record["colour"]}
        if spot["face"] == "up":
            entry.update(public_tile(record))
            entry["owner"] = spot["owner"]
            entry["used"] = spot["used"]
        else:
            entry["destroyed"] = spot["destroyed"]
            entry["start"] = cell == START and not spot["destroyed"]
        out.append(entry)
    return out


def build_view(state: State, seat: int | None) -> View:
    mover = state["current"]
    over = state["phase"] == "over"
    to_act = [] if over else [mover]
    may_take = rules.may_take(state) and not over
    view: View = {
        "game": "dwoch_nastepcow",
        "phase": state["phase"],
        "to_act": to_act,
        "current": mover,
        "turn": state["turn"]["number"],
        "first": state["first"],
        "colours": list(SEAT_COLOURS),
        "sets": list(state["sets"]),
        "roads_scored": state["roads_scored"],
        "grid": {"cols": COLS, "rows": ROWS, "start": START},
        "stack": len(state["stack"]),
        "final_round": state["final_turns"] is not None,
        "final_turns": state["final_turns"],
        "hand_limit": HAND_LIMIT,
        "reserve": {
            "slots": [
                None if t is None else public_tile(state["tiles"][t])
                for t in state["reserve"]
            ],
            "shield": state["shield"],
            # the crown shows the mover until they have taken, then the opponent
            "crown": None if over else (mover if may_take else opponent(mover)),
            "reach": [reach(state, s) for s in (0, 1)],
            "in_reach": [slots_in_reach(state, s) for s in (0, 1)],
        },
        "landscape": landscape_view(state),
        "troops": [[dict(t) for t in troops] for troops in state["troops"]],
        "hand_sizes": [len(h) for h in state["hands"]],
        "removed": len(state["removed"]),
        "scores": scoring.totals(state),
        "pending": None if state.get("pending") is None
        else {"targets": list(state["pending"]["targets"])},
    }
    if not over:
        view["mover"] = {
            "seat": mover,
            "resources": rules.available_resources(state, mover),
            "discounts": state["turn"]["discounts"],
            "took": state["turn"]["took"],
            "may_take": may_take,
            "must_take": rules.must_take(state, mover),
            "placements": rules.placement_cells(state, mover),
        }
    else:
        view["ranking"] = scoring.ranking(state)
    if seat is not None:
        view["private"] = {
            "seat": seat,
            "hand": [public_tile(state["tiles"][t]) for t in state["hands"][seat]],
        }
    return view
