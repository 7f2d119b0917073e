"""The package's shape: stage packages in pipeline order, each importing only from earlier ones,
no cycle between modules or between packages, and nothing loose beside them.

A cycle hidden in a function body still couples the two modules: neither can be understood, tested
or moved alone, and the order they load in decides whether a name exists yet. Deferred imports are
fine for speed (a heavy library loaded only when used), so the tests read every `import` statement
wherever it sits. The layer order is the pipeline's (docs/layout.md): a module may import its own
stage and the stages before it, never a later one, so each stage can be read, tested and rerun
knowing only what came before it.
"""

from __future__ import annotations

import ast
import graphlib
from pathlib import Path

import pytest

from tests.support.paths import ROOT

PACKAGE = ROOT / "evals"
# Pipeline order: each layer imports only from itself and the layers before it.
LAYERS = (
    "evals",  # the package's own __init__: the version, nothing else
    "evals.core",
    "evals.scenario",
    "evals.world",
    "evals.agents",
    "evals.grade",
    "evals.records",
    "evals.gate",
    "evals.definition",
    "evals.report",
    "evals.run",
    "evals.baseline",
    "evals.authoring",
    "evals.github",
    "evals.commands",
    "evals.cli",
    "evals.__main__",
)
TOP_LEVEL_MODULES = {"__init__", "__main__", "cli", "definition"}


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


def layer(module: str, layers: tuple[str, ...] = LAYERS) -> int:
    """The index of the layer `module` belongs to: the longest layer name it is or is inside."""
    best = -1
    for index, name in enumerate(layers):
        if (module == name or module.startswith(name + ".")) and (best < 0 or len(name) > len(layers[best])):
            best = index
    if best < 0:
        raise AssertionError(f"{module}: in no layer of {layers}; add it to LAYERS or move it into a stage")
    return best


def layer_violations(graph: dict[str, set[str]], layers: tuple[str, ...] = LAYERS) -> list[str]:
    """Each import of a later layer, as `importer (layer) → imported (layer)`."""
    out = []
    for module, deps in sorted(graph.items()):
        own = layer(module, layers)
        for dep in sorted(deps):
            if layer(dep, layers) > own:
                out.append(
                    f"{module} ({layers[own]}) imports {dep} ({layers[layer(dep, layers)]}), a later stage"
                )
    return out


def package_of(module: str, known: dict[str, Path]) -> str:
    """The package a module lives in (a package's own __init__ is the package)."""
    return module if known[module].name == "__init__.py" else module.rpartition(".")[0]


def package_graph(package: Path = PACKAGE) -> dict[str, set[str]]:
    """Packages and the packages their modules import, leaving out a package's own ancestors and
    descendants (a stage's face may compose its sub-packages; a sub-package uses its stage's contract)."""
    known = modules(package)
    graph: dict[str, set[str]] = {}
    for module, deps in import_graph(package).items():
        mine = package_of(module, known)
        edges = graph.setdefault(mine, set())
        for dep in deps:
            theirs = package_of(dep, known)
            related = mine == theirs or mine.startswith(theirs + ".") or theirs.startswith(mine + ".")
            if not related:
                edges.add(theirs)
    return graph


def test_every_module_imports_only_its_own_stage_and_earlier_ones() -> None:
    violations = layer_violations(import_graph())
    assert violations == [], "imports of a later stage:\n" + "\n".join("  " + v for v in violations)


def test_no_two_packages_import_each_other() -> None:
    cycles = find_cycles(package_graph())
    assert cycles == [], "package cycles:\n" + "\n".join("  " + " → ".join(c) for c in cycles)


def test_only_the_entry_points_and_the_definition_sit_directly_under_evals() -> None:
    loose = sorted(p.stem for p in PACKAGE.glob("*.py") if p.stem not in TOP_LEVEL_MODULES)
    assert loose == [], f"modules outside a stage package: {loose} (docs/layout.md says where each goes)"


def test_the_layer_rule_names_a_planted_violation(tmp_path: Path) -> None:
    """A test of the test: an early stage importing a later one inside a function is caught and named."""
    package = write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/core/__init__.py": "",
            "pkg/core/util.py": "def helper():\n    from pkg.report.page import render\n    return render\n",
            "pkg/report/__init__.py": "",
            "pkg/report/page.py": "from pkg.core.util import helper\n\ndef render():\n    return helper\n",
        },
    )
    layers = ("pkg", "pkg.core", "pkg.report")
    assert layer_violations(import_graph(package), layers) == [
        "pkg.core.util (pkg.core) imports pkg.report (pkg.report), a later stage",
        "pkg.core.util (pkg.core) imports pkg.report.page (pkg.report), a later stage",
    ]
    assert layer_violations(import_graph(package), ("pkg", "pkg.report", "pkg.core")) == [
        "pkg.report.page (pkg.report) imports pkg.core (pkg.core), a later stage",
        "pkg.report.page (pkg.report) imports pkg.core.util (pkg.core), a later stage",
    ]


def test_the_package_rule_names_two_packages_that_import_each_other(tmp_path: Path) -> None:
    """A test of the test: two sibling packages in a loop are one cycle, though no module cycle exists;
    a package using its parent's contract while the parent composes it is not."""
    package = write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/a/__init__.py": "",
            "pkg/a/one.py": "from pkg.b.two import x\n",
            "pkg/a/three.py": "y = 1\n",
            "pkg/b/__init__.py": "",
            "pkg/b/two.py": "x = 1\n",
            "pkg/b/four.py": "from pkg.a.three import y\n",
            "pkg/w/__init__.py": "",
            "pkg/w/contract.py": "z = 1\n",
            "pkg/w/backend.py": "from pkg.w.sub.impl import q\n",
            "pkg/w/sub/__init__.py": "",
            "pkg/w/sub/impl.py": "from pkg.w.contract import z\nq = z\n",
        },
    )
    assert find_cycles(import_graph(package)) == []
    (cycle,) = find_cycles(package_graph(package))
    assert set(cycle) == {"pkg.a", "pkg.b"}
