"""What a seat may see. The spectator view holds only public information (the map, markers,
scores, counts); a seat's own hand sits under ``view["private"]``."""

from __future__ import annotations

from typing import Any

import engines.gheos.geometry as geometry
import engines.gheos.rules as R
from engines.gheos.actions import frontier
from engines.gheos.data import part_slots, tile
from engines.gheos.regions import Land, part_key


def tile_parts(t, rotation: int | None = None) -> list[dict[str, Any]]:
    """A tile's parts for drawing: kind, edges (as printed) or cell slots (as placed)."""
    slots = part_slots(t, rotation) if rotation is not None else None
    out = []
    for i, p in enumerate(t.parts):
        d: dict[str, Any] = {"kind": p.kind, "symbols": list(p.symbols)}
        if slots is None:
            d["edges"] = list(p.edges)
        else:
            d["slots"] = list(slots[i])
        out.append(d)
    return out


def build_view(game, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
    land = Land(state)
    board = []
    for cell in sorted(state["board"], key=geometry.sort_key):
        tid, rot = state["board"][cell]
        t = tile(state, tid)
        col, row = geometry.parse(cell)  # type: ignore[misc]
        parts = tile_parts(t, rot)
        for i, p in enumerate(parts):
            p["region"] = land.regions[part_key(cell, i)]
        board.append({"cell": cell, "col": col, "row": row, "up": geometry.is_up(cell),
                      "tile": tid, "rotation": rot, "start": t.start,
                      "pyramid": t.has_pyramid, "parts": parts})
    civ_at = {}
    civs: list[dict[str, Any]] = []
    for c in R.CIVILIZATIONS:
        if c not in state["civs"]:
            continue
        a = state["civs"][c]
        if a is None:
            civs.append({"civ": c, "part": None, "cell": None, "region": None, "migrating": True})
            continue
        rid = land.regions[a]
        civ_at[rid] = c
        civs.append({"civ": c, "part": a, "cell": a.split("/")[0], "region": rid,
                     "migrating": False})
    regions = []
    for rid in sorted(land.members()):
        r = land.region(rid)
        regions.append({"id": rid, "kind": r.kind, "label": r.label, "tiles": len(r.cells),
                        "wheat": r.counts["wheat"], "chalice": r.counts["chalice"],
                        "swords": r.counts["swords"], "pyramid": r.counts["pyramid"],
                        "civ": civ_at.get(rid)})
    seats = []
    totals = R.tally(state)
    for s in range(state["players"]):
        seats.append({
            "seat": s, "score": totals[s], "points": dict(state["points"][s]),
            "followers": {c: n for c, n in state["followers"][s].items()},
            "follower_count": R.followers_of(state, s),
            "tokens": state["tokens"][s], "hand": len(state["hands"][s]),
        })
    view: dict[str, Any] = {
        "game": "gheos",
        "players": state["players"],
        "phase": state["phase"],
        "to_act": game.to_act(state),
        "turn": state["turn"],
        "turn_no": state["turn_no"],
        "board": board,
        "frontier": frontier(state["board"]),
        "regions": regions,
        "civs": civs,
        "supply": dict(state["supply"]),
        "seats": seats,
        "epochs": state["epochs"],
        "last_epoch": R.LAST_EPOCH[state["players"]],
        "bag": len(state["bag"]),
        "removed": list(state["removed"]),
        "last": dict(state["last"]) if state.get("last") else None,
        "pending": _public_pending(state),
        "over": state["phase"] == "over",
        "end_reason": state.get("end_reason"),
    }
    if view["over"]:
        view["ranking"] = game.ranking(state)
    if seat is not None and 0 <= seat < state["players"]:
        view["private"] = {
            "seat": seat,
            "hand": [{"id": tid, "configuration": tile(state, tid).configuration,
                      "parts": tile_parts(tile(state, tid))}
                     for tid in state["hands"][seat]],
        }
    return view


def _public_pending(state: dict[str, Any]) -> dict[str, Any] | None:
    """The choice the active player is making (all of it is public)."""
    p = state.get("pending")
    if not p or not p.get("choice"):
        return None
    return {**{k: v for k, v in p["choice"].items()}, "cell": p["choice"].get("cell", p["cell"])}
