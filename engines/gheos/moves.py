"""The steps of a Gheos turn as functions on a state: the legal codes of the seat to move
and what one code does (:class:`~engines.gheos.game.Gheos` answers with these, and the
computer player plays its look-ahead turns with them).

Each step works on a copy (:func:`copy_state`) and then runs the automatic part of the turn
(:func:`engines.gheos.turn.advance`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import engines.gheos.geometry as geometry
import engines.gheos.rules as R
from engines.base import IllegalAction, MalformedAction, NotYourTurn
from engines.gheos.actions import (
    check_put,
    civ_actions,
    parse_colour,
    parse_put,
    tile_actions,
)
from engines.gheos.data import canonical_rotation, tile
from engines.gheos.regions import Land
from engines.gheos.turn import advance, end_turn, pay

PHASE_VERBS = {
    "tile": ("place", "replace"),
    "resolve": ("pay", "migrate", "win"),
    "civ": ("found", "take"),
    "score": ("token", "pass"),
    "over": (),
}
VERBS = {v for vs in PHASE_VERBS.values() for v in vs}


def copy_state(s: dict[str, Any]) -> dict[str, Any]:
    """A structured copy, much faster than ``copy.deepcopy``. The board and region dicts
    are never changed in place (a new map is a new dict, see ``regions.Land``), so they are
    shared, not copied."""
    n = dict(s)
    n["civs"] = dict(s["civs"])
    n["supply"] = dict(s["supply"])
    n["followers"] = [dict(f) for f in s["followers"]]
    n["tokens"] = list(s["tokens"])
    n["hands"] = [list(h) for h in s["hands"]]
    n["bag"] = list(s["bag"])
    n["removed"] = list(s["removed"])
    n["epoch_tiles"] = list(s["epoch_tiles"])
    n["points"] = [dict(p) for p in s["points"]]
    if "scored" in s:
        n["scored"] = [{k: list(v) for k, v in seat.items()} for seat in s["scored"]]
    p = s.get("pending")
    if p is not None:
        n["pending"] = {
            **p,
            "old": {c: list(v) for c, v in p["old"].items()},
            "migrate": {c: list(v) for c, v in p["migrate"].items()},
            "migrated": list(p["migrated"]),
            "choice": None if p["choice"] is None else {
                k: (list(v) if isinstance(v, list) else v) for k, v in p["choice"].items()},
        }
    if s.get("last") is not None:
        n["last"] = dict(s["last"])
    return n


def legal_actions(state: dict[str, Any], seat: int) -> list[str]:
    """Every legal code for ``seat`` now (``Game.legal_actions``)."""
    if state["phase"] == "over" or seat != state["turn"]:
        return []
    phase = state["phase"]
    if phase == "tile":
        return tile_actions(state, seat)
    if phase == "resolve":
        choice = state["pending"]["choice"] or {}
        kind = choice.get("type")
        if kind == "pay":
            return [f"pay {c}" for c in choice["options"]]
        if kind == "migrate":
            return [f"migrate {choice['civ']} {cell}" for cell in choice["options"]]
        if kind == "war":
            return [f"win {c}" for c in choice["options"]]
        return []
    if phase == "civ":
        return civ_actions(state)
    if phase == "score":
        return (["token"] if state["tokens"][seat] > 0 else []) + ["pass"]
    return []


def apply(state: dict[str, Any], seat: int, action: str
          ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The state after ``seat`` plays ``action`` and its events (``Game.apply``)."""
    if state["phase"] == "over":
        raise IllegalAction("gheos.rule.game_over", "the game is over")
    if seat != state["turn"]:
        raise NotYourTurn("gheos.error.not_your_turn",
                          f"seat {seat} may not act now; seat {state['turn']} is to move",
                          seat=seat)
    if not isinstance(action, str) or len(action) > 60:
        raise MalformedAction("gheos.error.malformed", f"cannot read {action!r}",
                              code=str(action)[:60])
    tokens = action.split()
    verb = tokens[0] if tokens else ""
    if verb not in VERBS:
        raise MalformedAction("gheos.error.malformed", f"unknown action {action!r}",
                              code=action)
    phase = state["phase"]
    if verb not in PHASE_VERBS[phase]:
        raise IllegalAction("gheos.rule.wrong_step",
                            f"{verb!r} is not allowed now (step: {phase})",
                            verb=verb, step=phase)
    s = copy_state(state)
    events: list[dict[str, Any]] = []
    STEPS[verb](s, seat, tokens, events)
    advance(s, events)
    return s, events


# step 1 ---------------------------------------------------------------------------------
def put_tile(s: dict, seat: int, tokens: list[str], events: list) -> None:
    """Step 1 on a working copy ``s``: put the tile down and note what it starts (wars,
    migrations, the follower owed) in ``s["pending"]``; nothing is settled yet."""
    verb, tid, cell, rot = parse_put(tokens)
    check_put(s, seat, verb, tid, cell, rot)
    rot = canonical_rotation(tile(s, tid), rot)
    out = R.put_tile(s, verb, cell, tid, rot)
    if out.costs_follower and R.followers_of(s, seat) == 0:
        raise IllegalAction(
            "gheos.rule.conflict_needs_follower",
            "this placement starts a war or a migration, which costs a follower you "
            "do not have", cell=cell)
    old = s["board"][cell][0] if verb == "replace" else None
    if old is not None:
        s["removed"].append(old)
    s["hands"][seat].remove(tid)
    land = out.land
    land.store(s)
    for c, rid in out.stays.items():
        # a marker that stood on the replaced tile moves to its continent's label tile
        if s["civs"][c].split("/")[0] == cell:
            s["civs"][c] = R.anchor_of(land, land.region(rid))
    for c in out.migrations:
        s["civs"][c] = None  # lifted off the split continent until it lands
    s["last"] = {"cell": cell, "verb": verb, "seat": seat, "tile": tid}
    ev: dict[str, Any] = {"key": f"gheos.event.{verb}d", "seat": seat, "tile": tid,
                          "cell": cell, "rotation": rot * 120, "reveal": True}
    if old is not None:
        ev["old"] = old
    events.append(ev)
    for c in sorted(out.migrations, key=R.CIVILIZATIONS.index):
        events.append({"key": "gheos.event.migration", "civ": c})
    for civs in out.wars:
        events.append({"key": "gheos.event.war_starts", "civs": civs})
    s["pending"] = {
        "verb": verb, "cell": cell, "tile": tid, "pay": out.costs_follower,
        "old": out.old_parts,
        "migrate": {c: rids for c, rids in out.migrations.items()},
        "migrated": [], "choice": None,
    }
    s["phase"] = "resolve"


# mid-move choices ------------------------------------------------------------------------
def _choice(s: dict, kind: str, tokens: list[str], n: int) -> dict:
    choice = s["pending"]["choice"] or {}
    if choice.get("type") != kind:
        raise IllegalAction("gheos.rule.wrong_step", f"no {kind} choice is asked now",
                            verb=tokens[0], step=s["phase"])
    if len(tokens) != n:
        raise MalformedAction("gheos.error.malformed", f"cannot read {' '.join(tokens)!r}",
                              code=" ".join(tokens))
    return choice


def _pay(s: dict, seat: int, tokens: list[str], events: list) -> None:
    """War or migration costs the active player one follower of any colour, paid first."""
    choice = _choice(s, "pay", tokens, 2)
    colour = parse_colour(tokens[1])
    if colour not in choice["options"]:
        raise IllegalAction("gheos.rule.pay_with_own_follower",
                            f"you have no {colour} follower to pay with", civ=colour)
    pay(s, seat, colour, events)


def _migrate(s: dict, seat: int, tokens: list[str], events: list) -> None:
    choice = _choice(s, "migrate", tokens, 3)
    colour = parse_colour(tokens[1])
    cell = tokens[2].upper()
    if colour != choice["civ"] or cell not in choice["options"]:
        raise IllegalAction(
            "gheos.rule.migrate_most_wheat",
            f"{colour} can only migrate to {', '.join(choice['options'])} "
            "(most wheat, continents before islands)",
            civ=choice["civ"], options=list(choice["options"]))
    land = Land(s)
    region = land.continent_labelled(cell)
    R.land_migration(s, land, colour, region.id, events)  # type: ignore[union-attr]
    del s["pending"]["migrate"][colour]
    s["pending"]["choice"] = None


def _win(s: dict, seat: int, tokens: list[str], events: list) -> None:
    choice = _choice(s, "war", tokens, 2)
    colour = parse_colour(tokens[1])
    if colour not in choice["options"]:
        raise IllegalAction(
            "gheos.rule.war_most_swords",
            f"only {', '.join(choice['options'])} (most swords) can win this war",
            options=list(choice["options"]))
    land = Land(s)
    region = land.region(land.regions[s["civs"][colour]])
    civs = [c for c in R.CIVILIZATIONS
            if s["civs"].get(c) is not None and land.regions[s["civs"][c]] == region.id]
    _, _, swords = R.war_contenders(s, land, region, civs)
    R.win_war(s, region, colour, civs, swords, events, chosen=True)
    s["pending"]["choice"] = None


# step 2 ---------------------------------------------------------------------------------
def _found(s: dict, seat: int, tokens: list[str], events: list) -> None:
    if len(tokens) != 3:
        raise MalformedAction("gheos.error.malformed", "use: found <colour> <cell>",
                              code=" ".join(tokens))
    colour = parse_colour(tokens[1])
    cell = tokens[2].upper()
    if geometry.parse(cell) is None:
        raise MalformedAction("gheos.error.bad_cell", f"no cell {cell!r}", cell=cell)
    if colour in s["civs"]:
        raise IllegalAction("gheos.rule.marker_on_board",
                            f"the {colour} civilization is already on the board", civ=colour)
    land = Land(s)
    region = land.continent_labelled(cell)
    if region is None or any(land.regions[a] == region.id
                             for a in s["civs"].values() if a is not None):
        raise IllegalAction(
            "gheos.rule.found_on_uninhabited_continent",
            f"{cell} does not name an uninhabited continent (name a continent by its "
            "first landmass tile)", cell=cell)
    R.found_civilization(s, land, seat, colour, region, events)
    s["phase"] = "score"


def _take(s: dict, seat: int, tokens: list[str], events: list) -> None:
    if len(tokens) != 2:
        raise MalformedAction("gheos.error.malformed", "use: take <colour>",
                              code=" ".join(tokens))
    colour = parse_colour(tokens[1])
    if colour not in R.takeable(s):
        raise IllegalAction(
            "gheos.rule.take_from_civilization_on_board",
            f"no {colour} follower can be taken (its civilization must be on the board "
            "and have a follower left)", civ=colour)
    R.give_follower(s, seat, colour)
    events.append({"key": "gheos.event.took", "seat": seat, "civ": colour})
    s["phase"] = "score"


# step 3 ---------------------------------------------------------------------------------
def _token(s: dict, seat: int, tokens: list[str], events: list) -> None:
    if len(tokens) != 1:
        raise MalformedAction("gheos.error.malformed", "use: token", code=" ".join(tokens))
    if s["tokens"][seat] <= 0:
        raise IllegalAction("gheos.rule.no_scoring_token", "you have no scoring token left")
    R.use_scoring_token(s, Land(s), seat, events)
    if sum(s["tokens"]) == 0:
        R.end_game(s, "tokens", events)
        return
    end_turn(s, events)


def _pass(s: dict, seat: int, tokens: list[str], events: list) -> None:
    if len(tokens) != 1:
        raise MalformedAction("gheos.error.malformed", "use: pass", code=" ".join(tokens))
    end_turn(s, events)


#: the step each verb takes on a working copy: ``step(state, seat, tokens, events)``
STEPS: dict[str, Callable[[dict, int, list[str], list], None]] = {
    "place": put_tile, "replace": put_tile,
    "pay": _pay, "migrate": _migrate, "win": _win,
    "found": _found, "take": _take,
    "token": _token, "pass": _pass,
}
