"""Action codes: parsing, the legal set, and readable descriptions.

Grammar (tiles are ids such as ``TR3``, cells are names such as ``M12``)::

    take <tile>             Akcja A: take a tile within reach
    build <tile> <cell>     Akcja B.1: build from hand
    terrain <tile> <cell>   Akcja B.2: open terrain (face down)
    move <cell> <cell>      Akcja C.1: move a troop
    deploy <cell>           Akcja C.2: troop from the royal reserve onto a tile
    withdraw <cell>         Akcja C.3: troop back to the royal reserve
    camp <cell>             turn a Camp: one more take this turn
    destroy <cell> | spare  after a second Siege Tower: destroy a building or not
    discard <tile>          over the hand limit at the end of the turn
    end                     end the turn

A picker offers the verb (at most 9), then a tile (at most 4 in hand) or a cell (at most
24 spaces round three troops), then the cell: every step fits one Discord menu.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import engines.dwoch_nastepcow.rules as rules
from engines.base import IllegalAction, MalformedAction, State
from engines.dwoch_nastepcow.geometry import is_cell, neighbours8
from engines.dwoch_nastepcow.reserve import tiles_in_reach
from engines.dwoch_nastepcow.state import own_troop_cells, troop_cells

# verb -> kinds of its arguments ("tile" or "cell")
GRAMMAR: dict[str, tuple[str, ...]] = {
    "take": ("tile",), "build": ("tile", "cell"), "terrain": ("tile", "cell"),
    "move": ("cell", "cell"), "deploy": ("cell",), "withdraw": ("cell",),
    "camp": ("cell",), "destroy": ("cell",), "spare": (), "discard": ("tile",), "end": (),
}
#: which verbs each phase allows
PHASE_VERBS = {
    "turn": {"take", "build", "terrain", "move", "deploy", "withdraw", "camp", "end"},
    "discard": {"discard"},
    "siege": {"destroy", "spare"},
    "over": set(),
}
#: the rule broken by a verb used in the wrong phase
WRONG_PHASE = {
    "discard": "discard_first",
    "siege": "siege_pending",
}


def parse(state: State, code: str) -> tuple[str, list[str]]:
    """``"build TR3 M12"`` -> ``("build", ["TR3", "M12"])``; raises MalformedAction."""
    if not isinstance(code, str) or not code.strip():
        raise MalformedAction("dwoch_nastepcow.error.malformed", f"empty action {code!r}",
                              code=str(code))
    verb, *args = code.split()
    if verb not in GRAMMAR:
        raise MalformedAction("dwoch_nastepcow.error.unknown_verb",
                              f"unknown action {verb!r} in {code!r}", code=code, verb=verb)
    kinds = GRAMMAR[verb]
    if len(args) != len(kinds):
        raise MalformedAction("dwoch_nastepcow.error.arguments",
                              f"{verb} takes {len(kinds)} argument(s): {code!r}",
                              code=code, verb=verb, count=len(kinds))
    for kind, arg in zip(kinds, args, strict=True):
        if kind == "cell" and not is_cell(arg):
            raise MalformedAction("dwoch_nastepcow.error.bad_cell",
                                  f"{arg!r} is not a cell on the table", code=code, cell=arg)
        if kind == "tile" and arg not in state["tiles"]:
            raise MalformedAction("dwoch_nastepcow.error.bad_tile",
                                  f"{arg!r} is not a tile in this game", code=code, tile=arg)
    return verb, args


def perform(state: State, seat: int, verb: str, args: list[str]) -> list[dict[str, Any]]:
    """Apply a parsed action to ``state`` (a copy), checking the phase and then the rule."""
    phase = state["phase"]
    if verb not in PHASE_VERBS[phase]:
        if phase in WRONG_PHASE:
            rule = WRONG_PHASE[phase]
        elif verb == "discard":
            rule = "not_over_limit"
        else:
            rule = "no_siege"
        raise IllegalAction(f"dwoch_nastepcow.rule.{rule}",
                            f"{verb} is not possible now (phase {phase})", verb=verb)
    handlers: dict[str, Callable[..., list[dict[str, Any]]]] = {
        "take": rules.take, "build": rules.build, "terrain": rules.open_terrain,
        "move": rules.move_troop, "deploy": rules.deploy_troop,
        "withdraw": rules.withdraw_troop, "camp": rules.use_camp, "destroy": rules.destroy,
        "spare": rules.spare, "discard": rules.discard, "end": rules.end_turn,
    }
    return handlers[verb](state, seat, *args)


def legal(state: State, seat: int) -> list[str]:
    """Every legal code for the seat to move (the caller checks that it is this seat)."""
    phase = state["phase"]
    if phase == "discard":
        return [f"discard {t}" for t in sorted(state["hands"][seat])]
    if phase == "siege":
        return [f"destroy {c}" for c in state["pending"]["targets"]] + ["spare"]
    if phase != "turn":
        return []
    out: list[str] = []
    if rules.may_take(state):
        out += [f"take {t}" for t in tiles_in_reach(state, seat)]
    out += _hand_codes(state, seat)
    out += _troop_codes(state, seat)
    if not rules.may_take(state) and tiles_in_reach(state, seat):
        out += _camp_codes(state, seat)
    if not rules.must_take(state, seat):
        out.append("end")
    return out


def _hand_codes(state: State, seat: int) -> list[str]:
    """Building the hand's tiles the seat can pay for, and opening any of them as terrain."""
    hand = sorted(state["hands"][seat])
    if not hand:
        return []
    out: list[str] = []
    places = rules.placement_cells(state, seat)
    have = rules.available_resources(state, seat)
    discounts = state["turn"]["discounts"]
    for tile_id in hand:
        if rules.shortfall(state["tiles"][tile_id]["cost"], have) <= discounts:
            out += [f"build {tile_id} {c}" for c in places]
    for tile_id in hand:
        out += [f"terrain {tile_id} {c}" for c in places]
    return out


def _troop_codes(state: State, seat: int) -> list[str]:
    """Moving, withdrawing and deploying the seat's troops that have not moved this turn."""
    land = state["landscape"]
    occupied = troop_cells(state)
    mine = own_troop_cells(state, seat)
    out: list[str] = []
    for troop in state["troops"][seat]:
        at = troop["at"]
        if at is None or troop["moved"]:
            continue
        out += [f"move {at} {n}" for n in neighbours8(at) if n in land and n not in occupied]
        if troop["kind"] != "retinue":
            out.append(f"withdraw {at}")
    if any(t["at"] is None and not t["moved"] for t in state["troops"][seat]):
        targets = {n for c in mine for n in neighbours8(c) if n in land and n not in occupied}
        out += [f"deploy {c}" for c in sorted(targets)]
    return out


def _camp_codes(state: State, seat: int) -> list[str]:
    """Using one of the seat's unused camps (to take one more tile)."""
    return [
        f"camp {cell}" for cell, spot in sorted(state["landscape"].items())
        if spot["face"] == "up" and spot["owner"] == seat and not spot["used"]
        and state["tiles"][spot["tile"]]["building"] == "camp"
    ]


def _building(state: State, tile_id: str) -> tuple[str, dict]:
    return (f"dwoch_nastepcow.building.{state['tiles'][tile_id]['building']}", {})


def describe(state: State, code: str) -> tuple[str, dict[str, Any]]:
    """Readable spelling as (key, params). Names of buildings and colours are nested
    ``(key, params)`` pairs. Open terrain and discards never name the tile: it stays hidden.
    """
    try:
        verb, args = parse(state, code)
    except MalformedAction:
        return "action.generic", {"code": code}
    key = f"dwoch_nastepcow.action.{verb}"
    if verb in ("take", "build"):
        params: dict[str, Any] = {"tile": args[0], "building": _building(state, args[0])}
        if verb == "build":
            params["cell"] = args[1]
        return key, params
    if verb == "terrain":
        colour = state["tiles"][args[0]]["colour"]
        return key, {"cell": args[1], "colour": (f"dwoch_nastepcow.colour.{colour}", {})}
    if verb == "move":
        return key, {"source": args[0], "cell": args[1]}
    if verb == "destroy":
        spot = state["landscape"].get(args[0])
        if spot is not None:
            return key, {"cell": args[0], "tile": spot["tile"],
                         "building": _building(state, spot["tile"])}
    if verb in ("deploy", "withdraw", "camp", "destroy"):
        return key, {"cell": args[0]}
    return key, {}
