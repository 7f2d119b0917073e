"""Helpers that read or change a throwaway copy of the project (the `project` fixtures' folder)."""

from __future__ import annotations

import contextlib
import json
import re
import shutil
from pathlib import Path
from typing import Any

from evals.core.config import load_config
from evals.definition import load_definition
from tests.support.paths import ROOT


def guard_project(project: Path, part: str) -> None:
    rubric = project / "scenario" / "trial-run" / "rubric.yaml"
    text = rubric.read_text(encoding="utf-8")
    rubric.write_text(
        re.sub(rf"(      - id: {part}\n        points: 1\n)", r"\1        guard: true\n", text),
        encoding="utf-8",
    )


def project_fingerprint(root: Path) -> dict[str, dict]:  # type: ignore[type-arg]
    config, project = load_config(root, None)
    return load_definition(project, config, ["trial-run", "nightshift"]).fingerprint()


SECRET_VARS = (
    "ANTHROPIC_API_KEY",
    "ANTHROPIC_BASE_URL",
    "GITHUB_TOKEN",
    "COMPOSIO_API_KEY",
    "NOTION_TOKEN",
    "GITHUB_STEP_SUMMARY",
)


def copy_project(dest: Path) -> Path:
    """Copy the project's data (config, pricing, scenarios, baseline, agent, canary) into `dest`."""
    dest.mkdir()
    for name in ("evals.yaml", "pricing.yaml"):
        shutil.copy(ROOT / name, dest / name)
    for name in ("scenario", "baseline", "agent", "canary"):
        if (ROOT / name).exists():
            shutil.copytree(ROOT / name, dest / name, ignore=shutil.ignore_patterns("__pycache__"))
    return dest


def add_pr(snap: Any, changes: dict[str, str], title: str = "fix: x (#142)", number: int = 1) -> None:
    """Add to an Outcome one open PR whose head is the default branch with `changes` applied."""
    from evals.world.outcome import PullSnapshot

    repo = snap.repos[0]
    repo.pulls.append(
        PullSnapshot(
            number=number,
            title=title,
            body="",
            head=f"fix/{number}",
            base="main",
            state="open",
            merged=False,
            url=f"https://github.com/{repo.full_name}/pull/{number}",
            head_sha="x",
            files={**repo.main_files, **changes},
            changed=sorted(changes),
            diff="",
        )
    )


def read_summary(run_dir: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((run_dir / "summary.json").read_text(encoding="utf-8"))
    return data


def make_run(where: Path, name: str, *args: str) -> tuple[Path, int]:
    """`evals run ARGS --out runs/NAME` in a fresh copy of the project at `where` (made if missing);
    returns the run directory and the exit code. For module-scoped fixtures: a run made once, copied
    into each test's own project to be read or tampered with."""
    from evals.cli import main

    if not (where / "evals.yaml").is_file():
        if where.exists():
            where.rmdir()  # the empty folder `tmp_path_factory.mktemp` made
        copy_project(where)
    out = where / "runs" / name
    with contextlib.chdir(where):
        code = main(["run", *args, "--out", str(out)])
    return out, code
