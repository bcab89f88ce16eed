"""Strength of the computer players: seeded tournaments with win rates and a mechanism census.

    python -m bench.bench_bots --game kingdomino --games 200 --players 2 --a normal --b random
    python -m bench.bench_bots --game bunny_kingdom --players 4 --a normal --b baseline

Player ``a`` takes one seat, every other seat is ``b``; ``a``'s seat rotates game by game.
A policy is ``random`` (a random legal move), ``baseline`` (the frozen pre-issue-15 player in
``bench/baseline_bots/<game>.py``, which defines ``bot_action(state, seat, rng)``) or a level
of the engine's own player (``easy``, ``normal``). A shared first place counts as 1/k of a win.
Printed: ``a``'s win rate with a 95 % Wilson interval next to its fair share (1/players), mean
points, the CPU time per ``a`` decision (p50/p99), and per player a census of the final score
lines by key (how often each source of points fires per game and its mean points).
"""

from __future__ import annotations

import argparse
import importlib
import math
import random
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import engines
from bench.stats import pct
from engines.base import BOT_LEVELS, Game, State

Policy = Callable[[State, int, random.Random], str]
POLICIES = ("random", "baseline", *BOT_LEVELS)


def policy(game_id: str, name: str) -> Policy:
    game = engines.get(game_id)
    if name == "random":
        return lambda state, seat, rng: rng.choice(game.legal_actions(state, seat))
    if name == "baseline":
        module = importlib.import_module(f"bench.baseline_bots.{game_id}")
        return module.bot_action
    if name in BOT_LEVELS:
        return lambda state, seat, rng: game.bot_action(state, seat, rng, name)
    raise ValueError(f"unknown policy {name!r}: use one of {', '.join(POLICIES)}")


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95 % Wilson score interval of a win rate (wins may be fractional: shared places)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class Result:
    game_id: str
    players: int
    games: int = 0
    wins: float = 0.0  # of player a
    points: dict[str, list[int]] = field(default_factory=lambda: defaultdict(list))
    #: policy -> score-line key -> [times it fired, points]
    census: dict[str, dict[str, list[int]]] = field(
        default_factory=lambda: defaultdict(lambda: defaultdict(lambda: [0, 0])))
    seconds: list[float] = field(default_factory=list)  # CPU per decision of a

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


def play_one(game: Game, state: State, seats: list[Policy], a_seat: int, seed: str,
             result: Result) -> State:
    moves = 0
    while not game.is_over(state):
        for seat in game.to_act(state):
            rng = random.Random(f"{seed}/{moves}")
            started = time.process_time()  # CPU time: the machine is shared, wall time is not
            code = seats[seat](state, seat, rng)
            if seat == a_seat:
                result.seconds.append(time.process_time() - started)
            state, _ = game.apply(state, seat, code)
            moves += 1
            break
    return state


def tournament(game_id: str, *, games: int, players: int, a: str, b: str, seed: int = 1,
               variants: list[str] | None = None) -> Result:
    game = engines.get(game_id)
    pa, pb = policy(game_id, a), policy(game_id, b)
    result = Result(game_id, players)
    for g in range(games):
        a_seat = g % players
        seats = [pa if s == a_seat else pb for s in range(players)]
        state = game.setup(players, {"variants": list(variants or [])}, seed * 100_003 + g)
        state = play_one(game, state, seats, a_seat, f"{seed}/{g}", result)
        first = game.ranking(state)[0]
        result.games += 1
        if a_seat in first:
            result.wins += 1 / len(first)
        totals = game.totals(state)
        for seat, lines in enumerate(game.scores(state)):
            who = a if seat == a_seat else b
            result.points[who].append(totals[seat])
            for line in lines:
                if line.points:
                    entry = result.census[who][line.key]
                    entry[0] += 1
                    entry[1] += line.points
    return result


def report(result: Result, a: str, b: str, variants: list[str]) -> str:
    lo, hi = wilson(result.wins, result.games)
    fair = 1 / result.players
    out = [
        f"{result.game_id}, {result.players} players, variants: {', '.join(variants) or '-'}: "
        f"{a} (1 seat) vs {b} ({result.players - 1}), {result.games} games",
        f"  {a} wins {100 * result.rate:.1f} % (95 % CI {100 * lo:.1f}-{100 * hi:.1f} %); "
        f"fair share {100 * fair:.0f} %, x{result.rate / fair:.2f}",
    ]
    for who in dict.fromkeys((a, b)):
        pts = result.points[who]
        out.append(f"  {who}: mean {sum(pts) / len(pts):.1f} points")
    if result.seconds:
        ms = [s * 1000 for s in result.seconds]
        out.append(f"  {a}: {len(ms)} decisions, CPU p50 {pct(ms, 0.5):.2f} ms, "
                   f"p99 {pct(ms, 0.99):.2f} ms, max {max(ms):.2f} ms")
    for who in dict.fromkeys((a, b)):
        seat_games = len(result.points[who])
        out.append(f"  census {who} (per player-game: how often, mean points when it fires):")
        for key, (count, points) in sorted(result.census[who].items(),
                                           key=lambda kv: -kv[1][0]):
            out.append(f"    {key:<58} {count / seat_games:6.2f}  {points / count:6.1f}")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> Any:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="kingdomino", choices=list(engines.available()))
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--a", default="normal", choices=POLICIES)
    parser.add_argument("--b", default="random", choices=POLICIES)
    parser.add_argument("--variants", default="", help="comma-separated variant names")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    variants = [v for v in args.variants.split(",") if v]
    result = tournament(args.game, games=args.games, players=args.players, a=args.a, b=args.b,
                        seed=args.seed, variants=variants)
    print(report(result, args.a, args.b, variants))
    return result


if __name__ == "__main__":
    main()
