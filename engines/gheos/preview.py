"""Placement preview for the host: what a ``place``/``replace`` code would do, before the
player confirms it. Pure: the state is not changed and nothing is drawn from the bag (a
preview must never reveal the next tile or an epoch)."""

from __future__ import annotations

from typing import Any

import engines.gheos.moves as moves
import engines.gheos.rules as R
from engines.base import GameError
from engines.gheos.game import GAME
from engines.gheos.regions import Land, part_key

#: the verbs whose codes the host previews before the player confirms
VERBS = ("place", "replace")


def summary(result: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """The preview in words, as (translation key, params) lines for the host."""
    lines: list[tuple[str, dict[str, Any]]] = []
    for r in result["regions"]:
        lines.append(("gheos.preview.region", {
            "label": r["label"], "kind": r["kind"], "wheat": r["wheat"],
            "chalice": r["chalice"], "swords": r["swords"], "pyramid": r["pyramid"],
            "civ": r["civ"] or "-"}))
    for civs in result["wars"]:
        lines.append(("gheos.preview.war", {"civs": list(civs)}))
    for m in result["migrations"]:
        lines.append(("gheos.preview.migration", {"civ": m["civ"], "options": m["options"]}))
    if result["cost"]:
        lines.append(("gheos.preview.cost", {"cost": result["cost"]}))
    if result["temple"]:
        points = result["temple"]["points"]
        lines.append(("gheos.preview.temple", {"symbol": result["temple"]["symbol"],
                                               "points": "?" if points is None else points}))
    return lines


def preview(state: dict[str, Any], seat: int, code: str) -> dict[str, Any]:
    """What placing by ``code`` joins, which war or migration it starts and what it costs.

    Returns ``{"legal": False, "error": key, "params": ..., "message": ...}`` for a code that
    cannot be played now, else::

        {"legal": True, "code", "verb", "tile", "cell", "rotation",
         "regions": [{"label", "kind", "civ", "wheat", "chalice", "swords", "pyramid"}],
         "wars": [[civ, ...]], "migrations": [{"civ", "options": [label, ...]}],
         "cost": 0 | 1,                # followers the active player pays
         "temple": {"symbol", "points"} | None,   # points None if a choice decides it
         "view": spectator view right after the tile is down, "highlight": cell}

    ``regions`` are the land regions the new tile is part of afterwards; ``migrations``
    lists where each split civilization may go (more than one option = the player chooses).
    Draw the image with ``render_board(result["view"], names=..., highlight=result["highlight"])``.
    """
    if state["phase"] != "tile" or not code.startswith(("place ", "replace ")):
        return {"legal": False, "error": "gheos.rule.wrong_step",
                "params": {"verb": code.split()[0] if code.split() else "", "step":
                           state["phase"]}, "message": "only tile placements can be previewed"}
    if seat != state["turn"]:
        return {"legal": False, "error": "gheos.error.not_your_turn", "params": {"seat": seat},
                "message": "not this seat's turn"}
    s = moves.copy_state(state)
    try:
        moves.put_tile(s, seat, code.split(), [])
    except GameError as err:
        return {"legal": False, "error": err.key, "params": err.params, "message": str(err)}
    verb, tid, cell, _rot = code.split()
    land = Land(s)
    pending = s["pending"]
    civ_of = {land.regions[a]: c for c, a in s["civs"].items() if a is not None}
    rids = sorted({land.regions[part_key(cell, i)] for i in range(len(land.tile_at(cell).parts))})
    regions = []
    for rid in rids:
        r = land.region(rid)
        regions.append({"label": r.label, "kind": r.kind, "civ": civ_of.get(rid),
                        "wheat": r.counts["wheat"], "chalice": r.counts["chalice"],
                        "swords": r.counts["swords"], "pyramid": r.counts["pyramid"]})
    migrations = []
    for c in sorted(pending["migrate"], key=R.CIVILIZATIONS.index):
        dests = R.migration_destinations(land, pending["migrate"][c])
        migrations.append({"civ": c, "options": [land.region(r).label for r in dests],
                           "land": [land.region(r).kind for r in dests]})
    wars = [cs for _region, cs in R.war_fronts(s, land)]
    temple = None
    got = R.temple_points(s, land, cell)
    if got is not None:
        decided = not pending["pay"] and not migrations and not wars
        temple = {"symbol": got[0], "points": got[1] if decided else None}
    return {
        "legal": True, "code": code, "verb": verb, "tile": tid, "cell": cell,
        "rotation": s["board"][cell][1],
        "regions": regions, "wars": wars, "migrations": migrations,
        "cost": 1 if pending["pay"] else 0, "temple": temple,
        "view": GAME.view(s, None), "highlight": cell,
    }
