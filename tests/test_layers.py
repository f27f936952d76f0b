"""The package's layers: every module sits in a layer folder, imports never run upward and never close a cycle.

The layers, lowest first, are declared once, in :data:`LAYERS` (docs/architecture.md draws the same order). A
module may import a module of its own layer or of a lower one; the package's ``__init__`` (the public API,
``reservation.allot`` ...) sits above every layer. The imports are read with :mod:`ast` from every ``.py`` file of
the package, wherever they stand: at the top of a module, inside a function, under ``try`` or ``if
TYPE_CHECKING`` alike, and the modules named by a string (``importlib.import_module("reservation.x")``, a table
of module names such as the rulebook registry's). An import inside a function is an import: it only hides a
cycle from the interpreter, not from a reader.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

PACKAGE = "reservation"
ROOT = Path(__file__).resolve().parent.parent / PACKAGE

#: The layer folders of the package, lowest first (one concept each; see docs/architecture.md).
LAYERS = ("base", "law", "engine", "inputs", "output", "rules", "dpc", "allotment", "history", "views",
          "auditing", "projection", "answers", "report", "cli")
#: What sits above every layer: the package's ``__init__`` (the public API).
TOP = PACKAGE


def module_files(root: Path = ROOT, package: str = PACKAGE) -> dict[str, Path]:
    """Module name -> file, for every ``.py`` under ``root`` (the package's data and notebook links are not code)."""
    out = {}
    for p in sorted(root.rglob("*.py")):
        rel = p.relative_to(root)
        if rel.parts[0] in ("data", "notebooks"):
            continue
        parts = [package, *rel.with_suffix("").parts]
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = p
    return out


def _named(name: str, modules) -> str | None:
    """The module a dotted name refers to: itself, or the module that holds it as an attribute."""
    while name:
        if name in modules:
            return name
        name = name.rpartition(".")[0]
    return None


def _string_targets(node, modules) -> list[str]:
    """The modules a string names: a constant equal to a module's name; an f-string whose constant head names a
    package (``f"reservation.x.{name}"``) may name any module of that package, so it names them all."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in modules \
            and node.value != PACKAGE:                  # the package's own name anchors its data (paths.py)
        return [node.value]
    if isinstance(node, ast.JoinedStr) and node.values and isinstance(node.values[0], ast.Constant):
        head = str(node.values[0].value).rstrip(".")
        pkg = _named(head, modules) if head.split(".")[0] == PACKAGE else None
        if pkg:
            return sorted(m for m in modules if m == pkg or m.startswith(pkg + "."))
    return []


def imports_of(source: str, name: str, modules, *, is_package: bool = False) -> set[str]:
    """The modules of ``modules`` that the module ``name`` (its ``source``) imports, anywhere in its text."""
    base = name.split(".") if is_package else name.split(".")[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                head = base[:len(base) - node.level + 1]
                mod = ".".join(head + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            # ``from pkg import sub`` imports the submodule; ``from mod import name`` the module
            targets = [f"{mod}.{a.name}" if f"{mod}.{a.name}" in modules else mod for a in node.names]
        elif isinstance(node, (ast.Constant, ast.JoinedStr)):
            targets = _string_targets(node, modules)
        for t in targets:
            m = _named(t, modules) if t.split(".")[0] == PACKAGE else None
            if m and m != name:
                found.add(m)
    return found


def import_graph(root: Path = ROOT, package: str = PACKAGE) -> dict[str, set[str]]:
    files = module_files(root, package)
    return {m: imports_of(p.read_text(encoding="utf-8"), m, files, is_package=p.name == "__init__.py")
            for m, p in files.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan, iterative), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on.add(start)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in graph:
                    continue
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    x = stack.pop()
                    on.discard(x)
                    comp.append(x)
                    if x == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return sorted(out)


def layer_of(module: str) -> str | None:
    """The layer folder of a module (``reservation.law.quota`` -> ``law``), TOP for the package itself, None for a
    module outside every layer folder."""
    parts = module.split(".")
    if len(parts) == 1:
        return TOP
    return parts[1] if parts[1] in LAYERS and len(parts) >= 2 else None


def rank(layer: str) -> int:
    return len(LAYERS) if layer == TOP else LAYERS.index(layer)


def upward(graph: dict[str, set[str]]) -> list[str]:
    """Every import from a module to one of a higher layer, as 'a (layer) -> b (layer)'."""
    bad = []
    for a in sorted(graph):
        la = layer_of(a)
        for b in sorted(graph[a]):
            lb = layer_of(b)
            if la is not None and lb is not None and rank(lb) > rank(la):
                bad.append(f"{a} ({la}) -> {b} ({lb})")
    return bad


GRAPH = import_graph()


def test_every_module_is_in_a_layer_folder():
    outside = [m for m in sorted(GRAPH) if layer_of(m) is None]
    assert not outside, f"modules outside the layer folders {LAYERS}: {outside}"


def test_every_layer_folder_is_a_package_and_declared():
    folders = {p.name for p in ROOT.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert folders == set(LAYERS), f"declared {sorted(LAYERS)}, found {sorted(folders)}"


def test_no_import_cycle():
    found = cycles(GRAPH)
    assert not found, "import cycles (imports inside functions count): " + "; ".join(" <-> ".join(c) for c in found)


def test_no_import_runs_upward():
    bad = upward(GRAPH)
    assert not bad, f"{len(bad)} import(s) from a lower layer to a higher one:\n" + "\n".join(bad)


# --- the reader itself: it sees what it must see ----------------------------------------------------------------

SAMPLE = '''
import importlib
from .b import x
def f():
    from ..top import y
    importlib.import_module("reservation.top.z")
    return importlib.import_module(f"reservation.top.{name}")
TABLE = {"k": "reservation.law.c"}
'''


def test_the_reader_sees_imports_inside_functions_and_module_names_in_strings():
    modules = {"reservation", "reservation.law", "reservation.law.a", "reservation.law.b", "reservation.law.c",
               "reservation.top", "reservation.top.y", "reservation.top.z"}
    got = imports_of(SAMPLE, "reservation.law.a", modules)
    # ``from ..top import y`` is the submodule y; the f-string may name any module of reservation.top
    assert got == {"reservation.law.b", "reservation.top.y", "reservation.top.z", "reservation.top",
                   "reservation.law.c"}
    assert imports_of("import os\nfrom .b import x\n", "reservation.law.a", modules) == {"reservation.law.b"}


@pytest.mark.parametrize("graph, want", [
    ({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}, [["a", "b", "c"]]),
    ({"a": {"b"}, "b": set(), "c": {"b"}}, []),
    ({"a": {"b"}, "b": {"a"}, "c": {"d"}, "d": {"c"}}, [["a", "b"], ["c", "d"]]),
])
def test_cycles_are_found(graph, want):
    assert cycles(graph) == want


def test_an_upward_import_is_named():
    graph = {"reservation.law.quota": {"reservation.cli.main"}, "reservation.cli.main": {"reservation.law.quota"},
             "reservation": {"reservation.cli.main"}}
    assert upward(graph) == ["reservation.law.quota (law) -> reservation.cli.main (cli)"]


def test_the_architecture_page_draws_the_same_order():
    """docs/architecture.md draws the layers top to bottom: the same folders as LAYERS, highest first."""
    page = (ROOT.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    drawn = re.findall(r"^  (\w+)/ ", page.split("```")[1], flags=re.M)
    assert drawn == list(reversed(LAYERS))


def test_the_command_line_starts_without_numpy_or_pandas():
    """`reservation counts` starts in a fraction of a second, and a Ctrl-C while it starts reaches main()'s
    handler (tests/test_hostile_out.py waits for pandas before it signals): importing the command line and every
    module it imports at the top must not load numpy or pandas (a layer's module may import them inside a
    function)."""
    import subprocess
    import sys
    code = ("import sys; import reservation.cli.commands; "
            "print(sorted(m for m in ('numpy', 'pandas') if m in sys.modules))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[]", r.stdout
