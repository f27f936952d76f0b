"""The house rule on size (DEVELOPERS' standards, issue 19): no module of the package over 600 lines and no function
over 80, counted from the source with :mod:`ast` (a function's lines from its ``def`` to its last line, decorators
left out; a nested function counts in its own right and inside the one that holds it)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PKG = Path(__file__).resolve().parent.parent / "reservation"
MODULES = sorted(p for p in PKG.rglob("*.py") if p.relative_to(PKG).parts[0] not in ("data", "notebooks"))


def long_functions(source: str, limit: int = 80) -> list[tuple[str, int]]:
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            n = node.end_lineno - node.lineno + 1
            if n > limit:
                out.append((node.name, n))
    return out


def test_the_counter_finds_a_long_function():
    body = "\n".join(f"    x{i} = {i}" for i in range(80))
    assert long_functions(f"def f():\n{body}\n") == [("f", 81)]
    assert long_functions("def g():\n    return 1\n") == []


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.relative_to(PKG).as_posix())
def test_no_module_over_600_lines_and_no_function_over_80(path):
    source = path.read_text(encoding="utf-8")
    assert len(source.splitlines()) <= 600, f"{path.name}: {len(source.splitlines())} lines"
    assert long_functions(source) == []
