"""Image CPU cost and PNG size for every game and player count (issue 11 item 1).

Run: ``python bench/bench_render.py [--games N] [--game ID ...] [--stride K] [--lang pl]``.

For each game and player count, plays ``N`` seeded games with the engine's computer player
(``bot_action``), keeps the spectator view after every action (and each seat's private view
where the game draws hands), then renders them: boards with ``render.board_png``, hands with
``render.hand_png``. It prints the CPU time per image (``time.process_time``, so time waiting
for the 2 shared cores does not count) as p50 / p99 / max and the PNG bytes (median / max).
Target: p50 <= 10 ms and p99 <= 25 ms for every row. Caches are warmed by one render first,
as in the bot's long-lived render workers.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engines  # noqa: E402
from bench.stats import pct  # noqa: E402
from render import board_png, hand_png  # noqa: E402

NAMES = ["Ada", "Bolesław", "Cyryl", "Żaneta", "Євгенія"]


def play(game_id: str, players: int, seed: int, stride: int) -> tuple[list[Any], list[Any]]:
    """Spectator views and (seat) private views of one seeded bot game, every ``stride``
    actions plus the final position."""
    game = engines.get(game_id)
    state = game.setup(players, {"variants": []}, seed)
    rng = random.Random(seed)
    hands = game.meta.hidden_information
    boards: list[Any] = []
    privates: list[Any] = []
    step = 0
    while True:
        over = game.is_over(state)
        if over or step % stride == 0:
            boards.append(game.view(state, None))
            if hands:
                privates.extend(game.view(state, s) for s in range(players))
        if over:
            return boards, privates
        seat = game.to_act(state)[0]
        state, _ = game.apply(state, seat, game.bot_action(state, seat, rng))
        step += 1


def cpu_ms(draw: Any, views: list[Any]) -> tuple[list[float], list[int]]:
    times, sizes = [], []
    for view in views:
        start = time.process_time()
        png = draw(view)
        times.append((time.process_time() - start) * 1000)
        sizes.append(len(png) if png else 0)
    return times, sizes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=2, help="seeded games per row")
    parser.add_argument("--game", action="append", help="game id (default: all)")
    parser.add_argument("--stride", type=int, default=1, help="render every K-th position")
    parser.add_argument("--lang", default="pl")
    args = parser.parse_args()
    print(f"{'game':16} {'pl':>2} {'image':5} {'n':>5} {'p50 ms':>8} {'p99 ms':>8} "
          f"{'max ms':>8} {'KB med':>7} {'KB max':>7}")
    for game_id in args.game or engines.available():
        meta = engines.get(game_id).meta
        for players in range(meta.min_players, meta.max_players + 1):
            boards: list[Any] = []
            privates: list[Any] = []
            for seed in range(args.games):
                b, p = play(game_id, players, seed, args.stride)
                boards += b
                privates += p
            names = NAMES[:players]
            rows: list[tuple[str, list[Any], Callable[[Any], bytes | None]]] = [
                ("board", boards, partial(board_png, game_id, names=names, lang=args.lang))]
            if privates:
                rows.append(("hand", privates,
                             partial(hand_png, game_id, names=names, lang=args.lang)))
            for label, views, draw in rows:
                draw(views[0])  # warm the caches, as a long-lived render worker has
                times, sizes = cpu_ms(draw, views)
                if not any(sizes):
                    continue
                print(f"{game_id:16} {players:>2} {label:5} {len(times):>5} "
                      f"{pct(times, 0.5):>8.1f} {pct(times, 0.99):>8.1f} {max(times):>8.1f} "
                      f"{statistics.median(sizes) / 1024:>7.1f} {max(sizes) / 1024:>7.1f}",
                      flush=True)


if __name__ == "__main__":
    main()
