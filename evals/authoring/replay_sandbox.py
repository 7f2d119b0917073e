"""Play one of a scenario's replays in a fresh sandbox world and snapshot what it left.

`calibrate` (the evidence human labels were given on) and `check-scenario` (does each replay grade as
it promises) both need exactly this, outside a run: no run directory, no transcript, trial 0.
"""

from __future__ import annotations

from pathlib import Path

from evals.agents.base import AgentPrompts
from evals.agents.resolve import resolve_agent
from evals.definition import LoadedScenario
from evals.world.backend import make_backend
from evals.world.outcome import Outcome


async def replay_outcome(loaded: LoadedScenario, replay: str, agent_dir: Path, run_id: str) -> Outcome:
    scenario = loaded.scenario
    agent = resolve_agent(f"replay:{replay}", scenario, loaded.folder, agent_dir).make(0)
    env = await make_backend("sandbox").create(scenario, 0, run_id)
    try:
        prompts = AgentPrompts(
            system=scenario.render(scenario.prompts.system, 0), task=scenario.render(scenario.prompts.task, 0)
        )
        await agent(prompts, env.toolset)
        return await env.snapshot()
    finally:
        await env.close()
