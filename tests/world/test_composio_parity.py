"""The sandbox and Composio (over the fakes) answer the same calls in the same shapes.

The same tour of every tool runs on the sandbox and on the live backend's Composio tools (fake
Composio, built from Composio's schemas, over fake GitHub and Notion). Whatever an agent can read in
a sandbox result, at any depth, must be in the live result with the same type, so a prompt or a
replay tuned offline reads the same fields live. The fakes' own answers are checked too: Composio's
output schemas, and GitHub's OpenAPI description.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from pathlib import Path
from typing import Any

from evals.cli import main
from evals.scenario.load import load_scenario
from evals.world.live.backend import LiveBackend
from evals.world.sandbox.seed import seed
from evals.world.sandbox.tools.toolset import SandboxToolset
from tests.support.fakes import FakeServices
from tests.support.openapi import problems as openapi_problems
from tests.support.paths import ROOT
from tests.support.tool_tour import Call, Tour

PERSONA = "sam.rivera@acme.example"


def shape(value: Any, where: str = "", out: dict[str, set[str]] | None = None) -> dict[str, set[str]]:
    """Every path in a JSON value (list items collapsed to []) with the JSON types seen there."""
    out = defaultdict(set) if out is None else out
    out[where].add(type(value).__name__)
    if isinstance(value, dict):
        for key, sub in value.items():
            shape(sub, f"{where}.{key}", out)
    elif isinstance(value, list):
        for item in value:
            shape(item, f"{where}[]", out)
    return out


def missing_live(offline: Any, live: Any) -> list[str]:
    """Paths (and types) the sandbox result has that the live one lacks; null matches any type."""
    ours, theirs = shape(offline), shape(live)
    out = []
    for path, types in sorted(ours.items()):
        if path not in theirs:
            out.append(f"{path}: missing live")
        elif (types - {"NoneType"}) and (theirs[path] - {"NoneType"}) and not (types & theirs[path]):
            out.append(f"{path}: {sorted(types)} offline, {sorted(theirs[path])} live")
    return out


def test_every_tool_answers_live_in_the_shapes_the_sandbox_gives(
    project: Path, services: FakeServices
) -> None:
    scenario = load_scenario(ROOT / "scenario", "trial-run")
    assert main(["seed-inbox", "--scenario", "trial-run"]) == 0

    async def both() -> tuple[list[Call], list[Call]]:
        live = await LiveBackend().create(scenario, 0, "tour")
        try:
            online = await Tour(live.toolset, "acme-ai-labs", "demo-repo-0", PERSONA).run()
        finally:
            await live.close()
        offline = await Tour(SandboxToolset(seed(scenario, 0)), "acme-ai-labs", "demo-repo-0", PERSONA).run()
        return offline, online

    offline, online = asyncio.run(both())
    assert [c.slug for c in offline] == [c.slug for c in online]
    gaps = [
        f"{a.slug} {gap}"
        for a, b in zip(offline, online, strict=True)
        for gap in missing_live(a.result, b.result)
    ]
    assert gaps == []
    assert services.composio.problems == [], "the fake answered outside Composio's output schemas"
    seen, bad = openapi_problems(services)
    assert bad == [] and "GET /repos/{owner}/{repo}/pulls/{pull_number}/files" in seen


def test_the_shape_check_names_what_only_the_sandbox_has() -> None:
    offline = {"data": {"details": [{"name": "main", "sha": "a"}], "diff": "x"}}
    live = {"data": {"details": [{"name": "main", "sha": 1}]}}
    assert missing_live(offline, live) == [
        ".data.details[].sha: ['str'] offline, ['int'] live",
        ".data.diff: missing live",
    ]
