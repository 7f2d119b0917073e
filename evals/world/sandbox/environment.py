"""The sandbox backend: each trial gets a freshly seeded in-process World (see `evals.world.backend`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from evals.scenario.model import Fault, Scenario
from evals.world.outcome import Outcome
from evals.world.sandbox.model import World
from evals.world.sandbox.seed import seed
from evals.world.sandbox.snapshot import outcome, seeded_state
from evals.world.sandbox.tools.toolset import SandboxToolset
from evals.world.toolset import Toolset


class SandboxEnvironment:
    def __init__(self, world: World, faults: Sequence[Fault] = ()) -> None:
        self.world = world
        self.seeded = seeded_state(world)  # recorded before the agent's first call
        self._toolset = SandboxToolset(world, faults=faults)

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
        return SandboxEnvironment(seed(scenario, trial), scenario.faults)
