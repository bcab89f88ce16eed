"""A readable Gheos position (as FEN is for chess): ``dump(state)`` writes a few lines that
``load`` turns back into exactly the same state::

    gheos players=2 seed=7 draws=1 phase=tile turn=0 turn_no=1 epochs=0 next_region=1 stalled=- end=-
    board M30:T1r0=0 M31:T5r1=1,2,3         tiles in the order they were put down (wrapped)
    civs red=M30/0 blue=-                   marker of each civilization ("-": lifted, migrating)
    supply red=5 green=5 yellow=5 blue=5 black=5 white=5
    seat 0 hand=T17,T40 tokens=3 followers=red:2 points=temple:0,token:0,epoch:0,final:0
    seat 1 hand=T8,T22 tokens=3 followers=- points=temple:0,token:0,epoch:0,final:0
    scored 0 temple/0=3x1 token/1=4x1 epoch/1=2x1   each scoring: kind/epoch tiles out=points x times
    scored 1 -                              (no scored lines: a state from before that record)
    bag T12 E3 T30 ...                      face down, the last tile is drawn first (wrapped)
    removed T9                              tiles taken off the board by replacements
    epoch_tiles E1 E4                       epoch tiles drawn so far
    last seat=0 verb=place tile=T5 cell=M31     the last tile put down ("last -" if none)
    pending -                               a placement being settled (see below)
    custom X1 landmass01+wheat+wheat shore2     a tile made by engines/gheos/position.py

A board cell reads ``cell:tile`` ``r`` rotation ``=`` the region id of each part of the tile
(parts 0, 1, 2 in the tile's order; parts with one id are one island or continent). A list too
long for one line goes on in lines that start with the same word; ``-`` is an empty list.

While a placement is being settled (phase ``resolve``) the pending lines say what it started::

    pending verb=replace cell=M31 tile=T5 pay=yes    pay: the follower owed is not paid yet
    old red M30/0 M29/1 ...     each civilization's continent before the move (for swords)
    migrate blue 4 7            a split civilization and the regions it may go to
    migrated green              civilizations that have landed (they lose a war outright)
    choice type=war civs=red,blue options=red,blue cell=M30    the choice asked ("choice -")

A custom tile's parts are its kind, its edges in order and ``+`` each symbol. ``custom -``
stands for an empty ``custom_tiles``; a state without that key has no custom line.
"""

from __future__ import annotations

import json
import re
from typing import Any

import engines.gheos.geometry as geometry
import engines.notation_text as nt
from engines.base import State
from engines.gheos.data import EPOCH_IDS, TILES

#: the header's fields in order: field name -> the state key it holds
HEADER = {"players": "players", "seed": "seed", "draws": "rng_draws", "phase": "phase",
          "turn": "turn", "turn_no": "turn_no", "epochs": "epochs",
          "next_region": "next_region", "stalled": "stalled", "end": "end_reason"}
#: header fields that hold a number
NUMBERS = {"players", "draws", "turn", "turn_no", "epochs", "next_region"}
#: keys of a mid-move choice that hold a list (the others hold one word)
CHOICE_LISTS = {"options", "civs"}
PART_KEYS = {"kind", "edges", "symbols"}
_BOARD_CELL = re.compile(r"^([A-Z][0-9]+):(.+)r([0-9]+)=([0-9]+(?:,[0-9]+)*)$")
_PART = re.compile(r"^(landmass|shore)([0-9]+)((?:\+[a-z_]+)*)$")


# --- writing -----------------------------------------------------------------------------
def _header(state: State) -> str:
    values = []
    for name, key in HEADER.items():
        value = state.get(key)
        text = json.dumps(value) if name == "seed" else "-" if value is None else str(value)
        values.append(f"{name}={text}")
    return "gheos " + " ".join(values)


def _board(state: State) -> list[str]:
    regions = state["regions"]
    cells, seen = [], 0
    for cell, (tid, rotation) in state["board"].items():
        ids: list[int] = []
        while f"{cell}/{len(ids)}" in regions:
            ids.append(regions[f"{cell}/{len(ids)}"])
        seen += len(ids)
        cells.append(f"{cell}:{tid}r{rotation}={nt.csv(ids)}")
    if seen != len(regions):
        raise ValueError("the regions name parts that are not on the board")
    return nt.wrapped("board", cells)


def _seat(state: State, seat: int) -> str:
    return (f"seat {seat} hand={nt.csv(state['hands'][seat])} tokens={state['tokens'][seat]} "
            f"followers={nt.pairs(state['followers'][seat])} "
            f"points={nt.pairs(state['points'][seat])}")


def _pending(pending: dict[str, Any] | None) -> list[str]:
    if pending is None:
        return ["pending -"]
    lines = [f"pending verb={pending['verb']} cell={pending['cell']} tile={pending['tile']} "
             f"pay={'yes' if pending['pay'] else 'no'}"]
    for colour, parts in pending["old"].items():
        lines += nt.wrapped(f"old {colour}", parts)
    for colour, rids in pending["migrate"].items():
        lines += nt.wrapped(f"migrate {colour}", [str(r) for r in rids])
    lines.append(f"migrated {nt.csv(pending['migrated'])}")
    choice = pending["choice"]
    lines.append("choice -" if choice is None else "choice " + " ".join(
        f"{k}={nt.csv(v) if k in CHOICE_LISTS else v}" for k, v in choice.items()))
    return lines


def _custom_tile(tid: str, raw: dict[str, Any]) -> str:
    if set(raw) != {"id", "parts"} or raw["id"] != tid \
            or any(set(p) != PART_KEYS for p in raw["parts"]):
        raise ValueError(f"custom tile {tid} is not in the shape engines/gheos/position.py "
                         "writes")
    return f"custom {tid} " + " ".join(
        p["kind"] + "".join(map(str, p["edges"])) + "".join(f"+{s}" for s in p["symbols"])
        for p in raw["parts"])


def dump(state: State) -> str:
    lines = [_header(state), *_board(state),
             "civs " + (" ".join(f"{c}={a or '-'}" for c, a in state["civs"].items()) or "-"),
             "supply " + " ".join(f"{c}={n}" for c, n in state["supply"].items())]
    lines += [_seat(state, seat) for seat in range(state["players"])]
    if "scored" in state:  # each scoring by kind and epoch: points x scorings
        for seat, scored in enumerate(state["scored"]):
            lines += nt.wrapped(f"scored {seat}", [f"{k}={p}x{c}" for k, (p, c) in scored.items()])
    lines += nt.wrapped("bag", state["bag"])
    lines += nt.wrapped("removed", state["removed"])
    lines += nt.wrapped("epoch_tiles", state["epoch_tiles"])
    last = state["last"]
    lines.append("last -" if last is None else "last " + " ".join(
        f"{k}={last[k]}" for k in ("seat", "verb", "tile", "cell")))
    lines += _pending(state["pending"])
    if "custom_tiles" in state:
        custom = state["custom_tiles"]
        lines += [_custom_tile(tid, raw) for tid, raw in custom.items()] or ["custom -"]
    return "\n".join(lines)


# --- reading -----------------------------------------------------------------------------
def _counts(text: str) -> dict[str, int]:
    return {k: int(v) for k, v in (nt.pair(pair, ":") for pair in nt.comma_list(text))}


def _cell(name: str) -> str:
    spot = geometry.parse(name)
    if spot is None or geometry.name(*spot) != name:
        raise ValueError(f"no cell {name!r}")
    return name


def _header_state(line: str) -> State:
    word, *tokens = line.split()
    if word != "gheos":
        raise ValueError("not a gheos notation (the first line starts with 'gheos')")
    fields = nt.fields(tokens, HEADER)
    state: State = {
        "game": "gheos", "board": {}, "regions": {}, "civs": {}, "followers": [],
        "tokens": [], "hands": [], "points": [], "bag": [], "removed": [], "epoch_tiles": [],
        "last": None, "pending": None,
    }
    for name, key in HEADER.items():
        value = fields[name]
        if name == "seed":
            state[key] = json.loads(value)
        elif name in NUMBERS:
            state[key] = int(value)
        elif name == "stalled":
            if value != "-":  # the key is there only while a player is stalled
                state[key] = int(value)
        else:
            state[key] = None if value == "-" else value
    return state


def _read_board(state: State, tokens: list[str]) -> None:
    for token in nt.items(tokens):
        match = _BOARD_CELL.match(token)
        if match is None:
            raise ValueError(f"cannot read the board cell {token!r} (cell:tile r rotation "
                             "= region ids)")
        cell, tid, rotation, ids = match.groups()
        if _cell(cell) in state["board"]:
            raise ValueError(f"{cell} is on the board twice")
        state["board"][cell] = [tid, int(rotation)]
        for idx, rid in enumerate(ids.split(",")):
            state["regions"][f"{cell}/{idx}"] = int(rid)


def _read_civs(state: State, tokens: list[str]) -> None:
    for colour, part in (nt.pair(token) for token in nt.items(tokens)):
        state["civs"][colour] = None if part == "-" else part


def _read_supply(state: State, tokens: list[str]) -> None:
    state["supply"] = {c: int(n) for c, n in (nt.pair(token) for token in tokens)}


def _read_seat(state: State, tokens: list[str]) -> None:
    if tokens[0] != str(len(state["hands"])):
        raise ValueError(f"expected seat {len(state['hands'])}")
    fields = nt.fields(tokens[1:], ("hand", "tokens", "followers", "points"))
    state["hands"].append(nt.comma_list(fields["hand"]))
    state["tokens"].append(int(fields["tokens"]))
    state["followers"].append(_counts(fields["followers"]))
    state["points"].append(_counts(fields["points"]))


def _read_scored(state: State, tokens: list[str]) -> None:
    seat, *records = tokens
    scored = state.setdefault("scored", [])
    if int(seat) not in (len(scored) - 1, len(scored)):
        raise ValueError(f"expected scored {len(scored)}")
    if int(seat) == len(scored):
        scored.append({})
    for record in nt.items(records):
        key, value = nt.pair(record)
        points, count = value.split("x")
        scored[-1][key] = [int(points), int(count)]


def _read_last(state: State, tokens: list[str]) -> None:
    if tokens != ["-"]:
        last: dict[str, Any] = nt.fields(tokens, ("seat", "verb", "tile", "cell"))
        last["seat"] = int(last["seat"])
        state["last"] = last


def _read_pending(state: State, tokens: list[str]) -> None:
    if tokens == ["-"]:
        state["pending"] = None
        return
    pending: dict[str, Any] = nt.fields(tokens, ("verb", "cell", "tile", "pay"))
    if pending["pay"] not in ("yes", "no"):
        raise ValueError("pay is yes or no")
    pending["pay"] = pending["pay"] == "yes"
    pending.update(old={}, migrate={}, migrated=[], choice=None)
    state["pending"] = pending


def _pending_part(state: State, key: str) -> dict[str, Any]:
    if not state["pending"]:
        raise ValueError(f"a {key} line needs a 'pending' line before it")
    pending: dict[str, Any] = state["pending"]
    return pending


def _read_old(state: State, tokens: list[str]) -> None:
    colour, *parts = tokens
    _pending_part(state, "old")["old"].setdefault(colour, []).extend(nt.items(parts))


def _read_migrate(state: State, tokens: list[str]) -> None:
    colour, *rids = tokens
    migrate = _pending_part(state, "migrate")["migrate"]
    migrate.setdefault(colour, []).extend(int(r) for r in nt.items(rids))


def _read_migrated(state: State, tokens: list[str]) -> None:
    (names,) = tokens
    _pending_part(state, "migrated")["migrated"] = nt.comma_list(names)


def _read_choice(state: State, tokens: list[str]) -> None:
    pending = _pending_part(state, "choice")
    if tokens == ["-"]:
        return
    choice: dict[str, Any] = dict(nt.pair(token) for token in tokens)
    for key in CHOICE_LISTS & set(choice):
        choice[key] = nt.comma_list(choice[key])
    pending["choice"] = choice


def _read_custom(state: State, tokens: list[str]) -> None:
    custom = state.setdefault("custom_tiles", {})
    if tokens == ["-"]:
        return
    tid, *specs = tokens
    parts = []
    for spec in specs:
        match = _PART.match(spec)
        if match is None:
            raise ValueError(f"cannot read the tile part {spec!r} (kind, edges, +symbols)")
        kind, edges, symbols = match.groups()
        parts.append({"kind": kind, "edges": [int(e) for e in edges],
                      "symbols": symbols.split("+")[1:]})
    custom[tid] = {"id": tid, "parts": parts}


#: what each line after the header fills in, by its first word
READERS: dict[str, nt.Reader] = {
    "board": _read_board, "civs": _read_civs, "supply": _read_supply, "seat": _read_seat,
    "bag": nt.lister("bag"), "removed": nt.lister("removed"),
    "epoch_tiles": nt.lister("epoch_tiles"), "last": _read_last, "pending": _read_pending,
    "old": _read_old, "migrate": _read_migrate, "migrated": _read_migrated,
    "choice": _read_choice, "custom": _read_custom, "scored": _read_scored,
}
#: lines every notation has
REQUIRED = ("board", "civs", "supply", "seat", "bag", "removed", "epoch_tiles", "last",
            "pending")


def _check(state: State) -> None:
    """What no single line can check: a seat line per player, every tile known."""
    if len(state["hands"]) != state["players"]:
        raise ValueError(f"{state['players']} players but {len(state['hands'])} seat lines")
    if "scored" in state and len(state["scored"]) != state["players"]:
        raise ValueError(f"{state['players']} players but {len(state['scored'])} scored lines")
    known = set(TILES) | set(state.get("custom_tiles", ()))
    tiles = [tid for tid, _ in state["board"].values()] + state["removed"] \
        + [tid for hand in state["hands"] for tid in hand]
    unknown = [t for t in tiles if t not in known] + [
        t for t in state["bag"] + state["epoch_tiles"] if t not in known | set(EPOCH_IDS)]
    if unknown:
        raise ValueError(f"unknown tiles: {' '.join(unknown)}")


def load(text: str) -> State:
    """The state that :func:`dump` wrote; a malformed text raises ``ValueError`` naming the
    line."""
    state = nt.read_lines(text, "gheos", _header_state, READERS, REQUIRED)
    _check(state)
    return state
