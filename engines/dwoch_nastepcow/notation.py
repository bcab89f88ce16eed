"""A readable Dwóch następców position (as FEN is for chess): ``dump(state)`` writes a few
lines that ``load`` turns back into exactly the same state (the header is one line, shown
here in two)::

    dwoch_nastepcow players=2 sets=travel,lands,trade roads=yes seed=7 draws=1 phase=turn
        first=1 current=1 final_turns=-
    turn number=1 took=0 extra=0 discounts=0      what the mover has done this turn
    reserve shield=0 - TR4 LI2 TC9 TR7 LI6        the royal reserve's 7 slots clockwise
    seat 0 hand=TR3 troops=retinue:M13,normal:-,normal:L12:moved     white
    seat 1 hand=- troops=retinue:M13,normal:-,normal:-               blue
    landscape M13:TC6:down L12:LI4:up0 N13:LI6:up1:used              in the order laid (wrapped)
    stack TR1 LI8 ...                             face down, the first tile is drawn first
    removed -                                     tiles that left the game over the hand limit
    pending -                                     "pending targets=L12,N14" while a siege asks

``roads=no`` is the first-game variant (``no_roads``: roads score nothing); ``sets`` are the
three sets in play. A landscape cell reads ``cell:tile:face``, the owner's seat after ``up``
(a building faces its owner), then ``:used`` for a spent Camp and ``:destroyed`` for a
building a siege turned face down. A troop reads ``kind:cell`` (``-``: in the royal reserve)
and ``:moved`` once it has moved this turn. A list too long for one line goes on in lines
that start with the same word; ``-`` is an empty list or slot.

The tiles' data are those of ``data/tiles.json`` for the three sets; a tile whose data differ
(a test's own tile) gets a line of its own, and a state whose tiles are not the sets' plus
those gets a ``tiles`` line listing them all::

    tile X1 set=travel building=inn colour=grey cost=stone:2,wheat:1 roads=N,S axis=row
"""

from __future__ import annotations

import json
import re
from typing import Any

import engines.notation_text as nt
from engines.base import State
from engines.dwoch_nastepcow.data import TILES, tiles_of_sets
from engines.dwoch_nastepcow.geometry import is_cell

#: the kinds of a tile record's fields (besides its id)
TEXT_FIELDS = ("set", "building", "colour", "axis", "boosts")
LIST_FIELDS = ("roads", "arrows", "counts")
#: fields mapping a name to a number (cost) or to a word (a craft shop's layout)
NUMBER_MAPS = ("cost",)
WORD_MAPS = ("layout",)
TURN_FIELDS = ("number", "took", "extra", "discounts")
_SPOT = re.compile(r"^([A-Z][0-9]+):([^:]+):(up|down)([0-9]?)((?::used|:destroyed)*)$")


# --- writing -----------------------------------------------------------------------------
def _or_dash(value: Any) -> str:
    return "-" if value is None else str(value)


def _header(state: State) -> str:
    return (f"dwoch_nastepcow players={state['players']} sets={nt.csv(state['sets'])} "
            f"roads={'yes' if state['roads_scored'] else 'no'} seed={json.dumps(state['seed'])} "
            f"draws={state['rng_draws']} phase={state['phase']} first={state['first']} "
            f"current={state['current']} final_turns={_or_dash(state['final_turns'])}")


def _troop(troop: dict[str, Any]) -> str:
    return f"{troop['kind']}:{_or_dash(troop['at'])}" + (":moved" if troop["moved"] else "")


def _spot(cell: str, spot: dict[str, Any]) -> str:
    owner = "" if spot["owner"] is None else str(spot["owner"])
    return (f"{cell}:{spot['tile']}:{spot['face']}{owner}"
            + (":used" if spot["used"] else "") + (":destroyed" if spot["destroyed"] else ""))


def _field(name: str, value: Any) -> str:
    if name in LIST_FIELDS:
        return f"{name}={nt.csv(value)}"
    if name in NUMBER_MAPS or name in WORD_MAPS:
        return f"{name}={nt.pairs(value)}"
    if name in TEXT_FIELDS:
        return f"{name}={value}"
    raise ValueError(f"a tile field the notation does not know: {name}")


def _tile_lines(state: State) -> list[str]:
    """A line for each tile whose data differ from the data file's; the ``tiles`` line when
    those and the sets' tiles are not the state's tiles in its order."""
    lines = []
    for tid, record in state["tiles"].items():
        if record != TILES.get(tid):
            if record.get("id") != tid:
                raise ValueError(f"tile {tid}'s record has the id {record.get('id')!r}")
            lines.append(f"tile {tid} " + " ".join(
                _field(name, value) for name, value in record.items() if name != "id"))
    listed = [line.split()[1] for line in lines]
    ids = list(state["tiles"])
    if ids != list(dict.fromkeys(tiles_of_sets(state["sets"]) + listed)):
        lines = nt.wrapped("tiles", ids) + lines
    return lines


def dump(state: State) -> str:
    turn = state["turn"]
    lines = [_header(state),
             "turn " + " ".join(f"{k}={turn[k]}" for k in TURN_FIELDS),
             f"reserve shield={state['shield']} " + " ".join(map(_or_dash, state["reserve"]))]
    lines += [f"seat {seat} hand={nt.csv(hand)} troops={nt.csv(map(_troop, troops))}"
              for seat, (hand, troops) in enumerate(zip(state["hands"], state["troops"], strict=True))]
    lines += nt.wrapped("landscape", [_spot(c, s) for c, s in state["landscape"].items()])
    lines += nt.wrapped("stack", state["stack"])
    lines += nt.wrapped("removed", state["removed"])
    pending = state["pending"]
    lines.append("pending -" if pending is None
                 else f"pending targets={nt.csv(pending['targets'])}")
    lines += _tile_lines(state)
    return "\n".join(lines)


# --- reading -----------------------------------------------------------------------------
def _maybe_int(text: str) -> int | None:
    return None if text == "-" else int(text)


def _cell(text: str) -> str:
    if not is_cell(text):
        raise ValueError(f"no cell {text!r}")
    return text


def _header_state(line: str) -> State:
    word, *tokens = line.split()
    if word != "dwoch_nastepcow":
        raise ValueError("not a dwoch_nastepcow notation (the first line starts with "
                         "'dwoch_nastepcow')")
    fields = nt.fields(tokens, ("players", "sets", "roads", "seed", "draws", "phase", "first",
                                "current", "final_turns"))
    if fields["roads"] not in ("yes", "no"):
        raise ValueError("roads is yes or no")
    return {
        "game": "dwoch_nastepcow", "seed": json.loads(fields["seed"]),
        "rng_draws": int(fields["draws"]), "players": int(fields["players"]),
        "sets": nt.comma_list(fields["sets"]), "roads_scored": fields["roads"] == "yes",
        "first": int(fields["first"]), "current": int(fields["current"]),
        "phase": fields["phase"], "final_turns": _maybe_int(fields["final_turns"]),
        "hands": [], "troops": [], "landscape": {}, "stack": [], "removed": [],
    }


def _read_turn(state: State, tokens: list[str]) -> None:
    fields = nt.fields(tokens, TURN_FIELDS)
    state["turn"] = {k: int(fields[k]) for k in TURN_FIELDS}


def _read_reserve(state: State, tokens: list[str]) -> None:
    shield, *slots = tokens
    state["shield"] = int(nt.fields([shield], ("shield",))["shield"])
    state["reserve"] = [None if slot == "-" else slot for slot in slots]


def _parse_troop(text: str) -> dict[str, Any]:
    kind, at, *moved = text.split(":")
    if moved not in ([], ["moved"]):
        raise ValueError(f"cannot read the troop {text!r} (kind:cell, then :moved)")
    return {"kind": kind, "at": None if at == "-" else _cell(at), "moved": bool(moved)}


def _read_seat(state: State, tokens: list[str]) -> None:
    if tokens[0] != str(len(state["hands"])):
        raise ValueError(f"expected seat {len(state['hands'])}")
    fields = nt.fields(tokens[1:], ("hand", "troops"))
    state["hands"].append(nt.comma_list(fields["hand"]))
    state["troops"].append([_parse_troop(t) for t in nt.comma_list(fields["troops"])])


def _read_landscape(state: State, tokens: list[str]) -> None:
    for token in nt.items(tokens):
        match = _SPOT.match(token)
        if match is None:
            raise ValueError(f"cannot read the landscape cell {token!r} "
                             "(cell:tile:face, owner, :used, :destroyed)")
        cell, tid, face, owner, flags = match.groups()
        if _cell(cell) in state["landscape"]:
            raise ValueError(f"{cell} is in the landscape twice")
        state["landscape"][cell] = {"tile": tid, "face": face,
                                    "owner": int(owner) if owner else None,
                                    "used": ":used" in flags, "destroyed": ":destroyed" in flags}


def _read_pending(state: State, tokens: list[str]) -> None:
    state["pending"] = None if tokens == ["-"] else {"targets": [
        _cell(c) for c in nt.comma_list(nt.fields(tokens, ("targets",))["targets"])]}


def _value(name: str, text: str) -> Any:
    if name in LIST_FIELDS:
        return nt.comma_list(text)
    if name in NUMBER_MAPS:
        return {k: int(v) for k, v in (nt.pair(p, ":") for p in nt.comma_list(text))}
    if name in WORD_MAPS:
        return dict(nt.pair(p, ":") for p in nt.comma_list(text))
    if name in TEXT_FIELDS:
        return text
    raise ValueError(f"unknown tile field {name!r}")


def _read_tile(state: State, tokens: list[str]) -> None:
    tid, *fields = tokens
    record: dict[str, Any] = {"id": tid}
    for name, text in (nt.pair(token) for token in fields):
        record[name] = _value(name, text)
    state.setdefault("tile_lines", {})[tid] = record


#: what each line after the header fills in, by its first word
READERS: dict[str, nt.Reader] = {
    "turn": _read_turn, "reserve": _read_reserve, "seat": _read_seat,
    "landscape": _read_landscape, "stack": nt.lister("stack"), "removed": nt.lister("removed"),
    "pending": _read_pending, "tile": _read_tile, "tiles": nt.lister("tile_ids"),
}
#: lines every notation has
REQUIRED = ("turn", "reserve", "seat", "landscape", "stack", "removed", "pending")


def _tiles(state: State) -> dict[str, dict[str, Any]]:
    """The tiles' data: the tile lines', else the data file's, for the ``tiles`` line's ids
    (without one: the sets' tiles, then those of the tile lines)."""
    own = state.pop("tile_lines", {})
    ids = state.pop("tile_ids", None)
    if ids is None:
        ids = list(dict.fromkeys(tiles_of_sets(state["sets"]) + list(own)))
    unknown = [t for t in ids if t not in own and t not in TILES]
    if unknown:
        raise ValueError(f"unknown tiles: {' '.join(unknown)}")
    return {t: own[t] if t in own else dict(TILES[t]) for t in ids}


def _check(state: State) -> None:
    """What no single line can check: a seat line per player, every tile in play."""
    if len(state["hands"]) != state["players"]:
        raise ValueError(f"{state['players']} players but {len(state['hands'])} seat lines")
    used = state["stack"] + state["removed"] + [t for t in state["reserve"] if t] \
        + [t for hand in state["hands"] for t in hand] \
        + [spot["tile"] for spot in state["landscape"].values()]
    missing = [t for t in used if t not in state["tiles"]]
    if missing:
        raise ValueError(f"tiles not in play: {' '.join(missing)}")


def load(text: str) -> State:
    """The state that :func:`dump` wrote; a malformed text raises ``ValueError`` naming the
    line."""
    state = nt.read_lines(text, "dwoch_nastepcow", _header_state, READERS, REQUIRED)
    state["tiles"] = _tiles(state)
    _check(state)
    return state
