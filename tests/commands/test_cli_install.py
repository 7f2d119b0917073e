"""The command line as a new user meets it: installed as `evals`, found from any folder inside the
project, exit 2 (not 1, the code of a regression) outside one, `--version`."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from importlib import import_module
from pathlib import Path

import pytest

import evals
from evals.cli import main
from tests.support.paths import ROOT


def test_pyproject_declares_the_package_and_the_evals_console_script() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    target = project["project"]["scripts"]["evals"]
    module, func = target.split(":")
    assert getattr(import_module(module), func) is main
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "evals.__version__"}
    assert project["tool"]["setuptools"]["packages"]["find"]["include"] == ["evals*"]


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"evals {evals.__version__}"


def test_a_command_run_from_a_sub_folder_finds_the_project(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(project / "scenario" / "trial-run")
    assert main(["run", "--scenario", "trial-run"]) == 0
    (run,) = (project / "runs").iterdir()  # under the project's runs/, not the sub-folder's
    assert (run / "summary.json").is_file()
    assert not (project / "scenario" / "trial-run" / "runs").exists()


def test_outside_any_project_a_command_exits_2_saying_where_it_looked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    nowhere = tmp_path / "a" / "b"
    nowhere.mkdir(parents=True)
    monkeypatch.chdir(nowhere)
    assert main(["run"]) == 2
    err = capsys.readouterr().err
    assert "no evals.yaml" in err and str(nowhere.resolve()) in err and "--config" in err
    assert not (nowhere / "runs").exists()


def test_python_dash_m_evals_outside_the_project_is_bad_input_not_a_regression(tmp_path: Path) -> None:
    """As installed (here: the checkout on PYTHONPATH, as an editable install puts it on sys.path)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    ran = subprocess.run(
        [sys.executable, "-m", "evals", "run"], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert ran.returncode == 2, ran.stderr
    assert "no evals.yaml" in ran.stderr
    version = subprocess.run(
        [sys.executable, "-m", "evals", "--version"], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert version.returncode == 0 and version.stdout.strip() == f"evals {evals.__version__}"


def test_starting_the_cli_imports_no_heavy_library() -> None:
    """`evals --help` stays fast: the pipeline (pydantic models, scipy, SDKs) loads only in a
    command's handler. Checked by what is imported, not by a clock."""
    heavy = ("scipy", "numpy", "pydantic", "anthropic", "composio", "github", "yaml", "rich", "tabulate")
    probe = (
        "import sys, evals.cli; "
        f"print(','.join(m for m in {heavy!r} + ('evals.grade', 'evals.definition') if m in sys.modules))"
    )
    ran = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True)
    assert ran.stdout.strip() == ""


# --- the runtime install (issue #29: `make run` built a 671 MB .venv with the test tools) --------

DEV_ONLY = {
    "ruff",
    "mypy",
    "scipy",
    "scipy-stubs",
    "playwright",
    "zizmor",
    "check-jsonschema",
    "numpy",
    "pytest-xdist",
}


def pinned(path: Path) -> set[str]:
    """The distribution names a requirements file pins itself (not through `-r`)."""
    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    names = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line and not line.startswith("-"):
            names.add(canonicalize_name(Requirement(line).name))
    return names


def closure(names: set[str]) -> set[str]:
    """`names` and every distribution they require, as installed here (extras' requirements left out)."""
    from importlib import metadata

    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    seen: set[str] = set()
    todo = list(names)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        for spec in metadata.requires(name) or []:
            req = Requirement(spec)
            if req.marker is None or req.marker.evaluate({"extra": ""}):
                todo.append(canonicalize_name(req.name))
    return seen


def imported_modules(paths: list[Path]) -> set[str]:
    import ast

    found = set()
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                found.add(node.module.split(".")[0])
    return found - set(sys.stdlib_module_names) - {"evals", "__future__"}


def test_the_runtime_requirements_hold_no_test_or_lint_tool() -> None:
    runtime, dev = pinned(ROOT / "requirements.txt"), pinned(ROOT / "requirements-dev.txt")
    assert runtime & DEV_ONLY == set()
    assert dev >= DEV_ONLY and runtime & dev == set()  # each pinned once, where it belongs
    assert "-r requirements.txt" in (ROOT / "requirements-dev.txt").read_text(encoding="utf-8")


def test_everything_evals_imports_comes_with_the_runtime_install() -> None:
    """Every third-party module the package and the scenarios' checks import is installed by
    requirements.txt (itself or as a dependency), except numpy for the gate simulations, which say
    how to get it; pytest is runtime too: the grader runs the agent's regression tests with it."""
    from importlib import metadata

    from packaging.utils import canonicalize_name

    simulations = {ROOT / "evals" / "gate" / "simulate.py", ROOT / "evals" / "gate" / "simulate_suite.py"}
    sources = [p for p in (ROOT / "evals").rglob("*.py") if p not in simulations]
    sources += list(ROOT.glob("scenario/*/checks/*.py"))
    owners = metadata.packages_distributions()
    needed = {canonicalize_name(d) for m in imported_modules(sources) for d in owners.get(m, [m])}
    installed = closure(pinned(ROOT / "requirements.txt"))
    assert needed - installed == set()
    assert "pytest" in pinned(ROOT / "requirements.txt")
    assert imported_modules(sorted(simulations)) <= {"numpy"} | set(owners) and "numpy" not in installed


def test_make_run_installs_the_runtime_and_make_test_adds_the_tools() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    runtime = re.search(r"^\$\(BIN\)/\.installed: (.*)$", makefile, re.MULTILINE)
    assert runtime is not None and "requirements-dev.txt" not in runtime.group(1)
    assert re.search(r"^run: \$\(BIN\)/\.installed$", makefile, re.MULTILINE)
    assert re.search(r"^test: \$\(BIN\)/\.dev-installed$", makefile, re.MULTILINE)
    assert "-r requirements-dev.txt" in makefile
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert ci.rstrip().endswith("make test")  # the README's test command, which installs the tools
