"""Shared fixtures: every test runs offline, with no keys, in a throwaway copy of the project."""

from __future__ import annotations

import json
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


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A copy of the project's data (config, pricing, scenarios, baseline) as the working directory."""
    dest = tmp_path / "project"
    dest.mkdir()
    for name in ("evals.yaml", "pricing.yaml"):
        shutil.copy(ROOT / name, dest / name)
    for name in ("scenario", "baseline", "agent"):
        if (ROOT / name).exists():
            shutil.copytree(ROOT / name, dest / name, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.chdir(dest)
    yield dest


def read_summary(run_dir: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((run_dir / "summary.json").read_text(encoding="utf-8"))
    return data
