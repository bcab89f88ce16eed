"""Small readers of a Kingdomino state, shared by the game, the bot and the notation."""

from __future__ import annotations

from engines.base import State

from . import rules
from .geometry import grid_size

DYNASTY_GAMES = 3


def grid_of(state: State) -> int:
    """Kingdom side: 5, or 7 in Mighty Duel (Pojedynek Mistrzów)."""
    return 7 if "mighty_duel" in state["variants"] else 5


def size_of(state: State) -> int:
    return grid_size(grid_of(state))


def games_of(state: State) -> int:
    return DYNASTY_GAMES if "dynasty" in state["variants"] else 1


def rounds_of(state: State) -> int:
    return rules.rounds_in_game(state["players"], "mighty_duel" in state["variants"])


def is_last_round(state: State) -> bool:
    """No dominoes were left for a new line: kings only place (D1) this round."""
    return state["round"] >= 1 and not state["next_line"]


def acting_seat(state: State) -> int | None:
    if state["phase"] == "over":
        return None
    if state["round"] == 0:
        return state["king_order"][state["turn"]]
    return state["current_line"][state["turn"]]["king"]


def copy_state(state: State) -> State:
    """A structured copy (much faster than ``copy.deepcopy``); strings are shared."""
    new = dict(state)
    new["variants"] = list(state["variants"])
    new["deck"] = list(state["deck"])
    new["removed"] = list(state["removed"])
    new["king_order"] = list(state["king_order"])
    new["current_line"] = [dict(slot) for slot in state["current_line"]]
    new["next_line"] = [dict(slot) for slot in state["next_line"]]
    new["kingdoms"] = [
        {"rows": list(k["rows"]), "discarded": list(k["discarded"])} for k in state["kingdoms"]
    ]
    new["history"] = [{key: list(v) for key, v in g.items()} for g in state["history"]]
    if state["last_placed"] is not None:
        new["last_placed"] = dict(state["last_placed"], cells=list(state["last_placed"]["cells"]))
    return new
