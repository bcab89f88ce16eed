"""The guard mutants of bench/mutation_guards.py still apply to the code as it is: each one's
original line occurs exactly once in its file (a refactor that moves a guard must move its
mutant too, or the mutation check would stop at once)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.mutation_guards import MUTANTS

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("mutant", MUTANTS, ids=lambda m: m.name)
def test_every_guard_mutant_applies(mutant) -> None:
    source = (ROOT / mutant.path).read_text(encoding="utf-8")
    assert source.count(mutant.original) == 1
    compile(source.replace(mutant.original, mutant.mutated), mutant.path, "exec")
