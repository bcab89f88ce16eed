"""Computer-player tournaments for Gheos and Dwóch następców: win rates with 95 % confidence
intervals (seats rotated), points, CPU time per move, and a census of how often each mechanism
fires (Dwóch: builds and score lines; Gheos: points by source, founding, followers lost and
destroyed), for ``--a`` and, per player, for the others. Not a test:

    python bench/bench_bots_gd.py --game dwoch_nastepcow --games 100 --a normal --b baseline
    python bench/bench_bots_gd.py --game gheos --players 3 --a normal --b baseline

Players: ``random``, ``baseline`` (the bot before issue 15, bench/baseline_bots), ``easy``,
``normal``. With 3-4 players, one seat plays ``--a`` and the others ``--b``; "fair" is the win
rate of an equal player (1/players). Times are CPU time of the deciding thread
(``time.thread_time``), so other processes on the machine do not inflate them.
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.stats import pct  # noqa: E402

Policy = Callable[[dict[str, Any], int, random.Random], str]
POLICIES = ("random", "baseline", "easy", "normal")


def policy(game_id: str, name: str) -> Policy:
    game = importlib.import_module(f"engines.{game_id}").GAME
    if name == "random":
        return lambda s, seat, rng: rng.choice(game.legal_actions(s, seat))
    if name == "baseline":
        return importlib.import_module(f"bench.baseline_bots.{game_id}").choose
    return lambda s, seat, rng: game.bot_action(s, seat, rng, name)


class Step(NamedTuple):
    """One action of a seeded game."""

    state: dict[str, Any]  # before the action
    seat: int
    code: str
    after: dict[str, Any]
    events: list[dict[str, Any]]
    cpu: float  # the policy's thread CPU time for this action, seconds


def seeded_game(game_id: str, players: int, options: dict[str, Any], seed: int, seat_a: int,
                a: str, b: str) -> Iterator[Step]:
    """The steps of tournament game ``seed``: ``seat_a`` plays policy ``a``, every other seat
    ``b``, all drawing from one rng seeded from the game's seed (so every script that plays
    these games plays the same ones)."""
    game = importlib.import_module(f"engines.{game_id}").GAME
    return seeded_steps(game, players, options, seed, seat_a, policy(game_id, a),
                        policy(game_id, b))


def seeded_steps(game: Any, players: int, options: dict[str, Any], seed: int, seat_a: int,
                 pa: Policy, pb: Policy) -> Iterator[Step]:
    """``seeded_game`` on a given engine with given policies (a bench that loads another
    revision's engine plays the same games with it)."""
    state = game.setup(players, options, seed)
    rng = random.Random(seed * 31 + 7)
    while not game.is_over(state):
        seat = game.to_act(state)[0]
        started = time.thread_time()
        code = (pa if seat == seat_a else pb)(state, seat, rng)
        cpu = time.thread_time() - started
        after, events = game.apply(state, seat, code)
        yield Step(state, seat, code, after, events, cpu)
        state = after


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95 % Wilson interval of a win rate (shared places count as a fraction of a win)."""
    if n == 0:
        return float("nan"), float("nan")
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def census(game_id: str, final: dict[str, Any], log: list[tuple[int, str]],
           seat: int) -> Counter:
    """Dwóch: how often each mechanism fired for ``seat`` in one game."""
    out: Counter = Counter()
    if game_id != "dwoch_nastepcow":
        return out
    from engines.dwoch_nastepcow import scoring

    for who, code in log:
        if who != seat:
            continue
        verb, *args = code.split()
        if verb == "build":
            out[f"built {final['tiles'][args[0]]['building']}"] += 1
        elif verb in ("terrain", "destroy", "camp"):
            out[verb] += 1
    for line in scoring.score_lines(final)[seat]:
        kind = line.key.rsplit(".", 1)[1]
        out[f"scored {kind}"] += 1
        out[f"points {kind}"] += line.points
        if line.params.get("doubled"):
            out["doubled"] += 1
    return out


def census_by_seat(game_id: str, final: dict[str, Any], log: list[tuple[int, str]],
                   players: int) -> list[Counter]:
    if game_id == "gheos":
        return gheos_census(final, log)
    return [census(game_id, final, log, s) for s in range(players)]


def gheos_census(final: dict[str, Any], log: list[tuple[int, str]]) -> list[Counter]:
    """Gheos, for each seat: points by source, actions, followers gained by founding,
    followers lost (to wars and islands, whoever caused them) and the others' followers
    destroyed by its own placements. The game is replayed from its seed to see who lost
    what."""
    from engines.gheos import GAME

    seats = range(final["players"])
    out = [Counter({f"points {r}": n for r, n in final["points"][s].items()}) for s in seats]
    state = GAME.setup(final["players"], {}, final["seed"])
    for who, code in log:
        before = [dict(f) for f in state["followers"]]
        state, events = GAME.apply(state, who, code)
        out[who][code.split()[0]] += 1
        for e in events:
            kind = e["key"].rsplit(".", 1)[1]
            if kind == "founded":
                out[who]["followers founded"] += e["followers"]
            if not kind.startswith("eliminated_"):
                continue
            for s in seats:
                lost = before[s].get(e["civ"], 0)
                out[s][f"followers lost ({kind[len('eliminated_'):]})"] += lost
                if s != who:
                    out[who]["others' followers destroyed"] += lost
    assert state == final, "the replay must reach the same end"
    return out


def tournament(game_id: str, players: int, games: int, a: str, b: str,
               options: dict[str, Any], seed0: int = 0) -> dict[str, Any]:
    game = importlib.import_module(f"engines.{game_id}").GAME
    wins = 0.0
    times: dict[str, list[float]] = {a: [], b: []}
    points: dict[str, list[int]] = {a: [], b: []}
    mechanisms: Counter = Counter()
    others: Counter = Counter()  # the same census for every other seat, to compare
    outcomes: list[dict[str, Any]] = []  # per game, for paired comparisons of two players
    for g in range(games):
        seat_a = g % players  # seats rotated
        log: list[tuple[int, str]] = []
        for step in seeded_game(game_id, players, options, seed0 + g, seat_a, a, b):
            times[a if step.seat == seat_a else b].append(step.cpu)
            log.append((step.seat, step.code))
        state = step.after
        first = game.ranking(state)[0]
        win = 1 / len(first) if seat_a in first else 0.0
        wins += win
        totals = game.totals(state)
        outcomes.append({"seed": seed0 + g, "seat": seat_a, "win": win, "points": totals})
        points[a].append(totals[seat_a])
        points[b] += [totals[s] for s in range(players) if s != seat_a]
        for s, counts in enumerate(census_by_seat(game_id, state, log, players)):
            (mechanisms if s == seat_a else others).update(counts)
    low, high = wilson(wins, games)
    return {"wins": wins / games, "low": low, "high": high, "points": points, "times": times,
            "census": mechanisms, "census_others": others, "outcomes": outcomes}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", required=True, choices=("gheos", "dwoch_nastepcow"))
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--a", default="normal", choices=POLICIES)
    parser.add_argument("--b", default="baseline", choices=POLICIES)
    parser.add_argument("--sets", default="", help="Dwóch: three sets, comma separated")
    parser.add_argument("--seed", type=int, default=0, help="first game's seed")
    parser.add_argument("--outcomes", type=Path, metavar="FILE",
                        help="write each game's seed, seat, win and points (JSON) for "
                             "bench/lab/compare_outcomes.py")
    args = parser.parse_args()
    options = {"sets": args.sets.split(",")} if args.sets else {}
    r = tournament(args.game, args.players, args.games, args.a, args.b, options, args.seed)
    if args.outcomes:
        args.outcomes.write_text(json.dumps(r["outcomes"]))
    pa, pb = r["points"][args.a], r["points"][args.b]
    print(f"{args.game}, {args.players} players, {args.games} games"
          f"{' sets ' + args.sets if args.sets else ''}: {args.a} against {args.b}")
    print(f"  {args.a} wins {100 * r['wins']:.0f} % (95 % CI {100 * r['low']:.0f}-"
          f"{100 * r['high']:.0f} %; fair share {100 / args.players:.0f} %)")
    print(f"  points per player: {args.a} {sum(pa) / len(pa):.1f}, "
          f"{args.b} {sum(pb) / len(pb):.1f}")
    for name in dict.fromkeys((args.a, args.b)):
        t = r["times"][name]
        print(f"  {name}: CPU ms per move p50 {1e3 * pct(t, .5):.2f}, p99 {1e3 * pct(t, .99):.2f}"
              f", max {1e3 * max(t):.2f}")
    if r["census"]:
        rivals = (args.players - 1) * args.games
        print(f"  census per game and player: {args.a}, {args.b}")
        for key in sorted(r["census"].keys() | r["census_others"].keys()):
            print(f"    {key:<28} {r['census'][key] / args.games:6.2f} "
                  f"{r['census_others'][key] / rivals:6.2f}")


if __name__ == "__main__":
    main()
