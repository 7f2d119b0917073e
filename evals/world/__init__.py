"""The sandbox world: a typed, deterministic, JSON-serialisable mailbox, git-like repos and Notion tree.

`seed(scenario, trial) -> World` builds it; tools mutate it; `outcome(world)` snapshots what graders read.
"""

from evals.world.model import World
from evals.world.outcome import outcome
from evals.world.seed import seed

__all__ = ["World", "outcome", "seed"]
