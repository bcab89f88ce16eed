"""Build a position directly (like loading a chess FEN): for tests, puzzles and bug reports.

Tiles may be real ids (``"T17"``) or new tiles given as part lists; a new tile gets the id
``X<n>`` on the board, ``H<n>`` in a hand, ``B<n>`` in the bag, and its definition is kept
in ``state["custom_tiles"]`` so the state stays a plain, self-contained dict::

    s = position(3, tiles={"M30": land([0, 1, 2], "wheat"), "M31": ("T5", 1)},
                 civs={"red": "M30"}, followers=[{"red": 2}, {}, {}])
"""

from __future__ import annotations

from typing import Any

import engines.gheos.rules as R
from engines.gheos.data import LANDSCAPE_IDS, is_epoch, tile_from_json
from engines.gheos.regions import LANDMASS, Land, part_key


def part(edges: list[int], *symbols: str) -> dict[str, Any]:
    """One land part: a shore (one edge) or a landmass (two or three edges)."""
    return {"kind": "shore" if len(edges) == 1 else "landmass", "edges": list(edges),
            "symbols": list(symbols)}


def land(edges: list[int], *symbols: str) -> list[dict[str, Any]]:
    """A tile that is one landmass on ``edges`` plus shores on the other edges."""
    parts = [part(edges, *symbols)]
    parts += [part([e]) for e in range(3) if e not in edges]
    return parts


def position(players: int, tiles: dict[str, Any], *, civs: dict[str, str] | None = None,
             followers: list[dict[str, int]] | None = None,
             hands: list[list[Any]] | None = None, bag: list[str] | None = None,
             tokens: list[int] | None = None, turn: int = 0, phase: str = "tile",
             epochs: int = 0, seed: int = 0) -> dict[str, Any]:
    """A state with the given board; ``tiles`` maps a cell to a tile (id, part list, or a
    ``(tile, rotation)`` pair); ``civs`` maps a colour to the cell of its marker (the marker
    stands on that tile's landmass, or its part 0). Hands may hold new tiles too; the last
    tile of ``bag`` is drawn first."""
    new = _NewTiles()
    state = _bare_state(players, tokens, turn, phase, epochs, seed, new.custom)
    board_ids = [_board_tile(cell, spec, new) for cell, spec in tiles.items()]
    for seat, hand in enumerate(hands or []):
        state["hands"][seat] = [new.id_of(t, "H") for t in hand]
    lay = Land(state)
    for cell, tid, rot in board_ids:
        lay.add(cell, tid, rot)
    lay.store(state)
    for colour, cell in (civs or {}).items():
        state["civs"][colour] = _marker_key(lay, cell)
    for seat, held in enumerate(followers or []):
        for colour, n in held.items():
            R.give_follower(state, seat, colour, n)
    if bag is None:
        used = {tid for _, tid, _ in board_ids} | {t for h in state["hands"] for t in h}
        bag = [t for t in LANDSCAPE_IDS if t not in used]
    state["bag"] = [new.id_of(t, "B") for t in bag]
    assert all(is_epoch(t) or t in new.custom or t in LANDSCAPE_IDS for t in state["bag"])
    return state


class _NewTiles:
    """The new tiles of a position (given as part lists), numbered in order by where they
    are: ``X<n>`` on the board, ``H<n>`` in a hand, ``B<n>`` in the bag."""

    def __init__(self) -> None:
        #: id -> the tile's definition, kept in ``state["custom_tiles"]``
        self.custom: dict[str, Any] = {}

    def id_of(self, spec: Any, prefix: str = "X") -> str:
        if isinstance(spec, str):
            return spec
        tid = f"{prefix}{sum(1 for t in self.custom if t[0] == prefix) + 1}"
        raw = {"id": tid, "parts": spec}
        tile_from_json(raw)  # check it
        self.custom[tid] = raw
        return tid


def _board_tile(cell: str, spec: Any, new: _NewTiles) -> tuple[str, str, int]:
    """``(cell, tile id, rotation)`` of a board entry (a tile, or a ``(tile, rotation)``)."""
    spec, rot = spec if isinstance(spec, tuple) else (spec, 0)
    return cell, new.id_of(spec), rot


def _marker_key(lay: Land, cell: str) -> str:
    """Where a marker on ``cell`` stands: the tile's landmass, or its part 0."""
    t = lay.tile_at(cell)
    idx = next((i for i, p in enumerate(t.parts) if p.kind == LANDMASS), 0)
    return part_key(cell, idx)


def _bare_state(players: int, tokens: list[int] | None, turn: int, phase: str, epochs: int,
                seed: int, custom: dict[str, Any]) -> dict[str, Any]:
    """The state before any tile, marker or follower is put in it."""
    return {
        "game": "gheos", "seed": seed, "rng_draws": 0, "players": players,
        "phase": phase, "turn": turn, "turn_no": 1,
        "board": {}, "regions": {}, "next_region": 0,
        "civs": {}, "supply": {c: R.FOLLOWERS_PER_CIVILIZATION for c in R.CIVILIZATIONS},
        "followers": [{} for _ in range(players)],
        "tokens": list(tokens) if tokens else [R.SCORING_TOKENS] * players,
        "hands": [[] for _ in range(players)],
        "bag": [], "removed": [], "epochs": epochs, "epoch_tiles": [f"E{i + 1}"
                                                                    for i in range(epochs)],
        "points": [{r: 0 for r in R.POINT_REASONS} for _ in range(players)],
        "pending": None, "last": None, "end_reason": None, "custom_tiles": custom,
    }
