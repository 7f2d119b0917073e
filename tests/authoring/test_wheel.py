"""The issue's "done when": from a clean temp folder, build the wheel, install it into a fresh venv,
`git init`, `evals init`, `evals run`: exit 0 offline, with a report.

No network: the wheel is built with this session's setuptools (`--no-build-isolation`) and
installed with `--no-index --no-deps`; the fresh venv borrows this session's runtime libraries
through a .pth line (the wheel itself, its `evals` command and its starter files are the fresh
venv's own; the test checks that the package it imports is the wheel's, not this checkout)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

from tests.support.actions import NOT_CHECKED_OUT
from tests.support.paths import ROOT

SHA = "0123456789abcdef0123456789abcdef01234567"


def run(*args: str | Path, cwd: Path | None = None, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(
        [str(a) for a in args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, f"{args}: rc {done.returncode}\n{done.stdout}\n{done.stderr}"
    return done.stdout


def test_the_wheel_installs_into_a_fresh_venv_and_adopts_an_empty_repository(tmp_path: Path) -> None:
    offline = {**os.environ, "PIP_NO_INDEX": "1", "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    offline = {k: v for k, v in offline.items() if not k.startswith(("ANTHROPIC_", "EVALS_"))}
    source = tmp_path / "source"  # a clean copy: no build/, egg-info, venv or tests of the checkout
    top = {"build", "dist", "tests", "agent_evals_gate.egg-info"}
    shutil.copytree(
        ROOT,
        source,
        ignore=lambda d, names: [*NOT_CHECKED_OUT(d, names), *(top & set(names) if Path(d) == ROOT else [])],
    )
    wheels = tmp_path / "wheels"
    run(
        sys.executable,
        "-m",
        "pip",
        "wheel",
        "--no-deps",
        "--no-build-isolation",
        "-q",
        "-w",
        wheels,
        source,
        env=offline,
    )
    (wheel,) = wheels.glob("agent_evals_gate-*.whl")

    fresh = tmp_path / "venv"
    run(sys.executable, "-m", "venv", "--without-pip", fresh)
    purelib = Path(
        run(fresh / "bin" / "python", "-c", "import sysconfig; print(sysconfig.get_path('purelib'))").strip()
    )
    (purelib / "_borrowed_runtime.pth").write_text(sysconfig.get_path("purelib") + "\n", encoding="utf-8")
    run(
        sys.executable,
        "-m",
        "pip",
        "--python",
        fresh / "bin" / "python",
        "install",
        "-q",
        "--no-deps",
        "--no-index",
        wheel,
        env=offline,
    )
    where = run(fresh / "bin" / "python", "-c", "import evals; print(evals.__file__)", cwd=tmp_path)
    assert where.strip().startswith(str(purelib)), where  # the wheel's package, not this checkout

    repo = tmp_path / "repo"
    repo.mkdir()
    run("git", "init", "-q", repo)
    out = run(
        fresh / "bin" / "evals", "init", "--gate", f"acme/agent-evals-gate@{SHA}", cwd=repo, env=offline
    )
    assert "run-evals" in out and (repo / "scenario").is_dir()
    assert (repo / ".github" / "workflows" / "evals-pr.yml").is_file()
    # The L1 and L3 starters (a second a trial); the L2 one runs pytest on the agent's code in the
    # sandbox (half a minute a trial), which tests/authoring/test_init.py's emulator run covers.
    run(
        fresh / "bin" / "evals",
        "run",
        "--trials",
        "1",
        "--scenario",
        "reply-facts",
        "--scenario",
        "signup-security",
        "--out",
        "runs/first",
        cwd=repo,
        env=offline,
    )
    report = (repo / "runs" / "first" / "report.md").read_text(encoding="utf-8")
    assert "Agent evals" in report
    for name in ("reply-facts", "signup-security"):
        assert name in report, name
