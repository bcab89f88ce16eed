"""Engine step times for every game (issue 11: p99 under 0.5 ms): ``apply`` in random
games for every player count, p50/p99/max overall and the slowest kinds of step. Not a test:

    python bench/bench_steps.py [games per player count] [game ...]

Two clocks: CPU time of this thread (``time.thread_time``: what the step itself costs, which
other processes on a shared machine cannot inflate) and wall time (``perf_counter``).
"""

from __future__ import annotations

import argparse
import importlib
import random
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.stats import pct  # noqa: E402

GAMES = ("kingdomino", "bunny_kingdom", "gheos", "dwoch_nastepcow")


def measure(game_id: str, games: int) -> tuple[list[float], list[float], dict]:
    game = importlib.import_module(f"engines.{game_id}").GAME
    cpu: list[float] = []
    wall: list[float] = []
    by_kind: dict[str, list[float]] = defaultdict(list)
    for players in range(game.meta.min_players, game.meta.max_players + 1):
        for seed in range(games):
            state = game.setup(players, {}, seed)
            rng = random.Random(seed)
            while not game.is_over(state):
                seat = game.to_act(state)[0]
                code = rng.choice(game.legal_actions(state, seat))
                kind = f"{state.get('phase')}/{code.split()[0]}"
                c0, w0 = time.thread_time(), time.perf_counter()
                state, _ = game.apply(state, seat, code)
                w1, c1 = time.perf_counter(), time.thread_time()
                cpu.append(c1 - c0)
                wall.append(w1 - w0)
                by_kind[kind].append(c1 - c0)
    return cpu, wall, by_kind


def main(games: int = 15, chosen: tuple[str, ...] | list[str] = GAMES) -> None:
    print(f"engine step (apply) in random games, {games} per player count; ms")
    for game_id in chosen:
        cpu, wall, by_kind = measure(game_id, games)
        print(f"{game_id:<16} steps {len(cpu):>5}  CPU p50 {1e3 * pct(cpu, .5):.3f} "
              f"p99 {1e3 * pct(cpu, .99):.3f} max {1e3 * max(cpu):.2f}  |  wall p50 "
              f"{1e3 * pct(wall, .5):.3f} p99 {1e3 * pct(wall, .99):.3f}")
        slow = sorted(by_kind.items(), key=lambda kv: -pct(kv[1], .99))[:3]
        print("  slowest kinds (CPU p99): " + ", ".join(
            f"{kind} {1e3 * pct(v, .99):.3f}" for kind, v in slow))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", type=int, nargs="?", default=15, help="games per player count")
    parser.add_argument("game", nargs="*", help=f"games to time (default: all of {', '.join(GAMES)})")
    args = parser.parse_args()
    main(args.games, args.game or GAMES)
