"""A readable position notation (like chess FEN) for Bunny Kingdom.

``dump(state)`` writes lines that ``load`` turns back into exactly the same state::

    bunny_kingdom players=2 variants=- seed=7 draws=1 round=1 phase=explore step=1 camps=-
    row A .        .        0:city_2 .:city_1 1        ...   the board, a line per row A..J,
    ...                                                      columns 1..10: the owner ("."
    row J .        .        .        .        .        ...   none), ":building" on it
    towers C3-H7 B2-D4                    sky tower pairs, in the order they were built
    posts E5=fish                         trading post choices of this harvest
    deck H3 farm_spices E5 ...            the face-down stack, top first
    seat 0 score=12 done=no pick=- copies=liberal>fisher
    hand 0 F10 A8 provisions#2 ...        a seat's hand,
    reserve 0 treasure_guardian ...       face-down reserve (2 players),
    waiting 0 camp_3 sky_tower#1          buildings waiting to be built,
    scrolls 0 fisher liberal              parchments,
    discard 0 A1 provisions#1             public discard pile,
    hidden 0 J10                          face-down discards (2 players),
    played 0 A1 scroll                    faces played at the last reveal
    harvest 1 0 A1,A2,B1:2:carrots,fish C5:0:-     round 1, seat 0: its fiefs
    final 0 fisher=6(count=3,each=2) liberal>fisher=6(count=3,each=2) socialist>-=0

The header holds the draw counter (``draws``), the pick step of the round (``step``) and the
camps offered this round (``camps``). A ``seat`` line holds the harvest carrots so far
(``score``), whether the seat has finished building (``done``), its secret pick (``-`` for none
yet) and what its copy cards copy. Cards are the engine's card ids (``city_2#4``: the fourth
city_2 card), cells are ``A1``..``J10``; buildings, resources and parchments are named as in
:mod:`engines.bunny_kingdom.data`. A fief in a harvest is ``cells:strength:resources`` (it gave
strength x resources carrots). A final parchment is ``card[>kind]=points[(params)]``, where
``>kind`` is what a copy card copied (``>-``: nothing). A list's line is left out when the list
is empty, but for the harvest lines (one per round harvested and seat) and, once the game is
over, the final lines (one per seat): those say ``-``. A long list goes on over lines with the
same head (``deck ...``, ``deck ...``) to keep each within :data:`WIDTH` characters.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Container
from typing import Any

from engines.bunny_kingdom.data import (
    BUILDING_CATEGORIES,
    CAMPS,
    COORDS,
    DECK,
    HAND_SIZE,
    INDEX,
    KINDS,
    RESOURCES,
    ROWS,
    SIZE,
)
from engines.bunny_kingdom.rules import SCROLL
from engines.bunny_kingdom.state import PHASES, State, new_state
from engines.notation_text import comma_list

GAME_ID = "bunny_kingdom"
#: the longest line :func:`dump` writes when a list can be wrapped
WIDTH = 200

#: per-seat card lists: notation word -> state field
SEAT_LISTS = {"hand": "hands", "reserve": "reserves", "waiting": "waiting",
              "scrolls": "scrolls", "discard": "discard", "hidden": "hidden",
              "played": "last_play"}

_CARDS = frozenset(DECK)
_BUILDINGS = frozenset(k.id for k in KINDS.values() if k.category in BUILDING_CATEGORIES)
_SCROLLS = frozenset(k.id for k in KINDS.values() if k.category == "scroll")
#: what the table sees of a played card: its kind, or a face-down parchment
_FACES = frozenset({*KINDS, SCROLL})
_FINAL = re.compile(r"(?P<card>[a-z0-9_]+)(?:>(?P<kind>[a-z0-9_]+|-))?=(?P<points>-?\d+)"
                    r"(?:\((?P<params>[^()]*)\))?")


class NotationError(ValueError):
    """A text that is not a Bunny Kingdom notation; the message names the line."""


# --- dump ----------------------------------------------------------------------------------
def _csv(values: list[str]) -> str:
    return ",".join(values) if values else "-"


def _wrapped(head: str, tokens: list[str]) -> list[str]:
    """``head tokens...`` over as many lines as it takes to keep each within :data:`WIDTH`."""
    lines: list[str] = []
    line = head
    for token in tokens:
        if line != head and len(line) + 1 + len(token) > WIDTH:
            lines.append(line)
            line = head
        line += " " + token
    lines.append(line)
    return lines


def _header(state: State) -> str:
    return (f"{GAME_ID} players={state['players']} variants={_csv(state['variants'])} "
            f"seed={json.dumps(state['seed'])} draws={state['rng_draws']} "
            f"round={state['round']} phase={state['phase']} step={state['step']} "
            f"camps={_csv(state['camps_offered'])}")


def _cell(owner: int, building: str | None) -> str:
    who = "." if owner < 0 else str(owner)
    return who if building is None else f"{who}:{building}"


def _board(state: State) -> list[str]:
    """A line per row, its cells padded to one width so that the columns line up."""
    cells = [_cell(o, b) for o, b in zip(state["owner"], state["building"], strict=True)]
    width = max(map(len, cells))
    return [f"row {row} " + " ".join(c.ljust(width) for c in cells[r * SIZE:(r + 1) * SIZE])
            .rstrip() for r, row in enumerate(ROWS)]


def _seat(state: State, seat: int) -> list[str]:
    pick = state["picks"][seat]
    copies = [f"{card}>{target}" for card, target in state["copies"][seat].items()]
    lines = [f"seat {seat} score={state['score'][seat]} "
             f"done={'yes' if state['done'][seat] else 'no'} "
             f"pick={'-' if pick is None else ','.join(pick)} copies={_csv(copies)}"]
    for word, key in SEAT_LISTS.items():
        if state[key][seat]:
            lines += _wrapped(f"{word} {seat}", state[key][seat])
    return lines


def _fief(fief: dict[str, Any]) -> str:
    return f"{','.join(fief['cells'])}:{fief['strength']}:{_csv(fief['resources'])}"


def _final(line: dict[str, Any]) -> str:
    card, kind = line["card"], line["kind"]
    text = card if kind == card else f"{card}>{kind or '-'}"
    text += f"={line['points']}"
    if line["params"]:
        text += "(" + ",".join(f"{k}={v}" for k, v in line["params"].items()) + ")"
    return text


def dump(state: State) -> str:
    lines = [_header(state), *_board(state)]
    if state["towers"]:
        lines += _wrapped("towers", [f"{COORDS[a]}-{COORDS[b]}" for a, b in state["towers"]])
    if state["posts"]:
        lines += _wrapped("posts", [f"{c}={r}" for c, r in state["posts"].items()])
    if state["deck"]:
        lines += _wrapped("deck", state["deck"])
    for seat in range(state["players"]):
        lines += _seat(state, seat)
    for n, record in enumerate(state["harvests"], start=1):
        for seat, fiefs in enumerate(record):
            lines += _wrapped(f"harvest {n} {seat}", [_fief(f) for f in fiefs] or ["-"])
    for seat, scored in enumerate(state["final"] or []):
        lines += _wrapped(f"final {seat}", [_final(x) for x in scored] or ["-"])
    return "\n".join(lines)


# --- load ----------------------------------------------------------------------------------
def _known(token: str, allowed: Container[str], what: str) -> str:
    if token not in allowed:
        raise ValueError(f"{token!r} is not a {what}")
    return token


def _number(token: str, what: str, low: int | None = 0, high: int | None = None) -> int:
    if not re.fullmatch(r"-?\d+", token):
        raise ValueError(f"{what} {token!r} is not a number")
    value = int(token)
    if (low is not None and value < low) or (high is not None and value > high):
        raise ValueError(f"{what} {value} is out of range")
    return value


def _cards(tokens: list[str]) -> list[str]:
    return [_known(t, _CARDS, "card") for t in tokens]


_HEADER_KEYS = ("players", "variants", "seed", "draws", "round", "phase", "step", "camps")


def _parse_header(line: str) -> State:
    word, *tokens = line.split()
    if word != GAME_ID:
        raise ValueError(f"a notation starts with {GAME_ID!r}")
    fields = dict(t.split("=", 1) for t in tokens if "=" in t)
    missing = [k for k in _HEADER_KEYS if k not in fields]
    if missing or len(fields) != len(tokens):
        raise ValueError(f"the header needs {' '.join(k + '=' for k in _HEADER_KEYS)}")
    state = new_state(_number(fields["players"], "players", min(HAND_SIZE), max(HAND_SIZE)),
                      json.loads(fields["seed"]), comma_list(fields["variants"]))
    state["rng_draws"] = _number(fields["draws"], "draws")
    state["round"] = _number(fields["round"], "round", 1)
    state["phase"] = _known(fields["phase"], PHASES, "phase")
    state["step"] = _number(fields["step"], "step", 1)
    state["camps_offered"] = [_known(c, CAMPS, "camp") for c in comma_list(fields["camps"])]
    return state


def _seat_of(state: State, token: str) -> int:
    return _number(token, "seat", 0, state["players"] - 1)


def _row(state: State, args: list[str], seen: set[str]) -> None:
    if not args or args[0] not in ROWS or args[0] in seen:
        raise ValueError("a row line is 'row <A..J> <10 cells>', each row once")
    if len(args) != SIZE + 1:
        raise ValueError(f"row {args[0]} needs {SIZE} cells")
    seen.add(args[0])
    start = ROWS.index(args[0]) * SIZE
    for i, token in enumerate(args[1:], start=start):
        who, _, building = token.partition(":")
        state["owner"][i] = -1 if who == "." else _seat_of(state, who)
        state["building"][i] = _known(building, _BUILDINGS, "building") if building else None


def _towers(state: State, args: list[str]) -> None:
    for token in args:
        ends = token.split("-")
        if len(ends) != 2:
            raise ValueError(f"a tower pair is 'C3-H7', not {token!r}")
        state["towers"].append([INDEX[_known(c, INDEX, "cell")] for c in ends])


def _posts(state: State, args: list[str]) -> None:
    for token in args:
        cell, _, resource = token.partition("=")
        state["posts"][_known(cell, INDEX, "cell")] = _known(resource, RESOURCES, "resource")


def _seat_line(state: State, args: list[str], seen: set[int]) -> None:
    fields = dict(t.split("=", 1) for t in args[1:] if "=" in t)
    if not args or set(fields) != {"score", "done", "pick", "copies"} or len(args) != 5:
        raise ValueError("a seat line is 'seat <n> score= done= pick= copies='")
    seat = _seat_of(state, args[0])
    if seat in seen:
        raise ValueError(f"seat {seat} twice")
    seen.add(seat)
    state["score"][seat] = _number(fields["score"], "score")
    if fields["done"] not in ("yes", "no"):
        raise ValueError("done= is yes or no")
    state["done"][seat] = fields["done"] == "yes"
    pick = fields["pick"]
    state["picks"][seat] = None if pick == "-" else _cards(pick.split(",") if pick else [])
    for token in comma_list(fields["copies"]):
        card, _, target = token.partition(">")
        state["copies"][seat][_known(card, _SCROLLS, "parchment")] = _known(
            target, _SCROLLS, "parchment")


def _seat_list(word: str) -> Callable[[State, list[str]], None]:
    key = SEAT_LISTS[word]

    def add(state: State, args: list[str]) -> None:
        if len(args) < 2:
            raise ValueError(f"a {word} line is '{word} <seat> <cards>'")
        seat = _seat_of(state, args[0])
        faces = [_known(t, _FACES, "card face") for t in args[1:]] if word == "played" \
            else _cards(args[1:])
        state[key][seat].extend(faces)

    return add


def _parse_fief(token: str) -> dict[str, Any]:
    parts = token.split(":")
    if len(parts) != 3:
        raise ValueError(f"a fief is 'cells:strength:resources', not {token!r}")
    resources = [_known(r, RESOURCES, "resource") for r in comma_list(parts[2])]
    strength = _number(parts[1], "strength")
    return {"cells": [_known(c, INDEX, "cell") for c in parts[0].split(",")],
            "strength": strength, "resources": resources, "wealth": len(resources),
            "points": strength * len(resources)}


def _harvest(state: State, args: list[str]) -> None:
    if len(args) < 3:
        raise ValueError("a harvest line is 'harvest <round> <seat> <fiefs>'")
    record = state["harvests"]
    n = _number(args[0], "harvest round", 1, len(record) + 1)
    seat = _seat_of(state, args[1])
    if n > len(record):
        record.append([[] for _ in range(state["players"])])
    if args[2:] != ["-"]:
        record[n - 1][seat].extend(_parse_fief(t) for t in args[2:])


def _parse_final(token: str) -> dict[str, Any]:
    match = _FINAL.fullmatch(token)
    if not match:
        raise ValueError(f"a final parchment is 'card[>kind]=points[(params)]', not {token!r}")
    card = _known(match["card"], _SCROLLS, "parchment")
    kind = match["kind"] or card
    params = {}
    for item in comma_list(match["params"] or "-"):
        key, _, value = item.partition("=")
        params[key] = _number(value, key, None)
    return {"card": card, "kind": None if kind == "-" else _known(kind, _SCROLLS, "parchment"),
            "points": _number(match["points"], "points", None), "params": params}


def _final_line(state: State, args: list[str]) -> None:
    if len(args) < 2:
        raise ValueError("a final line is 'final <seat> <parchments>'")
    seat = _seat_of(state, args[0])
    if state["final"] is None:
        state["final"] = [[] for _ in range(state["players"])]
    if args[1:] != ["-"]:
        state["final"][seat].extend(_parse_final(t) for t in args[1:])


def load(text: str) -> State:
    """The state that :func:`dump` wrote; raises :class:`NotationError` naming a bad line."""
    lines = [(n, line.strip()) for n, line in enumerate(text.splitlines(), start=1)
             if line.strip()]
    if not lines:
        raise NotationError("an empty text is not a bunny_kingdom notation")
    try:
        state = _parse_header(lines[0][1])
    except ValueError as err:
        raise NotationError(f"line {lines[0][0]} {lines[0][1]!r}: {err}") from err
    rows: set[str] = set()
    seats: set[int] = set()
    handlers: dict[str, Callable[[State, list[str]], None]] = {
        "row": lambda s, a: _row(s, a, rows),
        "seat": lambda s, a: _seat_line(s, a, seats),
        "towers": _towers, "posts": _posts,
        "deck": lambda s, a: s["deck"].extend(_cards(a)),
        "harvest": _harvest, "final": _final_line,
        **{word: _seat_list(word) for word in SEAT_LISTS},
    }
    for number, line in lines[1:]:
        word, *args = line.split()
        try:
            if word not in handlers:
                raise ValueError(f"unknown line {word!r}")
            handlers[word](state, args)
        except ValueError as err:
            raise NotationError(f"line {number} {line!r}: {err}") from err
    if len(rows) != SIZE or len(seats) != state["players"]:
        raise NotationError(f"a notation needs the {SIZE} rows A..J and a seat line per player")
    return state
