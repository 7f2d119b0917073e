"""Shared fixtures: every test runs offline, with no keys, in a throwaway copy of the project."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
SECRET_VARS = (
    "ANTHROPIC_API_KEY",
    "ANTHROPIC_BASE_URL",
    "GITHUB_TOKEN",
    "COMPOSIO_API_KEY",
    "NOTION_TOKEN",
    "GITHUB_STEP_SUMMARY",
)


@pytest.fixture(autouse=True)
def offline_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in SECRET_VARS:
        monkeypatch.delenv(name, raising=False)


def copy_project(dest: Path) -> Path:
    """Copy the project's data (config, pricing, scenarios, baseline, agent) into `dest`."""
    dest.mkdir()
    for name in ("evals.yaml", "pricing.yaml"):
        shutil.copy(ROOT / name, dest / name)
    for name in ("scenario", "baseline", "agent"):
        if (ROOT / name).exists():
            shutil.copytree(ROOT / name, dest / name, ignore=shutil.ignore_patterns("__pycache__"))
    return dest


@pytest.fixture
def full_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A copy of the project exactly as committed, as the working directory."""
    dest = copy_project(tmp_path / "project")
    monkeypatch.chdir(dest)
    yield dest


@pytest.fixture
def project(full_project: Path) -> Path:
    """The committed project with its default suite narrowed to the one-trial trial run.

    Most tests exercise one mechanism (a flag, a verdict, a file) and need the smallest run that
    shows it; `full_project` keeps the committed defaults for the tests about those defaults.
    """
    config = full_project / "evals.yaml"
    text = re.sub(
        r"^suite: .*$", "suite: [trial-run]", config.read_text(encoding="utf-8"), flags=re.MULTILINE
    )
    config.write_text(re.sub(r"^trials: \d+", "trials: 1", text, flags=re.MULTILINE), encoding="utf-8")
    return full_project


@pytest.fixture
def services(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """Local fakes of GitHub, Notion and Composio over one sandbox world, with the live-mode
    environment pointing at them (imported here: the fakes pull in the live clients)."""
    from tests.fakes import FakeServices

    fakes = FakeServices.start()
    for key, value in fakes.env().items():
        monkeypatch.setenv(key, value)
    yield fakes
    fakes.stop()


def add_pr(snap: Any, changes: dict[str, str], title: str = "fix: x (#142)", number: int = 1) -> None:
    """Add to an Outcome one open PR whose head is the default branch with `changes` applied."""
    from evals.outcome import PullSnapshot

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
