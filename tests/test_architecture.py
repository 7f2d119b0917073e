"""The package's import graph has no cycle, counting imports inside functions too.

A cycle hidden in a function body still couples the two modules: neither can be understood, tested
or moved alone, and the order they load in decides whether a name exists yet. Deferred imports are
fine for speed (a heavy library loaded only when used), so the test reads every `import` statement
wherever it sits, and names each cycle it finds.
"""

from __future__ import annotations

import ast
import graphlib
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "evals"


def module_name(package: Path, path: Path) -> str:
    parts = path.relative_to(package.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules(package: Path) -> dict[str, Path]:
    return {module_name(package, p): p for p in sorted(package.rglob("*.py"))}


def resolve(name: str, known: dict[str, Path]) -> str | None:
    """The package module an imported name lives in: `evals.a.b.C` → `evals.a.b` (longest known prefix)."""
    parts = name.split(".")
    for end in range(len(parts), 0, -1):
        candidate = ".".join(parts[:end])
        if candidate in known:
            return candidate
    return None


def imported(module: str, path: Path, known: dict[str, Path]) -> set[str]:
    """Every package module `module` imports, at top level or inside any function or class.

    `from evals.x import y` depends on `evals.x.y` when y is a submodule, else on `evals.x` itself.
    Importing `evals.x.y` runs `evals/x/__init__.py` first, so a module also depends on the parent
    packages of what it imports, except its own parents (already loading when it runs).
    """
    is_package = path.name == "__init__.py"
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = module.split(".") if is_package else module.split(".")[:-1]
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            submodules = {f"{base}.{alias.name}" for alias in node.names} & known.keys()
            names.update(submodules)
            if len(submodules) < len(node.names):
                names.add(base)
    own_parents = {".".join(module.split(".")[:end]) for end in range(1, module.count(".") + 1)}
    deps: set[str] = set()
    for name in names:
        target = resolve(name, known)
        if target is not None:
            deps.add(target)
            parts = target.split(".")
            deps.update({".".join(parts[:end]) for end in range(1, len(parts))} - own_parents)
    deps.discard(module)
    return deps


def import_graph(package: Path = PACKAGE) -> dict[str, set[str]]:
    known = modules(package)
    return {name: imported(name, path, known) for name, path in known.items()}


def find_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Each strongly connected group of modules that import each other, as one cycle through it."""
    cycles: list[list[str]] = []
    remaining = {k: set(v) for k, v in graph.items()}
    while True:
        try:
            graphlib.TopologicalSorter(remaining).prepare()
            return cycles
        except graphlib.CycleError as exc:
            # graphlib lists each node before the one that imports it; show "imports" order instead
            cycle = list(reversed(exc.args[1]))
            cycles.append(cycle)
            remaining[cycle[0]].discard(cycle[1])  # break this cycle at one edge, look for the next


def write(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root / "pkg"


def test_an_import_inside_a_function_closes_a_cycle(tmp_path: Path) -> None:
    package = write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/a.py": "from pkg.b import thing\n",
            "pkg/b.py": "def thing():\n    from pkg import c\n    return c\n",
            "pkg/c.py": "import pkg.a\n",
            "pkg/d.py": "from pkg.a import thing\n",
        },
    )
    (cycle,) = find_cycles(import_graph(package))
    assert cycle[0] == cycle[-1] and set(cycle) == {"pkg.a", "pkg.b", "pkg.c"}


def test_submodules_and_parent_packages(tmp_path: Path) -> None:
    package = write(
        tmp_path,
        {
            "pkg/__init__.py": "from pkg.sub.x import X\n",
            "pkg/sub/__init__.py": "from . import x\n",
            "pkg/sub/x.py": "X = 1\n",
            "pkg/sub/y.py": "from pkg.sub import x\nfrom ..sub import x as again\n",
            "pkg/z.py": "from pkg.sub import y\nfrom pkg import sub\n",
        },
    )
    graph = import_graph(package)
    assert graph["pkg.sub.y"] == {"pkg.sub.x"}  # its own package is already loading: no edge
    assert graph["pkg.z"] == {"pkg.sub", "pkg.sub.y"}  # importing pkg.sub.y runs pkg/sub/__init__.py
    assert graph["pkg"] == {"pkg.sub", "pkg.sub.x"}
    assert find_cycles(graph) == []


def test_no_import_cycle_in_the_package() -> None:
    cycles = find_cycles(import_graph())
    if cycles:
        pytest.fail("import cycles in evals/:\n" + "\n".join("  " + " → ".join(c) for c in cycles))
