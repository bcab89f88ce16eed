"""Kingdomino scoring speed: CPU µs per finished kingdom, before (frozen copy below) and now.

    python -m bench.lab.bench_kingdomino_scoring [rounds]

Finished kingdoms come from seeded games of computer players (2, 3, 4 players, Mighty Duel).
"Score" is what a view needs for each kingdom: the points and the breakdown lines
(``kingdom_lines``); "tally" adds the tie-break values (largest property, crowns). Each figure
is the median of ``rounds`` passes over every kingdom; before and now run interleaved in the
same process, so their ratio holds on a busy machine.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import NamedTuple

from engines.kingdomino import GAME, scoring
from engines.kingdomino.data import CASTLE, EMPTY, LETTER_TERRAIN, TERRAIN_ICON
from engines.kingdomino.geometry import bounding_box, castle_index, neighbours
from engines.kingdomino.kingdom import terrain_and_crowns
from engines.kingdomino.state import size_of


# --- the scorer as it was before issue 11 item 5 (frozen; do not optimise) ---------------------
class OldProperty(NamedTuple):
    terrain: str
    squares: int
    crowns: int

    @property
    def points(self) -> int:
        return self.squares * self.crowns


def old_properties(terrain: str, crowns: str, size: int) -> list[OldProperty]:
    near_table = neighbours(size)
    seen = bytearray(len(terrain))
    out: list[OldProperty] = []
    for start, letter in enumerate(terrain):
        if seen[start] or letter in (EMPTY, CASTLE):
            continue
        seen[start] = 1
        stack = [start]
        squares = crown_count = 0
        while stack:
            cell = stack.pop()
            squares += 1
            crown_count += ord(crowns[cell]) - 48
            for k in near_table[cell]:
                if not seen[k] and terrain[k] == letter:
                    seen[k] = 1
                    stack.append(k)
        out.append(OldProperty(letter, squares, crown_count))
    return out


def old_is_middle_kingdom(terrain: str, size: int) -> bool:
    min_r, min_c, max_r, max_c = bounding_box(terrain, size)
    middle = castle_index(size) // size
    return min_r + max_r == 2 * middle and min_c + max_c == 2 * middle


def old_kingdom_lines(terrain, crowns, size, *, discarded, variants, props=None):
    lines = []
    if props is None:
        props = old_properties(terrain, crowns, size)
    for prop in props:
        if prop.crowns:
            name = LETTER_TERRAIN[prop.terrain]
            lines.append(("kingdomino.score.property", prop.points,
                          {"terrain": name, "icon": TERRAIN_ICON[name],
                           "squares": prop.squares, "crowns": prop.crowns}))
    if "middle_kingdom" in variants and old_is_middle_kingdom(terrain, size):
        lines.append(("kingdomino.score.middle_kingdom", 10, {}))
    if "harmony" in variants and discarded == 0:
        lines.append(("kingdomino.score.harmony", 5, {}))
    return lines


def old_tally(terrain, crowns, size, *, discarded, variants):
    props = old_properties(terrain, crowns, size)
    points = sum(line[1] for line in old_kingdom_lines(
        terrain, crowns, size, discarded=discarded, variants=variants, props=props))
    return (points, max((p.squares for p in props), default=0), sum(p.crowns for p in props))


# --- the benchmark ------------------------------------------------------------------------------
def finished_kingdoms() -> list[tuple[str, str, int, int, list[str]]]:
    out = []
    setups = [(2, []), (3, []), (4, []), (2, ["mighty_duel"]),
              (4, ["middle_kingdom", "harmony"])]
    for players, variants in setups:
        for seed in range(10):
            state = GAME.setup(players, {"variants": variants}, seed)
            while not GAME.is_over(state):
                seat = GAME.to_act(state)[0]
                state, _ = GAME.apply(state, seat,
                                      GAME.bot_action(state, seat, random.Random(seed)))
            for kingdom in state["kingdoms"]:
                terrain, crowns = terrain_and_crowns(kingdom["rows"])
                out.append((terrain, crowns, size_of(state), len(kingdom["discarded"]),
                            state["variants"]))
    return out


def per_kingdom_us(fn, kingdoms) -> float:
    """CPU µs per kingdom (this process's CPU time: steadier than the wall clock on a shared
    machine)."""
    start = time.process_time()
    for terrain, crowns, size, discarded, variants in kingdoms:
        fn(terrain, crowns, size, discarded=discarded, variants=variants)
    return (time.process_time() - start) / len(kingdoms) * 1e6


def main(rounds: int = 30) -> None:
    kingdoms = finished_kingdoms()
    for t, c, size, d, v in kingdoms:  # the same answers first
        assert old_tally(t, c, size, discarded=d, variants=v) == tuple(
            scoring.tally(t, c, size, discarded=d, variants=v))
        assert old_kingdom_lines(t, c, size, discarded=d, variants=v) == scoring.kingdom_lines(
            t, c, size, discarded=d, variants=v)
    pairs = {"score (lines)": (old_kingdom_lines, scoring.kingdom_lines),
             "tally (points + tie-breaks)": (old_tally, scoring.tally)}
    print(f"Kingdomino scoring, {len(kingdoms)} finished kingdoms, median of {rounds} passes")
    print("cold: the memo is cleared before every pass (each kingdom scored from scratch);")
    print("warm: a view of an unchanged kingdom (memoised properties)")
    print(f"{'':30} {'before µs':>10} {'cold µs':>10} {'x':>6} {'warm µs':>10} {'x':>6}")
    for name, (old, new) in pairs.items():
        before, cold, warm = [], [], []
        for _ in range(rounds):
            before.append(per_kingdom_us(old, kingdoms))
            scoring.clear_memo()
            cold.append(per_kingdom_us(new, kingdoms))
            warm.append(per_kingdom_us(new, kingdoms))
        b_us, c_us, w_us = (statistics.median(x) for x in (before, cold, warm))
        print(f"{name:30} {b_us:10.2f} {c_us:10.2f} {b_us / c_us:6.2f} {w_us:10.2f} "
              f"{b_us / w_us:6.1f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rounds", type=int, nargs="?", default=30, help="passes over the kingdoms")
    main(parser.parse_args().rounds)
