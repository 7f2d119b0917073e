"""Nightshift's reference replay played on a sandbox world, recording every call."""

from __future__ import annotations

import asyncio
from typing import Any

from evals.agents.base import AgentPrompts
from evals.agents.replay import ReplayAgent, load_fixture
from evals.scenario.model import Scenario
from evals.world.sandbox.model import World
from evals.world.sandbox.seed import seed
from evals.world.sandbox.tools.toolset import SandboxToolset
from evals.world.toolset import Envelope
from tests.support.paths import ROOT

FOLDER = ROOT / "scenario" / "nightshift"


class Recorder:
    """A toolset wrapper that keeps every envelope, so the test can require that none failed."""

    def __init__(self, inner: SandboxToolset) -> None:
        self.inner = inner
        self.results: list[tuple[str, Envelope]] = []

    def schemas(self) -> list[dict[str, Any]]:
        return self.inner.schemas()

    async def call(self, slug: str, args: dict[str, Any]) -> Envelope:
        result = await self.inner.call(slug, args)
        self.results.append((slug, result))
        return result


def play(scenario: Scenario, trial: int) -> tuple[World, Recorder]:
    world = seed(scenario, trial)
    recorder = Recorder(SandboxToolset(world))
    variables = {
        "repo": {"owner": scenario.repo.owner, "name": scenario.repo_name(trial)},
        "agent": {"address": scenario.agent_address},
        "persona": {p.id: p.address for p in scenario.personas},
    }
    agent = ReplayAgent(load_fixture(FOLDER, "reference"), "reference", variables)
    asyncio.run(agent(AgentPrompts(system="", task=""), recorder))
    return world, recorder
