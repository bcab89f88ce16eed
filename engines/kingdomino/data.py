"""The 48 dominoes (płytki domina), loaded once from ``data/dominoes.json``.

Inside the engine a square is spelled with one letter per terrain and one digit of crowns,
e.g. ``W1`` = wheat with one crown; the castle (zamek) is ``CC`` and an empty cell ``..``.
These two-character spellings are also what the notation prints.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import NamedTuple

DATA_FILE = Path(__file__).parent / "data" / "dominoes.json"

#: terrain id -> one-letter code used in kingdom rows and the notation
TERRAIN_LETTER = {
    "wheat": "W",
    "forest": "F",
    "lake": "L",
    "grassland": "G",
    "swamp": "S",
    "mine": "M",
}
LETTER_TERRAIN = {letter: name for name, letter in TERRAIN_LETTER.items()}

#: language-neutral symbols for action descriptions and score lines (words live in locales)
TERRAIN_ICON = {
    "wheat": "🌾",
    "forest": "🌲",
    "lake": "💧",
    "grassland": "🌿",
    "swamp": "🐸",
    "mine": "⛏️",
}
CROWN_ICON = "👑"

CASTLE = "C"
EMPTY = "."
CASTLE_CELL = "CC"
EMPTY_CELL = ".."


class Domino(NamedTuple):
    n: int
    a_terrain: str  # one-letter code
    a_crowns: int
    b_terrain: str
    b_crowns: int

    @property
    def crowns(self) -> int:
        return self.a_crowns + self.b_crowns

    def half(self, which: str) -> tuple[str, int]:
        """``("wheat", 1)`` for half ``"a"`` or ``"b"`` (the view's spelling)."""
        if which == "a":
            return LETTER_TERRAIN[self.a_terrain], self.a_crowns
        return LETTER_TERRAIN[self.b_terrain], self.b_crowns


def _load() -> dict[int, Domino]:
    raw = json.loads(DATA_FILE.read_text(encoding="utf-8"))
    out: dict[int, Domino] = {}
    for item in raw:
        a, b = item["a"], item["b"]
        out[item["n"]] = Domino(
            item["n"],
            TERRAIN_LETTER[a["terrain"]], int(a["crowns"]),
            TERRAIN_LETTER[b["terrain"]], int(b["crowns"]),
        )
    return out


#: printed number -> domino
DOMINOES: dict[int, Domino] = _load()
ALL_NUMBERS: tuple[int, ...] = tuple(sorted(DOMINOES))


def terrains_text(n: int) -> str:
    """Language-neutral picture of a domino for menus: ``🌾👑 | 🌲``."""
    d = DOMINOES[n]
    left = LETTER_TERRAIN[d.a_terrain]
    right = LETTER_TERRAIN[d.b_terrain]
    return (
        f"{TERRAIN_ICON[left]}{CROWN_ICON * d.a_crowns} | "
        f"{TERRAIN_ICON[right]}{CROWN_ICON * d.b_crowns}"
    )
