"""Play one of a scenario's replays in a fresh sandbox world and snapshot what it left.

`calibrate` (the evidence human labels were given on) and `check-scenario` (does each replay grade as
it promises) both need exactly this, outside a run: no run directory, no transcript, trial 0 unless
asked (check-scenario's sweep plays other trials: the trial index changes the world, the repository's
name and every id, and a reference must score full marks in each).
"""

from __future__ import annotations

from pathlib import Path

from evals.agents.base import AgentPrompts
from evals.agents.resolve import resolve_agent
from evals.definition import LoadedScenario
from evals.world.backend import make_backend
from evals.world.outcome import Outcome


async def replay_outcome(
    loaded: LoadedScenario, replay: str, agent_dir: Path, run_id: str, trial: int = 0
) -> Outcome:
    scenario = loaded.scenario
    agent = resolve_agent(f"replay:{replay}", scenario, loaded.folder, agent_dir).make(trial)
    env = await make_backend("sandbox").create(scenario, trial, run_id)
    try:
        prompts = AgentPrompts(
            system=scenario.render(scenario.prompts.system, trial),
            task=scenario.render(scenario.prompts.task, trial),
        )
        await agent(prompts, env.toolset)
        return await env.snapshot()
    finally:
        await env.close()
