"""Two players' tournaments on the same games, compared game by game. Not a test:

    python bench/bench_bots_gd.py --game gheos --players 3 --games 600 --seed 96000 \\
        --outcomes /tmp/main.json
    python bench/lab/bench_gheos_variant.py --set THREAT=0.5 --players 3 --games 600 \\
        --seed 96000 --outcomes /tmp/threat.json
    python bench/lab/compare_outcomes.py --a /tmp/threat.json --b /tmp/main.json

Each file is one ``--outcomes`` of ``bench/bench_bots_gd.py`` (several files on a side are
joined). Only the games both sides played (same seed and seat) are compared. The games share
their tiles and seats, so the difference of the two win rates is far less noisy game by game
(a paired interval) than two independent intervals suggest.
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path


def load(paths: list[Path]) -> dict[tuple[int, int], float]:
    out: dict[tuple[int, int], float] = {}
    for path in paths:
        if not path.is_file():
            raise SystemExit(f"{path}: no such file (write one with bench_bots_gd.py --outcomes)")
        for game in json.loads(path.read_text()):
            out[game["seed"], game["seat"]] = game["win"]
    return out


def paired(a: dict[tuple[int, int], float],
           b: dict[tuple[int, int], float]) -> dict[str, float]:
    """Win rates of ``a`` and ``b`` on their common games, and the 95 % interval of the
    difference (normal approximation on the per-game differences)."""
    common = sorted(a.keys() & b.keys())
    n = len(common)
    if n < 2:
        raise SystemExit(f"only {n} game(s) in common: nothing to compare")
    diffs = [a[k] - b[k] for k in common]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    half = 1.96 * math.sqrt(var / n)
    return {"games": n, "a": sum(a[k] for k in common) / n, "b": sum(b[k] for k in common) / n,
            "diff": mean, "low": mean - half, "high": mean + half,
            "differ": sum(d != 0 for d in diffs)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--a", type=Path, nargs="+", required=True)
    parser.add_argument("--b", type=Path, nargs="+", required=True)
    args = parser.parse_args()
    r = paired(load(args.a), load(args.b))
    print(f"{r['games']} common games ({r['differ']} with another result): "
          f"a wins {100 * r['a']:.1f} %, b {100 * r['b']:.1f} %; "
          f"a - b {100 * r['diff']:+.1f} points (95 % CI {100 * r['low']:+.1f} to "
          f"{100 * r['high']:+.1f})")


if __name__ == "__main__":
    main()
