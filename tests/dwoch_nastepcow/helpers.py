"""Building positions by hand for rule tests: custom tiles, troops, hands, reserve."""

from __future__ import annotations

import json
from typing import Any

from engines.dwoch_nastepcow import GAME
from engines.dwoch_nastepcow.scoring import EFFECTS, Context

WHITE, BLUE = 0, 1


def tile(tid: str, building: str = "cathedral", colour: str = "grey", roads=(),
         cost: dict[str, int] | None = None, **extra: Any) -> dict[str, Any]:
    record = {"id": tid, "set": "travel", "building": building, "colour": colour,
              "cost": cost or {"stone": 1}, "roads": list(roads)}
    record.update(extra)
    return record


def blank(seed: int = 1) -> dict[str, Any]:
    """A started game emptied out: no landscape, troops all in the reserve, empty hands,
    an empty reserve, white to move and nothing taken yet. Tests add what they need."""
    state = GAME.setup(2, {}, seed)
    state["tiles"] = dict(state["tiles"])
    state["landscape"] = {}
    for seat in (0, 1):
        for troop in state["troops"][seat]:
            troop["at"] = None
    state["hands"] = [[], []]
    state["reserve"] = [None] * 7
    state["shield"] = 0
    state["current"] = WHITE
    return state


def add(state: dict[str, Any], record: dict[str, Any]) -> str:
    state["tiles"][record["id"]] = record
    return record["id"]


def put(state: dict[str, Any], cell: str, record: dict[str, Any] | str, owner: int | None = 0,
        face: str = "up") -> str:
    """Lay a tile (a record, or an id already in the state) at ``cell``."""
    tid = record if isinstance(record, str) else add(state, record)
    if face == "down":
        owner = None
    state["landscape"][cell] = {"tile": tid, "face": face, "owner": owner,
                                "used": False, "destroyed": False}
    return tid


def troop(state: dict[str, Any], seat: int, index: int, cell: str | None,
          moved: bool = False) -> None:
    """Troop ``index`` of ``seat`` (0 = retinue, 1 and 2 normal) to ``cell`` (None = reserve)."""
    state["troops"][seat][index]["at"] = cell
    state["troops"][seat][index]["moved"] = moved


def reserve(state: dict[str, Any], slots: dict[int, dict[str, Any] | str], shield: int = 0
            ) -> None:
    state["shield"] = shield
    state["reserve"] = [None] * 7
    for slot, record in slots.items():
        state["reserve"][slot] = record if isinstance(record, str) else add(state, record)


def base_points(state: dict[str, Any], cell: str) -> int:
    """A building's own points, before a troop doubles them."""
    spot = state["landscape"][cell]
    record = state["tiles"][spot["tile"]]
    return EFFECTS[record["building"]](Context(state), cell, record, spot["owner"])


def line_points(state: dict[str, Any], seat: int, key_suffix: str) -> list[int]:
    return [line.points for line in GAME.scores(state)[seat]
            if line.key == f"dwoch_nastepcow.score.{key_suffix}"]


def snapshot(state: dict[str, Any]) -> str:
    return json.dumps(state, sort_keys=True)
