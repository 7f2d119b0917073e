"""`python -m evals tools check` against the fake Composio (which serves Composio's schemas from
the committed fixtures): every difference from the sandbox is printed, drift exits 1, no key exits 2."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from evals.cli import main
from tests.support.fakes import FakeServices

NEWER = {"type": "boolean", "default": True}


def test_without_a_key_it_says_what_it_needs_and_exits_2(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("COMPOSIO_API_KEY", raising=False)
    assert main(["tools", "check"]) == 2
    assert "tools check needs COMPOSIO_API_KEY" in capsys.readouterr().err


def test_the_schemas_the_public_dump_has_differ_only_by_the_two_newer_gmail_options(
    project: Path, services: FakeServices, capsys: pytest.CaptureFixture[str]
) -> None:
    """The fake serves the 0_1 Gmail dump, older than the pinned version: exactly those two."""
    assert main(["tools", "check"]) == 4  # drift: not comparable
    out = capsys.readouterr().out
    assert "GMAIL_FETCH_EMAILS @ 20260113_00: 2 difference(s)" in out
    assert (
        "  ids_only: in the sandbox, not in Composio" in out
        and "  verbose: in the sandbox, not in Composio" in out
    )
    assert "NOTION_UPDATE_BLOCK @ 20260113_00 (unconfirmed in the sandbox): same" in out
    assert out.rstrip().endswith("2 difference(s).")


def test_a_composio_that_matches_passes_and_any_drift_is_named(
    project: Path, services: FakeServices, capsys: pytest.CaptureFixture[str]
) -> None:
    tools = services.composio.tools
    fetch = copy.deepcopy(tools["GMAIL_FETCH_EMAILS"])
    fetch["input"]["properties"].update({"verbose": NEWER, "ids_only": {"type": "boolean", "default": False}})
    services.composio.tools = {**tools, "GMAIL_FETCH_EMAILS": fetch}
    assert main(["tools", "check"]) == 0
    assert capsys.readouterr().out.rstrip().endswith(": 0 difference(s).")

    branch = copy.deepcopy(tools["GITHUB_GET_A_BRANCH"])
    branch["input"]["properties"]["branch_name"] = branch["input"]["properties"].pop("branch")
    branch["input"]["required"] = ["owner", "repo", "branch_name"]
    services.composio.tools = {**services.composio.tools, "GITHUB_GET_A_BRANCH": branch}
    assert main(["tools", "check"]) == 4  # drift: not comparable
    out = capsys.readouterr().out
    assert "  branch_name: in Composio, missing in the sandbox" in out
    assert "  branch: in the sandbox, not in Composio" in out
