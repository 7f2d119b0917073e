"""Where a trial's world lives: the protocol every world backend implements, and the backends by name.

`sandbox` (in-process, deterministic: `evals.world.sandbox.environment`) and `live` (real services:
`evals.world.live`) both give the agent a Composio-shaped toolset (`evals.world.toolset`) and give the
grader the same outcome contract (`evals.world.outcome`), so everything downstream of the world is
backend-agnostic. This module is the world's door: it sits above both and imports each only when it
is asked for by name, so choosing the sandbox never loads the live clients (PyGithub, notion-client,
composio), and no module outside `evals/world/` reaches into either backend.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from evals.core.errors import BadInputError
from evals.scenario.model import Scenario
from evals.world.outcome import Outcome
from evals.world.toolset import Toolset, ToolSpec


class Environment(Protocol):
    """One trial's world: tools for the agent, a snapshot for the grader, cleanup when done."""

    @property
    def toolset(self) -> Toolset: ...

    async def snapshot(self) -> Outcome:
        """The final state, with what the backend seeded recorded on it (`Outcome.seeded`)."""
        ...

    def state(self) -> dict[str, Any] | None:
        """Full world state worth saving with the trial (None when the backend cannot provide it)."""
        ...

    async def close(self) -> None: ...


class Backend(Protocol):
    name: str

    async def create(self, scenario: Scenario, trial: int, run_id: str) -> Environment: ...


def _sandbox() -> Backend:
    from evals.world.sandbox.environment import SandboxBackend

    return SandboxBackend()


def _live() -> Backend:
    """Reads and checks its credentials here, so a bad key exits 2 before a run directory exists.
    Trials share one inbox, so it declares `max_concurrency = 1`, which the runner honours."""
    from evals.world.live.backend import LiveBackend

    return LiveBackend()


BACKENDS: dict[str, Callable[[], Backend]] = {"sandbox": _sandbox, "live": _live}


def make_backend(name: str) -> Backend:
    """The backend named by `--world`; an unknown name is bad input listing the known ones."""
    factory = BACKENDS.get(name)
    if factory is None:
        raise BadInputError(f"--world {name!r}: expected one of {', '.join(sorted(BACKENDS))}")
    return factory()


def tool_catalogue() -> dict[str, ToolSpec]:
    """Every tool a world serves, by Composio slug: both backends offer this one catalogue (the live
    one calls Composio under the same slugs and parameters), so an agent's allowlist and its prompt's
    size are known before any world exists."""
    from evals.world.sandbox.tools.catalogue import build

    return dict(build())


def seeded_sandbox(scenario: Scenario, trial: int) -> Outcome:
    """The sandbox world as seeded for `trial`, as an outcome: what an old outcome file that did not
    record its own seed is compared with (see `GradeContext.seeded`)."""
    from evals.world.sandbox.seed import seed
    from evals.world.sandbox.snapshot import outcome

    return outcome(seed(scenario, trial))
