"""Dwóch następców engine and renderer figures.

Run: ``python bench/bench_dwoch_nastepcow.py [games]``.

Prints engine step p50/p99 (``apply``, ``legal_actions``, ``view``), full random game time
(uniform-verb random player) and bot game time for a few set choices, actions per game, the
legal codes per step (most and widest picker step), state JSON size, board and hand render
time and PNG size. Targets (issue 5): render < 100 ms and < 1 MB.
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
from engines.dwoch_nastepcow import GAME  # noqa: E402
from render.dwoch_nastepcow import render_board, render_hand  # noqa: E402
from session.picker import step  # noqa: E402

NAMES = ["Ada", "Bolek"]
SETUPS = [
    ("travel+lands+trade", []),
    ("war+patrol+craft", ["set_war", "set_patrol", "set_craft"]),
    ("lands+war+craft", ["set_lands", "set_war", "set_craft"]),
]



def ms(seconds: float) -> str:
    return f"{seconds * 1000:.3f} ms"


def random_move(legal: list[str], rng: random.Random) -> str:
    verb = rng.choice(sorted({c.split()[0] for c in legal}))
    return rng.choice([c for c in legal if c.split()[0] == verb])


def main(games: int = 100) -> None:
    apply_t: list[float] = []
    legal_t: list[float] = []
    view_t: list[float] = []
    most_codes = widest_step = biggest_state = 0
    finals = []
    print(f"Dwóch następców benchmark, {games} games per setup and player kind\n")
    print(f"{'setup':22} {'random game':>12} {'p99':>10} {'actions':>8} "
          f"{'bot game':>10} {'bot actions':>11} {'bot score':>10}")
    for label, variants in SETUPS:
        times, lengths = [], []
        for seed in range(games):
            state = GAME.setup(2, {"variants": variants}, seed)
            rng = random.Random(seed)
            n = 0
            start = time.perf_counter()
            while not GAME.is_over(state):
                seat = GAME.to_act(state)[0]
                t0 = time.perf_counter()
                legal = GAME.legal_actions(state, seat)
                t1 = time.perf_counter()
                state, _ = GAME.apply(state, seat, random_move(legal, rng))
                t2 = time.perf_counter()
                legal_t.append(t1 - t0)
                apply_t.append(t2 - t1)
                n += 1
                if n % 10 == 0:
                    most_codes = max(most_codes, len(legal))
                    widest_step = max(widest_step, len(step(legal).choices))
                    for code in legal[:50]:
                        tokens = code.split()
                        if len(tokens) > 1:
                            sub = step(legal, tokens[0])
                            widest_step = max(widest_step, len(sub.choices))
                    t3 = time.perf_counter()
                    GAME.view(state, None)
                    view_t.append(time.perf_counter() - t3)
                    biggest_state = max(biggest_state, len(json.dumps(state)))
            times.append(time.perf_counter() - start)
            lengths.append(n)
        bot_times, bot_lengths, bot_scores = [], [], []
        for seed in range(max(10, games // 5)):
            state = GAME.setup(2, {"variants": variants}, seed)
            n = 0
            start = time.perf_counter()
            while not GAME.is_over(state):
                seat = GAME.to_act(state)[0]
                state, _ = GAME.apply(state, seat,
                                      GAME.bot_action(state, seat, random.Random(n)))
                n += 1
            bot_times.append(time.perf_counter() - start)
            bot_lengths.append(n)
            bot_scores.extend(GAME.totals(state))
            finals.append(state)
        print(f"{label:22} {ms(statistics.mean(times)):>12} {ms(pct(times, 0.99)):>10} "
              f"{statistics.mean(lengths):>8.0f} {ms(statistics.mean(bot_times)):>10} "
              f"{statistics.mean(bot_lengths):>11.0f} {statistics.mean(bot_scores):>10.1f}")
    print()
    print(f"apply          p50 {ms(pct(apply_t, 0.5))}  p99 {ms(pct(apply_t, 0.99))}")
    print(f"legal_actions  p50 {ms(pct(legal_t, 0.5))}  p99 {ms(pct(legal_t, 0.99))}")
    print(f"view(None)     p50 {ms(pct(view_t, 0.5))}  p99 {ms(pct(view_t, 0.99))}")
    print(f"most legal codes at one step: {most_codes}; widest picker step: {widest_step} "
          f"(a Discord menu holds 25)")
    print(f"largest state JSON: {biggest_state} bytes")

    board_t, sizes, hand_t, hand_sizes = [], [], [], []
    for state in finals[:30]:
        view = GAME.view(state, None)
        render_board(view, names=NAMES, lang="pl")  # warm the caches (same language) as a bot
        t0 = time.perf_counter()
        png = render_board(view, names=NAMES, lang="pl")
        board_t.append(time.perf_counter() - t0)
        sizes.append(len(png))
        hand_view = GAME.view(state, 0)
        t0 = time.perf_counter()
        hand_sizes.append(len(render_hand(hand_view, names=NAMES)))
        hand_t.append(time.perf_counter() - t0)
    cold = GAME.view(finals[-1], None)
    from render import dwoch_nastepcow as r

    r.clear_caches()
    t0 = time.perf_counter()
    render_board(cold, names=NAMES, lang="uk")
    cold_t = time.perf_counter() - t0
    print(f"render_board (final boards) p50 {ms(pct(board_t, 0.5))}  max {ms(max(board_t))}  "
          f"cold cache {ms(cold_t)}; PNG mean {statistics.mean(sizes) / 1024:.0f} KiB, "
          f"max {max(sizes) / 1024:.0f} KiB")
    print(f"render_hand p50 {ms(pct(hand_t, 0.5))}; PNG max {max(hand_sizes) / 1024:.0f} KiB")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", type=int, nargs="?", default=100, help="random games")
    main(parser.parse_args().games)
