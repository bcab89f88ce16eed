"""Bunny Kingdom figures: engine step, whole games, harvest, final scoring, images.

Run: ``python -m bench.bench_bunny_kingdom`` (or ``python bench/bench_bunny_kingdom.py``).
Targets (issue 3): a full random 4-player game < 200 ms; board image < 100 ms and < 1 MB.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engines.bunny_kingdom import GAME  # noqa: E402
from engines.bunny_kingdom.harvest import harvest_fiefs  # noqa: E402
from engines.bunny_kingdom.scrolls import final_scores  # noqa: E402
from render.bunny_kingdom import render_board, render_hand  # noqa: E402

NAMES = ["Anna", "Bohdan", "Czesław", "Дарина"]


def play(players: int, seed: int, bot: bool, steps: list[float] | None = None):
    state = GAME.setup(players, {}, seed)
    rng = random.Random(seed)
    snapshots: list[Any] = []
    while not GAME.is_over(state):
        seat = rng.choice(GAME.to_act(state))
        action = (GAME.bot_action(state, seat, rng) if bot
                  else rng.choice(GAME.legal_actions(state, seat)))
        t0 = time.perf_counter()
        state, _ = GAME.apply(state, seat, action)
        if steps is not None:
            steps.append(time.perf_counter() - t0)
        if state["phase"] == "trade" and state["round"] == 4 and not snapshots:
            snapshots.append(state)
    return state, snapshots


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def main() -> None:
    print("Bunny Kingdom benchmark (one core of a shared 2-core machine)")
    steps: list[float] = []
    for players in (2, 3, 4):
        for bot, label, games in ((False, "random legal", 40), (True, "computer player", 40)):
            times = []
            for seed in range(games):
                t0 = time.perf_counter()
                play(players, seed, bot, steps if bot else None)
                times.append(time.perf_counter() - t0)
            print(f"{players} players, {label}: full game median {ms(statistics.median(times))},"
                  f" max {ms(max(times))} ({games} games)")
    steps.sort()
    print(f"engine step (apply): p50 {ms(steps[len(steps) // 2])}, "
          f"p99 {ms(steps[int(len(steps) * 0.99)])} over {len(steps)} steps")

    final, snaps = play(4, 7, True)
    late = snaps[0] if snaps else final
    runs = 300
    t0 = time.perf_counter()
    for _ in range(runs):
        for seat in range(4):
            harvest_fiefs(late, seat)
    print(f"harvest of all 4 players (round 4 board): {ms((time.perf_counter() - t0) / runs)}")
    t0 = time.perf_counter()
    for _ in range(50):
        final_scores(final)
    print(f"final parchment scoring, 4 players: {ms((time.perf_counter() - t0) / 50)}")

    for label, state in (("round 4, 4 players", late), ("game over, 4 players", final)):
        view = GAME.view(state, None)
        render_board(view, names=NAMES)  # warm the caches (fonts, terrain layer, icons)
        times, size = [], 0
        for _ in range(10):
            t0 = time.perf_counter()
            png = render_board(view, names=NAMES)
            times.append(time.perf_counter() - t0)
            size = len(png)
        print(f"board image ({label}): median {ms(statistics.median(times))}, "
              f"{size / 1024:.0f} KB")
    hand_view = GAME.view(GAME.setup(3, {}, 1), 0)
    render_hand(hand_view, names=NAMES)
    t0 = time.perf_counter()
    png = render_hand(hand_view, names=NAMES)
    print(f"hand image (12 cards): {ms(time.perf_counter() - t0)}, {len(png) / 1024:.0f} KB")
    t0 = time.perf_counter()
    for _ in range(50):
        GAME.view(late, 0)
    print(f"view for a seat (with its legal moves): {ms((time.perf_counter() - t0) / 50)}")


if __name__ == "__main__":
    argparse.ArgumentParser(description=__doc__.split("\n\n")[0]).parse_args()
    main()
