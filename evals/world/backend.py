"""Where a trial's world lives: `sandbox` (in-process, deterministic) or `live` (real services).

Both give the agent a Composio-shaped toolset and give the grader the same Outcome snapshot, so
everything downstream of the world is backend-agnostic.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from evals.scenario.model import Scenario
from evals.tools.base import SandboxToolset, Toolset
from evals.world.model import World
from evals.world.outcome import Outcome, outcome
from evals.world.seed import seed


class Environment(Protocol):
    """One trial's world: tools for the agent, a snapshot for the grader, cleanup when done."""

    @property
    def toolset(self) -> Toolset: ...

    async def snapshot(self) -> Outcome: ...

    def state(self) -> dict[str, Any] | None:
        """Full world state worth saving with the trial (None when the backend cannot provide it)."""
        ...

    async def close(self) -> None: ...


class Backend(Protocol):
    name: str

    async def create(self, scenario: Scenario, trial: int, run_id: str) -> Environment: ...


class SandboxEnvironment:
    def __init__(self, world: World) -> None:
        self.world = world
        self._toolset = SandboxToolset(world)

    @property
    def toolset(self) -> Toolset:
        return self._toolset

    async def snapshot(self) -> Outcome:
        return outcome(self.world)

    def state(self) -> dict[str, Any] | None:
        return self.world.model_dump(mode="json")

    async def close(self) -> None:
        return None


class SandboxBackend:
    name = "sandbox"

    async def create(self, scenario: Scenario, trial: int, run_id: str) -> Environment:
        return SandboxEnvironment(seed(scenario, trial))


def _live() -> Backend:
    """Imported on demand: the live clients (PyGithub, notion-client, composio) load only when used.
    Reads and checks its credentials here, so a bad key exits 2 before a run directory exists.
    Trials share one inbox, so it declares `max_concurrency = 1`, which the runner honours."""
    from evals.live import LiveBackend

    return LiveBackend()


BACKENDS: dict[str, Callable[[], Backend]] = {"sandbox": SandboxBackend, "live": _live}


def make_backend(name: str) -> Backend:
    """The backend named by `--world`; an unknown name is bad input listing the known ones."""
    from evals.errors import BadInputError

    factory = BACKENDS.get(name)
    if factory is None:
        raise BadInputError(f"--world {name!r}: expected one of {', '.join(sorted(BACKENDS))}")
    return factory()
