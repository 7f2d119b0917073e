"""The sandbox and Composio (over the fakes) answer the same calls in the same shapes.

The same tour of every tool runs on the sandbox and on the live backend's Composio tools (fake
Composio, built from Composio's schemas, over fake GitHub and Notion). Whatever an agent can read in
a sandbox result, at any depth, must be in the live result with the same type, so a prompt or a
replay tuned offline reads the same fields live. The fakes' own answers are checked too: Composio's
output schemas, and GitHub's OpenAPI description.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from evals.cli import main
from evals.scenario.load import load_scenario
from evals.world.live.backend import LiveBackend
from evals.world.live.schema_diff import output_gaps
from evals.world.live.tour import Call, Tour
from evals.world.sandbox.seed import seed
from evals.world.sandbox.tools.toolset import SandboxToolset
from tests.support.fakes import FakeServices
from tests.support.openapi import problems as openapi_problems
from tests.support.paths import ROOT

PERSONA = "sam.rivera@acme.example"


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
        for gap in output_gaps(a.result, b.result)
    ]
    assert gaps == []
    assert services.composio.problems == [], "the fake answered outside Composio's output schemas"
    seen, bad = openapi_problems(services)
    assert bad == [] and "GET /repos/{owner}/{repo}/pulls/{pull_number}/files" in seen
