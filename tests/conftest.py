"""Shared fixtures: every test runs offline, with no keys, in a throwaway copy of the project."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.project import SECRET_VARS, copy_project


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Under `--dist loadgroup` (the README's test command) a test module stays on one worker, as
    with loadscope, so its module-scoped fixtures run once; a test that names its own xdist group
    (tests/support/checked.py: every test reading one task's check-scenario report) goes with its
    group instead, so the sweep over tasks spreads over the workers and each report is made once."""
    for item in items:
        if item.get_closest_marker("xdist_group") is None:
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::", 1)[0]))


@pytest.fixture(autouse=True)
def offline_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in SECRET_VARS:
        monkeypatch.delenv(name, raising=False)


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
    from tests.support.fakes import FakeServices

    fakes = FakeServices.start()
    for key, value in fakes.env().items():
        monkeypatch.setenv(key, value)
    yield fakes
    fakes.stop()
