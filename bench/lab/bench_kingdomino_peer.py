"""Kingdomino scoring side by side with a peer engine: Stolik (Python) against
Pompidup/KDomino's ``calculateScoreUseCase`` (TypeScript, run on Node), on the same finished
kingdoms, timed in one run.

    python bench/lab/bench_kingdomino_peer.py --peer /path/to/KDomino [--kingdoms 400] [--runs 9]
        [--baseline old_scoring.py]

``--peer`` is a checkout of github.com/Pompidup/KDomino (not part of this repository); its
scoring module is bundled with esbuild (``npx esbuild``, from the npm registry) into a
temporary folder. Without ``--peer`` only Stolik's figures are printed. Both sides score the
same kingdoms (from seeded computer games, 2–4 players) and must agree on every kingdom's
points, largest property and crowns; a disagreement stops the benchmark. Stolik is timed cold
(the per-kingdom memo cleared every pass) twice: ``tally`` computes what KDomino computes
(points, largest property, crowns; what the live score asks on every view), ``survey`` adds the
score breakdown (one line per crowned property, in board order), which KDomino does not
produce. ``--baseline`` also times the ``tally`` of another version of
``engines/kingdomino/scoring.py`` (e.g. ``git show main:engines/kingdomino/scoring.py >
old_scoring.py``), so that before and after come from the same run. Runs alternate; each
reports wall-clock time and its own CPU time (steadier on a shared machine), medians of the
runs.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engines.kingdomino import GAME, scoring  # noqa: E402
from engines.kingdomino.data import CASTLE, EMPTY, LETTER_TERRAIN  # noqa: E402
from engines.kingdomino.game import terrain_and_crowns  # noqa: E402
from engines.kingdomino.state import size_of  # noqa: E402

# The Node side answers one timed run per line read, so that Python's and Node's runs alternate
# (a shared machine's load then weighs on both alike); it warms up first (V8 compiles hot code
# after a few thousand calls), as a long-running server would be.
NODE_DRIVER = """
import { calculateScoreUseCase } from "./score.mjs";
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
const kingdoms = JSON.parse(readFileSync(process.argv[2], "utf8"));
const passes = Number(process.argv[3]);
const results = kingdoms.map((k) => calculateScoreUseCase(k).value);
for (let i = 0; i < passes; i++) for (const k of kingdoms) calculateScoreUseCase(k);
console.log(JSON.stringify(results));
for await (const _ of createInterface({ input: process.stdin })) {
  const start = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  for (let i = 0; i < passes; i++) for (const k of kingdoms) calculateScoreUseCase(k);
  const used = process.cpuUsage(cpu);
  const n = passes * kingdoms.length;
  console.log(JSON.stringify({ wall: Number(process.hrtime.bigint() - start) / 1000 / n,
                               cpu: (used.user + used.system) / n }));
}
"""
PASSES = 20


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


def load_baseline(path: Path) -> ModuleType:
    """Another version of the scoring module, imported inside the package (its relative
    imports resolve to this checkout's data and geometry)."""
    spec = importlib.util.spec_from_file_location("engines.kingdomino.baseline_scoring", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def clear(module: ModuleType) -> None:
    if hasattr(module, "clear_memo"):
        module.clear_memo()
    else:  # before the tally had a memo of its own
        module.survey.cache_clear()


def time_tally(kingdoms: list[tuple[str, str, int]],
               module: ModuleType = scoring) -> tuple[float, float]:
    """One run of ``tally``: µs per kingdom, wall clock and CPU time of this process."""
    tally = module.tally
    wall, cpu = time.perf_counter(), time.process_time()
    for _ in range(PASSES):
        clear(module)  # cold: the memo would answer the repeats
        for terrain, crowns, size in kingdoms:
            tally(terrain, crowns, size, discarded=0, variants=[])
    n = PASSES * len(kingdoms)
    return ((time.perf_counter() - wall) * 1e6 / n, (time.process_time() - cpu) * 1e6 / n)


def time_survey(kingdoms: list[tuple[str, str, int]]) -> tuple[float, float]:
    """One run of ``survey`` (the tally's figures and the breakdown), like :func:`time_tally`."""
    wall, cpu = time.perf_counter(), time.process_time()
    for _ in range(PASSES):
        scoring.clear_memo()
        for terrain, crowns, size in kingdoms:
            scoring.survey(terrain, crowns, size)
    n = PASSES * len(kingdoms)
    return ((time.perf_counter() - wall) * 1e6 / n, (time.process_time() - cpu) * 1e6 / n)


def start_peer(peer: Path, kingdoms: list[tuple[str, str, int]], work: Path) -> subprocess.Popen:
    subprocess.run(
        ["npx", "--yes", "esbuild", str(peer / "src/core/useCases/calculateScore.ts"),
         "--bundle", "--format=esm", "--platform=node", f"--outfile={work / 'score.mjs'}",
         f"--tsconfig={peer / 'tsconfig.json'}"],
        check=True, cwd=peer, capture_output=True)
    (work / "driver.mjs").write_text(NODE_DRIVER)
    (work / "kingdoms.json").write_text(json.dumps([peer_format(*k) for k in kingdoms]))
    return subprocess.Popen(
        ["node", str(work / "driver.mjs"), str(work / "kingdoms.json"), str(PASSES)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)


def ask(node: subprocess.Popen) -> Any:
    assert node.stdin is not None and node.stdout is not None
    node.stdin.write("run\n")
    node.stdin.flush()
    return json.loads(node.stdout.readline())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--peer", type=Path, help="a checkout of Pompidup/KDomino")
    parser.add_argument("--kingdoms", type=int, default=400)
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--baseline", type=Path,
                        help="another version of engines/kingdomino/scoring.py to time as well")
    args = parser.parse_args()
    baseline = load_baseline(args.baseline) if args.baseline else None
    kingdoms = finished_kingdoms(args.kingdoms)
    print(f"{len(kingdoms)} finished kingdoms, {args.runs} runs of {PASSES} passes each, "
          f"alternating; µs per kingdom (wall clock / CPU time); load average "
          f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    with tempfile.TemporaryDirectory() as tmp:
        node = start_peer(args.peer, kingdoms, Path(tmp)) if args.peer else None
        try:
            if node is not None:
                assert node.stdout is not None
                theirs = json.loads(node.stdout.readline())
                for (terrain, crowns, size), result in zip(kingdoms, theirs, strict=True):
                    mine = scoring.tally(terrain, crowns, size, discarded=0, variants=[])
                    surveyed = scoring.survey(terrain, crowns, size)
                    assert (mine.points, mine.largest, mine.crowns) == (
                        surveyed.points, surveyed.largest, surveyed.crowns) == (
                        result["points"], result["maxPropertiesSize"], result["totalCrowns"]), (
                        terrain, result)
            if baseline is not None:
                for terrain, crowns, size in kingdoms:
                    assert baseline.tally(terrain, crowns, size, discarded=0, variants=[]) == \
                        scoring.tally(terrain, crowns, size, discarded=0, variants=[]), terrain
            ours, ours_survey, peers, before = [], [], [], []
            for _ in range(args.runs):
                if baseline is not None:
                    before.append(time_tally(kingdoms, baseline))
                ours.append(time_tally(kingdoms))
                ours_survey.append(time_survey(kingdoms))
                if node is not None:
                    peers.append(ask(node))
        finally:
            if node is not None:
                assert node.stdin is not None
                node.stdin.close()
                node.wait()
    wall, cpu = (statistics.median(x) for x in zip(*ours, strict=True))
    survey_wall, survey_cpu = (statistics.median(x) for x in zip(*ours_survey, strict=True))
    python = f"CPython {sys.version.split()[0]}"
    if before:
        before_wall, before_cpu = (statistics.median(x) for x in zip(*before, strict=True))
        print(f"Stolik tally, baseline {args.baseline.name} ({python}): median "
              f"{before_wall:.2f} / {before_cpu:.2f}")
    print(f"Stolik tally ({python}): median {wall:.2f} / {cpu:.2f}")
    print(f"Stolik survey, with the breakdown ({python}): median {survey_wall:.2f} / "
          f"{survey_cpu:.2f}")
    if not peers:
        return
    peer_wall = statistics.median(p["wall"] for p in peers)
    peer_cpu = statistics.median(p["cpu"] for p in peers)
    version = subprocess.run(["node", "--version"], capture_output=True, text=True).stdout.strip()
    print(f"KDomino (Node {version}): median {peer_wall:.2f} / {peer_cpu:.2f}")
    print(f"ratio Stolik tally / KDomino (medians, same run): {wall / peer_wall:.2f} / "
          f"{cpu / peer_cpu:.2f}")
    print(f"ratio Stolik survey / KDomino (medians, same run): {survey_wall / peer_wall:.2f} / "
          f"{survey_cpu / peer_cpu:.2f}")


if __name__ == "__main__":
    main()
