"""The grader fingerprint is the same in a process that has graded and in one that has not.

The fingerprint follows the imports of the modules a rubric's checks live in, read from their
namespaces at run time (evals/gate/fingerprint.py). A grader module imported only inside a function
would be missing from the namespace until that function first ran: `compare` (which never grades)
would hash fewer files than the `run` that blessed the baseline, and a change to that module would
pass unseen, or every run would read as not comparable. Every module under `evals.grade` imported
first is the most any grading could have loaded; a cold process must list the same files.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

from tests.support.paths import ROOT

LISTING = """
import importlib, json, pkgutil, sys
from pathlib import Path
import evals.grade
if sys.argv[1] == "warm":
    for found in pkgutil.walk_packages(evals.grade.__path__, "evals.grade."):
        importlib.import_module(found.name)
from evals.core.config import load_config
from evals.definition import load_definition
config, _ = load_config(Path("."))
definition = load_definition(Path("."), config, list(config.suites["full"]))
scenarios = definition.fingerprint()["scenarios"]
print(json.dumps({name: sorted(fp.get("grader", {})) for name, fp in scenarios.items()}))
"""


def grader_files(state: str) -> dict[str, list[str]]:
    done = subprocess.run(
        [sys.executable, "-c", LISTING, state], cwd=ROOT, capture_output=True, text=True, check=True
    )
    listed: dict[str, list[str]] = json.loads(done.stdout)
    return listed


def test_a_process_that_never_graded_fingerprints_every_grader_file_grading_could_load() -> None:
    cold, warm = grader_files("cold"), grader_files("warm")
    assert set(cold) == set(warm) and len(cold) >= 27
    missing = {name: sorted(set(warm[name]) - set(cold[name])) for name in warm if warm[name] != cold[name]}
    assert missing == {}, f"grader files only a process that imported them fingerprints: {missing}"
    assert all(any(f.startswith("evals/grade/checks/") for f in files) for files in cold.values())


FOLLOWED = "evals.grade"
WHOLE = "evals.grade.probes"  # the probes package is fingerprinted whole, imported or not


def lazy_grader_imports(files: list[Path], root: Path) -> list[str]:
    """Each import of a grader module inside a function, as `file:line name`.

    The fingerprint reads a module's imports from its namespace; an import inside a function binds
    only a local name, so the module it loads is never followed, in any process: a change to it
    would not change the fingerprint. Grader code imports grader modules at module level (the
    probes package excepted: every file of it is hashed)."""
    out: list[str] = []
    for path in files:
        tree = ast.parse(path.read_text(), filename=str(path))
        for function in ast.walk(tree):
            if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for node in ast.walk(function):
                if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                    names = [f"{node.module}.{alias.name}" for alias in node.names]
                elif isinstance(node, ast.Import):
                    names = [alias.name for alias in node.names]
                else:
                    continue
                for name in names:
                    grader = name == FOLLOWED or name.startswith(FOLLOWED + ".")
                    if grader and not (name == WHOLE or name.startswith(WHOLE + ".")):
                        out.append(f"{path.relative_to(root).as_posix()}:{node.lineno} {name}")
    return sorted(set(out))


def grader_sources(root: Path) -> list[Path]:
    return sorted([*(root / "evals" / "grade").rglob("*.py"), *(root / "scenario").glob("*/checks/**/*.py")])


def test_no_grader_module_is_imported_only_inside_a_function() -> None:
    assert lazy_grader_imports(grader_sources(ROOT), ROOT) == []


def test_the_lazy_import_rule_names_a_planted_one(tmp_path: Path) -> None:
    (tmp_path / "evals" / "grade" / "checks").mkdir(parents=True)
    (tmp_path / "scenario" / "t" / "checks").mkdir(parents=True)
    (tmp_path / "evals" / "grade" / "checks" / "mail.py").write_text(
        "import evals.grade.registry\n\n"
        "def f():\n    from evals.grade import labelled\n    from evals.grade.probes import runner\n"
        "    from evals.world import outcome\n"
    )
    (tmp_path / "scenario" / "t" / "checks" / "own.py").write_text(
        "async def g():\n    import evals.grade.checks.behaviour\n"
    )
    assert lazy_grader_imports(grader_sources(tmp_path), tmp_path) == [
        "evals/grade/checks/mail.py:4 evals.grade.labelled",
        "scenario/t/checks/own.py:2 evals.grade.checks.behaviour",
    ]
