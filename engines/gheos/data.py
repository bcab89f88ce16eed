"""The tile set: landscape tiles (``data/tiles.json``, loaded once at import) and epoch tiles.

A landscape tile is a list of land *parts*. A part with one edge is a *shore* (nabrzeże), a
part joining two or three edges is a *landmass* (masa lądowa). Symbols sit on a part.
Epoch tiles (kafelki Epoki) carry no land; their ids are ``E1``..``E8``.

Positions built for tests or puzzles may bring their own tiles in ``state["custom_tiles"]``
(id -> the same JSON shape as a line of tiles.json); :func:`tile` looks there first.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cached_property, lru_cache
from operator import methodcaller
from pathlib import Path
from typing import Any

DATA_FILE = Path(__file__).parent / "data" / "tiles.json"

WHEAT, CHALICE, SWORDS, PYRAMID = "wheat", "chalice", "swords", "pyramid"
RESOURCES = (WHEAT, CHALICE, SWORDS)
TEMPLES = {"temple_wheat": WHEAT, "temple_chalice": CHALICE, "temple_swords": SWORDS}
SYMBOLS = (WHEAT, CHALICE, SWORDS, PYRAMID, *TEMPLES)
SHORE, LANDMASS = "shore", "landmass"


@dataclass(frozen=True)
class Part:
    kind: str  # SHORE or LANDMASS
    edges: tuple[int, ...]
    symbols: tuple[str, ...]

    @cached_property
    def normal_symbols(self) -> tuple[str, ...]:
        """The symbols without temples (which are not normal symbols)."""
        return tuple(s for s in self.symbols if s not in TEMPLES)


@dataclass(frozen=True, eq=False)  # identity hash: tiles are keys of hot caches
class Tile:
    id: str
    parts: tuple[Part, ...]
    start: bool = False

    # tiles never change: what is asked of them in hot loops is computed once
    @cached_property
    def has_pyramid(self) -> bool:
        return any(PYRAMID in p.symbols for p in self.parts)

    @cached_property
    def temple(self) -> tuple[int, str] | None:
        """(part index, temple symbol) of the tile's temple, if it has one."""
        for i, p in enumerate(self.parts):
            for s in p.symbols:
                if s in TEMPLES:
                    return i, s
        return None

    @property
    def configuration(self) -> str:
        """'landmass3', 'landmass2' (landmass on two edges + shore) or 'shores'."""
        widest = max(len(p.edges) for p in self.parts)
        return {3: "landmass3", 2: "landmass2", 1: "shores"}[widest]


def tile_from_json(raw: dict[str, Any]) -> Tile:
    """Build and check one tile: every edge 0-2 in exactly one part, kinds match edge counts."""
    parts = []
    for p in raw["parts"]:
        edges = tuple(sorted(p["edges"]))
        kind = p.get("kind", SHORE if len(edges) == 1 else LANDMASS)
        if kind != (SHORE if len(edges) == 1 else LANDMASS):
            raise ValueError(f"tile {raw['id']}: a {kind} cannot touch {len(edges)} edge(s)")
        for s in p.get("symbols", ()):
            if s not in SYMBOLS:
                raise ValueError(f"tile {raw['id']}: unknown symbol {s!r}")
        parts.append(Part(kind, edges, tuple(p.get("symbols", ()))))
    if sorted(e for p in parts for e in p.edges) != [0, 1, 2]:
        raise ValueError(f"tile {raw['id']}: edges 0, 1, 2 must each be in exactly one part")
    return Tile(raw["id"], tuple(parts), bool(raw.get("start", False)))


def _load() -> tuple[dict[str, Tile], int]:
    raw = json.loads(DATA_FILE.read_text(encoding="utf-8"))
    tiles = {}
    for entry in raw["tiles"]:
        t = tile_from_json(entry)
        if t.id in tiles:
            raise ValueError(f"duplicate tile id {t.id}")
        tiles[t.id] = t
    return tiles, int(raw["epoch_tiles"])


TILES, EPOCH_COUNT = _load()
START_TILE = next(t.id for t in TILES.values() if t.start)
LANDSCAPE_IDS = tuple(TILES)
EPOCH_IDS = tuple(f"E{i}" for i in range(1, EPOCH_COUNT + 1))


def is_epoch(tile_id: str) -> bool:
    return tile_id.startswith("E")


_IS_EPOCH = methodcaller("startswith", "E")


def epoch_count(tile_ids: list[str]) -> int:
    """How many of ``tile_ids`` are epoch tiles (``is_epoch``; the computer player counts
    the bag's often)."""
    return sum(map(_IS_EPOCH, tile_ids))


@lru_cache(maxsize=256)
def _custom(raw_json: str) -> Tile:
    return tile_from_json(json.loads(raw_json))


def tile(state: dict[str, Any], tile_id: str) -> Tile:
    custom = state.get("custom_tiles")
    if custom and tile_id in custom:
        return _custom(json.dumps(custom[tile_id], sort_keys=True))
    return TILES[tile_id]


@lru_cache(maxsize=4096)
def _slots(t: Tile, rotation: int) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(sorted((e + rotation) % 3 for e in p.edges)) for p in t.parts)


def part_slots(t: Tile, rotation: int) -> tuple[tuple[int, ...], ...]:
    """For each part of ``t`` placed with ``rotation``, the cell edge slots it touches."""
    return _slots(t, rotation)


@lru_cache(maxsize=4096)
def part_on_slot(t: Tile, rotation: int) -> tuple[int, int, int]:
    """For cell edge slots 0, 1, 2: the index of the part that touches it."""
    out = [0, 0, 0]
    for i, slots in enumerate(_slots(t, rotation)):
        for s in slots:
            out[s] = i
    return tuple(out)  # type: ignore[return-value]


@lru_cache(maxsize=4096)
def distinct_rotations(t: Tile) -> tuple[int, ...]:
    """Rotations that give different boards (a landmass on all three edges looks the same
    every way round, so it only needs rotation 0)."""
    seen: dict[tuple, int] = {}
    for r in range(3):
        form = tuple(sorted((_slots(t, r)[i], p.symbols) for i, p in enumerate(t.parts)))
        seen.setdefault(form, r)
    return tuple(sorted(seen.values()))


@lru_cache(maxsize=4096)
def canonical_rotation(t: Tile, rotation: int) -> int:
    form = tuple(sorted((_slots(t, rotation)[i], p.symbols) for i, p in enumerate(t.parts)))
    for r in distinct_rotations(t):
        if tuple(sorted((_slots(t, r)[i], p.symbols) for i, p in enumerate(t.parts))) == form:
            return r
    return rotation
