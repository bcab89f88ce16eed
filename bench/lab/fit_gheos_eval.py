"""Fit a Gheos position value to game outcomes, and measure how often civilizations perish
(a dev tool, not a test):

    python bench/lab/fit_gheos_eval.py --players 3 --games 300 --seed 20000 --save /tmp/g3.json
    python bench/lab/fit_gheos_eval.py --load /tmp/g3.json --only "one,points,value,threatened value"
    python bench/lab/fit_gheos_eval.py --load /tmp/g3.json --stages
    python bench/lab/fit_gheos_eval.py --games 80 --survival

Seeded games are played (one seat ``--a``, the others ``--b``, seats rotated, as
bench/bench_bots_gd.py plays them). At every tile decision each seat's public measures
(``FEATURES``, see ``features``) are recorded, and at the end the points that seat went on to
score from there (its final total minus its points so far). Ordinary least squares (normal
equations, a tiny ridge for conditioning): fitted on four games in five, R^2 on the fifth
(held out by game), then on all, with the coefficients. ``--stages`` fits the normal player's
own value (safe and threatened) per band of turns left; ``--survival`` counts how often a
civilization with followers perishes in a war within a round and before the end, threatened
or not. Seeds 10000-10199 (screening) and 80000+ (confirmation) are for tournaments: fit
elsewhere.

As a player's value, the fits have so far played no better than the hand-weighted value
(the runs are in git history): a regression measures what a position predicts under the
players' habits, not what a move changes. A war won now is certain, while the future that
shrinks a value's weight is the same for every candidate move.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bench.bench_bots_gd import POLICIES, seeded_game  # noqa: E402
from engines.gheos import bot as gheos_bot  # noqa: E402
from engines.gheos import rules as R  # noqa: E402
from engines.gheos.data import CHALICE, PYRAMID  # noqa: E402
from engines.gheos.regions import Land  # noqa: E402

Sample = tuple[int, list[float], float]  # game number, features, points still to come

#: what ``features`` measures for one seat, in order
FEATURES = ("one", "turns left", "epochs left", "tokens", "points",
            "chalices", "chalices x tokens", "pyramids x epochs", "followers x turns",
            "followers",
            "threatened chalices", "threatened chalices x tokens",
            "threatened pyramids x epochs", "threatened followers x turns",
            "threatened followers", "value", "threatened value")
#: turns left (in tens) that bound the bands ``--stages`` fits apart
STAGES = (0.0, 1.0, 2.0, 3.0, 99.0)


def features(state: dict) -> list[list[float]]:
    """For every seat, the measures of ``FEATURES`` (public facts only): what its followers'
    continents show (chalices and pyramids summed over followers), apart for threatened
    civilizations, crossed with what is left to score them (tokens in hand, epochs, turns
    in tens), and the normal player's own value of them (growth included)."""
    land = Land(state)
    regions = R.civilization_regions(land, state)
    danger = gheos_bot.threatened(land, regions)
    tens = gheos_bot.turns_left(state) / 10
    epochs_left = max(R.LAST_EPOCH[state["players"]] - state["epochs"], 0)
    grow_c, grow_p = gheos_bot.GROWTH_CHALICE * tens, gheos_bot.GROWTH_PYRAMID * tens
    totals = R.tally(state)
    rows = []
    for s, held in enumerate(state["followers"]):
        tokens = state["tokens"][s]
        per_chalice = tokens * gheos_bot.TOKEN_WEIGHT + 1.0
        per_pyramid = epochs_left * gheos_bot.EPOCH_WEIGHT
        # safe, threatened: chalices, pyramids, followers, the normal player's value
        sums = [[0.0] * 4, [0.0] * 4]
        for c, n in held.items():
            r = regions[c]
            row = sums[c in danger]
            row[0] += n * r.counts[CHALICE]
            row[1] += n * r.counts[PYRAMID]
            row[2] += n
            row[3] += n * ((r.counts[CHALICE] + grow_c) * per_chalice
                           + (r.counts[PYRAMID] + grow_p) * per_pyramid)
        out = [1.0, tens, float(epochs_left), float(tokens), float(totals[s])]
        for chalices, pyramids, n, _ in sums:
            out += [chalices, chalices * tokens, pyramids * epochs_left, n * tens, n]
        rows.append(out + [sums[0][3], sums[1][3]])
    return rows


def _games(players: int, games: int, seed0: int, a: str, b: str):
    """Each seeded game (bench_bots_gd's, seats rotated) as the list of its (state before,
    events) steps, and its final state."""
    for g in range(games):
        steps = list(seeded_game("gheos", players, {}, seed0 + g, g % players, a, b))
        yield g, [(step.state, step.events) for step in steps], steps[-1].after


def play_and_record(players: int, games: int, seed0: int, a: str, b: str) -> list[Sample]:
    out: list[Sample] = []
    for g, steps, final in _games(players, games, seed0, a, b):
        end = R.tally(final)
        for state, _ in steps:
            if state["phase"] != "tile":
                continue
            now = R.tally(state)
            for s, row in enumerate(features(state)):
                out.append((g, row, float(end[s] - now[s])))
    return out


def survival(players: int, games: int, seed0: int, a: str, b: str) -> Counter:
    """For each (threatened, stage) and civilization with followers at a tile decision: how
    many, how many perished in a war within a round, and before the end."""
    out: Counter = Counter()
    for _, steps, _ in _games(players, games, seed0, a, b):
        seen: list[tuple[int, str, tuple[bool, int]]] = []
        wars: dict[str, list[int]] = {}
        for i, (state, events) in enumerate(steps):
            if state["phase"] == "tile":
                land = Land(state)
                regions = R.civilization_regions(land, state)
                danger = gheos_bot.threatened(land, regions)
                stage = stage_of(gheos_bot.turns_left(state) / 10)
                seen += [(i, c, (c in danger, stage)) for c in regions
                         if any(c in held for held in state["followers"])]
            for e in events:
                if e["key"].endswith("eliminated_war"):
                    wars.setdefault(e["civ"], []).append(i)
        tile_steps = [i for i, (st, _) in enumerate(steps) if st["phase"] == "tile"]
        for i, c, key in seen:
            # a round: until the same seat's next tile decision
            later = [t for t in tile_steps if t > i]
            round_end = later[players - 1] if len(later) >= players else len(steps)
            # a colour can be founded again after it perished: only its first war counts
            first = next((w for w in wars.get(c, []) if w >= i), None)
            out[key, "n"] += 1
            out[key, "round"] += first is not None and first < round_end
            out[key, "end"] += first is not None
    return out


def stage_of(tens: float) -> int:
    return next(k for k in range(len(STAGES) - 1) if tens < STAGES[k + 1])


def band(k: int) -> str:
    low, high = 10 * STAGES[k], 10 * STAGES[k + 1]
    return f"{low:.0f}-{high:.0f}" if k < len(STAGES) - 2 else f"{low:.0f}+"


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for col in range(n):
        piv = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[piv] = m[piv], m[col]
        if abs(m[col][col]) < 1e-12:
            raise ValueError(f"singular normal equations at column {col}")
        for r in range(n):
            if r != col:
                f = m[r][col] / m[col][col]
                for k in range(col, n + 1):
                    m[r][k] -= f * m[col][k]
    return [m[i][n] / m[i][i] for i in range(n)]


def fit(samples: list[Sample], ridge: float = 1e-3) -> list[float]:
    """Least squares weights of the features (column 0 is the constant, not shrunk)."""
    k = len(samples[0][1])
    xtx = [[0.0] * k for _ in range(k)]
    xty = [0.0] * k
    for _, x, y in samples:
        for i in range(k):
            xi = x[i]
            if xi == 0.0:
                continue
            xty[i] += xi * y
            row = xtx[i]
            for j in range(k):
                row[j] += xi * x[j]
    for i in range(1, k):
        xtx[i][i] += ridge * len(samples)
    return solve(xtx, xty)


def r_squared(samples: list[Sample], w: list[float]) -> float:
    ys = [y for _, _, y in samples]
    mean = sum(ys) / len(ys)
    ss_tot = sum((y - mean) ** 2 for y in ys)
    ss_res = sum((y - sum(wi * xi for wi, xi in zip(w, x, strict=True))) ** 2 for _, x, y in samples)
    return 1 - ss_res / ss_tot


def only(samples: list[Sample], names: list[str]) -> list[Sample]:
    """The samples with every feature not in ``names`` set to 0 (fitted weight 0)."""
    keep = {FEATURES.index(n) for n in names}
    return [(g, [v if i in keep else 0.0 for i, v in enumerate(x)], y) for g, x, y in samples]


def report(samples: list[Sample]) -> None:
    games = max(g for g, _, _ in samples) + 1
    train = [s for s in samples if s[0] % 5 != 4]
    held = [s for s in samples if s[0] % 5 == 4] or train
    w = fit(train)
    print(f"{len(samples)} positions from {games} games; R^2 train {r_squared(train, w):.3f}, "
          f"held out {r_squared(held, w):.3f}")
    w = fit(samples)
    print(f"all: R^2 {r_squared(samples, w):.3f}")
    for name, wi in zip(FEATURES, w, strict=True):
        if any(x[FEATURES.index(name)] for _, x, _ in samples[:2000]) or name == "one":
            print(f"  {name:<30} {wi:8.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=20000)
    parser.add_argument("--a", default="normal", choices=POLICIES)
    parser.add_argument("--b", default="baseline", choices=POLICIES)
    parser.add_argument("--only", default="", help="fit only these FEATURES (comma separated)")
    parser.add_argument("--stages", action="store_true",
                        help="fit points, value and threatened value per band of turns left")
    parser.add_argument("--survival", action="store_true",
                        help="how often civilizations perish, threatened or not (no fit)")
    parser.add_argument("--save", help="write the recorded positions to this JSON file")
    parser.add_argument("--load", help="fit positions recorded earlier (no games played)")
    args = parser.parse_args()
    if args.survival:
        counts = survival(args.players, args.games, args.seed, args.a, args.b)
        for threat in (False, True):
            for stage in range(len(STAGES) - 1):
                key = (threat, stage)
                n = counts[key, "n"]
                if n:
                    print(f"{'threatened' if threat else 'safe':<10} turns left "
                          f"{band(stage):<6} {n:5d} seen, "
                          f"perished within a round {counts[key, 'round'] / n:.2f}, "
                          f"before the end {counts[key, 'end'] / n:.2f}")
        return
    if args.load:
        samples = [(g, x, y) for g, x, y in json.loads(Path(args.load).read_text())]
    else:
        samples = play_and_record(args.players, args.games, args.seed, args.a, args.b)
        if args.save:
            Path(args.save).write_text(json.dumps(samples))
    if args.only:
        samples = only(samples, args.only.split(","))
    if not args.stages:
        report(samples)
        return
    for k in range(len(STAGES) - 1):
        within = [s for s in samples if STAGES[k] <= s[1][1] < STAGES[k + 1]]
        if len(within) >= 200:
            print(f"turns left {band(k)}:")
            report(only(within, ["one", "tokens", "points", "value", "threatened value"]))


if __name__ == "__main__":
    main()
