"""Instructions per cold Kingdomino ``tally``, counted by valgrind's cachegrind: unlike the
clock, the count does not move with the load of a shared machine, so small changes to
``engines/kingdomino/scoring.py`` can be compared.

    python bench/lab/bench_kingdomino_instructions.py [--baseline old_scoring.py] [--kingdoms 400]

The kingdoms are bench_kingdomino_peer's (finished, from seeded computer games), built here and
handed to the counted runs in a file. Each module is counted twice under ``valgrind
--tool=cachegrind --cache-sim=no``, after one warm pass (tables built), with 1 and with 5 cold
passes (the memo cleared before each); the difference divided by 4 x kingdoms leaves out the
start-up, the imports and the warm pass. ``--baseline`` counts another version of the module
too (e.g. ``git show main:engines/kingdomino/scoring.py > old_scoring.py``); both must give the
same tallies. Needs valgrind on the PATH; takes about 20 s a module.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bench.lab.bench_kingdomino_peer import finished_kingdoms, load_baseline  # noqa: E402
from engines.kingdomino import scoring  # noqa: E402

PASSES = (1, 5)


def count_once(module_path: Path, kingdoms_file: Path, passes: int) -> int:
    """Instructions of one counted run of this script's child mode."""
    done = subprocess.run(
        ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
         sys.executable, __file__, "--child", str(module_path), str(kingdoms_file), str(passes)],
        capture_output=True, text=True, check=True)
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    assert found is not None, done.stderr
    return int(found.group(1).replace(",", ""))


def per_tally(module_path: Path, kingdoms_file: Path, kingdoms: int) -> float:
    few, many = (count_once(module_path, kingdoms_file, n) for n in PASSES)
    return (many - few) / ((PASSES[1] - PASSES[0]) * kingdoms)


def child(module_path: Path, kingdoms_file: Path, passes: int) -> None:
    module = scoring if module_path.resolve() == Path(scoring.__file__).resolve() \
        else load_baseline(module_path)
    kingdoms = [tuple(k) for k in json.loads(kingdoms_file.read_text())]
    tally = module.tally
    for terrain, crowns, size in kingdoms:  # warm: the tables are built on first use
        tally(terrain, crowns, size, discarded=0, variants=[])
    for _ in range(passes):
        module.clear_memo()
        for terrain, crowns, size in kingdoms:
            tally(terrain, crowns, size, discarded=0, variants=[])


def main() -> None:
    if sys.argv[1:2] == ["--child"]:
        child(Path(sys.argv[2]), Path(sys.argv[3]), int(sys.argv[4]))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kingdoms", type=int, default=400)
    parser.add_argument("--baseline", type=Path,
                        help="another version of engines/kingdomino/scoring.py to count as well")
    args = parser.parse_args()
    kingdoms = finished_kingdoms(args.kingdoms)
    if args.baseline is not None:
        baseline = load_baseline(args.baseline)
        for terrain, crowns, size in kingdoms:
            assert baseline.tally(terrain, crowns, size, discarded=0, variants=[]) == \
                scoring.tally(terrain, crowns, size, discarded=0, variants=[]), terrain
    with tempfile.TemporaryDirectory() as tmp:
        kingdoms_file = Path(tmp) / "kingdoms.json"
        kingdoms_file.write_text(json.dumps(kingdoms))
        print(f"{len(kingdoms)} finished kingdoms; instructions per cold tally (cachegrind)")
        if args.baseline is not None:
            print(f"baseline {args.baseline.name}: "
                  f"{per_tally(args.baseline, kingdoms_file, len(kingdoms)):,.0f}")
        print(f"now: {per_tally(Path(scoring.__file__), kingdoms_file, len(kingdoms)):,.0f}")


if __name__ == "__main__":
    main()
