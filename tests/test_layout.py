"""The house rules of the code's layout, checked on every run (docs/ARCHITECTURE.md, "Layout").

Floors, bottom up: ``text``, ``engines``, ``db``, ``render``, ``session``, ``cogs``, ``bot.py`` (with
``settings.py``, which only it reads).
A module imports only from its own floor or lower ones, no files import each other in a circle,
every SQL statement lives in ``db/``, and no production module or function grows past what a
reader can hold (600 lines; cyclomatic complexity 20, as radon counts it).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from radon.complexity import cc_visit
from radon.visitors import Class

ROOT = Path(__file__).resolve().parent.parent
FLOORS = {"text": 0, "engines": 1, "db": 1, "render": 2, "session": 3, "cogs": 4, "bot": 5,
          "settings": 5}
MAX_LINES = 600
MAX_COMPLEXITY = 20
#: statements as the db layer writes them (keyword, then what must follow it)
SQL = re.compile(r"\b(SELECT\s.+\sFROM|INSERT\s+INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM|CREATE\s+TABLE)\b",
                 re.IGNORECASE | re.DOTALL)


def production_files() -> list[Path]:
    files = [ROOT / "bot.py", ROOT / "settings.py"]
    for floor in FLOORS:
        if (ROOT / floor).is_dir():
            files += sorted((ROOT / floor).rglob("*.py"))
    return files


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> Iterator[str]:
    """Every module a file imports at any depth (a function-local import counts too)."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.module
            yield from (f"{node.module}.{alias.name}" for alias in node.names)


def import_graph() -> dict[str, set[str]]:
    modules = {module_name(path): path for path in production_files()}
    return {name: {target for target in imports(path) if target in modules and target != name}
            for name, path in modules.items()}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in graph[node]:
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in graph:
        if node not in index:
            visit(node)
    return found


def floor(module: str) -> int:
    return FLOORS[module.split(".")[0]]


def test_no_import_runs_up_a_floor() -> None:
    upward = [f"{name} -> {target}" for name, targets in import_graph().items()
              for target in sorted(targets) if floor(target) > floor(name)]
    assert upward == []


def test_no_files_import_each_other_in_a_circle() -> None:
    assert circles(import_graph()) == []


def test_circles_are_found() -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


@pytest.mark.parametrize("floor_name", [name for name in FLOORS if name not in ("db", "bot", "settings")]
                         + ["bot.py", "settings.py"])
def test_sql_lives_in_db_only(floor_name: str) -> None:
    paths = [ROOT / floor_name] if floor_name.endswith(".py") else sorted((ROOT / floor_name).rglob("*.py"))
    found = []
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and SQL.search(node.value):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert found == []


def test_the_sql_check_sees_a_statement() -> None:
    assert SQL.search("SELECT id FROM sessions WHERE id = ?")
    assert SQL.search("update timers set fired_at = ?")
    assert not SQL.search("Select your move")


def test_no_module_is_too_long() -> None:
    long = {str(path.relative_to(ROOT)): lines for path in production_files()
            if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}


def functions(code: str) -> Iterator[Any]:
    """Every function and method radon sees, closures and nested classes included."""
    blocks = list(cc_visit(code))
    while blocks:
        block = blocks.pop()
        if isinstance(block, Class):
            blocks += block.methods + block.inner_classes
        else:
            blocks += block.closures
            yield block


@pytest.mark.parametrize("where", [*FLOORS.keys(), "tests/standin"])
def test_no_function_is_too_complex(where: str) -> None:
    paths = [ROOT / f"{where}.py"] if where in ("bot", "settings") else sorted((ROOT / where).rglob("*.py"))
    complex_ = [f"{path.relative_to(ROOT)}:{block.lineno} {block.fullname} ({block.complexity})"
                for path in paths for block in functions(path.read_text(encoding="utf-8"))
                if block.complexity > MAX_COMPLEXITY]
    assert complex_ == []


def test_cogs_reach_the_store_and_the_engines_through_the_session_layer() -> None:
    reach = [f"{name} -> {target}" for name, targets in import_graph().items()
             if name.startswith("cogs") for target in sorted(targets)
             if target.split(".")[0] in ("db", "engines")]
    assert reach == []
