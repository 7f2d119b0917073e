"""The command line as a new user meets it: installed as `evals`, found from any folder inside the
project, exit 2 (not 1, the code of a regression) outside one, `--version`."""

from __future__ import annotations

import os
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
