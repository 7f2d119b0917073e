"""`python -m evals --help` (and every command's parser) loads no heavy module.

Every CLI start imports every command module to build the parser, so one module-level import of
the grader, pydantic models, scipy or a service client makes every command slow to start (it was
1.4 s). Timings are not asserted (they depend on the machine; `bench/speed.py` prints them); what
is loaded is, and it decides the time.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.paths import ROOT

HEAVY = (
    "anthropic",
    "asyncio",  # a sixth of start-up: only a run's trials need it (evals/run/interrupt.py)
    "composio",
    "github",
    "notion_client",
    "numpy",
    "pydantic",
    "rich",
    "scipy",
    "tabulate",
    "yaml",
    "evals.grade",
    "evals.world.live",
    "evals.run.runner",
    "evals.world.sandbox.tools",
    "evals.world.sandbox",
)
PROBE = """
import contextlib, io, json, sys
from evals.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    code = main(["--help"])
print(json.dumps({"code": code, "modules": sorted(sys.modules)}))
"""


def test_help_loads_none_of_the_heavy_modules() -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, check=True, timeout=120
    )
    result = json.loads(done.stdout)
    assert result["code"] == 0
    loaded = [m for m in result["modules"] if any(m == h or m.startswith(h + ".") for h in HEAVY)]
    assert loaded == [], f"python -m evals --help imports {loaded}"


def test_the_projects_env_file_is_still_read(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """python-dotenv is imported only when the project has a .env; when it has one, it is read."""
    (project / ".env").write_text("EVALS_STARTUP_DOTENV=read\n", encoding="utf-8")
    monkeypatch.chdir(project / "scenario")  # from anywhere inside the project
    monkeypatch.delenv("EVALS_STARTUP_DOTENV", raising=False)
    from evals.cli import main

    assert main(["--version"]) == 0
    assert os.environ.get("EVALS_STARTUP_DOTENV") == "read"
