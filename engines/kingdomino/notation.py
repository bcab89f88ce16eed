"""A readable position notation (like chess FEN) and a builder of positions for tests.

``dump(state)`` writes a few lines that ``load`` turns back into exactly the same state::

    kingdomino players=2 variants=- seed=7 draws=1 game=1 round=1 phase=place turn=0
    deck 33 5 19 ...                 face-down stack, top first ("-" when empty)
    removed 1 4 ...                  dominoes out of this game, face down
    kings 1 0 0 1                    round 0 drawing order of the kings
    current 3:1 12:0* 30:0 41:1      line being placed: number:king, "*" = placed/discarded
    next 7:- 18:1 22:- 40:-          line being picked from: "-" = no king yet
    last 0 12 D5 D4                  last placement: seat, domino, cells ("last -" if none)
    played points=10,20 largest=5,6 crowns=3,4    (one line per finished Dynasty game)
    kingdom 0 discarded=- ........../..........CC.../...   rows top to bottom, "/" between

A row spells each cell with two characters: terrain letter (W wheat, F forest, L lake,
G grassland, S swamp, M mine) and crowns (``W1``), ``CC`` for the castle, ``..`` for empty.

:func:`rows_from_picture` and :func:`position` build positions from kingdom pictures.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from engines.base import State

from .data import CASTLE_CELL, EMPTY_CELL, TERRAIN_LETTER
from .geometry import grid_size
from .kingdom import empty_rows


def _numbers(values: list[int]) -> str:
    return " ".join(map(str, values)) if values else "-"


def _csv(values: list[Any]) -> str:
    return ",".join(map(str, values)) if values else "-"


def _slot(slot: dict) -> str:
    king = "-" if slot["king"] is None else str(slot["king"])
    return f"{slot['n']}:{king}{'*' if slot.get('done') else ''}"


def dump(state: State) -> str:
    lines = [
        f"kingdomino players={state['players']} variants={_csv(state['variants'])} "
        f"seed={json.dumps(state['seed'])} draws={state['rng_draws']} game={state['game_no']} "
        f"round={state['round']} phase={state['phase']} turn={state['turn']}",
        f"deck {_numbers(state['deck'])}",
        f"removed {_numbers(state['removed'])}",
        f"kings {_numbers(state['king_order'])}",
        "current " + (" ".join(_slot(s) for s in state["current_line"]) or "-"),
        "next " + (" ".join(_slot(s) for s in state["next_line"]) or "-"),
    ]
    last = state["last_placed"]
    lines.append("last -" if last is None else
                 f"last {last['seat']} {last['n']} {' '.join(last['cells'])}")
    for played in state["history"]:
        lines.append(
            "played " + " ".join(f"{key}={_csv(played[key])}"
                                 for key in ("points", "largest", "crowns")))
    for seat, kingdom in enumerate(state["kingdoms"]):
        lines.append(f"kingdom {seat} discarded={_csv(kingdom['discarded'])} "
                     + "/".join(kingdom["rows"]))
    return "\n".join(lines)


def _ints(tokens: list[str]) -> list[int]:
    return [] if tokens == ["-"] else [int(t) for t in tokens]


def _int_csv(text: str) -> list[int]:
    return [] if text == "-" else [int(t) for t in text.split(",")]


def _parse_slot(text: str, with_done: bool) -> dict:
    n, king = text.split(":")
    done = king.endswith("*")
    king = king.rstrip("*")
    slot: dict[str, Any] = {"n": int(n), "king": None if king == "-" else int(king)}
    if with_done:
        slot["done"] = done
    return slot


def load(text: str) -> State:
    """The state that :func:`dump` wrote (raises ``ValueError`` on a malformed text)."""
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    head = lines[0].split()
    if head[0] != "kingdomino":
        raise ValueError("not a kingdomino notation")
    fields = dict(token.split("=", 1) for token in head[1:])
    state: State = {
        "game": "kingdomino",
        "seed": json.loads(fields["seed"]),
        "rng_draws": int(fields["draws"]),
        "players": int(fields["players"]),
        "variants": [] if fields["variants"] == "-" else fields["variants"].split(","),
        "game_no": int(fields["game"]),
        "history": [],
        "round": int(fields["round"]),
        "phase": fields["phase"],
        "turn": int(fields["turn"]),
        "kingdoms": [],
        "last_placed": None,
    }
    for line in lines[1:]:
        word, *rest = line.split()
        if word == "deck":
            state["deck"] = _ints(rest)
        elif word == "removed":
            state["removed"] = _ints(rest)
        elif word == "kings":
            state["king_order"] = _ints(rest)
        elif word in ("current", "next"):
            slots = [] if rest == ["-"] else [_parse_slot(t, word == "current") for t in rest]
            state[f"{word}_line"] = slots
        elif word == "last":
            if rest != ["-"]:
                state["last_placed"] = {"seat": int(rest[0]), "n": int(rest[1]),
                                        "cells": rest[2:]}
        elif word == "played":
            played = dict(token.split("=", 1) for token in rest)
            state["history"].append({key: _int_csv(played[key])
                                     for key in ("points", "largest", "crowns")})
        elif word == "kingdom":
            discarded = rest[1].removeprefix("discarded=")
            state["kingdoms"].append({"rows": rest[2].split("/"),
                                      "discarded": _int_csv(discarded)})
        else:
            raise ValueError(f"unknown notation line {line!r}")
    return state


# --- building positions for tests -----------------------------------------------------------
def rows_from_picture(picture: str, size: int = 9) -> list[str]:
    """Kingdom rows from a small picture, aligned so that its castle lands on the centre cell.

    One picture row per line, cells separated by spaces: ``W1`` (wheat, one crown), ``F`` or
    ``F0`` (forest, no crown), ``CC``/``C`` castle, ``..``/``.`` empty::

        rows_from_picture('''
            .  W1 W
            CC F  F
        ''')
    """
    grid = [line.split() for line in picture.strip().splitlines() if line.strip()]
    castle = [(r, c) for r, row in enumerate(grid) for c, cell in enumerate(row)
              if cell in ("C", CASTLE_CELL)]
    if len(castle) != 1:
        raise ValueError("a kingdom picture needs exactly one castle (CC)")
    middle = size // 2
    dr, dc = middle - castle[0][0], middle - castle[0][1]
    rows = empty_rows(size)
    cells = [list(row[i:i + 2] for i in range(0, len(row), 2)) for row in rows]
    letters = set(TERRAIN_LETTER.values())
    for r, row in enumerate(grid):
        for c, token in enumerate(row):
            if token in (".", EMPTY_CELL, "C", CASTLE_CELL):
                continue
            letter, crowns = token[0].upper(), token[1:] or "0"
            if letter not in letters or not crowns.isdigit() or len(crowns) != 1:
                raise ValueError(f"bad square {token!r} in kingdom picture")
            rr, cc = r + dr, c + dc
            if not (0 <= rr < size and 0 <= cc < size):
                raise ValueError("kingdom picture does not fit the grid around its castle")
            cells[rr][cc] = letter + crowns
    return ["".join(row) for row in cells]


def position(
    players: int = 2,
    *,
    kingdoms: list[str] | None = None,
    variants: list[str] | tuple[str, ...] = (),
    current: Sequence[tuple] = (),
    next_line: Sequence[tuple] = (),
    phase: str = "place",
    turn: int = 0,
    round: int = 1,  # noqa: A002 - the rulebook's word
    deck: Sequence[int] = (),
    removed: Sequence[int] = (),
    discarded: list[list[int]] | None = None,
    king_order: list[int] | None = None,
    seed: int = 0,
    game_no: int = 1,
    history: Sequence[dict] = (),
) -> State:
    """A state built from kingdom pictures and lines, for tests.

    ``current`` holds ``(n, king)`` or ``(n, king, done)``; ``next_line`` holds ``(n, king)``.
    Missing kingdoms are a lone castle.
    """
    variants = sorted(set(variants))
    size = grid_size(7 if "mighty_duel" in variants else 5)
    pictures = list(kingdoms or [])
    pictures += ["CC"] * (players - len(pictures))
    kings = 2 if players == 2 else 1
    return {
        "game": "kingdomino", "seed": seed, "rng_draws": 1, "players": players,
        "variants": variants, "game_no": game_no, "history": [dict(h) for h in history],
        "round": round, "phase": phase, "turn": turn, "deck": list(deck),
        "removed": sorted(removed),
        "king_order": list(king_order) if king_order is not None
        else [s for s in range(players) for _ in range(kings)],
        "current_line": [
            {"n": slot[0], "king": slot[1], "done": bool(slot[2]) if len(slot) > 2 else False}
            for slot in current
        ],
        "next_line": [{"n": n, "king": king} for n, king in next_line],
        "kingdoms": [
            {"rows": rows_from_picture(p, size),
             "discarded": list(discarded[s]) if discarded else []}
            for s, p in enumerate(pictures)
        ],
        "last_placed": None,
    }
