"""Kingdomino scoring side by side with a peer engine: Stolik (Python) against
Pompidup/KDomino's ``calculateScoreUseCase`` (TypeScript, run on Node), on the same finished
kingdoms, timed in one run.

    python bench/bench_kingdomino_peer.py --peer /path/to/KDomino [--kingdoms 400] [--runs 7]

``--peer`` is a checkout of github.com/Pompidup/KDomino (not part of this repository); its
scoring module is bundled with esbuild (``npx esbuild``, from the npm registry) into a
temporary folder. Without ``--peer`` only Stolik's figures are printed. Both sides score the
same kingdoms (from seeded computer games, 2–4 players) and must agree on every kingdom's
points, largest property and crowns; a disagreement stops the benchmark.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engines.kingdomino import GAME, scoring  # noqa: E402
from engines.kingdomino.data import CASTLE, EMPTY, LETTER_TERRAIN  # noqa: E402
from engines.kingdomino.game import terrain_and_crowns  # noqa: E402
from engines.kingdomino.state import size_of  # noqa: E402

NODE_DRIVER = """
import { calculateScoreUseCase } from "./score.mjs";
import { readFileSync } from "node:fs";
const kingdoms = JSON.parse(readFileSync(process.argv[2], "utf8"));
const runs = Number(process.argv[3]);
const results = kingdoms.map((k) => calculateScoreUseCase(k).value);
const times = [];
for (let r = 0; r < runs; r++) {
  const start = process.hrtime.bigint();
  for (let i = 0; i < 20; i++) for (const k of kingdoms) calculateScoreUseCase(k);
  times.push(Number(process.hrtime.bigint() - start) / 1000 / (20 * kingdoms.length));
}
console.log(JSON.stringify({ times, results }));
"""


def finished_kingdoms(count: int) -> list[tuple[str, str, int]]:
    """(terrain, crowns, size) of finished kingdoms from seeded computer games."""
    out: list[tuple[str, str, int]] = []
    seed = 0
    while len(out) < count:
        players = 2 + seed % 3
        state = GAME.setup(players, {"variants": []}, seed)
        rng = random.Random(seed)
        while not GAME.is_over(state):
            seat = GAME.to_act(state)[0]
            state, _ = GAME.apply(state, seat, GAME.bot_action(state, seat, rng))
        for kingdom in state["kingdoms"]:
            terrain, crowns = terrain_and_crowns(kingdom["rows"])
            out.append((terrain, crowns, size_of(state)))
        seed += 1
    return out[:count]


def peer_format(terrain: str, crowns: str, size: int) -> list[list[dict]]:
    def tile(letter: str, crown: str) -> dict:
        if letter == EMPTY:
            return {"type": "empty", "crowns": 0}
        if letter == CASTLE:
            return {"type": "castle", "crowns": 0}
        return {"type": LETTER_TERRAIN[letter], "crowns": int(crown)}
    return [[tile(terrain[r * size + c], crowns[r * size + c]) for c in range(size)]
            for r in range(size)]


def time_stolik(kingdoms: list[tuple[str, str, int]], runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        for _ in range(20):
            scoring.survey.cache_clear()  # cold: the memo would answer the repeats
            for terrain, crowns, size in kingdoms:
                scoring.tally(terrain, crowns, size, discarded=0, variants=[])
        times.append((time.perf_counter() - start) * 1e6 / (20 * len(kingdoms)))
    return times


def run_peer(peer: Path, kingdoms: list[tuple[str, str, int]], runs: int) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        subprocess.run(
            ["npx", "--yes", "esbuild", str(peer / "src/core/useCases/calculateScore.ts"),
             "--bundle", "--format=esm", "--platform=node", f"--outfile={work / 'score.mjs'}",
             f"--tsconfig={peer / 'tsconfig.json'}"],
            check=True, cwd=peer, capture_output=True)
        (work / "driver.mjs").write_text(NODE_DRIVER)
        (work / "kingdoms.json").write_text(json.dumps([peer_format(*k) for k in kingdoms]))
        done = subprocess.run(["node", str(work / "driver.mjs"), str(work / "kingdoms.json"),
                               str(runs)], check=True, capture_output=True, text=True)
        return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--peer", type=Path, help="a checkout of Pompidup/KDomino")
    parser.add_argument("--kingdoms", type=int, default=400)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    kingdoms = finished_kingdoms(args.kingdoms)
    ours = time_stolik(kingdoms, args.runs)
    print(f"{len(kingdoms)} finished kingdoms, {args.runs} runs of 20 passes each; µs per kingdom")
    print(f"Stolik (CPython {sys.version.split()[0]}): median {statistics.median(ours):.2f}, "
          f"min {min(ours):.2f}")
    if args.peer is None:
        return
    peer = run_peer(args.peer, kingdoms, args.runs)
    for (terrain, crowns, size), theirs in zip(kingdoms, peer["results"], strict=True):
        mine = scoring.tally(terrain, crowns, size, discarded=0, variants=[])
        assert (mine.points, mine.largest, mine.crowns) == (
            theirs["points"], theirs["maxPropertiesSize"], theirs["totalCrowns"]), (terrain, theirs)
    node = subprocess.run(["node", "--version"], capture_output=True, text=True).stdout.strip()
    print(f"KDomino (Node {node}): median {statistics.median(peer['times']):.2f}, "
          f"min {min(peer['times']):.2f}")
    print(f"ratio Stolik / KDomino (medians, same run): "
          f"{statistics.median(ours) / statistics.median(peer['times']):.2f}")


if __name__ == "__main__":
    main()
