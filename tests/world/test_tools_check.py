"""`python -m evals tools check` against the fake Composio (which serves the committed fixtures:
the pinned docs pages' parameters): every difference from the sandbox is printed, drift exits 1, no
key exits 2; `--outputs` tours every tool live and in the sandbox and records what it saw live."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from evals.cli import main
from evals.world.live.schema_diff import output_gaps, states_null
from tests.support.fakes import FakeServices


def test_without_a_key_it_says_what_it_needs_and_exits_2(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("COMPOSIO_API_KEY", raising=False)
    assert main(["tools", "check"]) == 2
    assert "tools check needs COMPOSIO_API_KEY" in capsys.readouterr().err


def test_a_composio_that_matches_passes_and_any_drift_is_named(
    project: Path, services: FakeServices, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["tools", "check"]) == 0
    out = capsys.readouterr().out
    assert "NOTION_UPDATE_BLOCK @ 20260915_00: same" in out and "GMAIL_SEND_EMAIL @ 20260721_00: same" in out
    assert out.rstrip().endswith(": 0 difference(s).")

    tools = services.composio.tools
    branch = copy.deepcopy(tools["GITHUB_GET_A_BRANCH"])
    branch["input"]["properties"]["branch_name"] = branch["input"]["properties"].pop("branch")
    branch["input"]["required"] = ["owner", "repo", "branch_name"]
    block = copy.deepcopy(tools["NOTION_UPDATE_BLOCK"])
    block["input"]["properties"]["content"] = {"type": "object"}
    services.composio.tools = {**tools, "GITHUB_GET_A_BRANCH": branch, "NOTION_UPDATE_BLOCK": block}
    assert main(["tools", "check"]) == 4  # drift: not comparable
    out = capsys.readouterr().out
    assert "  branch_name: in Composio, missing in the sandbox" in out
    assert "  branch: in the sandbox, not in Composio" in out
    assert "  content: type object in Composio, string in the sandbox" in out
    assert "  known differences: text-like blocks only, as documented" in out, "reported against the table"


def test_null_is_compared_only_where_the_served_schema_speaks_of_it() -> None:
    assert states_null({"properties": {"after": {"anyOf": [{"type": "string"}, {"type": "null"}]}}})
    assert not states_null({"properties": {"after": {"type": "string"}}})
    nested = {"anyOf": [{"type": "object"}, {"type": "null"}]}
    assert not states_null({"properties": {"children": {"type": "array", "items": nested}}}), (
        "parameters only"
    )


def test_outputs_tours_every_tool_live_and_writes_what_it_saw(
    project: Path, services: FakeServices, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["seed-inbox", "--scenario", "trial-run"]) == 0
    fixture = project / "observed.json"
    assert main(["tools", "check", "--outputs", "--fixture", str(fixture)]) == 0
    out = capsys.readouterr().out
    assert "Results of 35 tools compared: 0 difference(s)" in out
    seen = json.loads(fixture.read_text())
    assert seen["toolkit_versions"]["notion"] == "20260915_00"
    rows = seen["tools"]["NOTION_QUERY_DATABASE"]
    assert rows[".data.results[].properties.Status.select.name"] == ["string"]
    assert "sam.rivera" not in fixture.read_text() and "#131" not in fixture.read_text(), "shapes, no values"
    assert services.universe.world.repos == {}, "the live world is removed afterwards"


def test_a_field_only_the_sandbox_gives_is_named() -> None:
    sandbox = {"data": {"details": [{"name": "main", "sha": "a"}], "diff": "x", "size": 1}}
    live = {"data": {"details": [{"name": "main", "sha": 1}], "size": 1.0}}
    assert output_gaps(sandbox, live) == [
        ".data.details[].sha: ['string'] in the sandbox, ['integer'] live",
        ".data.diff: missing live",
    ]
