"""The sandbox world: a typed, deterministic, JSON-serialisable mailbox, git-like repos and Notion tree.

`seed(scenario, trial) -> World` builds it; tools mutate it; `outcome(world)` snapshots it into the
outcome contract graders read (`evals.outcome`); `evals.world.environment` is the sandbox backend.
"""

from evals.world.model import World
from evals.world.seed import seed
from evals.world.snapshot import outcome

__all__ = ["World", "outcome", "seed"]
