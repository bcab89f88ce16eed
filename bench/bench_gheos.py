"""Gheos figures: engine step times, whole games, wars/migrations/civilizations per game,
placement preview, board render. Not a test: ``python bench/bench_gheos.py [games]``."""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.stats import pct  # noqa: E402
from engines.gheos import GAME  # noqa: E402
from engines.gheos.preview import preview  # noqa: E402
from render.gheos import render_board, render_hand  # noqa: E402

NAMES = ["Ala", "Bartłomiej", "Олена", "Dan"]



def play(players: int, seed: int, bot: bool, steps: list[float] | None = None):
    s = GAME.setup(players, {}, seed)
    rng = random.Random(seed)
    events: Counter = Counter()
    states = []
    t0 = time.perf_counter()
    while not GAME.is_over(s):
        seat = GAME.to_act(s)[0]
        code = GAME.bot_action(s, seat, rng) if bot else rng.choice(GAME.legal_actions(s, seat))
        t = time.perf_counter()
        s, ev = GAME.apply(s, seat, code)
        if steps is not None:
            steps.append(time.perf_counter() - t)
        events.update(e["key"].rsplit(".", 1)[1] for e in ev)
        states.append(s)
    return s, events, time.perf_counter() - t0, states


def main(games: int = 30) -> None:
    steps: list[float] = []
    print(f"Gheos benchmark, {games} games per player count\n")
    print("players  policy   ms/game  actions  turns  wars  migr.  to isle  civs  "
          "ends(epoch/token)  winner pts")
    last_states = []
    for players in (2, 3, 4):
        for bot in (False, True):
            times, per = [], Counter[str]()
            ends, winners, turns = Counter[str](), [], []
            for seed in range(games):
                s, ev, dt, states = play(players, seed, bot, steps if not bot else None)
                times.append(dt)
                per.update(ev)
                ends[s["end_reason"]] += 1
                winners.append(max(GAME.totals(s)))
                turns.append(s["turn_no"])
                per["actions"] += len(states)
                if bot and players == 4 and seed == 0:
                    last_states = states
            n = games
            print(f"{players:>7}  {'bot' if bot else 'random':<7} {1000 * statistics.mean(times):>8.1f}"
                  f"  {per['actions'] / n:>7.1f}  {statistics.mean(turns):>5.1f}"
                  f"  {(per['war'] + per['war_chosen']) / n:>4.1f}  {per['migration'] / n:>5.1f}"
                  f"  {per['eliminated_island'] / n:>7.1f}  {per['founded'] / n:>4.1f}"
                  f"  {ends['epochs']:>8}/{ends['tokens']:<8}  {statistics.mean(winners):>10.1f}")
    print(f"\nengine step (apply, random games): p50 {1e3 * pct(steps, .5):.2f} ms, "
          f"p99 {1e3 * pct(steps, .99):.2f} ms, max {1e3 * max(steps):.2f} ms")
    # legal action lists
    mid = [s for s in last_states if s["phase"] == "tile"][len(last_states) // 8]
    t = time.perf_counter()
    codes = GAME.legal_actions(mid, mid["turn"])
    print(f"legal actions in a mid-game tile step: {len(codes)} codes in "
          f"{1e3 * (time.perf_counter() - t):.2f} ms")
    # preview of every legal placement in that position
    times = []
    for code in codes:
        t = time.perf_counter()
        preview(mid, mid["turn"], code)
        times.append(time.perf_counter() - t)
    print(f"placement preview: p50 {1e3 * pct(times, .5):.2f} ms, p99 {1e3 * pct(times, .99):.2f}"
          f" ms (over {len(codes)} codes)")
    # render
    for label, s in (("start", GAME.setup(3, {}, 1)), ("mid-game", mid),
                     ("end of a 4-player game", last_states[-1])):
        view = GAME.view(s, None)
        render_board(view, names=NAMES)  # warm the tile cache
        times = []
        for _ in range(5):
            t = time.perf_counter()
            png = render_board(view, names=NAMES)
            times.append(time.perf_counter() - t)
        print(f"board render ({label}, {len(view['board'])} tiles): "
              f"{1e3 * statistics.median(times):.0f} ms, {len(png) / 1024:.0f} KiB")
    t = time.perf_counter()
    png = render_hand(GAME.view(mid, mid["turn"]), names=NAMES)
    print(f"hand render: {1e3 * (time.perf_counter() - t):.0f} ms, {len(png) / 1024:.0f} KiB")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", type=int, nargs="?", default=30, help="games per player count")
    main(parser.parse_args().games)
