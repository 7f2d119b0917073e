"""The sandbox backend: each trial gets a freshly seeded in-process World (see `evals.backend`)."""

from __future__ import annotations

from typing import Any

from evals.outcome import Outcome
from evals.scenario.model import Scenario
from evals.tools.base import Toolset
from evals.tools.toolset import SandboxToolset
from evals.world.model import World
from evals.world.seed import seed
from evals.world.snapshot import outcome, seeded_state


class SandboxEnvironment:
    def __init__(self, world: World) -> None:
        self.world = world
        self.seeded = seeded_state(world)  # recorded before the agent's first call
        self._toolset = SandboxToolset(world)

    @property
    def toolset(self) -> Toolset:
        return self._toolset

    async def snapshot(self) -> Outcome:
        return outcome(self.world, self.seeded)

    def state(self) -> dict[str, Any] | None:
        return self.world.model_dump(mode="json")

    async def close(self) -> None:
        return None


class SandboxBackend:
    name = "sandbox"

    async def create(self, scenario: Scenario, trial: int, run_id: str) -> SandboxEnvironment:
        return SandboxEnvironment(seed(scenario, trial))
