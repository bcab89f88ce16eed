"""Kingdomino engine and renderer figures. Run: ``python bench/bench_kingdomino.py [games]``.

Prints engine step p50/p99 (``apply``, and ``legal_actions``), full random game time per
player count, bot game time, board render time and PNG size, and the sizes the Discord host
cares about (legal codes per turn, distinct first cells of ``place``, state JSON size).
Targets (issue 2): step p99 < 1 ms, full 4-player game < 20 ms, render < 100 ms and < 1 MB.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.stats import pct  # noqa: E402
from engines.kingdomino import GAME  # noqa: E402
from render.kingdomino import render_board  # noqa: E402

NAMES = ["Ada", "Bolek", "Cyryl", "Żaneta"]
SETUPS = [(2, []), (3, []), (4, []), (2, ["mighty_duel"]), (4, ["dynasty"])]



def ms(seconds: float) -> str:
    return f"{seconds * 1000:.3f} ms"


def main(games: int = 200) -> None:
    apply_t: list[float] = []
    legal_t: list[float] = []
    most_codes = most_first_cells = 0
    biggest_state = 0
    print(f"Kingdomino benchmark, {games} random games per setup\n")
    print(f"{'setup':28} {'game mean':>12} {'game p99':>12} {'bot game':>12}")
    for players, variants in SETUPS:
        times = []
        for seed in range(games):
            state = GAME.setup(players, {"variants": variants}, seed)
            rng = random.Random(seed)
            start = time.perf_counter()
            while not GAME.is_over(state):
                seat = GAME.to_act(state)[0]
                t0 = time.perf_counter()
                codes = GAME.legal_actions(state, seat)
                t1 = time.perf_counter()
                state, _ = GAME.apply(state, seat, rng.choice(codes))
                t2 = time.perf_counter()
                legal_t.append(t1 - t0)
                apply_t.append(t2 - t1)
                most_codes = max(most_codes, len(codes))
                if codes[0].startswith("place"):
                    most_first_cells = max(most_first_cells, len({c.split()[1] for c in codes}))
            times.append(time.perf_counter() - start)
            if seed % 20 == 0:
                biggest_state = max(biggest_state, len(json.dumps(state)))
        bot_times = []
        for seed in range(max(5, games // 20)):
            state = GAME.setup(players, {"variants": variants}, seed)
            rng = random.Random(seed)
            start = time.perf_counter()
            while not GAME.is_over(state):
                seat = GAME.to_act(state)[0]
                state, _ = GAME.apply(state, seat, GAME.bot_action(state, seat, rng))
            bot_times.append(time.perf_counter() - start)
        label = f"{players}p {'+'.join(variants) or 'standard'}"
        print(f"{label:28} {ms(statistics.mean(times)):>12} {ms(pct(times, 0.99)):>12} "
              f"{ms(statistics.mean(bot_times)):>12}")
    print(f"\nengine step (apply)    p50 {ms(pct(apply_t, 0.5))}  p99 {ms(pct(apply_t, 0.99))}"
          f"  max {ms(max(apply_t))}  ({len(apply_t)} steps)")
    print(f"legal_actions          p50 {ms(pct(legal_t, 0.5))}  p99 {ms(pct(legal_t, 0.99))}")
    print(f"most legal codes in one turn: {most_codes}; most distinct first cells of place: "
          f"{most_first_cells}; largest final state JSON: {biggest_state} bytes")

    print(f"\n{'render':28} {'mean':>12} {'max':>12} {'PNG size':>12}")
    for players, variants in SETUPS:
        state = GAME.setup(players, {"variants": variants}, 3)
        rng = random.Random(3)
        views = []
        while not GAME.is_over(state):
            views.append(GAME.view(state, None))
            seat = GAME.to_act(state)[0]
            state, _ = GAME.apply(state, seat, GAME.bot_action(state, seat, rng))
        views.append(GAME.view(state, None))
        sample = views[:: max(1, len(views) // 12)] + [views[-1]]
        render_board(sample[0], names=NAMES[:players])  # warm the caches once
        times, sizes = [], []
        for view in sample:
            start = time.perf_counter()
            png = render_board(view, names=NAMES[:players], lang="pl")
            times.append(time.perf_counter() - start)
            sizes.append(len(png))
        label = f"{players}p {'+'.join(variants) or 'standard'}"
        print(f"{label:28} {ms(statistics.mean(times)):>12} {ms(max(times)):>12} "
              f"{max(sizes) / 1024:>9.1f} KB")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", type=int, nargs="?", default=200, help="random games per setup")
    main(parser.parse_args().games)
